package audit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/table"
)

// TestPipeFetches: the pipelined spooler sees every fetch in order, each
// a copy that keeps its own header although the reader reuses its Fetch
// and Header (as accesslog.Reader does), batches recycled included.
func TestPipeFetches(t *testing.T) {
	const n = 5*pipeBatch + 17
	var got []event.Fetch
	add, end := pipeFetches(func(f *event.Fetch) {
		c := *f
		c.Header = append(event.Header(nil), f.Header...)
		got = append(got, c)
	})
	var f event.Fetch // reused, like a reader's
	hdr := make(event.Header, 0, 4)
	want := make([]event.Fetch, 0, n)
	for i := range n {
		hdr = hdr[:0]
		hdr = append(hdr, event.Field{Name: "User-Agent", Value: fmt.Sprint("bot/", i)})
		if i%3 == 0 {
			hdr = append(hdr, event.Field{Name: "Referer", Value: fmt.Sprint("https://r.example/", i)})
		}
		f = event.Fetch{Target: fmt.Sprint("/p", i), UserAgent: fmt.Sprint("bot/", i), Header: hdr, Source: event.Source{Line: int64(i + 1)}}
		if i%5 == 0 {
			f.Header = nil
		}
		w := f
		w.Header = append(event.Header(nil), f.Header...)
		want = append(want, w)
		add(&f)
	}
	end()
	if len(got) != n {
		t.Fatalf("%d fetches spooled, want %d", len(got), n)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("fetch %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestPipelinedOneLog: with -j 2, one log beside a WARC is read pipelined
// (the WARC is handed out after it), and the tables are those of -j 1.
func TestPipelinedOneLog(t *testing.T) {
	tmp := t.TempDir()
	inputs := writeMultiHostCorpus(t, tmp, 5, 1, 3000) // the WARC, then the log
	inputs = []string{inputs[1], inputs[0]}
	var mu sync.Mutex
	var piped []string
	onPipelined = func(p string) { mu.Lock(); piped = append(piped, p); mu.Unlock() }
	defer func() { onPipelined = nil }()
	var outs []string
	for _, jobs := range []int{1, 2} {
		piped = nil
		out := filepath.Join(tmp, fmt.Sprint("j", jobs))
		if _, err := Run(context.Background(), Config{Inputs: inputs, Out: out, Jobs: jobs}); err != nil {
			t.Fatalf("jobs=%d: %v", jobs, err)
		}
		want := []string(nil)
		if jobs > 1 {
			want = []string{inputs[0]}
		}
		if !reflect.DeepEqual(piped, want) {
			t.Errorf("jobs=%d: pipelined %q, want %q", jobs, piped, want)
		}
		outs = append(outs, out)
	}
	for _, info := range table.Tables {
		a, err := os.ReadFile(filepath.Join(outs[0], info.Name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(outs[1], info.Name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s.parquet differs between -j 1 and a pipelined -j 2", info.Name)
		}
	}
}
