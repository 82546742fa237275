package inspect

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
)

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const combinedLog = `192.0.2.1 - - [01/Mar/2025:12:05:00 +0000] "GET /robots.txt HTTP/1.1" 200 812 "-" "ExampleBot/1.0"
192.0.2.1 - - [01/Mar/2025:12:06:00 +0000] "GET /a HTTP/1.1" 404 10 "-" "ExampleBot/1.0"
this line is not a log line
192.0.2.2 - - [01/Mar/2025:12:07:00 +0000] "GET /b HTTP/1.1" 200 10 "-" "ExampleBot/1.0"
`

func TestReadLog(t *testing.T) {
	p := writeTemp(t, "access.log", combinedLog)
	var events []Event
	for _, emit := range []func(Event){nil, func(e Event) { events = append(events, e) }} {
		f := Read(context.Background(), p, accesslog.Format(""), emit)
		if f.Error != "" {
			t.Fatalf("Error = %q", f.Error)
		}
		if f.Kind != "log" || f.Fetches != 3 || f.RobotsFetches != 1 || f.Captures != 0 {
			t.Errorf("kind %q, fetches %d, robots fetches %d, captures %d; want log, 3, 1, 0", f.Kind, f.Fetches, f.RobotsFetches, f.Captures)
		}
		if f.Statuses["200"] != 2 || f.Statuses["404"] != 1 {
			t.Errorf("statuses %v, want 200: 2, 404: 1", f.Statuses)
		}
		if f.First != "2025-03-01T12:05:00Z" || f.Last != "2025-03-01T12:07:00Z" {
			t.Errorf("time range %s .. %s", f.First, f.Last)
		}
		if f.ProblemCount != 1 || len(f.Problems) != 1 || f.Problems[0].Source.Line != 3 {
			t.Errorf("problems %d %+v, want one on line 3", f.ProblemCount, f.Problems)
		}
	}
	if len(events) != 3 || events[0].Type != "fetch" || events[0].URL == "" || events[2].SourceLine != 4 || events[0].Offset != nil {
		t.Errorf("events %+v", events)
	}
}

func TestReadNotAudited(t *testing.T) {
	f := Read(context.Background(), filepath.Join(t.TempDir(), "missing.log"), "", nil)
	if f.Error == "" {
		t.Error("missing file: no Error")
	}
	f = Read(context.Background(), writeTemp(t, "x.bin", "\x00\x01\x02 nothing known"), "", nil)
	if f.Error != "" || f.Fetches != 0 || len(f.Problems) != 0 {
		t.Errorf("unknown file: %+v", f)
	}
	// The JSON form of a file with no problems has an empty list, not null.
	b, _ := json.Marshal(f)
	if !strings.Contains(string(b), `"problems":[]`) || strings.Contains(string(b), "ProblemCount") {
		t.Errorf("JSON %s", b)
	}
}

func TestEvents(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 5, time.FixedZone("x", 3600))
	c := &event.Capture{Time: at, URL: "https://example.com/robots.txt", Status: 200, RecordType: "response",
		Header: event.Header{{Name: "A", Value: "1"}, {Name: "A", Value: "2"}},
		Source: event.Source{File: "f.warc", Offset: 0, Length: 10}}
	got, _ := json.Marshal(CaptureEvent(c))
	want := `{"type":"capture","time":"2025-03-01T11:00:00.000000005Z","url":"https://example.com/robots.txt","status":200,"headers":{"A":["1","2"]},"record_type":"response","source_file":"f.warc","offset":0,"length":10}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
