package evaluate

import (
	"slices"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/table"
)

// inFile moves a capture to another WARC file.
func inFile(c *event.Capture, file string) *event.Capture {
	c.Source.File = file
	return c
}

// warcRequest adds the request record of capture c, written by ua in c's file.
func (s *scenario) warcRequest(ua string, c *event.Capture) *event.Fetch {
	s.t.Helper()
	auth, _, target, _ := splitURL(c.URL)
	f := s.fetch(ua, auth+target, c.Time, c.Status)
	f.Origin, f.Format, f.SignatureRecorded = event.OriginWARC, "warc", true
	f.Source = event.Source{File: c.Source.File, Offset: c.Source.Offset + 500, Length: 50}
	f.RecordID = "<urn:uuid:req-" + itoa(int(c.Source.Offset)) + ">"
	f.ConcurrentTo = []string{c.RecordID}
	return f
}

// twoCrawlers is two WARC files of one site written by two crawlers, each
// with its own robots.txt capture and a capture of a URL its robots.txt
// forbids it. With only=a or only=b, just that file.
func twoCrawlers(t *testing.T, only string) (s *scenario, reqA, reqB *event.Fetch) {
	s = newScenario(t)
	if only != "b" {
		rob := inFile(s.robots(site+"/robots.txt", hours(0), 200, "User-agent: CCBot\nDisallow: /a/\n"), "a.warc.gz")
		page := inFile(s.capture(site+"/a/1", hours(1), 200, "x"), "a.warc.gz")
		ok := inFile(s.capture(site+"/b/1", hours(1.5), 200, "x"), "a.warc.gz")
		s.warcRequest(uaCCBot, rob)
		reqA = s.warcRequest(uaCCBot, page)
		s.warcRequest(uaCCBot, ok) // CCBot has the most request records of the run
	}
	if only != "a" {
		rob := inFile(s.robots(site+"/robots.txt", hours(10), 200, "User-agent: CCBot\nDisallow: /a/\n\nUser-agent: GPTBot\nDisallow: /b/\n"), "b.warc.gz")
		page := inFile(s.capture(site+"/b/2", hours(11), 200, "y"), "b.warc.gz")
		s.warcRequest(uaGPTBot, rob)
		reqB = s.warcRequest(uaGPTBot, page)
	}
	s.run()
	return s, reqA, reqB
}

// Each archive crawler is judged by its own robots.txt captures: audited
// together, the second crawler's fetches keep the view they have alone
// (they were "unchecked" when one crawler was chosen for the whole run).
func TestEachArchiveCrawlerOnItsOwn(t *testing.T) {
	both, reqA, reqB := twoCrawlers(t, "")
	aloneA, aReqA, _ := twoCrawlers(t, "a")
	aloneB, _, bReqB := twoCrawlers(t, "b")

	both.expect(reqA, ViewFresh, VerdictDisallowed, KindCapturedWhileDisallowed)
	aloneA.expect(aReqA, ViewFresh, VerdictDisallowed, KindCapturedWhileDisallowed)
	both.expect(reqB, ViewFresh, VerdictDisallowed, KindCapturedWhileDisallowed)
	aloneB.expect(bReqB, ViewFresh, VerdictDisallowed, KindCapturedWhileDisallowed)
	for _, p := range []struct{ together, alone *table.Fetch }{
		{&both.j(reqA).Fetch, &aloneA.j(aReqA).Fetch},
		{&both.j(reqB).Fetch, &aloneB.j(bReqB).Fetch},
	} {
		tt, at := p.together.RobotsViewTime, p.alone.RobotsViewTime
		if p.together.Agent != p.alone.Agent || tt == nil || at == nil || !tt.Equal(*at) ||
			p.together.RobotsVersionID != p.alone.RobotsVersionID {
			t.Errorf("%s %s: together agent %q view %s version %s; alone %q %s %s", p.together.Agent, p.together.URLPath,
				p.together.Agent, p.together.RobotsViewTime, p.together.RobotsVersionID,
				p.alone.Agent, p.alone.RobotsViewTime, p.alone.RobotsVersionID)
		}
	}

	want := []ArchiveCrawler{
		{File: "a.warc.gz", Agent: "CCBot", From: CrawlerFromRequests, Crawl: "file:a.warc.gz"},
		{File: "b.warc.gz", Agent: "GPTBot", From: CrawlerFromRequests, Crawl: "file:b.warc.gz"},
	}
	if got := both.model.ArchiveCrawlers(); !slices.Equal(got, want) {
		t.Errorf("archive crawlers = %+v, want %+v", got, want)
	}
	if got := both.summary.ArchiveAgents; !slices.Equal(got, want) {
		t.Errorf("summary archive agents = %+v, want %+v", got, want)
	}
	if a, derived := both.model.ArchiveAgent(); a != "CCBot" || !derived {
		t.Errorf("run-wide archive agent %q derived %v, want CCBot", a, derived)
	}
	// Retention rows name the crawler of their own file.
	for _, r := range both.out.Retentions {
		want := map[string]string{"a.warc.gz": "CCBot", "b.warc.gz": "GPTBot"}[r.WARCFilename]
		if r.Agent != want {
			t.Errorf("retention %s (%s): agent %q, want %q", r.URL, r.WARCFilename, r.Agent, want)
		}
	}
	// Each crawler's own robots.txt captures are its view, and only its.
	a := both.model.hosts["example.com"].https
	for tok, want := range map[string]int{"ccbot": 1, "gptbot": 1} {
		if bv := viewOf(a, tok); bv == nil || len(bv.entries) != want {
			t.Errorf("%s view entries: %+v, want %d", tok, bv, want)
		}
	}
}

