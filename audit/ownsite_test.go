package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/internal/ownsite"
	"github.com/repaudit/repaudit/table"
)

// ownFiles are the files of the own-site scenario (internal/ownsite): a
// publisher's nginx combined log (no host in it), the history of their
// robots.txt, and googlebot.json as Google publishes it.
type ownFiles struct {
	dir, log, warc, repo, snaps, v1, v2, ranges, rangesDir string
}

func writeOwnFiles(t *testing.T) ownFiles {
	t.Helper()
	f := ownsite.Write(t)
	return ownFiles{dir: f.Dir, log: f.Log, warc: f.WARC, repo: f.Repo, snaps: f.Snaps,
		v1: f.V1, v2: f.V2, ranges: f.Ranges, rangesDir: f.RangesDir}
}

// finding is what must agree whatever the robots.txt source: the evidence
// text names the source and so differs.
type finding struct {
	kind, agent, operator, identity, url, time, rule string
	line                                             int32
	srcLine                                          int64
}

func findings(col *table.Collector) []finding {
	var out []finding
	for _, v := range col.Violations {
		out = append(out, finding{v.Kind, v.Agent, v.Operator, v.Identity, v.URL, v.FetchTime.Format(time.RFC3339), v.MatchedRule, v.MatchedLine, v.SourceLine})
	}
	slices.SortFunc(out, func(a, b finding) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return out
}

func runOwn(t *testing.T, cfg Config) (*table.Collector, *Summary) {
	t.Helper()
	cfg.Out = filepath.Join(t.TempDir(), "out")
	cfg.Jobs = 2
	if cfg.MaxProblemsPerFile == 0 {
		cfg.MaxProblemsPerFile = 100
	}
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	return col, sum
}

// TestOwnSiteSourcesAgree is the own-site issue's acceptance test: the
// robots.txt history given as a git repository, or as files with their
// times, gives exactly the findings that the same versions give when
// captured in a WARC; fake Googlebots are spoofed and never blamed on
// Google, although the only googlebot.json is dated after the log.
func TestOwnSiteSourcesAgree(t *testing.T) {
	f := writeOwnFiles(t)
	base := func() Config {
		return Config{Inputs: []string{f.log}, Options: input.Options{IPRanges: map[string][]string{"Googlebot": {f.ranges}}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}}
	}
	viaWARC := base()
	viaWARC.Inputs = append(viaWARC.Inputs, f.warc)
	viaGit := base()
	viaGit.RobotsGit = []string{f.repo}
	viaFiles := base()
	viaFiles.Robots = []string{f.v1 + "@" + ownsite.V1Time.Format(time.RFC3339), f.v2 + "@2025-05-05T12:00:00Z"}
	viaWARCInferred := viaWARC
	viaWARCInferred.Eval.DefaultAuthority = "" // the WARC names the one site

	want, _ := runOwn(t, viaWARC)
	wantF := findings(want)
	kinds := map[string]int{}
	for _, v := range wantF {
		kinds[v.kind]++
	}
	// The scenario: GPTBot twice against its fresh view, the real
	// Googlebot once, ClaudeBot never checked; two fake Googlebots outside
	// Google's ranges, which never fetched robots.txt themselves and so
	// are judged as never having fetched it (docs/semantics.md,
	// Evaluation §5.1), not through the real Googlebot's view: one in the
	// grace window of the 2025-05-05 change, one a day later.
	wantKinds := map[string]int{"disallowed_fetch": 3, "possible_violation": 1, "unchecked_disallowed": 2, "ip_not_published": 2}
	if fmt.Sprint(kinds) != fmt.Sprint(wantKinds) {
		t.Fatalf("WARC run findings by kind = %v, want %v\n%+v", kinds, wantKinds, wantF)
	}
	for _, v := range want.Violations {
		if v.Agent == "Googlebot" && v.ClientIP != "66.249.66.1" {
			if v.Identity != "spoofed" || v.Operator != "" {
				t.Errorf("fake Googlebot %s: identity %q operator %q, want spoofed and no operator", v.ClientIP, v.Identity, v.Operator)
			}
		}
		if v.Agent == "Googlebot" && v.ClientIP == "66.249.66.1" && (v.Identity != "verified" || v.Operator != "Google") {
			t.Errorf("real Googlebot: identity %q operator %q, want verified Google", v.Identity, v.Operator)
		}
		if v.Kind == "ip_not_published" && !strings.Contains(v.Evidence, "the earliest given: it also covers earlier fetches") {
			t.Errorf("ip_not_published evidence does not say the list dated after the log covers it: %s", v.Evidence)
		}
	}

	for _, tc := range []struct {
		name   string
		cfg    Config
		source string
	}{
		{"git", viaGit, "git"},
		{"files", viaFiles, "file"},
		{"warc, site inferred", viaWARCInferred, "warc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			col, sum := runOwn(t, tc.cfg)
			if got := findings(col); !slices.Equal(got, wantF) {
				t.Errorf("findings differ from the WARC run:\ngot  %+v\nwant %+v", got, wantF)
			}
			for _, v := range col.Violations {
				if v.RobotsVersionID != "" && v.RobotsSource != tc.source {
					t.Errorf("%s: robots_source %q, want %q", v.Kind, v.RobotsSource, tc.source)
				}
			}
			if len(col.RobotsVersions) != 2 {
				t.Errorf("%d robots.txt versions, want 2", len(col.RobotsVersions))
			}
			for _, rv := range col.RobotsVersions {
				if rv.Source != tc.source || rv.URL != ownsite.Site+"/robots.txt" {
					t.Errorf("version %s: source %q url %q", rv.VersionID, rv.Source, rv.URL)
				}
			}
			inferred := false
			for _, n := range sum.Notices {
				inferred = inferred || n.Code == NoticeSiteInferred
			}
			if inferred != (tc.cfg.Eval.DefaultAuthority == "") {
				t.Errorf("notices %+v: site-inferred notice = %v", sum.Notices, inferred)
			}
		})
	}

	// The evidence says where the version came from, checkably.
	col, _ := runOwn(t, viaGit)
	for _, v := range col.Violations {
		if v.Kind == "disallowed_fetch" && v.Agent == "GPTBot" && v.URL == ownsite.Site+"/news/b" {
			for _, want := range []string{"from git " + f.repo + "@", ":robots.txt (committed 2025-05-05T12:00:00Z", `"robots.txt: block GPTBot, keep Googlebot out of drafts" by Web Team`, `"Disallow: /"`} {
				if !strings.Contains(v.Evidence, want) {
					t.Errorf("evidence lacks %q: %s", want, v.Evidence)
				}
			}
		}
	}
}

