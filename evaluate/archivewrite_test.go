package evaluate

import (
	"errors"
	"reflect"
	"runtime"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/table"
)

// archiveScenario is an archive of 1,500 captures on 30 hosts (several
// batches of archiveBatchSize): robots.txt versions, pages with and
// without robots directives and usage headers, and captures a crawler's
// robots.txt disallowed, so that the archive rows carry fetches rows,
// findings and every retention action.
func archiveScenario(t *testing.T) *Model {
	t.Helper()
	s := newScenario(t)
	s.opts.ArchiveAgent = "CCBot"
	s.opts.AsOf = days(60)
	for h := range 30 {
		host := "https://h" + itoa(h) + ".example"
		s.robots(host+"/robots.txt", days(0), 200, "User-agent: CCBot\nDisallow: /private/\n")
		for p := range 49 {
			at := days(1 + float64(p)/10)
			switch p % 5 {
			case 0:
				s.capture(host+"/private/"+itoa(p), at, 200, "<html><body>x</body></html>")
			case 1:
				s.capture(host+"/page/"+itoa(p), at, 200, "<html><head><meta name=\"robots\" content=\"noarchive\"></head></html>")
			case 2:
				s.capture(host+"/page/"+itoa(p), at, 200, "<html></html>", "X-Robots-Tag", "unavailable_after: 2025-04-01")
			default:
				s.capture(host+"/page/"+itoa(p), at, 200, "<html></html>")
			}
		}
	}
	b := NewBuilder(s.opts, bots.Default(), s.ids)
	for _, c := range s.caps {
		b.AddCapture(c)
	}
	return b.Build()
}

// TestWriteArchiveParallelSameRows: the archive's rows judged on several
// workers (writeArchiveParallel) are those the serial loop writes, in the
// same order.
func TestWriteArchiveParallelSameRows(t *testing.T) {
	m := archiveScenario(t)
	defer m.Close()
	write := func(procs int) *table.Collector {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		out := &table.Collector{}
		if err := m.WriteTables(out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := write(1)
	if len(want.Retentions) < 3*archiveBatchSize || len(want.Fetches) == 0 || len(want.Violations) == 0 {
		t.Fatalf("the scenario is too small: %d retention, %d fetches, %d violations rows",
			len(want.Retentions), len(want.Fetches), len(want.Violations))
	}
	for _, procs := range []int{2, 5} {
		if got := write(procs); !reflect.DeepEqual(got, want) {
			t.Errorf("GOMAXPROCS %d: the archive's rows differ from the serial loop's (%d/%d retention, %d/%d fetches, %d/%d violations)",
				procs, len(got.Retentions), len(want.Retentions), len(got.Fetches), len(want.Fetches), len(got.Violations), len(want.Violations))
		}
	}
}

// retentionFails fails on its n-th retention row.
type retentionFails struct {
	table.Collector
	n int
}

var errRetention = errors.New("retention table full")

func (s *retentionFails) Retention(r *table.Retention) error {
	if s.n--; s.n == 0 {
		return errRetention
	}
	return s.Collector.Retention(r)
}

// TestWriteArchiveParallelStops: a sink that fails stops the workers and
// the decoder, and its error is returned, with the rows before it written.
func TestWriteArchiveParallelStops(t *testing.T) {
	m := archiveScenario(t)
	defer m.Close()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	sink := &retentionFails{n: archiveBatchSize + 7}
	if err := m.WriteTables(sink); !errors.Is(err, errRetention) {
		t.Fatalf("WriteTables = %v, want the sink's error", err)
	}
	if got := len(sink.Retentions); got != archiveBatchSize+6 {
		t.Errorf("%d retention rows written before the failure, want %d", got, archiveBatchSize+6)
	}
}
