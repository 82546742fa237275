package audit

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// progress prints a throttled one-line status to a terminal: files' bytes
// done, events per second and an estimate of the time left.
type progress struct {
	w      io.Writer
	label  string
	total  int64
	done   atomic.Int64
	events *atomic.Int64
	quit   chan struct{}
	wg     sync.WaitGroup
	start  time.Time
}

// newProgress starts the status line. events, which may be nil, counts the
// events read; it is set here, before the printing goroutine starts, as
// every field that goroutine reads without a lock.
func newProgress(w io.Writer, label string, total int64, events *atomic.Int64) *progress {
	p := &progress{w: w, label: label, total: total, events: events, quit: make(chan struct{}), start: time.Now()}
	if w == nil {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-tick.C:
				p.print()
			}
		}
	}()
	return p
}

func (p *progress) print() {
	el := time.Since(p.start).Seconds()
	done := p.done.Load()
	var ev int64
	if p.events != nil {
		ev = p.events.Load()
	}
	line := fmt.Sprintf("%s: %s / %s, %.0f events/s", p.label, bytesHuman(done), bytesHuman(p.total), float64(ev)/max(el, 1e-9))
	if done > 0 && p.total > done {
		left := time.Duration(el * float64(p.total-done) / float64(done) * float64(time.Second))
		line += ", ETA " + left.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
}

func (p *progress) stop() {
	if p.w == nil {
		return
	}
	close(p.quit)
	p.wg.Wait()
	fmt.Fprint(p.w, "\r\033[K")
}

func bytesHuman(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