// TestOwnSiteNeverSilent: a host-less log with robots.txt files that name
// no site, without --site, judges nothing but says why and what to pass.
func TestOwnSiteNeverSilent(t *testing.T) {
	f := writeOwnFiles(t)
	col, sum := runOwn(t, Config{Inputs: []string{f.log}, Options: input.Options{RobotsGit: []string{f.repo}}})
	if len(col.Violations) != 0 {
		t.Fatalf("findings without a site: %+v", col.Violations)
	}
	codes := map[string]Notice{}
	for _, n := range sum.Notices {
		codes[n.Code] = n
	}
	if n := codes[evaluate.NotJudgedNoHost]; n.Count != 10 || !strings.Contains(n.Message, "--site "+ownsite.Site) || !strings.Contains(n.Message, "were not used") {
		t.Errorf("no-host notice = %+v, want 10 fetches and the fix", n)
	}
	googleNotice := false
	for _, n := range sum.Notices {
		googleNotice = googleNotice || n.Code == NoticeIPListNotGiven && n.Count == 4 && strings.Contains(n.Message, "Googlebot publishes IP ranges at https://")
	}
	if !googleNotice {
		t.Errorf("no notice that Googlebot's IP list was not given: %+v", sum.Notices)
	}
	found := false
	for _, p := range col.Problems {
		found = found || p.Code == "robots-source-no-site"
	}
	if !found {
		t.Errorf("no problem row says the robots.txt versions name no site: %+v", col.Problems)
	}

	// A plain robots.txt among the inputs, with no time: in force for the
	// whole data range, and said so.
	col, sum = runOwn(t, Config{Inputs: []string{f.log, f.v2}, Options: input.Options{Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}})
	if len(col.RobotsVersions) != 1 || !col.RobotsVersions[0].AssumedWholeRange || col.RobotsVersions[0].FetchTime.Format(time.RFC3339) != "2025-05-01T10:00:00Z" {
		t.Fatalf("versions = %+v, want one assumed from the first log line", col.RobotsVersions)
	}
	assumed := false
	for _, n := range sum.Notices {
		assumed = assumed || n.Code == NoticeAssumedRange
	}
	if !assumed {
		t.Errorf("no notice that the version was assumed for the whole range: %+v", sum.Notices)
	}
	for _, v := range col.Violations {
		if v.RobotsVersionID != "" && !strings.Contains(v.Evidence, "no time given: assumed in force for the whole data range") {
			t.Errorf("evidence does not say the time was assumed: %s", v.Evidence)
		}
	}
}

