package output

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/repaudit/repaudit/table"
)

// loadRows reads up to n rows of a table written by this package (or any
// Parquet file with the same column names) back into row structs, so a
// benchmark can write real rows again. The strings of dictionary columns
// (kDict: hosts, agents, User-Agents, files) are interned, as pass 2 hands
// them over (the spool reader and the judge share them) and so that a
// benchmark does not need gigabytes to hold them; the other string columns
// (URLs, client addresses) get a string of their own per row, as pass 2
// builds them per fetch, unless REPAUDIT_BENCH_INTERN_ALL is set.
func loadRows[T any](tb testing.TB, name, path string, n int) []T {
	tb.Helper()
	var spec *tableSpec
	for _, info := range table.Tables {
		if info.Name == name {
			s, err := specFor(info)
			if err != nil {
				tb.Fatal(err)
			}
			spec = s
		}
	}
	intern := make(map[string]string)
	internAll := os.Getenv("REPAUDIT_BENCH_INTERN_ALL") != ""
	str := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		intern[s] = s
		return s
	}
	var out []T
	readGroups(tb, path, func(g *readBack) bool {
		cols := make([][]any, len(spec.Cols))
		for i, c := range spec.Cols {
			cols[i] = g.col(tb, c.Name)
		}
		for r := 0; r < int(g.rows) && len(out) < n; r++ {
			var row T
			v := reflect.ValueOf(&row).Elem()
			for i, c := range spec.Cols {
				f := v.Field(c.Field)
				switch x := cols[i][r].(type) {
				case string:
					if c.kind == kDict || internAll {
						x = str(x)
					} else {
						x = strings.Clone(x)
					}
					f.SetString(x)
				case bool:
					f.SetBool(x)
				case int64:
					f.SetInt(x)
				case float64:
					f.SetFloat(x)
				case *time.Time:
					if x == nil { // null
						continue
					}
					if c.kind == kTimePtr {
						f.Set(reflect.ValueOf(x))
					} else {
						f.Set(reflect.ValueOf(*x))
					}
				default:
					tb.Fatalf("%s: column %s: unexpected cell %T", path, c.Name, x)
				}
			}
			out = append(out, row)
		}
		return len(out) < n
	})
	return out
}

// liveHeap is the live heap as of the last garbage collection.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriteRealFetches writes real fetches rows again: set
// REPAUDIT_BENCH_FETCHES to the fetches.parquet of an audit (for example of
// a corpus made by beam/cmd/repaudit-corpus). It loads up to
// REPAUDIT_BENCH_ROWS distinct rows (default 262144) and writes
// REPAUDIT_BENCH_WRITE rows (default 1048576) cycling through them, and
// reports (REPAUDIT_BENCH_RG_BYTES sets Options.RowGroupBytes) process CPU time per row (both the appending and the encoding
// goroutine count), rows per CPU-second, file bytes per row and the
// writer's peak live heap. Without the
// variable it is skipped: the repository holds no audit of that size.
func BenchmarkWriteRealFetches(b *testing.B) {
	benchWriteReal(b, "fetches", "REPAUDIT_BENCH_FETCHES", func(w *Writer, r *table.Fetch) error { return w.Fetch(r) })
}

// BenchmarkWriteRealViolations is BenchmarkWriteRealFetches for the
// violations table: set REPAUDIT_BENCH_VIOLATIONS to a violations.parquet.
// Its rows carry long evidence strings (about 500 bytes on a log audit),
// written plain.
func BenchmarkWriteRealViolations(b *testing.B) {
	benchWriteReal(b, "violations", "REPAUDIT_BENCH_VIOLATIONS", func(w *Writer, r *table.Violation) error { return w.Violation(r) })
}

func benchWriteReal[T any](b *testing.B, name, env string, add func(*Writer, *T) error) {
	path := os.Getenv(env)
	if path == "" {
		b.Skip(env + " not set")
	}
	envInt := func(k string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
			return v
		}
		return def
	}
	rows := loadRows[T](b, name, path, envInt("REPAUDIT_BENCH_ROWS", 256<<10))
	n := envInt("REPAUDIT_BENCH_WRITE", 1<<20)
	b.ReportAllocs()
	var cpu time.Duration
	var size, peak int64
	for b.Loop() {
		dir := filepath.Join(b.TempDir(), "o")
		runtime.GC()
		live0 := liveHeap()
		c0 := cpuTime()
		w, err := Create(dir, Options{RowGroupBytes: envInt("REPAUDIT_BENCH_RG_BYTES", 0)})
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			if err := add(w, &rows[i%len(rows)]); err != nil {
				b.Fatal(err)
			}
			if i%8192 == 0 {
				peak = max(peak, liveHeap()-live0)
			}
		}
		if err := w.Commit(nil); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		fi, err := os.Stat(filepath.Join(dir, name+".parquet"))
		if err != nil {
			b.Fatal(err)
		}
		size = fi.Size()
		if out := os.Getenv("REPAUDIT_BENCH_OUT"); out != "" {
			data, err := os.ReadFile(filepath.Join(dir, name+".parquet"))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	total := float64(n) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(total/cpu.Seconds(), "rows/cpu-s")
	b.ReportMetric(float64(size)/float64(n), "bytes/row")
	// The writer's share of the heap: the most the live heap (as of the
	// last collection) grew over what it was before Create.
	b.ReportMetric(float64(peak)/(1<<20), "peak-live-MiB")
}
