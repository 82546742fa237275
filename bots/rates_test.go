package bots

import (
	"bufio"
	"flag"
	"os"
	"strings"
	"testing"
)

var listMisses = flag.Bool("misses", false, "log every User-Agent the rate tests get wrong")

// readLines reads a fixture of one User-Agent a line.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		if l := sc.Text(); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rate identifies every User-Agent and returns the share named as a bot.
func rate(t *testing.T, c *Catalog, uas []string, wantBot bool) float64 {
	t.Helper()
	n := 0
	for _, ua := range uas {
		id := c.IdentifyUA(ua)
		if id.Agent != "" {
			n++
			if IsGeneric(id.Agent) {
				t.Errorf("%q: agent named by the generic word %q", ua, id.Agent)
			}
		}
		if *listMisses && (id.Agent != "") != wantBot {
			t.Logf("miss: %q -> %q", ua, id.Agent)
		}
	}
	return float64(n) / float64(len(uas))
}

// TestRates measures identification on real User-Agent collections (the
// issue's acceptance test): the crawler-user-agents instances the catalog
// is built from, and device-detector's bot and browser fixtures, which the
// rules were not tuned on (bots/testdata/device-detector/README.md).
func TestRates(t *testing.T) {
	c := Default()
	cua := CrawlerUserAgentsInstances()
	if len(cua) < 2000 {
		t.Fatalf("got %d crawler-user-agents instances, want over 2000", len(cua))
	}
	ddBots := readLines(t, "testdata/device-detector/bots.txt")
	ddBrowsers := readLines(t, "testdata/device-detector/browsers.txt")
	for _, r := range []struct {
		name    string
		uas     []string
		wantBot bool
		min     float64 // share named as bots, at least (bots) or at most (browsers)
	}{
		{"crawler-user-agents instances", cua, true, 0.97},
		{"device-detector bots", ddBots, true, 0.95},
		{"device-detector browsers", ddBrowsers, false, 0.005},
	} {
		got := rate(t, c, r.uas, r.wantBot)
		t.Logf("%s: %d User-Agents, %.2f%% named as bots", r.name, len(r.uas), 100*got)
		if r.wantBot && got < r.min {
			t.Errorf("%s: %.2f%% named as bots, want at least %.1f%%", r.name, 100*got, 100*r.min)
		}
		if !r.wantBot && got > r.min {
			t.Errorf("%s: %.2f%% named as bots, want at most %.1f%%", r.name, 100*got, 100*r.min)
		}
	}
}
