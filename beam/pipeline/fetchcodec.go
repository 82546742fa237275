package pipeline

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"time"

	"github.com/repaudit/repaudit/event"
)

// Fetch records, the bulk of what crosses from the read stage to the
// partitions (one per log line), travel in a compact binary form instead
// of JSON: decoding JSON was a quarter of the pipeline's CPU time on the
// 1M-line corpus. Every other record stays JSON (it starts with '{').
// TestFetchCodecCarriesEveryField fails when event.Fetch gains a field
// this codec does not carry.
//
//	'F' flags uvarint(file) uvarint(split) varint(seq)
//	varint(unix seconds) uvarint(nanoseconds)       time (flag: zero)
//	bytes(ClientIP.MarshalBinary)
//	str(ForwardedFor) str(Method) str(Scheme) str(Host) str(Target)
//	varint(Status) varint(Bytes) str(UserAgent) str(Referer)
//	uvarint(n+1, 0 = nil) n × (str(Name) str(Value))  Header
//	uvarint(n+1, 0 = nil) bytes                       Body
//	str(CDNVerifiedBot) str(Origin) str(Format) str(RecordID)
//	uvarint(n+1, 0 = nil) n × str                     ConcurrentTo
//	str(TargetURI) str(PayloadDigest) str(ContentType)
//	str(File) varint(Line) varint(Offset) varint(Length)  Source
//
// where str and bytes are uvarint(length) then the bytes.
const fetchTag = 'F'

const (
	flagModel     = 1 << iota // record.Model
	flagZeroTime              // Fetch.Time is the zero time
	flagSigRecord             // Fetch.SignatureRecorded
	flagReplica               // record.Replica
)

// appendFetchRecord appends r (a kindFetch record) in the binary form.
func appendFetchRecord(dst []byte, r *record) []byte {
	f := r.Fetch
	var flags byte
	if r.Model {
		flags |= flagModel
	}
	if r.Replica {
		flags |= flagReplica
	}
	if f.Time.IsZero() {
		flags |= flagZeroTime
	}
	if f.SignatureRecorded {
		flags |= flagSigRecord
	}
	dst = append(dst, fetchTag, flags)
	dst = binary.AppendUvarint(dst, uint64(r.File))
	dst = binary.AppendUvarint(dst, uint64(r.Split))
	dst = binary.AppendVarint(dst, r.Seq)
	if !f.Time.IsZero() {
		dst = binary.AppendVarint(dst, f.Time.Unix())
		dst = binary.AppendUvarint(dst, uint64(f.Time.Nanosecond()))
	}
	ip, _ := f.ClientIP.MarshalBinary() // never fails
	dst = appendBytes(dst, ip)
	dst = appendStr(dst, f.ForwardedFor)
	dst = appendStr(dst, f.Method)
	dst = appendStr(dst, f.Scheme)
	dst = appendStr(dst, f.Host)
	dst = appendStr(dst, f.Target)
	dst = binary.AppendVarint(dst, int64(f.Status))
	dst = binary.AppendVarint(dst, f.Bytes)
	dst = appendStr(dst, f.UserAgent)
	dst = appendStr(dst, f.Referer)
	dst = appendLen(dst, f.Header == nil, len(f.Header))
	for _, h := range f.Header {
		dst = appendStr(dst, h.Name)
		dst = appendStr(dst, h.Value)
	}
	dst = appendLen(dst, f.Body == nil, len(f.Body))
	dst = append(dst, f.Body...)
	dst = appendStr(dst, f.CDNVerifiedBot)
	dst = appendStr(dst, f.Origin)
	dst = appendStr(dst, f.Format)
	dst = appendStr(dst, f.RecordID)
	dst = appendLen(dst, f.ConcurrentTo == nil, len(f.ConcurrentTo))
	for _, c := range f.ConcurrentTo {
		dst = appendStr(dst, c)
	}
	dst = appendStr(dst, f.TargetURI)
	dst = appendStr(dst, f.PayloadDigest)
	dst = appendStr(dst, f.ContentType)
	dst = appendStr(dst, f.Source.File)
	dst = binary.AppendVarint(dst, f.Source.Line)
	dst = binary.AppendVarint(dst, f.Source.Offset)
	dst = binary.AppendVarint(dst, f.Source.Length)
	return dst
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// appendLen writes the length of a slice that may be nil: n+1, or 0 for nil.
func appendLen(dst []byte, isNil bool, n int) []byte {
	if isNil {
		return append(dst, 0)
	}
	return binary.AppendUvarint(dst, uint64(n)+1)
}

var errBadFetch = errors.New("decode event: bad fetch record")

// fetchReader reads the binary form. Its strings are substrings of one
// copy of the record, so a fetch costs one string allocation.
type fetchReader struct {
	b   []byte
	s   string // the same bytes as b
	pos int
	err error
}

func (r *fetchReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.pos:])
	if n <= 0 {
		r.err = errBadFetch
		return 0
	}
	r.pos += n
	return v
}

