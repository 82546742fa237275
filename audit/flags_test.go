package audit

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func TestFlagsResolve(t *testing.T) {
	parse := func(args ...string) (Settings, error) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f Flags
		f.Register(fs)
		if err := fs.Parse(args); err != nil {
			return Settings{}, err
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
