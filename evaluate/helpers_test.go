package evaluate

import (
	"math/rand/v2"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/table"
)

var t0 = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

func hours(h float64) time.Time { return t0.Add(time.Duration(h * float64(time.Hour))) }

func days(d float64) time.Time { return hours(d * 24) }

const (
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaCCBot     = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaChatGPT   = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	uaBrowser   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
)

// scenario builds inputs in Go, runs both passes and WriteTables.
type scenario struct {
	t        *testing.T
	opts     Options
	ids      *identity.Store
	caps     []*event.Capture
	fetches  []*event.Fetch
	index    []ListingEntry
	snippets []ListingEntry
	off      int64
	line     int64

	model   *Model
	judg    map[*event.Fetch]*Judgement
	out     *table.Collector
	summary ModelSummary
}

func newScenario(t *testing.T) *scenario {
	t.Helper()
	return &scenario{t: t, ids: identity.NewStore()}
}

// capture adds a WARC capture.
func (s *scenario) capture(url string, at time.Time, status int, body string, header ...string) *event.Capture {
	c := &event.Capture{
		Time: at, URL: url, RecordType: "response", Status: status, Proto: "HTTP/1.1",
		Body: []byte(body), ContentType: "text/plain",
		RecordID: "<urn:uuid:cap-" + itoa(int(s.off)) + ">",
		Source:   event.Source{File: "crawl.warc.gz", Offset: s.off, Length: 100},
	}
	if strings.Contains(body, "<html") {
		c.ContentType = "text/html"
	}
	for i := 0; i+1 < len(header); i += 2 {
		c.Header = append(c.Header, event.Field{Name: header[i], Value: header[i+1]})
	}
	s.off += 1000
	s.caps = append(s.caps, c)
	return c
}

// robots adds a capture of a robots.txt.
func (s *scenario) robots(url string, at time.Time, status int, body string, header ...string) *event.Capture {
	return s.capture(url, at, status, body, header...)
}

// fetch adds an access log line.
func (s *scenario) fetch(ua, url string, at time.Time, status int) *event.Fetch {
	s.line++
	auth, hp, target, ok := splitURL(url)
	if !ok {
		s.t.Fatalf("bad url %q", url)
	}
	f := &event.Fetch{
		Time: at, ClientIP: netip.MustParseAddr("192.0.2.10"), Method: "GET",
		Scheme: auth[:strings.Index(auth, ":")], Host: hp, Target: target, Status: status, Bytes: 100,
		UserAgent: ua, Origin: event.OriginLog, Format: "combined",
		Source: event.Source{File: "access.log", Line: s.line, Offset: -1},
	}
	f.Header = event.Header{{Name: "User-Agent", Value: ua}}
	s.fetches = append(s.fetches, f)
	return f
}

func (s *scenario) run() {
	s.t.Helper()
	s.runOrder(nil)
}

// runOrder runs the scenario; perm, when given, shuffles the Add order and
// adds from several goroutines.
func (s *scenario) runOrder(rng *rand.Rand) {
	s.t.Helper()
	b := NewBuilder(s.opts, bots.Default(), s.ids)
	type add func()
	var adds []add
	for _, c := range s.caps {
		adds = append(adds, func() { b.AddCapture(c) })
	}
	for _, f := range s.fetches {
		adds = append(adds, func() { b.AddFetch(f) })
	}
	for _, e := range s.index {
		adds = append(adds, func() { b.AddIndexEntry(e) })
	}
	for _, e := range s.snippets {
		adds = append(adds, func() { b.AddSnippetEntry(e) })
	}
	if rng != nil {
		rng.Shuffle(len(adds), func(i, j int) { adds[i], adds[j] = adds[j], adds[i] })
		var wg sync.WaitGroup
		ch := make(chan add)
		for range 4 {
			wg.Go(func() {
				for a := range ch {
					a()
				}
			})
		}
		for _, a := range adds {
			ch <- a
		}
		close(ch)
		wg.Wait()
	} else {
		for _, a := range adds {
			a()
		}
	}
	s.model = b.Build()
	order := slices.Clone(s.fetches)
	slices.SortStableFunc(order, func(x, y *event.Fetch) int { return cmpTime(x.Time, y.Time) })
	s.judg = make(map[*event.Fetch]*Judgement)
	s.out = &table.Collector{}
	js := judgeKept(s.model, order, s.out)
	for i, f := range order {
		s.judg[f] = &js[i]
	}
	if err := s.model.WriteTables(s.out); err != nil {
		s.t.Fatal(err)
	}
	s.summary = s.model.Summary()
	s.checkStreamed(nil)
}