// --archive-agent names the crawler of every file.
func TestArchiveAgentOptionOverridesEveryFile(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgent = "ia_archiver"
	inFile(s.robots(site+"/robots.txt", hours(0), 200, "User-agent: *\nDisallow: /a/\n"), "a.warc.gz")
	c := inFile(s.capture(site+"/x", hours(1), 200, "x"), "b.warc.gz")
	s.warcRequest(uaGPTBot, c)
	s.run()
	for _, c := range s.model.ArchiveCrawlers() {
		if c.Agent != "ia_archiver" || c.From != CrawlerFromOption {
			t.Errorf("%s: crawler %q from %q, want ia_archiver from option", c.File, c.Agent, c.From)
		}
	}
	if n := len(s.model.ArchiveCrawlers()); n != 2 {
		t.Errorf("%d archive crawlers, want 2", n)
	}
}

// A file without request records is named by its warcinfo record: the
// http-header-user-agent, else the software. A file that names no crawler
// gets none when the run holds several (CCBot, GPTBot, heritrix here).
func TestArchiveCrawlerFromWarcinfo(t *testing.T) {
	s := newScenario(t)
	withReq := inFile(s.capture(site+"/r", hours(0), 200, "x"), "req.warc.gz")
	s.warcRequest(uaCCBot, withReq)
	inFile(s.capture(site+"/u", hours(1), 200, "x"), "ua.warc.gz")
	inFile(s.capture(site+"/s", hours(2), 200, "x"), "sw.warc.gz")
	inFile(s.capture(site+"/n", hours(3), 200, "x"), "none.warc.gz")
	inFile(s.capture(site+"/t", hours(4), 200, "x"), "tool.warc.gz")
	b := NewBuilder(s.opts, bots.Default(), s.ids)
	b.AddWarcinfo(event.Source{File: "ua.warc.gz"}, event.Header{{Name: "software", Value: "Heritrix/3.4.0"},
		{Name: "http-header-user-agent", Value: uaGPTBot}})
	b.AddWarcinfo(event.Source{File: "sw.warc.gz"}, event.Header{{Name: "software", Value: "Heritrix/3.4.0-20200304 http://crawler.archive.org"}})
	// A tool that wrote what others captured is no crawler.
	b.AddWarcinfo(event.Source{File: "tool.warc.gz"}, event.Header{{Name: "software", Value: "repaudit/dev robots history"},
		{Name: "http-header-user-agent", Value: "repaudit/dev (+https://example.org/repaudit)"}})
	for _, c := range s.caps {
		b.AddCapture(c)
	}
	for _, f := range s.fetches {
		b.AddFetch(f)
	}
	m := b.Build()
	want := []ArchiveCrawler{
		{File: "none.warc.gz", Crawl: "file:none.warc.gz"},
		{File: "req.warc.gz", Agent: "CCBot", From: CrawlerFromRequests, Crawl: "file:req.warc.gz"},
		{File: "sw.warc.gz", Agent: "heritrix", From: CrawlerFromWarcinfoSoftware, Crawl: "file:sw.warc.gz"},
		{File: "tool.warc.gz", Crawl: "file:tool.warc.gz"},
		{File: "ua.warc.gz", Agent: "GPTBot", From: CrawlerFromWarcinfoUA, Crawl: "file:ua.warc.gz"},
	}
	if got := m.ArchiveCrawlers(); !slices.Equal(got, want) {
		t.Errorf("archive crawlers = %+v\nwant %+v", got, want)
	}
}

