package extract

import (
	"bytes"
	"sync"

	"golang.org/x/net/html"
)

// tokenizerSlot holds an HTML tokenizer to be used again on the next
// document. x/net/html has no way to reset a Tokenizer, and
// html.NewTokenizer allocates a 4 KiB read buffer (and a map of
// attribute names) each time: on a crawl's pages with a meta tag that
// buffer was most of what reading meta tags allocated. A Tokenizer
// fresh from NewTokenizer is all zero but for its reader, its empty
// buffer and its empty map, so a copy of one (blank) is again a fresh
// tokenizer that reads rd and fills the same buffer: the buffer's bytes
// beyond its length are never read, and the map is cleared at every tag.
// FuzzParseMetaReuse holds the reused tokenizer to a new one per
// document, over runs of documents.
type tokenizerSlot struct {
	rd    bytes.Reader
	blank html.Tokenizer // as html.NewTokenizer(&rd) returned it
	z     html.Tokenizer // the one in use
}

// start returns the slot's tokenizer, fresh, reading data.
func (s *tokenizerSlot) start(data []byte) *html.Tokenizer {
	s.rd.Reset(data)
	s.z = s.blank
	return &s.z
}

// metaState is what one ParseMeta call works with, kept for the next:
// the rules and diagnostics found, and two tokenizers, the document's
// and the one for the content of a <noscript> in the head, which is read
// while the document's tokenizer still holds that content in its buffer.
type metaState struct {
	p     headerParser
	slots [2]tokenizerSlot
	// fresh: use no slot, a new tokenizer for each scan instead, as
	// html.NewTokenizer gives it (the tests' reference).
	fresh bool
}

var metaStatePool = sync.Pool{New: func() any { return newMetaState() }}

func newMetaState() *metaState {
	t := new(metaState)
	for i := range t.slots {
		s := &t.slots[i]
		s.blank = *html.NewTokenizer(&s.rd)
	}
	return t
}

// reset drops t's references to the last document, to the results
// handed out and to any buffer a long token made a tokenizer grow, so
// that a pooled t keeps none of them alive.
func (t *metaState) reset() {
	t.p = headerParser{}
	for i := range t.slots {
		s := &t.slots[i]
		s.rd.Reset(nil)
		s.z = s.blank
	}
}
