package audit

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// TestEventPipe: the pipe's goroutine sees every fetch, capture and
// warcinfo in the order given, each a copy that keeps its own header,
// WARC header, WARC-Concurrent-To and body although the reader reuses
// them (as accesslog.Reader and warc.Reader with ReuseRecords do),
// batches recycled included, some of them ended early by large bodies.
func TestEventPipe(t *testing.T) {
	const n = 5*pipeBatch + 17
	var got []any
	p := newEventPipe(pipeTarget{
		fetch: func(f *event.Fetch) { got = append(got, cloneFetch(f)) },
		capture: func(c *event.Capture) {
			got = append(got, cloneCapture(c))
		},
		warcinfo: func(src event.Source, info event.Header) { got = append(got, pipedInfo{src, info}) },
	})
	var f event.Fetch // reused, like a reader's
	var c event.Capture
	hdr := make(event.Header, 0, 4)
	conc := make([]string, 0, 2)
	body := make([]byte, 0, 300<<10)
	var want []any
	for i := range n {
		hdr = append(hdr[:0], event.Field{Name: "User-Agent", Value: fmt.Sprint("bot/", i)})
		if i%3 == 0 {
			hdr = append(hdr, event.Field{Name: "Referer", Value: fmt.Sprint("https://r.example/", i)})
		}
		conc = append(conc[:0], fmt.Sprint("<urn:uuid:", i, ">"))
		switch i % 4 {
		case 0, 1:
			f = event.Fetch{Target: fmt.Sprint("/p", i), UserAgent: fmt.Sprint("bot/", i), Header: hdr, Source: event.Source{Line: int64(i + 1)}}
			if i%5 == 0 {
				f.Header = nil
			}
			if i%7 == 0 {
				f.ConcurrentTo = conc
			}
			want = append(want, cloneFetch(&f))
			p.Fetch(&f)
		case 2:
			// Bodies of every size, some larger than a batch's share.
			body = append(body[:0], bytes.Repeat([]byte{byte(i)}, (i*7919)%(300<<10))...)
			c = event.Capture{URL: fmt.Sprint("https://h.example/", i), Header: hdr, WARCHeader: hdr[:1], ConcurrentTo: conc, Body: body, Source: event.Source{Offset: int64(i)}}
			switch i % 3 {
			case 0:
				c.Body, c.Header = nil, nil
			case 1:
				c.Body, c.WARCHeader = body[:0], event.Header{}
			}
			want = append(want, cloneCapture(&c))
			p.Capture(&c)
		case 3:
			info := event.Header{{Name: "software", Value: fmt.Sprint("crawler/", i)}}
			want = append(want, pipedInfo{event.Source{Offset: int64(i)}, info})
			p.Warcinfo(event.Source{Offset: int64(i)}, info)
		}
	}
	p.end()
	if len(got) != n {
		t.Fatalf("%d events seen, want %d", len(got), n)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func cloneFetch(f *event.Fetch) event.Fetch {
	c := *f
	c.Header = slices.Clone(f.Header)
	c.ConcurrentTo = slices.Clone(f.ConcurrentTo)
	return c
}

func cloneCapture(c *event.Capture) event.Capture {
	k := *c
	k.Header, k.WARCHeader = slices.Clone(c.Header), slices.Clone(c.WARCHeader)
	k.ConcurrentTo, k.Body = slices.Clone(c.ConcurrentTo), slices.Clone(c.Body)
	return k
}

// TestPipelinedLast: the last jobs-1 logs and archives handed out (in
// order of their names: two logs, then the WARC) are read pipelined,
// and the tables are those of -j 1.
func TestPipelinedLast(t *testing.T) {
	tmp := t.TempDir()
	inputs := writeMultiHostCorpus(t, tmp, 5, 2, 3000) // the WARC, then the logs
	warc, logs := inputs[0], inputs[1:]
	var mu sync.Mutex
	var piped []string
	onPipelined = func(p string) { mu.Lock(); piped = append(piped, p); mu.Unlock() }
	defer func() { onPipelined = nil }()
	var outs []string
	for _, jobs := range []int{1, 2, 3} {
		piped = nil
		out := filepath.Join(tmp, fmt.Sprint("j", jobs))
		if _, err := Run(context.Background(), Config{Inputs: inputs, Out: out, Jobs: jobs}); err != nil {
			t.Fatalf("jobs=%d: %v", jobs, err)
		}
		want := map[int][]string{1: nil, 2: {warc}, 3: {logs[1], warc}}[jobs]
		slices.Sort(piped)
		if !reflect.DeepEqual(piped, want) {
			t.Errorf("jobs=%d: pipelined %q, want %q", jobs, piped, want)
		}
		outs = append(outs, out)
	}
	sameTables(t, outs)
}