// crawlersOf builds the model of the scenario's captures and fetches with
// the warcinfo records infos (file -> fields) and returns its crawlers.
func crawlersOf(s *scenario, infos map[string]event.Header) []ArchiveCrawler {
	b := NewBuilder(s.opts, bots.Default(), s.ids)
	for f, h := range infos {
		b.AddWarcinfo(event.Source{File: f}, h)
	}
	for _, c := range s.caps {
		b.AddCapture(c)
	}
	for _, f := range s.fetches {
		b.AddFetch(f)
	}
	return b.Build().ArchiveCrawlers()
}

// partOf is the warcinfo fields of a file of the crawl p.
func partOf(p string, fields ...event.Field) event.Header {
	return append(event.Header{{Name: "isPartOf", Value: p}}, fields...)
}

// A file that names no crawler borrows one only from the files of its own
// crawl (the same isPartOf), when they name exactly one; never from the
// other files of the run, so that it is judged alike audited alone and
// with them. A file whose request records name no bot (a person's
// browser) never borrows one.
func TestArchiveCrawlerBorrowedOnlyWithinItsCrawl(t *testing.T) {
	s := newScenario(t)
	s.warcRequest(uaCCBot, inFile(s.capture(site+"/r", hours(0), 200, "x"), "req.warc.gz"))
	inFile(s.capture(site+"/n", hours(1), 200, "x"), "none.warc.gz")
	s.warcRequest(uaBrowser, inFile(s.capture(site+"/p", hours(2), 200, "x"), "browser.warc.gz"))
	inFile(s.capture(site+"/s", hours(3), 200, "x"), "sw.warc.gz")
	inFile(s.capture(site+"/o", hours(4), 200, "x"), "other.warc.gz")

	tests := []struct {
		name  string
		infos map[string]event.Header
		want  []ArchiveCrawler
	}{{
		// The run holds one crawler, but none.warc.gz states no crawl.
		name:  "no crawl stated",
		infos: map[string]event.Header{"sw.warc.gz": {{Name: "http-header-user-agent", Value: uaCCBot}}},
		want: []ArchiveCrawler{
			{File: "browser.warc.gz", Crawl: "file:browser.warc.gz"},
			{File: "none.warc.gz", Crawl: "file:none.warc.gz"},
			{File: "other.warc.gz", Crawl: "file:other.warc.gz"},
			{File: "req.warc.gz", Agent: "CCBot", From: CrawlerFromRequests, Crawl: "file:req.warc.gz"},
			{File: "sw.warc.gz", Agent: "CCBot", From: CrawlerFromWarcinfoUA, Crawl: "file:sw.warc.gz"},
		},
	}, {
		// none.warc.gz is of crawl c1 with req.warc.gz; other.warc.gz
		// of crawl c2, whose files name no crawler; the browser's
		// file states c1 too, and neither borrows nor lends.
		name: "same crawl shares",
		infos: map[string]event.Header{
			"req.warc.gz":     partOf("c1"),
			"none.warc.gz":    partOf("c1"),
			"browser.warc.gz": partOf("c1"),
			"other.warc.gz":   partOf("c2"),
			"sw.warc.gz":      partOf("c3", event.Field{Name: "software", Value: "Heritrix/3.4.0"}),
		},
		want: []ArchiveCrawler{
			{File: "browser.warc.gz", Crawl: "file:browser.warc.gz"},
			{File: "none.warc.gz", Agent: "CCBot", From: CrawlerFromCrawl, Crawl: "ccbot:c1"},
			{File: "other.warc.gz", Crawl: "file:other.warc.gz"},
			{File: "req.warc.gz", Agent: "CCBot", From: CrawlerFromRequests, Crawl: "ccbot:c1"},
			{File: "sw.warc.gz", Agent: "heritrix", From: CrawlerFromWarcinfoSoftware, Crawl: "heritrix:c3"},
		},
	}, {
		// Another crawler's file in the run: none.warc.gz, of another
		// crawl, does not borrow.
		name: "another crawl's file does not lend",
		infos: map[string]event.Header{
			"none.warc.gz": partOf("c1"),
			"sw.warc.gz":   partOf("c3", event.Field{Name: "software", Value: "Heritrix/3.4.0"}),
		},
		want: []ArchiveCrawler{
			{File: "browser.warc.gz", Crawl: "file:browser.warc.gz"},
			{File: "none.warc.gz", Crawl: "file:none.warc.gz"},
			{File: "other.warc.gz", Crawl: "file:other.warc.gz"},
			{File: "req.warc.gz", Agent: "CCBot", From: CrawlerFromRequests, Crawl: "file:req.warc.gz"},
			{File: "sw.warc.gz", Agent: "heritrix", From: CrawlerFromWarcinfoSoftware, Crawl: "heritrix:c3"},
		},
	}, {
		// Two crawlers state one crawl: the file that names none
		// gets none, and the crawl keys of the two stay apart.
		name: "a crawl of two crawlers lends none",
		infos: map[string]event.Header{
			"req.warc.gz":  partOf("c1"),
			"none.warc.gz": partOf("c1"),
			"sw.warc.gz":   partOf("c1", event.Field{Name: "software", Value: "Heritrix/3.4.0"}),
		},
		want: []ArchiveCrawler{
			{File: "browser.warc.gz", Crawl: "file:browser.warc.gz"},
			{File: "none.warc.gz", Crawl: "file:none.warc.gz"},
			{File: "other.warc.gz", Crawl: "file:other.warc.gz"},
			{File: "req.warc.gz", Agent: "CCBot", From: CrawlerFromRequests, Crawl: "ccbot:c1"},
			{File: "sw.warc.gz", Agent: "heritrix", From: CrawlerFromWarcinfoSoftware, Crawl: "heritrix:c1"},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := crawlersOf(s, tt.infos); !slices.Equal(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if got := settledCrawlers(s, tt.infos); !slices.Equal(got, tt.want) {
				t.Errorf("partitioned: got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// settledCrawlers settles the crawlers as a partitioned run does: shared
// facts noted per file, merged, then SettleCrawlers.
func settledCrawlers(s *scenario, infos map[string]event.Header) []ArchiveCrawler {
	perFile := make(map[string]*Shared)
	of := func(f string) *Shared {
		if perFile[f] == nil {
			perFile[f] = &Shared{}
		}
		return perFile[f]
	}
	for f, h := range infos {
		of(f).NoteWarcinfo(event.Source{File: f}, h)
	}
	for _, c := range s.caps {
		of(c.Source.File).NoteCapture(c)
	}
	for _, f := range s.fetches {
		of(f.Source.File).NoteFetch(f)
	}
	var all Shared
	for _, sh := range perFile {
		all.Merge(*sh)
	}
	return all.SettleCrawlers(s.opts, bots.Default(), s.ids)
}

// crawlOf keys each file by its crawl: the first warcinfo record stating
// an isPartOf counts, records naming the crawler need not be the same;
// a file the model does not know is a crawl of its own.
func TestCrawlOf(t *testing.T) {
	s := newScenario(t)
	s.warcRequest(uaCCBot, inFile(s.capture(site+"/a", hours(0), 200, "x"), "a.warc.gz"))
	s.warcRequest(uaCCBot, inFile(s.capture(site+"/b", hours(1), 200, "x"), "b.warc.gz"))
	b := NewBuilder(s.opts, bots.Default(), s.ids)
	b.AddWarcinfo(event.Source{File: "a.warc.gz"}, event.Header{{Name: "software", Value: "Nutch"}})
	b.AddWarcinfo(event.Source{File: "a.warc.gz"}, partOf(" CC-MAIN-2024-22 "))
	b.AddWarcinfo(event.Source{File: "a.warc.gz"}, partOf("CC-MAIN-2024-26"))
	for _, c := range s.caps {
		b.AddCapture(c)
	}
	for _, f := range s.fetches {
		b.AddFetch(f)
	}
	m := b.Build()
	for file, want := range map[string]string{
		"a.warc.gz":    "ccbot:CC-MAIN-2024-22",
		"b.warc.gz":    "file:b.warc.gz",
		"log.txt":      "file:log.txt",
		"":             "file:",
		"other.arc.gz": "file:other.arc.gz",
	} {
		if got := m.crawlOf(file); got != want {
			t.Errorf("crawlOf(%q) = %q, want %q", file, got, want)
		}
	}
}

// --archive-agent FILE=TOKEN names the crawler of one file only, over
// the token for every file; the file's name is compared cleaned.
func TestArchiveAgentForOneFile(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgents = map[string]string{"dir/./a.warc.gz": " ia_archiver "}
	inFile(s.capture(site+"/a", hours(0), 200, "x"), "dir/a.warc.gz")
	inFile(s.capture(site+"/b", hours(1), 200, "x"), "dir/b.warc.gz")
	want := []ArchiveCrawler{
		{File: "dir/a.warc.gz", Agent: "ia_archiver", From: CrawlerFromOption, Crawl: "file:dir/a.warc.gz"},
		{File: "dir/b.warc.gz", Crawl: "file:dir/b.warc.gz"},
	}
	if got := crawlersOf(s, nil); !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	s.opts.ArchiveAgent = "heritrix"
	want[1] = ArchiveCrawler{File: "dir/b.warc.gz", Agent: "heritrix", From: CrawlerFromOption, Crawl: "file:dir/b.warc.gz"}
	if got := crawlersOf(s, nil); !slices.Equal(got, want) {
		t.Errorf("with a token for every file: got  %+v\nwant %+v", got, want)
	}
}

// A request record pairs only captures of its own file: a copy of a WARC
// repeats its record IDs, and its captures stay unpaired (judged as its
// crawler's fetches) whether audited alone or with the original.
func TestPairingStaysInItsFile(t *testing.T) {
	s := newScenario(t)
	orig := inFile(s.capture(site+"/a", hours(1), 200, "x"), "orig.warc.gz")
	s.warcRequest(uaCCBot, orig)
	// The copy keeps the response of /a without its request, and a
	// request and response of its own.
	cp := *orig
	cp.Source.File = "copy.warc.gz"
	s.caps = append(s.caps, &cp)
	s.warcRequest(uaCCBot, inFile(s.capture(site+"/b", hours(2), 200, "y"), "copy.warc.gz"))
	s.run()
	var got []string
	for _, f := range s.out.Fetches {
		if f.SourceFormat == "warc-capture" {
			got = append(got, f.SourceFile+" "+f.URLPath)
		}
	}
	if want := []string{"copy.warc.gz /a"}; !slices.Equal(got, want) {
		t.Errorf("fetches judged from unpaired captures: %q, want %q", got, want)
	}
}

// Identical consecutive robots.txt captures are one version; the crawler
// still fetched robots.txt each time, so its view keeps one entry per
// capture and a fetch after a later capture has a fresh view from it.
func TestIdenticalCapturesCollapse(t *testing.T) {
	s := newScenario(t)
	s.opts.RobotsTTL = 2 * time.Hour
	const body = "User-agent: *\nDisallow: /private/\n"
	caps := []*event.Capture{
		s.robots(site+"/robots.txt", hours(0), 200, body),
		s.robots(site+"/robots.txt", hours(5), 200, body),
		s.robots(site+"/robots.txt", hours(10), 200, body),
		s.robots(site+"/robots.txt", hours(15), 200, "User-agent: *\nDisallow: /other/\n"),
	}
	for _, c := range caps {
		s.warcRequest(uaCCBot, c)
	}
	page := s.capture(site+"/private/x", hours(11), 200, "x")
	req := s.warcRequest(uaCCBot, page)
	s.run()

	rows := s.versionRows("https://example.com")
	if len(rows) != 2 {
		t.Fatalf("%d versions, want 2: %+v", len(rows), rows)
	}
	if r := rows[0]; r.Captures != 3 || !r.FetchTime.Equal(hours(0)) || !r.LastCaptureTime.Equal(hours(10)) ||
		r.ValidUntil == nil || !r.ValidUntil.Equal(hours(15)) {
		t.Errorf("first version: captures %d fetch %s last %s until %v", r.Captures, r.FetchTime, r.LastCaptureTime, r.ValidUntil)
	}
	if r := rows[1]; r.Captures != 1 || !r.LastCaptureTime.Equal(hours(15)) || r.ValidUntil != nil {
		t.Errorf("second version: captures %d last %s until %v", r.Captures, r.LastCaptureTime, r.ValidUntil)
	}
	if s.summary.RobotsVersions != 2 {
		t.Errorf("summary versions = %d, want 2", s.summary.RobotsVersions)
	}
	bv := viewOf(s.model.hosts["example.com"].https, "ccbot")
	if bv == nil || len(bv.entries) != 4 {
		t.Fatalf("crawler view entries = %+v, want 4", bv)
	}
	for i, e := range bv.entries {
		if !e.time.Equal(caps[i].Time) {
			t.Errorf("entry %d at %s, want %s", i, fmtTime(e.time), fmtTime(caps[i].Time))
		}
	}
	// At hours(11) the last fetch was the collapsed capture of hours(10):
	// fresh within the 2-hour TTL (it would be stale from hours(0)).
	j := s.expect(req, ViewFresh, VerdictDisallowed, KindCapturedWhileDisallowed)
	if j.Fetch.RobotsViewTime == nil || !j.Fetch.RobotsViewTime.Equal(hours(10)) {
		t.Errorf("view time %v, want %s", j.Fetch.RobotsViewTime, fmtTime(hours(10)))
	}
	if j.Fetch.RobotsVersionID != rows[0].VersionID {
		t.Errorf("version %q, want %q", j.Fetch.RobotsVersionID, rows[0].VersionID)
	}
}

// A deduplicating crawler stores an unchanged robots.txt as a revisit of
// its first capture (WARC 1.1 §6.7.2), here in a later file of the crawl:
// resolved to the same content it repeats that version; a revisit that
// resolves to other content does not.
func TestRevisitOfSameRobotsCollapses(t *testing.T) {
	s := newScenario(t)
	const body = "User-agent: *\nDisallow: /private/\n"
	first := inFile(s.robots(site+"/robots.txt", hours(0), 200, body), "a.warc.gz")
	rv := inFile(s.robots(site+"/robots.txt", hours(5), 200, ""), "b.warc.gz")
	rv.RecordType, rv.Profile, rv.RefersTo = "revisit", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest", first.RecordID
	inFile(s.robots(site+"/robots.txt", hours(10), 200, "User-agent: *\nDisallow: /other/\n"), "b.warc.gz")
	// A 404 stored again as a revisit: no rules, the same answer.
	gone := inFile(s.robots("https://gone.example.com/robots.txt", hours(0), 404, "<html>not found</html>"), "a.warc.gz")
	rv2 := inFile(s.robots("https://gone.example.com/robots.txt", hours(5), 404, ""), "b.warc.gz")
	rv2.RecordType, rv2.Profile, rv2.RefersTo = "revisit", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest", gone.RecordID
	s.run()
	rows := s.versionRows("https://example.com")
	if len(rows) != 2 || rows[0].Captures != 2 || !rows[0].LastCaptureTime.Equal(hours(5)) {
		t.Fatalf("versions %+v, want 2, the first with 2 captures until %s", rows, fmtTime(hours(5)))
	}
	if rows := s.versionRows("https://gone.example.com"); len(rows) != 1 || rows[0].Captures != 2 {
		t.Fatalf("404 versions %+v, want 1 of 2 captures", rows)
	}
}

// Captures that differ in status are not collapsed, nor are unreachable
// captures past the 30-day point judged as unreachable.
func TestCollapseKeepsStatusAndThirtyDays(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", days(0), 503, "down")
	s.robots(site+"/robots.txt", days(10), 503, "down")
	late := s.robots(site+"/robots.txt", days(40), 503, "down")
	s.robots(site+"/robots.txt", days(41), 404, "")
	s.warcRequest(uaCCBot, late)
	s.run()
	rows := s.versionRows("https://example.com")
	var rules []string
	for _, r := range rows {
		rules = append(rules, r.StatusRule+"/"+itoa(int(r.Captures)))
	}
	if want := []string{"unreachable/3", "unreachable-30d-unavailable/3", "unavailable/1"}; !slices.Equal(rules, want) {
		t.Errorf("versions %q, want %q", rules, want)
	}
	bv := viewOf(s.model.hosts["example.com"].https, "ccbot")
	if bv == nil || len(bv.entries) != 4 {
		t.Fatalf("crawler view entries = %+v, want 4", bv)
	}
	if k := bv.entries[2].kind; k != vkAllowAll {
		t.Errorf("capture past 30 days: view kind %d, want allow all", k)
	}
	if k := bv.entries[1].kind; k != vkUnreachable {
		t.Errorf("capture within 30 days: view kind %d, want unreachable", k)
	}
}
