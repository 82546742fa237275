package inspect

import (
	"context"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/accesslog"
)

func TestReadAllAndWriteText(t *testing.T) {
	log := writeTemp(t, "access.log", combinedLog)
	other := writeTemp(t, "notes.txt", "\x00\x01\x02 nothing repaudit reads\n")
	files := ReadAll(context.Background(), []string{log, other, log}, accesslog.Format(""), nil)
	if len(files) != 3 || files[0].Path != log || files[1].Path != other || files[2].Path != log {
		t.Fatalf("results not in the order of paths: %+v", files)
	}
	if files[0].Failed() || !files[1].Failed() {
		t.Errorf("Failed: log %v, other %v; want false, true", files[0].Failed(), files[1].Failed())
	}
	var b strings.Builder
	files[0].WriteText(&b)
	want := log + ": log (combined), 305 B\n" +
		"  records: line 4\n" +
		"  fetches: 3, captures: 0\n" +
		"  robots.txt: 0 captures, 1 fetches\n" +
		"  statuses: 200 2, 404 1\n" +
		"  time range: 2025-03-01T12:05:00Z .. 2025-03-01T12:07:00Z\n" +
		"  problems: 1\n"
	if !strings.HasPrefix(b.String(), want) || !strings.Contains(b.String(), log+":3: ") {
		t.Errorf("got:\n%s\nwant it to start:\n%s", b.String(), want)
	}

	var n int
	ReadAll(context.Background(), []string{log, log}, accesslog.Format(""), func(Event) { n++ })
	if n != 6 {
		t.Errorf("%d events, want 6", n)
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := HumanSize(n); got != want {
			t.Errorf("HumanSize(%d) = %q, want %q", n, got, want)
		}
	}
}
