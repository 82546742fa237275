package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/repaudit/repaudit/event"
)

// Fetch records, the bulk of what crosses from the read stage to the
// partitions (one per log line), travel in a compact binary form instead
// of JSON: decoding JSON was a quarter of the pipeline's CPU time on the
// 1M-line corpus. Every other record stays JSON (it starts with '{').
// The fetch itself is package event's record form (event.AppendFetch),
// which carries every field of event.Fetch (its tests check that); this
// file adds only the envelope:
//
//	'F' flags uvarint(file) uvarint(split) varint(seq) event.AppendFetch
const fetchTag = 'F'

const (
	flagModel   = 1 << iota // record.Model
	_                       // was: the fetch's zero time (now in its record)
	_                       // was: Fetch.SignatureRecorded (likewise)
	flagReplica             // record.Replica
	flagsAll    = flagModel | flagReplica
)

// appendFetchRecord appends r (a kindFetch record) in the binary form.
func appendFetchRecord(dst []byte, r *record) []byte {
	var flags byte
	if r.Model {
		flags |= flagModel
	}
	if r.Replica {
		flags |= flagReplica
	}
	dst = append(dst, fetchTag, flags)
	dst = binary.AppendUvarint(dst, uint64(r.File))
	dst = binary.AppendUvarint(dst, uint64(r.Split))
	dst = binary.AppendVarint(dst, r.Seq)
	return event.AppendFetch(dst, r.Fetch)
}

var errBadFetch = errors.New("decode event: bad fetch record")

// fetchRecord is a record with room for its fetch, so that decoding
// one costs one allocation for both.
type fetchRecord struct {
	rec   record
	fetch event.Fetch
}

// decodeFetchRecord decodes a record written by appendFetchRecord.
func decodeFetchRecord(b []byte) (*record, error) {
	if len(b) < 2 || b[0] != fetchTag || b[1]&^flagsAll != 0 {
		return nil, errBadFetch
	}
	flags, i := b[1], 2
	file, n := binary.Uvarint(b[i:])
	if n <= 0 {
		return nil, errBadFetch
	}
	i += n
	split, n := binary.Uvarint(b[i:])
	if n <= 0 {
		return nil, errBadFetch
	}
	i += n
	seq, n := binary.Varint(b[i:])
	if n <= 0 {
		return nil, errBadFetch
	}
	i += n
	fr := &fetchRecord{}
	if err := event.DecodeFetch(b[i:], &fr.fetch); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadFetch, err)
	}
	fr.rec = record{Kind: kindFetch, Model: flags&flagModel != 0, Replica: flags&flagReplica != 0,
		File: int(file), Split: int(split), Seq: seq, Fetch: &fr.fetch}
	return &fr.rec, nil
}
