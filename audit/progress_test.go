package audit

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestProgress checks the status line, and (under -race) that the
// counters the printing goroutine reads are set before it starts.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	var events atomic.Int64
	p := newProgress(&buf, "reading", 4096, &events)
	events.Add(3)
	p.done.Add(1024)
	// The line is printed every 250ms; wait for at least one.
	time.Sleep(600 * time.Millisecond)
	p.stop()
	out := buf.String()
	for _, want := range []string{"reading: 1.0 KiB / 4.0 KiB", "events/s", ", ETA "} {
		if !strings.Contains(out, want) {
			t.Errorf("progress printed %q, want it to contain %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("progress did not clear its line at stop: %q", out)
	}
}

func TestProgressSilent(t *testing.T) {
	p := newProgress(nil, "reading", 1, nil)
	p.done.Add(1)
	p.stop()
}