func (r *fetchReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.pos:])
	if n <= 0 {
		r.err = errBadFetch
		return 0
	}
	r.pos += n
	return v
}

// span returns the bounds of the next n bytes.
func (r *fetchReader) span(n uint64) (int, int) {
	if r.err != nil {
		return 0, 0
	}
	if n > uint64(len(r.b)-r.pos) {
		r.err = errBadFetch
		return 0, 0
	}
	i := r.pos
	r.pos += int(n)
	return i, r.pos
}

func (r *fetchReader) str() string {
	i, j := r.span(r.uvarint())
	return r.s[i:j]
}

// count reads a slice length written by appendLen: -1 for nil. A count
// larger than the bytes left cannot be right (every element takes one
// byte at least).
func (r *fetchReader) count() int {
	n := r.uvarint()
	if r.err != nil || n == 0 {
		return -1
	}
	if n-1 > uint64(len(r.b)-r.pos) {
		r.err = errBadFetch
		return -1
	}
	return int(n - 1)
}

// decodeFetchRecord decodes a record written by appendFetchRecord.
func decodeFetchRecord(b []byte) (*record, error) {
	if len(b) < 2 || b[0] != fetchTag {
		return nil, errBadFetch
	}
	r := &fetchReader{b: b, s: string(b), pos: 2}
	flags := b[1]
	rec := &record{Kind: kindFetch, Model: flags&flagModel != 0, Replica: flags&flagReplica != 0, Fetch: &event.Fetch{}}
	rec.File = int(r.uvarint())
	rec.Split = int(r.uvarint())
	rec.Seq = r.varint()
	f := rec.Fetch
	if flags&flagZeroTime == 0 {
		sec := r.varint()
		nsec := r.uvarint()
		if nsec >= 1e9 {
			r.err = errBadFetch
		}
		f.Time = time.Unix(sec, int64(nsec)).UTC()
	}
	f.SignatureRecorded = flags&flagSigRecord != 0
	if i, j := r.span(r.uvarint()); r.err == nil && j > i {
		var ip netip.Addr
		if err := ip.UnmarshalBinary(b[i:j]); err != nil {
			return nil, errBadFetch
		}
		f.ClientIP = ip
	}
	f.ForwardedFor = r.str()
	f.Method = r.str()
	f.Scheme = r.str()
	f.Host = r.str()
	f.Target = r.str()
	f.Status = int(r.varint())
	f.Bytes = r.varint()
	f.UserAgent = r.str()
	f.Referer = r.str()
	if n := r.count(); n >= 0 {
		f.Header = make(event.Header, 0, n)
		for range n {
			name := r.str()
			value := r.str()
			if r.err != nil {
				break
			}
			f.Header = append(f.Header, event.Field{Name: name, Value: value})
		}
	}
	if n := r.count(); n >= 0 {
		i, j := r.span(uint64(n))
		f.Body = append([]byte{}, b[i:j]...)
	}
	f.CDNVerifiedBot = r.str()
	f.Origin = r.str()
	f.Format = r.str()
	f.RecordID = r.str()
	if n := r.count(); n >= 0 {
		f.ConcurrentTo = make([]string, 0, n)
		for range n {
			c := r.str()
			if r.err != nil {
				break
			}
			f.ConcurrentTo = append(f.ConcurrentTo, c)
		}
	}
	f.TargetURI = r.str()
	f.PayloadDigest = r.str()
	f.ContentType = r.str()
	f.Source.File = r.str()
	f.Source.Line = r.varint()
	f.Source.Offset = r.varint()
	f.Source.Length = r.varint()
	if r.err != nil {
		return nil, r.err
	}
	if r.pos != len(b) {
		return nil, errBadFetch
	}
	return rec, nil
}