// checkStreamed runs the scenario again with a Builder that streams the
// bots' robots.txt fetches (Builder.StreamViews) and a ViewTracker fed
// the fetches of each time at once, as audit's pass 2 does, and fails
// unless every table is the same: the tracker must settle every view the
// whole-history model settles.
func (s *scenario) checkStreamed(_ []func()) {
	s.t.Helper()
	// This second model also spills its capture summaries between Build
	// and WriteTables (capspill.go), and its robots.txt documents after
	// WriteBuiltTables (docspill.go), however few: they must read back
	// exactly.
	opts := s.opts
	opts.spillAllCaptures = true
	// Build's steps on three workers, however few the items (buildpar.go):
	// the model must be the serial loop's.
	opts.buildSplit = 3
	if opts.SpillDir == "" {
		opts.SpillDir = s.t.TempDir()
	}
	m := s.build(opts, true)
	defer m.Close()
	if s.opts.SpillDir == "" && len(s.caps) > 0 && (m.capSpill == nil || m.captures != nil) {
		s.t.Errorf("%d captures not spilled by Build (spill %v, %d in memory)", len(s.caps), m.capSpill != nil, len(m.captures))
	}
	order := s.byTime()
	out := &table.Collector{}
	// The tables Build settles go first, as audit writes them, and the
	// documents' cold parts are spilled however few (docspill.go).
	if err := m.WriteBuiltTables(out); err != nil {
		s.t.Fatal(err)
	}
	if s.opts.SpillDir == "" && m.docSpill == nil && m.Summary().RobotsVersions > 0 {
		s.t.Errorf("robots.txt documents not spilled by WriteBuiltTables")
	}
	m.OneViewTracker() // each entry pass 1 kept let go once applied
	judgeStreamed(m, order, out)
	if err := m.WriteTables(out); err != nil {
		s.t.Fatal(err)
	}
	sum, want := m.Summary(), s.summary
	sum.BotViews, want.BotViews = 0, 0 // streamed views count only what pass 1 built
	if !reflect.DeepEqual(sum, want) {
		s.t.Errorf("streamed views, captures spilled: summary %+v, want %+v", sum, s.summary)
	}
	if !reflect.DeepEqual(out, s.out) {
		for i := range min(len(out.Fetches), len(s.out.Fetches)) {
			if !reflect.DeepEqual(out.Fetches[i], s.out.Fetches[i]) {
				s.t.Errorf("streamed views: fetch row %d\n got  %+v\n want %+v", i, out.Fetches[i], s.out.Fetches[i])
				break
			}
		}
		s.t.Errorf("streamed views: the tables differ from the whole-history model's (%d/%d fetches, %d/%d violations)",
			len(out.Fetches), len(s.out.Fetches), len(out.Violations), len(s.out.Violations))
	}
}

// judgeStreamed judges fetches, in time order, through a ViewTracker and
// a Tracker into sink, the fetches of one time given to Step at once.
// judgeKept judges fetches in time order with the views the model kept
// from Build (Judge), as audit does without streamed views, and hands the
// rows to sink; it returns the judgements in order.
func judgeKept(m *Model, order []*event.Fetch, sink table.Sink) []Judgement {
	tr := m.NewTracker()
	js := make([]Judgement, len(order))
	for i, f := range order {
		js[i] = m.Judge(f)
		j := &js[i]
		tr.Observe(j)
		sink.Fetch(&j.Fetch)
		for k := range j.Violations {
			sink.Violation(&j.Violations[k])
		}
	}
	return js
}

func judgeStreamed(m *Model, order []*event.Fetch, sink table.Sink) {
	vt := m.NewViewTracker()
	tr := m.NewTracker()
	views := make([]FetchView, len(order))
	for i := 0; i < len(order); {
		k := i + 1
		for k < len(order) && order[k].Time.Equal(order[i].Time) {
			k++
		}
		vt.Step(order[i:k], views[i:k])
		i = k
	}
	for i, f := range order {
		var j Judgement
		m.JudgeIntoView(&j, f, &views[i])
		tr.Observe(&j)
		sink.Fetch(&j.Fetch)
		for k := range j.Violations {
			sink.Violation(&j.Violations[k])
		}
	}
}

func (s *scenario) j(f *event.Fetch) *Judgement {
	s.t.Helper()
	j, ok := s.judg[f]
	if !ok {
		s.t.Fatalf("fetch %s not judged", f.Target)
	}
	return j
}

