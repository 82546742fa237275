package audit

import (
	"flag"
	"io"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
)

func TestFlagsResolve(t *testing.T) {
	parse := func(args ...string) (input.Options, error) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f Flags
		f.Register(fs)
		if err := fs.Parse(args); err != nil {
			return input.Options{}, err
		}
		return f.Resolve()
	}
	s, err := parse("--site", "https://WWW.Example.org/news", "--as-of", "2025-06-01", "--ip-ranges", "Googlebot=a.json",
		"--ip-ranges", "Googlebot=b.json", "--log-extra-headers", " Signature , Signature-Input,", "--log-format", "combined")
	if err != nil {
		t.Fatal(err)
	}
	if s.Eval.DefaultAuthority != "https://www.example.org" || !s.Eval.AsOf.Equal(time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("eval options: %+v", s.Eval)
	}
	if strings.Join(s.IPRanges["Googlebot"], " ") != "a.json b.json" || strings.Join(s.LogExtraHeaders, "|") != "Signature|Signature-Input" || s.LogFormat != "combined" {
		t.Errorf("settings: %+v", s)
	}
	if s.Eval.RobotsTTL != 24*time.Hour || s.Eval.RobotsMaxBytes != 500*1024 {
		t.Errorf("defaults not applied: %+v", s.Eval)
	}
	for _, bad := range [][]string{
		{"--skew", "0s"}, {"--robots-ttl", "-1h"}, {"--unreachable-after", "0s"},
		{"--robots-max-bytes", "1000"}, {"--ip-ranges", "Googlebot"}, {"--site", "example.org"},
		{"--as-of", "yesterday"}, {"--log-format", "nosuch"},
	} {
		if _, err := parse(bad...); err == nil {
			t.Errorf("%v: no error", bad)
		} else if !strings.Contains(err.Error(), strings.TrimPrefix(bad[0], "--")) && bad[0] != "--log-format" {
			t.Errorf("%v: error %q does not name the flag", bad, err)
		}
	}
}

func TestArchiveAgentFlag(t *testing.T) {
	tests := []struct {
		vals    []string
		every   string
		perFile map[string]string
		err     string
	}{
		{vals: nil},
		{vals: []string{"heritrix"}, every: "heritrix"},
		{vals: []string{"a/./x.warc.gz=CCBot", "y.arc.gz=heritrix", "ia_archiver"}, every: "ia_archiver",
			perFile: map[string]string{"a/x.warc.gz": "CCBot", "y.arc.gz": "heritrix"}},
		{vals: []string{"odd=name.warc.gz=CCBot"}, perFile: map[string]string{"odd=name.warc.gz": "CCBot"}},
		{vals: []string{"heritrix", "CCBot"}, err: "twice"},
		{vals: []string{"x.warc.gz=CCBot", "./x.warc.gz=heritrix"}, err: "two crawlers"},
		{vals: []string{"x.warc.gz="}, err: "FILE=TOKEN"},
		{vals: []string{"=CCBot"}, err: "FILE=TOKEN"},
	}
	for _, tt := range tests {
		every, perFile, err := archiveAgents(tt.vals)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want one saying %q", tt.vals, err, tt.err)
			}
			continue
		}
		if err != nil || every != tt.every || !maps.Equal(perFile, tt.perFile) {
			t.Errorf("%q: %q %v %v, want %q %v", tt.vals, every, perFile, err, tt.every, tt.perFile)
		}
	}
}
