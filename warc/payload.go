package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/problem"
)

// MaxBodyLimit caps what an Options.BodyLimit function may ask for.
const MaxBodyLimit = 64 << 20

// blockReader reads at most n bytes of the decompressed stream: the rest
// of the current record's block. It keeps the stream's error so the record
// parser can tell a cut or corrupt input from a payload decoding error.
type blockReader struct {
	br  *bufio.Reader
	n   int64
	err error // first error of br, io.EOF included
	// stop, when set, says how many of the next max bytes still belong
	// to the block (Reader.memberLimit): a record in a compression member
	// of its own ends with that member, whatever its Content-Length says.
	// When it says 0, the block ends early with errMemberEnd.
	stop func(max int) int
}

// errMemberEnd means a record's block ran past the end of its own
// compression member into a member that starts a record.
var errMemberEnd = errors.New("warc: block runs past its compression member")

// room returns how many of the next want bytes may be read, setting
// errMemberEnd when none may.
func (b *blockReader) room(want int) int {
	if b.stop == nil || want == 0 {
		return want
	}
	k := b.stop(want)
	if k == 0 {
		b.err = errMemberEnd
	}
	return k
}

func (b *blockReader) reset(br *bufio.Reader, n int64) {
	*b = blockReader{br: br, n: n}
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	if b.err != nil {
		return 0, b.err
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	p = p[:b.room(len(p))]
	if len(p) == 0 {
		return 0, b.err
	}
	k, err := b.br.Read(p)
	b.n -= int64(k)
	if err != nil {
		b.err = err
		if k > 0 {
			err = nil
		} else if err == io.EOF {
			err = io.ErrUnexpectedEOF // the block is shorter than declared
		}
	}
	return k, err
}

// peek returns up to n of the block's next bytes without consuming them.
func (b *blockReader) peek(n int) ([]byte, error) {
	if int64(n) > b.n {
		n = int(b.n)
	}
	if b.err == nil {
		n = b.room(n)
	}
	if b.err == errMemberEnd {
		return nil, b.err
	}
	p, err := b.br.Peek(n)
	if err != nil && b.err == nil && len(p) < n {
		b.err = err
	}
	return p, err
}

// discard skips the rest of the block in buffer-sized steps, calling
// step after each so boundary bookkeeping stays small.
func (b *blockReader) discard(step func()) error {
	for b.n > 0 {
		if b.err != nil {
			return b.err
		}
		want := b.room(int(min(b.n, int64(b.br.Size()))))
		if b.err != nil {
			return b.err
		}
		k, err := b.br.Discard(want)
		b.n -= int64(k)
		step()
		if err != nil {
			b.err = err
			return err
		}
	}
	return nil
}

// chunkedReader removes chunked transfer coding (RFC 9112 §7.1)
// tolerantly: chunk extensions and trailers are ignored, LF alone ends a
// line, and a malformed size line ends the body (reported by the caller).
type chunkedReader struct {
	src  *blockReader
	left int64 // bytes left in the current chunk
	err  error
	// broken says why the chunked coding ended early ("" when it did not).
	broken string
	// needCRLF is set after a chunk's data: its line end comes next.
	needCRLF bool
}

func (c *chunkedReader) reset(src *blockReader) {
	*c = chunkedReader{src: src}
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	for c.left == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.needCRLF {
			c.skipLineEnd()
			c.needCRLF = false
		}
		size, ok := c.sizeLine()
		switch {
		case !ok:
			if c.err == nil {
				c.broken = "malformed chunk size line"
				c.err = io.ErrUnexpectedEOF
			} else if c.src.err == nil {
				c.broken = "payload ends without the last chunk"
			}
			return 0, c.err
		case size == 0:
			c.err = io.EOF
			return 0, io.EOF
		}
		c.left = size
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.src.Read(p)
	c.left -= int64(n)
	if c.left == 0 {
		c.needCRLF = true
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
		c.broken = "payload ends inside a chunk"
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

func (c *chunkedReader) skipLineEnd() {
	b, _ := c.src.peek(2)
	switch {
	case len(b) >= 2 && b[0] == '\r' && b[1] == '\n':
		c.src.br.Discard(2)
		c.src.n -= 2
	case len(b) >= 1 && b[0] == '\n':
		c.src.br.Discard(1)
		c.src.n--
	}
}

// sizeLine reads a chunk-size line: hex digits, optional extensions.
func (c *chunkedReader) sizeLine() (int64, bool) {
	b, err := c.src.peek(256)
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			c.err = err
			if err == io.EOF {
				c.err = io.ErrUnexpectedEOF
			}
		}
		if int64(len(b)) == c.src.n && len(b) < 256 {
			c.err = io.ErrUnexpectedEOF // block ends inside the size line
		}
		return 0, false
	}
	size, ok := parseChunkSize(b[:i])
	c.src.br.Discard(i + 1)
	c.src.n -= int64(i + 1)
	return size, ok
}

// parseChunkSize parses the hex chunk size at the start of a size line.
func parseChunkSize(line []byte) (int64, bool) {
	line = bytes.TrimRight(line, "\r")
	line = bytes.TrimLeft(line, " \t")
	var size int64
	n := 0
	for _, c := range line {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			goto end
		}
		if size > 1<<55 {
			return 0, false
		}
		size = size<<4 | int64(d)
		n++
	}
end:
	if n == 0 {
		return 0, false
	}
	rest := bytes.TrimLeft(line[n:], " \t")
	if len(rest) > 0 && rest[0] != ';' {
		return 0, false
	}
	return size, true
}

