package evaluate

import (
	"errors"
	"sync"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/inorder"
	"github.com/repaudit/repaudit/table"
)

// Writing the archive's rows (writeArchive) judges every capture twice
// over: as its crawler's fetch (for an unpaired capture, its own fetches
// row) and for retention. On one goroutine that was most of the WARC
// audit's serial tail on many cores (1.3 of the 2.05 s the model's tables
// took on 16 cores, when pass 2 took 0.5). With more than one core the
// captures are judged in batches on GOMAXPROCS workers, and the calling
// goroutine writes the batches' rows in capture order, exactly as the
// serial loop writes them.

// errStopped ends the decoding of captures once the writer has failed.
var errStopped = errors.New("evaluate: stopped")

// archiveBatchSize is how many captures a worker judges at once.
const archiveBatchSize = 256

// archiveRows is what one capture adds to the tables.
type archiveRows struct {
	fetch    bool // the capture's own fetches row and findings (unpaired)
	j        Judgement
	ret      table.Retention
	findings []table.Violation
}

// archiveBatch is a run of captures in order (copies: eachCapture reads
// each spilled capture into the same value), and their rows once judged.
type archiveBatch struct {
	seq  int
	caps []capRec
	rows []archiveRows
}

// judgeArchive fills r with what capture c adds to the tables; aid and f
// are scratch space.
func (m *Model) judgeArchive(c *capRec, r *archiveRows, f *event.Fetch, aid *ident) {
	scheme, hp, target := c.parts()
	a, _ := m.authorityFor(scheme, hp)
	cr := m.crawlerOf(c.src().File) // each capture is its own file's crawler's fetch
	*aid = cr.aid
	var j *Judgement
	r.fetch = false
	if cr.token != "" && (c.recordType() == "response" || c.recordType() == "revisit") {
		*f = event.Fetch{
			Time: c.time(), Method: "GET", Scheme: scheme, Host: hp, Target: target, Status: int(c.status),
			Bytes: -1, Origin: event.OriginWARC, Format: "warc-capture", RecordID: c.recordID(), Source: c.src(),
			TargetURI: c.rawURL(), PayloadDigest: c.digest(), ContentType: c.mime(),
		}
		m.judgeCaptureInto(&r.j, f, aid, captureUsage(c))
		j = &r.j
		if !c.paired() {
			r.fetch = true
			r.j.Fetch.Findings = int32(len(r.j.Violations))
		}
	}
	r.ret, r.findings = m.retention(c, a, target, cr, j)
}

// writeArchiveRows writes r to sink and counts it.
func writeArchiveRows(sink table.Sink, r *archiveRows, counts *archiveCounts) error {
	if r.fetch {
		counts.captureFetches++
		if err := sink.Fetch(&r.j.Fetch); err != nil {
			return err
		}
		for i := range r.j.Violations {
			counts.findings[r.j.Violations[i].Kind]++
			if err := sink.Violation(&r.j.Violations[i]); err != nil {
				return err
			}
		}
	}
	counts.retention[r.ret.Action]++
	if err := sink.Retention(&r.ret); err != nil {
		return err
	}
	for i := range r.findings {
		counts.findings[r.findings[i].Kind]++
		if err := sink.Violation(&r.findings[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeArchiveParallel is writeArchive with the captures judged on
// workers goroutines: one decodes the captures into batches, the workers
// judge them in any order, and the caller writes them back in order.
func (m *Model) writeArchiveParallel(sink table.Sink, counts *archiveCounts, workers int) error {
	todo := make(chan *archiveBatch, workers)
	done := make(chan *archiveBatch, workers)
	stop := make(chan struct{})
	free := sync.Pool{New: func() any { return &archiveBatch{} }}
	var decodeErr error
	go func() { // the decoder
		defer close(todo)
		seq := 0
		b := free.Get().(*archiveBatch)
		send := func() bool {
			b.seq = seq
			seq++
			select {
			case todo <- b:
				b = free.Get().(*archiveBatch)
				b.caps = b.caps[:0]
				return true
			case <-stop:
				return false
			}
		}
		decodeErr = m.eachCapture(func(c *capRec) error {
			b.caps = append(b.caps, *c)
			if len(b.caps) == archiveBatchSize && !send() {
				return errStopped
			}
			return nil
		})
		if decodeErr == nil && len(b.caps) > 0 {
			send()
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var (
				f   event.Fetch
				aid ident
			)
			for b := range todo {
				if cap(b.rows) < len(b.caps) {
					b.rows = make([]archiveRows, len(b.caps))
				}
				b.rows = b.rows[:len(b.caps)]
				for i := range b.caps {
					m.judgeArchive(&b.caps[i], &b.rows[i], &f, &aid)
				}
				select {
				case done <- b:
				case <-stop:
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	err := m.writeInOrder(sink, counts, done, &free)
	close(stop)
	for range done { // let the workers and the decoder end
	}
	if err != nil {
		return err
	}
	return decodeErr
}

// writeInOrder writes the batches from done in sequence order.
func (m *Model) writeInOrder(sink table.Sink, counts *archiveCounts, done <-chan *archiveBatch, free *sync.Pool) error {
	return inorder.Drain(done, func(b *archiveBatch) int { return b.seq }, func(b *archiveBatch) error {
		for i := range b.rows {
			if err := writeArchiveRows(sink, &b.rows[i], counts); err != nil {
				return err
			}
		}
		clear(b.caps)
		b.caps = b.caps[:0]
		free.Put(b)
		return nil
	})
}
