package warc

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
)

var (
	errFrameCut     = errors.New("warc: input ends inside a zstd frame")
	errFrameCorrupt = errors.New("warc: corrupt zstd frame structure")
)

// frameLimiter passes exactly one zstd frame (RFC 8878 §3.1.1) from src
// and then reports io.EOF, so that the streaming decoder stops at the frame
// end and the next frame's stored offset is known. It finds the end by
// walking the frame header and the block headers (§3.1.1.2): block sizes
// are stored, so no decoding is needed.
type frameLimiter struct {
	src    *bufio.Reader
	remain int64 // bytes of the current piece still to pass
	state  int
	check  bool // frame has a content checksum
}

const (
	fsHeader   = iota // next: frame header
	fsBlockHdr        // next: a block header
	fsLastDone        // last block passed; next: checksum or end
	fsEnd
)

func (f *frameLimiter) Read(p []byte) (int, error) {
	for f.remain == 0 {
		switch f.state {
		case fsHeader:
			n, check, err := f.frameHeaderLen()
			if err != nil {
				return 0, err
			}
			f.remain, f.check, f.state = n, check, fsBlockHdr
		case fsBlockHdr:
			b, err := f.src.Peek(3)
			if err != nil {
				return 0, cutErr(err)
			}
			h := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
			last := h&1 == 1
			size := int64(h >> 3)
			switch (h >> 1) & 3 {
			case 0, 2: // raw, compressed: size bytes follow
			case 1: // RLE: one byte follows
				size = 1
			default:
				return 0, errFrameCorrupt
			}
			f.remain = 3 + size
			if last {
				f.state = fsLastDone
			}
		case fsLastDone:
			f.state = fsEnd
			if f.check {
				f.remain = 4
			}
		default:
			return 0, io.EOF
		}
	}
	if int64(len(p)) > f.remain {
		p = p[:f.remain]
	}
	n, err := f.src.Read(p)
	f.remain -= int64(n)
	if err == io.EOF {
		if f.remain > 0 {
			return n, errFrameCut
		}
		err = nil
	}
	return n, err
}

// frameHeaderLen returns the length of the frame header at the start of
// src, magic number included (RFC 8878 §3.1.1.1).
func (f *frameLimiter) frameHeaderLen() (int64, bool, error) {
	b, err := f.src.Peek(5)
	if err != nil {
		return 0, false, cutErr(err)
	}
	if binary.LittleEndian.Uint32(b) != 0xFD2FB528 {
		return 0, false, errFrameCorrupt
	}
	fhd := b[4]
	single := fhd&0x20 != 0
	n := int64(5)
	if !single {
		n++ // Window_Descriptor
	}
	n += [4]int64{0, 1, 2, 4}[fhd&3] // Dictionary_ID
	switch fhd >> 6 {                // Frame_Content_Size
	case 0:
		if single {
			n++
		}
	case 1:
		n += 2
	case 2:
		n += 4
	case 3:
		n += 8
	}
	return n, fhd&4 != 0, nil
}

func cutErr(err error) error {
	if err == io.EOF {
		return errFrameCut
	}
	return err
}