// decoders holds reusable content decoders.
type decoders struct {
	pbuf  *bufio.Reader
	gz    *gzip.Reader
	zl    io.ReadCloser
	fl    io.ReadCloser
	brot  *brotli.Reader
	zd    *zstd.Decoder
	chunk chunkedReader
}

// payloadResult describes what readPayload did.
type payloadResult struct {
	body      []byte
	truncated bool
	code      problem.Code // a problem to report, "" for none
	msg       string
}

// readPayload reads up to limit bytes of the payload that blk holds into
// buf, removing the transfer codings te and content codings ce. The
// stream's own errors are left in blk.err for the caller.
func (d *decoders) readPayload(blk *blockReader, buf []byte, limit int, te, ce []string) payloadResult {
	var res payloadResult
	var src io.Reader = blk
	dechunk := false
	chunked := len(te) > 0 && te[len(te)-1] == "chunked"
	if chunked {
		te = te[:len(te)-1]
		first, _ := blk.peek(64)
		if _, ok := parseChunkSize(firstLine(first)); !ok || bytes.IndexByte(first, '\n') < 0 && len(first) == 64 {
			res.code, res.msg = CodeNotChunked, "header says chunked transfer coding but the payload is not chunked; taken as is"
		} else {
			d.chunk.reset(blk)
			src = &d.chunk
			dechunk = true
		}
	}
	// Transfer codings other than chunked apply before content codings.
	all := append(ce[:len(ce):len(ce)], te...)
	exact := !chunked && len(all) == 0 // payload length known
	if len(all) > 1 {
		res.code, res.msg = CodeUnknownCoding, fmt.Sprintf("several content codings (%v); body left encoded", all)
	} else if len(all) == 1 {
		dec, code, msg := d.decoder(src, all[0])
		if code != "" {
			res.code, res.msg = code, msg
		}
		src = dec
	}
	want := limit + 1
	if exact {
		want = int(min(int64(limit), blk.n))
	}
	body, err := readUpTo(src, buf[:0], want)
	if len(body) > limit {
		body = body[:limit]
		res.truncated = true
	}
	if exact && blk.n > 0 && len(body) == limit {
		res.truncated = true
	}
	if err != nil && err != io.EOF {
		res.truncated = true
		if blk.err == nil || blk.err == io.EOF && blk.n == 0 {
			switch {
			case dechunk && d.chunk.broken != "":
				res.code, res.msg = CodeBadChunk, "chunked transfer coding broken: "+d.chunk.broken+"; body kept up to it"
			case res.code == "":
				res.code, res.msg = CodeDecode, fmt.Sprintf("payload decoding stopped: %v; body kept up to it", err)
			}
		}
	}
	res.body = body
	return res
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// readUpTo reads from r into buf until it holds want bytes or r ends.
func readUpTo(r io.Reader, buf []byte, want int) ([]byte, error) {
	if cap(buf) < want {
		buf = make([]byte, 0, min(want, max(2*cap(buf), 32<<10)))
	}
	for len(buf) < want {
		if len(buf) == cap(buf) {
			nb := make([]byte, len(buf), min(want, 2*cap(buf)))
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), want)])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// decoder returns a reader removing content coding c from src. When the
// payload does not carry the coding the header names (some writers store
// decoded payloads under the original header), src is returned as is with
// an informational problem.
func (d *decoders) decoder(src io.Reader, c string) (io.Reader, problem.Code, string) {
	if d.pbuf == nil {
		d.pbuf = bufio.NewReaderSize(src, 32<<10)
	} else {
		d.pbuf.Reset(src)
	}
	magic, _ := d.pbuf.Peek(4)
	notEncoded := func() (io.Reader, problem.Code, string) {
		return d.pbuf, CodeNotEncoded, fmt.Sprintf("header names content coding %q but the payload does not have it; taken as is", c)
	}
	switch c {
	case "gzip", "x-gzip":
		if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			return notEncoded()
		}
		if d.gz == nil {
			d.gz = new(gzip.Reader)
		}
		if err := d.gz.Reset(d.pbuf); err != nil {
			return d.pbuf, CodeDecode, fmt.Sprintf("gzip content coding: %v; body left encoded", err)
		}
		return d.gz, "", ""
	case "deflate":
		// RFC 9110 §8.4.1.2 says zlib; many servers send raw deflate.
		if len(magic) >= 2 && magic[0]&0x0f == 8 && (uint16(magic[0])<<8|uint16(magic[1]))%31 == 0 {
			var err error
			if d.zl == nil {
				d.zl, err = zlib.NewReader(d.pbuf)
			} else {
				err = d.zl.(zlib.Resetter).Reset(d.pbuf, nil)
			}
			if err != nil {
				return d.pbuf, CodeDecode, fmt.Sprintf("deflate content coding: %v; body left encoded", err)
			}
			return d.zl, "", ""
		}
		if d.fl == nil {
			d.fl = flate.NewReader(d.pbuf)
		} else {
			d.fl.(flate.Resetter).Reset(d.pbuf, nil)
		}
		return d.fl, "", ""
	case "br":
		if d.brot == nil {
			d.brot = brotli.NewReader(d.pbuf)
		} else {
			d.brot.Reset(d.pbuf)
		}
		return d.brot, "", ""
	case "zstd":
		if len(magic) < 4 || !isZstdMagic(magic) {
			return notEncoded()
		}
		if d.zd == nil {
			zd, err := zstd.NewReader(nil, decompress.ZstdOptions()...)
			if err != nil {
				return d.pbuf, CodeDecode, fmt.Sprintf("zstd content coding: %v; body left encoded", err)
			}
			d.zd = zd
		}
		if err := d.zd.Reset(d.pbuf); err != nil {
			return d.pbuf, CodeDecode, fmt.Sprintf("zstd content coding: %v; body left encoded", err)
		}
		return d.zd, "", ""
	}
	return d.pbuf, CodeUnknownCoding, fmt.Sprintf("content coding %q not supported; body left encoded", c)
}

func (d *decoders) close() {
	if d.zd != nil {
		d.zd.Close()
	}
}