func kinds(vs []table.Violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Kind)
	}
	return out
}

// expect checks a fetch's view, verdict and finding kinds.
func (s *scenario) expect(f *event.Fetch, view View, verdict Verdict, wantKinds ...string) *Judgement {
	s.t.Helper()
	j := s.j(f)
	if j.Fetch.RobotsView != string(view) || j.Fetch.RobotsVerdict != string(verdict) {
		s.t.Errorf("%s %s at %s: got view %q verdict %q, want %q %q", j.Fetch.Agent, f.Target, fmtTime(f.Time),
			j.Fetch.RobotsView, j.Fetch.RobotsVerdict, view, verdict)
	}
	if got := kinds(j.Violations); !slices.Equal(got, wantKinds) {
		s.t.Errorf("%s %s at %s: got findings %q, want %q", j.Fetch.Agent, f.Target, fmtTime(f.Time), got, wantKinds)
		for _, v := range j.Violations {
			s.t.Logf("  %s: %s", v.Kind, v.Evidence)
		}
	}
	if int(j.Fetch.Findings) != len(j.Violations) {
		s.t.Errorf("findings column = %d, want %d", j.Fetch.Findings, len(j.Violations))
	}
	return j
}

func (s *scenario) violations(kind string) []table.Violation {
	var out []table.Violation
	for _, v := range s.out.Violations {
		if v.Kind == kind {
			out = append(out, v)
		}
	}
	return out
}

func (s *scenario) retention(url string, at time.Time) table.Retention {
	s.t.Helper()
	for _, r := range s.out.Retentions {
		if r.URL == url && r.FetchTime.Equal(at) {
			return r
		}
	}
	s.t.Fatalf("no retention row for %s at %s", url, fmtTime(at))
	return table.Retention{}
}

func (s *scenario) versionRows(authority string) []table.RobotsVersion {
	var out []table.RobotsVersion
	for _, v := range s.out.RobotsVersions {
		if v.Authority == authority {
			out = append(out, v)
		}
	}
	return out
}

func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s = %q\nwant it to contain %q", what, got, w)
		}
	}
}

// discard is a Sink that drops every row.
type discard struct{}

func (discard) Fetch(*table.Fetch) error                 { return nil }
func (discard) Violation(*table.Violation) error         { return nil }
func (discard) RobotsVersion(*table.RobotsVersion) error { return nil }
func (discard) RobotsRule(*table.RobotsRule) error       { return nil }
func (discard) Directive(*table.Directive) error         { return nil }
func (discard) Retention(*table.Retention) error         { return nil }
func (discard) Problem(*table.Problem) error             { return nil }

// fetchRows counts the fetch rows the scenario wrote that satisfy keep.
func (s *scenario) fetchRows(keep func(*table.Fetch) bool) int {
	n := 0
	for i := range s.out.Fetches {
		if keep(&s.out.Fetches[i]) {
			n++
		}
	}
	return n
}

// spoofedFindings counts the findings written for spoofed clients.
func (s *scenario) spoofedFindings() int {
	n := 0
	for _, v := range s.out.Violations {
		if v.Identity == string(IdentitySpoofed) {
			n++
		}
	}
	return n
}

// viewOf returns the one archive crawl's view of the bot lower on a; nil
// when it has none, and a panic when it has several.
func viewOf(a *authority, lower string) *botView {
	var out *botView
	a.views.each(func(k vkey, bv *botView) {
		if k.lower != lower || k.sc.kind != scopeCrawl {
			return
		}
		if out != nil {
			panic("several views of " + lower + " on " + a.key)
		}
		out = bv
	})
	return out
}

// build gives every event of the scenario to a Builder made with opts,
// its views streamed when stream (Builder.StreamViews), in the order the
// scenario made them, and builds the model.
func (s *scenario) build(opts Options, stream bool) *Model {
	b := NewBuilder(opts, bots.Default(), s.ids)
	if stream {
		b.StreamViews()
	}
	for _, c := range s.caps {
		b.AddCapture(c)
	}
	for _, f := range s.fetches {
		b.AddFetch(f)
	}
	for _, e := range s.index {
		b.AddIndexEntry(e)
	}
	for _, e := range s.snippets {
		b.AddSnippetEntry(e)
	}
	return b.Build()
}

// byTime returns the scenario's fetches in time order, as pass 2 judges
// them.
func (s *scenario) byTime() []*event.Fetch {
	order := slices.Clone(s.fetches)
	slices.SortStableFunc(order, func(x, y *event.Fetch) int { return cmpTime(x.Time, y.Time) })
	return order
}
