package output

import (
	"encoding/binary"
	mbits "math/bits"
)

// appendRLE appends the encoding of vals at bit width width (0 to 32)
// in the RLE/bit-packed hybrid (Parquet format specification,
// Encodings, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)") to dst,
// choosing its runs exactly as arrow-go v18.4.1's encoder does, so that
// a page's bytes are the ones arrow-go writes (TestIndexPagesMatchArrow,
// FuzzIndexPages; TestRLEDecodes decodes every width). The
// specification leaves the choice of runs to the writer;
// arrow-go's, read from its encoder's behaviour, is:
//
//   - values are taken in groups of 8, the first starting at the first
//     value. A group of 8 equal values starts a repeated run, which goes
//     on as long as the value does: the header ULEB128(count << 1), then
//     the value in ceil(width / 8) little-endian bytes. The next group
//     starts at the next value;
//   - any other group is bit-packed into the literal run being written,
//     whose header ((groups << 1) | 1, one byte: a ULEB128 below 128) is
//     filled in when the run ends: at 63 groups, when a repeated run
//     starts, or at the end;
//   - fewer than 8 values left at the end are a repeated run when no
//     literal run is open and they are all one value; otherwise they are
//     padded with zeros to a group and end the literal run.
//
// Every value must fit the bit width; values are packed from the least
// significant bit, as the specification says.
func appendRLE(dst []byte, vals []int32, width int) []byte {
	r := rleWriter{out: dst, width: width, ind: -1}
	i := 0
	for len(vals)-i >= 8 {
		g := (*[8]int32)(vals[i : i+8])
		if v := g[0]; g[1] == v && g[2] == v && g[3] == v && g[4] == v && g[5] == v && g[6] == v && g[7] == v {
			if r.lit > 0 {
				r.endLiteral()
			}
			j := i + 8
			for j < len(vals) && vals[j] == v {
				j++
			}
			r.run(j-i, v)
			i = j
			continue
		}
		r.pack(g)
		if r.lit/8 >= maxLiteralGroups {
			r.endLiteral()
		}
		i += 8
	}
	switch tail := vals[i:]; {
	case len(tail) > 0 && r.lit == 0 && allEqual(tail):
		r.run(len(tail), tail[0])
	case len(tail) > 0:
		var g [8]int32
		copy(g[:], tail)
		r.pack(&g)
		r.endLiteral()
	case r.lit > 0:
		r.endLiteral()
	}
	return r.out
}

// rleWriter is appendRLE's output and open literal run.
type rleWriter struct {
	out   []byte
	width int
	lit   int // values in the open literal run
	ind   int // offset in out of the open literal run's header, -1 when none
}

// maxLiteralGroups is the most groups of 8 in one of arrow-go's literal
// runs (the header could say 127).
const maxLiteralGroups = 63

// allEqual reports whether the values of v, not empty, are all one.
func allEqual(v []int32) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// pack appends the 8 values of g, bit-packed, to the open literal run,
// opening one if none is. 8 values take width bytes.
func (r *rleWriter) pack(g *[8]int32) {
	if r.ind < 0 {
		r.ind = len(r.out)
		r.out = append(r.out, 0)
	}
	r.lit += 8
	w := uint(r.width)
	v := func(k int) uint64 { return uint64(uint32(g[k])) }
	var b [16]byte
	switch {
	case w <= 8: // one 64-bit word
		binary.LittleEndian.PutUint64(b[:], v(0)|v(1)<<w|v(2)<<(2*w)|v(3)<<(3*w)|
			v(4)<<(4*w)|v(5)<<(5*w)|v(6)<<(6*w)|v(7)<<(7*w))
	case w <= 16: // two halves of 4 values, in two words
		lo := v(0) | v(1)<<w | v(2)<<(2*w) | v(3)<<(3*w)
		hi := v(4) | v(5)<<w | v(6)<<(2*w) | v(7)<<(3*w)
		binary.LittleEndian.PutUint64(b[:], lo|hi<<(4*w)) // a shift by 64 is 0
		binary.LittleEndian.PutUint64(b[8:], hi>>(64-4*w))
	default:
		r.packWide(g)
		return
	}
	r.out = append(r.out, b[:w]...)
}

// packWide is pack for widths over 16.
func (r *rleWriter) packWide(g *[8]int32) {
	var acc uint64
	bits := 0
	for _, v := range g {
		acc |= uint64(uint32(v)) << bits
		bits += r.width
		if bits >= 32 {
			r.out = binary.LittleEndian.AppendUint32(r.out, uint32(acc))
			acc >>= 32
			bits -= 32
		}
	}
	// What is left is whole bytes.
	for ; bits > 0; bits -= 8 {
		r.out = append(r.out, byte(acc))
		acc >>= 8
	}
}

// endLiteral fills in the header of the open literal run.
func (r *rleWriter) endLiteral() {
	r.out[r.ind] = byte(r.lit/8)<<1 | 1
	r.ind, r.lit = -1, 0
}

// run appends a repeated run of n times v.
func (r *rleWriter) run(n int, v int32) {
	r.out = binary.AppendUvarint(r.out, uint64(n)<<1)
	for k := 0; k < (r.width+7)/8; k++ {
		r.out = append(r.out, byte(uint32(v)>>(8*k)))
	}
}

// indexWidth is the bit width of the indices of a dictionary of entries
// entries, as a Parquet dictionary-encoded page records it in its first
// byte: the bits of the largest index, and 1 for a dictionary of one.
func indexWidth(entries int) int {
	switch entries {
	case 0:
		return 0
	case 1:
		return 1
	}
	return mbits.Len32(uint32(entries - 1))
}

// indexPageEstimate is the size arrow-go v18.4.1's dictionary encoder
// estimates for a page of values indices at bit width width, the figure
// its column writer compares with the data page size after each batch
// of values to end a page: one byte for the bit width, the larger of
// ceil(values/8) literal groups with their headers and as many
// shortest repeated runs, and the larger of a longest literal run (512
// values) and a longest repeated run's header and value.
func indexPageEstimate(width, values int) int64 {
	groups := int64((values + 7) / 8)
	w := int64(width)
	most := max(groups+groups*w, groups*(1+(w+7)/8))
	least := max(1+(512*w+7)/8, binary.MaxVarintLen32+(w+7)/8)
	return 1 + most + least
}
