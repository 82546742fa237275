package evaluate

import (
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/extract"
	"github.com/repaudit/repaudit/problem"
)

// capEmbargo is what a capture's Archive-Embargo header
// (draft-nottingham-archive-embargo) says: a period during which an
// archive shows only a tombstone of the capture (URL, headers, digest),
// counted from the earlier of its Last-Modified and when the URL was
// first seen.
type capEmbargo struct {
	days    int32     // 7, 31 or 90; 0 when the value was not understood
	lastMod time.Time // Last-Modified of the response; zero when absent or unreadable
	value   string    // the field value as read (at most extract.MaxEmbargoBytes)
	diag    string    // why the value was not read as written; "" when it was
}

// embargoHeader reads the Archive-Embargo field of a response; nil when
// it has none.
func embargoHeader(h event.Header) *capEmbargo {
	e, ok, err := extract.ParseArchiveEmbargo(h.Values("Archive-Embargo"))
	if !ok {
		return nil
	}
	ce := &capEmbargo{days: int32(e.Days), value: e.Value}
	if err != nil {
		ce.diag = err.Error()
	}
	if lm := h.Get("Last-Modified"); lm != "" {
		if t, perr := http.ParseTime(lm); perr == nil {
			ce.lastMod = t.UTC()
		}
	}
	return ce
}

// encode appends the spill coding of e: a 0 when nil, else 1, the days,
// Last-Modified (seconds, 0 when zero), the value and the diagnostic.
func (e *capEmbargo) encode(b []byte) []byte {
	if e == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(e.days))
	var lm int64
	if !e.lastMod.IsZero() {
		lm = e.lastMod.Unix()
	}
	b = binary.AppendVarint(b, lm)
	for _, s := range []string{e.value, e.diag} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// embargo reads back what encode wrote.
func (d *capDecoder) embargo() (*capEmbargo, error) {
	has, e := d.r.ReadByte()
	if e != nil {
		return nil, fmt.Errorf("capture spill file: %w", e)
	}
	if has == 0 {
		return nil, nil
	}
	ce := &capEmbargo{days: int32(d.uv())}
	if lm := d.sv(); lm != 0 {
		ce.lastMod = time.Unix(lm, 0).UTC()
	}
	for _, s := range []*string{&ce.value, &ce.diag} {
		n := d.uv()
		if d.err != nil || n > 1<<16 {
			return nil, errCapSpill
		}
		b := make([]byte, n)
		if _, e := io.ReadFull(d.r, b); e != nil {
			return nil, fmt.Errorf("capture spill file: %w", e)
		}
		*s = string(b)
	}
	return ce, nil
}

// embargoProblems reports each Archive-Embargo value that was not read as
// written, at its capture.
func (m *Model) embargoProblems() {
	for _, c := range m.captures {
		if c.emb() != nil && c.emb().diag != "" {
			m.problem(c.src(), problem.ArchiveEmbargoMalformed, event.SevWarning,
				c.rawURL()+": "+c.emb().diag+" (value "+strconv.Quote(c.emb().value)+")")
		}
	}
}

// archiveEmbargo applies the capture's Archive-Embargo: an embargo from
// the earlier of Last-Modified and the URL's first capture in the inputs
// for the period, then keep once it has passed as of AsOf.
func (rj *retentionJudge) archiveEmbargo() {
	c, asOf := rj.c, rj.m.opts.AsOf
	e := c.emb()
	if e == nil || e.days == 0 {
		return
	}
	start, from := c.time(), "this capture"
	if list := rj.m.capsOf(c.url()); len(list) > 0 && list[0].time().Before(start) {
		start, from = list[0].time(), "the first capture of the URL in the inputs ("+list[0].src().String()+")"
	}
	if !e.lastMod.IsZero() && e.lastMod.Before(start) {
		start, from = e.lastMod, "its Last-Modified"
	}
	end := start.Add(time.Duration(e.days) * 24 * time.Hour)
	ev := "Archive-Embargo: " + e.value + " on " + rj.where() + ": " + strconv.Itoa(int(e.days)) +
		" days from " + fmtTime(start) + " (" + from + "), until " + fmtTime(end)
	if end.After(asOf) {
		rj.reason(retReason{action: ActionEmbargo, reason: ReasonArchiveEmbargo, due: start,
			evidence: ev + ": show only a tombstone (URL, headers, digest) as of " + fmtTime(asOf)})
		return
	}
	rj.reason(retReason{action: ActionKeep, reason: ReasonArchiveEmbargo,
		evidence: ev + ", passed as of " + fmtTime(asOf)})
}
