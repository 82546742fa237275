package pipeline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
)

// sealedFetches is a sealed batch of n fetch records by ua.
func sealedFetches(n int, ua string) []byte {
	var batch []byte
	for i := range n {
		f := &event.Fetch{Time: time.Date(2025, 1, 1, 0, 0, i, 0, time.UTC), Host: "h.example", Target: "/", UserAgent: ua}
		batch = appendRecord(batch, appendFetchRecord(nil, &record{Kind: kindFetch, Seq: int64(i), Fetch: f}))
	}
	return sealBatch(batch, n)
}

// TestScanFindsHot: a partition is hot once its batches' fetch counts
// reach Min, whatever the order of its batches; every batch goes either
// on as shard 0 (cold) or to the split stage (hot), once, and a hot
// partition's User-Agents are counted.
func TestScanFindsHot(t *testing.T) {
	batches := [][]byte{sealedFetches(3, "A/1"), sealBatch(nil, 0), sealedFetches(4, "B/1"), sealedFetches(2, "A/1")}
	for _, tc := range []struct {
		min int64
		hot bool
	}{{1, true}, {9, true}, {10, false}} {
		fn := &scanFn{Min: tc.min}
		var cold, hot []string
		var uas [][]byte
		emitCold := func(k string, _ []byte) { cold = append(cold, k) }
		emitHot := func(k string, _ []byte) { hot = append(hot, k) }
		emitModel := func(string, []byte) {}
		emitUAs := func(_ string, b []byte) { uas = append(uas, b) }
		fn.StartBundle(emitCold, emitHot, emitModel, emitUAs)
		if err := fn.ProcessElement(context.Background(), "h.example", iterOf(slices.Clone(batches)), emitCold, emitHot, emitModel, emitUAs); err != nil {
			t.Fatal(err)
		}
		fn.FinishBundle(emitCold, emitHot, emitModel, emitUAs)
		if len(cold)+len(hot) != len(batches) {
			t.Errorf("Min %d: %d cold and %d hot batches, want %d in all", tc.min, len(cold), len(hot), len(batches))
		}
		if tc.hot {
			if len(cold) != 0 || len(uas) != 1 {
				t.Fatalf("Min %d: %d cold batches and %d User-Agent counts, want a hot partition", tc.min, len(cold), len(uas))
			}
			var cs []uaCount
			if err := json.Unmarshal(uas[0], &cs); err != nil {
				t.Fatal(err)
			}
			n := map[string]int64{}
			for _, c := range cs {
				n[c.UA] = c.N
			}
			if n["A/1"] != 5 || n["B/1"] != 4 {
				t.Errorf("Min %d: User-Agent counts %v, want A/1 5, B/1 4", tc.min, n)
			}
			continue
		}
		if len(hot) != 0 || len(uas) != 0 || !slices.Equal(cold, []string{"0:h.example", "0:h.example", "0:h.example", "0:h.example"}) {
			t.Errorf("Min %d: cold %q, %d hot, %d counts; want every batch as shard 0", tc.min, cold, len(hot), len(uas))
		}
	}
}

// TestWorldFile: what worldFn writes, readWorld loads: the shared facts
// of every element (merged), the line offsets of each split file.
func TestWorldFile(t *testing.T) {
	t0 := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	var s1, s2 evaluate.Shared
	s1.NoteTimes(t0, t0)
	s2.NoteTimes(t0, t0.Add(time.Hour))
	shared := [][]byte{encode(&s1), encode(&s2)}
	offsets := [][]byte{encode(&lineOffsets{Idx: 2, Offsets: []int64{0, 10, 25}})}
	path := filepath.Join(t.TempDir(), "tmp", "world.json")
	fn := &worldFn{Path: path}
	if err := fn.ProcessElement(context.Background(), nil, iterOf(shared), iterOf(nil), iterOf(offsets), func(string, []byte) {}); err != nil {
		t.Fatal(err)
	}
	w, err := readWorld(context.Background(), &Config{}, path)
	if err != nil {
		t.Fatal(err)
	}
	if !w.shared.Latest.Equal(t0.Add(time.Hour)) {
		t.Errorf("latest time %v, want %v (both elements merged)", w.shared.Latest, t0.Add(time.Hour))
	}
	if got := w.lineOffsets[2]; !slices.Equal(got, []int64{0, 10, 25}) {
		t.Errorf("line offsets of file 2: %v", got)
	}
	if _, err := readWorld(context.Background(), &Config{}, filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("a missing world file: no error")
	}
}