// TestMissingAndDuplicateInputs: a missing input is a failed input with a
// problem, the rest is still judged; the same file given twice is read once.
func TestMissingAndDuplicateInputs(t *testing.T) {
	f := writeOwnFiles(t)
	dup := filepath.Join(f.dir, "access-copy.log")
	if err := os.WriteFile(dup, []byte(ownsite.Log()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{f.log, dup, filepath.Join(f.dir, "nope.log")}, Options: input.Options{RobotsGit: []string{f.repo}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}, MaxProblemsPerFile: 100},
		Out: filepath.Join(t.TempDir(), "out"), Jobs: 2}
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if err == nil || len(sum.Failed) != 1 || !strings.HasSuffix(sum.Failed[0], "nope.log") {
		t.Fatalf("err = %v, failed = %v; want the missing file named", err, sum.Failed)
	}
	if len(col.Fetches) != 11 {
		t.Errorf("%d fetches, want 11 (the duplicate read once)", len(col.Fetches))
	}
	codes := map[string]bool{}
	for _, p := range col.Problems {
		codes[p.Code] = true
	}
	if !codes["input-duplicate"] || !codes["input-unreadable"] {
		t.Errorf("problems: %+v", col.Problems)
	}
}

// TestSiteVersionsAreNotArchiveFetches: a site version from git or a
// dated snapshot says what the site served; it must not become the
// archive crawler's own robots.txt fetch (only WARC captures are).
func TestSiteVersionsAreNotArchiveFetches(t *testing.T) {
	snap := t.TempDir()
	if err := os.WriteFile(filepath.Join(snap, "robots-2025-03-20T01:00:30Z.txt"), []byte("User-agent: *\nDisallow: /nothing-here/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := demoConfig(filepath.Join(t.TempDir(), "out"), 2)
	cfg.RobotsDir = []string{snap}
	col := &table.Collector{}
	if _, _, err := execute(context.Background(), cfg, col); err != nil {
		t.Fatal(err)
	}
	var dirVersions, warcFetches int
	for _, v := range col.RobotsVersions {
		if v.Source == "dir" {
			dirVersions++
		}
	}
	for _, f := range col.Fetches {
		if f.SourceFormat == "warc" {
			warcFetches++
		}
		if f.RobotsViewTime != nil && f.RobotsViewTime.Format(time.RFC3339) == "2025-03-20T01:00:30Z" {
			t.Errorf("%s by %s: view set by the snapshot, as if the crawler had fetched it", f.URL, f.Agent)
		}
	}
	if dirVersions != 1 || warcFetches == 0 {
		t.Fatalf("dir versions %d, warc fetches %d: the test does not exercise an archive crawler", dirVersions, warcFetches)
	}
}

// TestSpooferRobotsFetchChangesNoVerifiedRow is issue 24's "whose view"
// on the own-site inputs: a fake Googlebot's robots.txt fetches, in a log
// of their own, change nothing in the real (verified) Googlebot's rows,
// and count for the fake's own address only.
func TestSpooferRobotsFetchChangesNoVerifiedRow(t *testing.T) {
	f := writeOwnFiles(t)
	spoof := filepath.Join(f.dir, "spoof.log")
	ua := ownsite.UAGooglebot
	lines := "185.220.101.34 - - [06/May/2025:00:05:00 +0000] \"GET /robots.txt HTTP/1.1\" 200 120 \"-\" \"" + ua + "\"\n" +
		"185.220.101.34 - - [07/May/2025:07:00:00 +0000] \"GET /robots.txt HTTP/1.1\" 200 120 \"-\" \"" + ua + "\"\n"
	if err := os.WriteFile(spoof, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := func(inputs ...string) Config {
		return Config{Inputs: inputs, Options: input.Options{RobotsGit: []string{f.repo}, IPRanges: map[string][]string{"Googlebot": {f.ranges}}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}}
	}
	base, _ := runOwn(t, cfg(f.log))
	with, _ := runOwn(t, cfg(f.log, spoof))
	real := func(col *table.Collector) (rows []string) {
		for _, r := range col.Fetches {
			if r.Identity == string(evaluate.IdentityVerified) {
				rows = append(rows, fmt.Sprintf("%+v", r))
			}
		}
		for _, v := range col.Violations {
			if v.Identity == string(evaluate.IdentityVerified) {
				rows = append(rows, fmt.Sprintf("%+v", v))
			}
		}
		return rows
	}
	if b, w := real(base), real(with); len(b) == 0 || !slices.Equal(b, w) {
		t.Errorf("verified rows changed by a spoofer's robots.txt fetches:\nwithout:\n%s\nwith:\n%s", strings.Join(b, "\n"), strings.Join(w, "\n"))
	}
	// The fake at 185.220.101.34 now fetched robots.txt itself: /drafts/y
	// is judged by its own fresh copy; the other fake still never did.
	got := map[string]string{}
	for _, r := range with.Fetches {
		if r.URLPath == "/drafts/y" || r.URLPath == "/drafts/z" {
			got[r.URLPath] = r.Identity + " " + r.RobotsView + " " + r.RobotsVerdict
		}
	}
	want := map[string]string{"/drafts/y": "spoofed fresh disallowed", "/drafts/z": "spoofed unchecked disallowed"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("fakes: %v, want %v", got, want)
	}
}
