package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/beam/internal/corpus"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/internal/ownsite"
)

// checkHot runs cfg through compareWithAudit and checks that at least
// one partition was hot and judged in more than one shard.
func checkHot(t *testing.T, cfg Config) {
	t.Helper()
	_, pr, err := compareWithAuditRun(t, cfg)
	if err != nil {
		t.Errorf("audit: %v", err)
	}
	parts, shards := Counter(pr, "hot-partitions"), Counter(pr, "hot-shards")
	t.Logf("%d hot partitions in %d shards", parts, shards)
	if parts == 0 || shards <= parts {
		t.Errorf("%d hot partitions in %d shards: no partition was split", parts, shards)
	}
}

// writeAgentsLog adds a log in which one bot comes with two User-Agent
// strings a second apart on the same hosts (GPTBot by the catalog,
// ExampleResearchBot by its own token and a robots.txt group that names
// it), so that a crawl-delay finding is between fetches of two
// User-Agents: a split by User-Agent string would lose it.
func writeAgentsLog(t *testing.T, dir string) {
	t.Helper()
	uas := []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Mozilla/5.0 (compatible; ExampleResearchBot/0.1; +https://research.example/bot)",
		"ExampleResearchBot/0.2 (+https://research.example/bot)",
	}
	var sb strings.Builder
	at := time.Date(2025, 4, 20, 12, 0, 0, 0, time.UTC)
	for i := range 240 {
		h := fmt.Sprintf("host-%03d.example", i%4)
		ua := uas[(i/4)%2+2*((i/8)%2)]
		target := fmt.Sprintf("/page/%d", i)
		if i%37 == 0 {
			target = "/robots.txt"
		}
		fmt.Fprintf(&sb, "%s:443 198.51.100.%d - - [%s] \"GET %s HTTP/1.1\" 200 512 \"-\" \"%s\"\n",
			h, 1+i%7, at.Format("02/Jan/2006:15:04:05 -0700"), target, ua)
		if i%4 == 3 {
			at = at.Add(time.Second)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "logs", "agents.log"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHotPartitionsSameRowsAsAudit forces hot partitions (every
// partition with a fetch, or those with many) and checks that judging
// them in shards keyed by agent gives audit's rows: on the demo data
// (signed requests and a replay), the generated corpus (with one bot
// under two User-Agents), and the own-site scenario.
func TestHotPartitionsSameRowsAsAudit(t *testing.T) {
	t.Run("demo", func(t *testing.T) {
		cfg := demoConfig("")
		cfg.HotFetches, cfg.HotShards = 1, 4
		checkHot(t, cfg)
	})
	in := filepath.Join(t.TempDir(), "in")
	if err := corpus.Generate(in, corpus.Options{Hosts: 12, Lines: 3000, LogFiles: 3, WARCs: 2, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	writeAgentsLog(t, in)
	t.Run("corpus, every partition hot", func(t *testing.T) {
		checkHot(t, Config{Inputs: []string{in}, HotFetches: 1, HotShards: 3, Options: input.Options{Eval: evaluate.Options{DefaultAuthority: corpus.Site}}})
	})
	t.Run("corpus, busy partitions hot", func(t *testing.T) {
		checkHot(t, Config{Inputs: []string{in}, HotFetches: 400, Workers: 1, Options: input.Options{Eval: evaluate.Options{DefaultAuthority: corpus.Site}}})
	})
	f := writeOwnFiles(t)
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"own site, files", Config{Inputs: []string{f.log}, Options: input.Options{Robots: []string{f.v1 + "@2025-04-20T08:00:00Z", f.v2 + "@2025-05-05T12:00:00Z"}, IPRanges: map[string][]string{"Googlebot": {f.ranges}}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}}},
		{"own site, warc, site inferred", Config{Inputs: []string{f.log, f.warc}, Options: input.Options{IPRangesDirs: []string{f.rangesDir}}}},
		{"own site, no site settled", Config{Inputs: []string{f.log}, Options: input.Options{RobotsGit: []string{f.repo}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.HotFetches = 1
			checkHot(t, tc.cfg)
		})
	}
}
