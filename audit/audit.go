package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/internal/profile"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

// Config is one validated audit run.
type Config struct {
	Inputs []string // files, directories, globs
	Out    string   // output directory
	Force  bool     // replace an existing output directory
	Jobs   int      // parallel workers; 0 = all cores
	// Options are what the input layer reads with: log format, the
	// files that accompany the inputs (--bots, --robots, …) and how
	// fetches are judged. A MaxProblemsPerFile of 0 is
	// input.DefaultMaxProblems.
	input.Options
	// Progress receives a live progress line; nil for silence.
	Progress io.Writer
	// Version, Command and ManifestOptions (the flags as given) are
	// recorded in the manifest.
	Version         string
	Command         []string
	ManifestOptions map[string]any
	// Stdin is read for the input "-" (StdinName); nil makes "-" a
	// failed input.
	Stdin io.Reader
}

// ErrNoSite means that some log lines or robots.txt sources named no
// site while several could own them: they were not used (their fetches
// not judged), the tables were written all the same, and the message
// says how to bind them (URL=PATH).
var ErrNoSite = errors.New("audit: inputs bound to no site")

// ErrInputs means some input could not be read (the run still wrote
// everything it could, and problems.parquet says what failed).
var ErrInputs = errors.New("audit: some inputs could not be read")

// Summary is what the run did, for the closing lines and the manifest.
type Summary struct {
	Out          string
	Files        []output.Input
	Counts       map[string]int64
	Findings     map[string]int64 // by kind
	Problems     int64
	Fetches      int64 // rows of fetches.parquet
	Judged       int64 // of those, judged against robots.txt
	Unverifiable int64 // bot fetches from sources that cannot show signature headers
	Failed       []string
	Timings      map[string]float64
	// Notices say what the run judged less than it could, why, and what
	// to pass to judge it.
	Notices []Notice
	Catalog output.Catalog // the bot catalog used
	// First and Last span the times of the events read (log timestamps,
	// WARC-Date); the manifest records them as started/finished.
	First, Last time.Time
	// ProblemsBySeverity counts the rows of problems.parquet by severity
	// (event.SevError, SevWarning, SevInfo), for --fail-on-problems.
	ProblemsBySeverity map[string]int64
	// AsOf is the time retention, take-downs and untimed listing entries
	// were judged as of. AsOfDefault says that --as-of was not given, so
	// that the latest time in the data chose it: other inputs in the run
	// move it. AsOfFrom is the event that set it (zero when not known);
	// Listings says that listings were given.
	AsOf        time.Time
	AsOfDefault bool
	AsOfFrom    event.Source
	Listings    bool

	mu        sync.Mutex
	referrers map[string]int64 // referrer sites of host-less log lines, for the --site hint
	// facts counts what the notices need as rows pass (NotJudged,
	// NotGiven, NotPublished); Referrers is kept in referrers above.
	facts NoticeFacts
	// why holds the first error problem of each input file, so that the
	// error naming the failed inputs says why each failed.
	why map[string]string
}

type fileState struct {
	f        ingest.File
	stats    ingest.Stats
	err      error
	problems []event.Problem
	sha      string
	// res is what pass 1 read of it (input.Reader.Read).
	res *input.Result
	// src, for an input read once (standard input, a pipe), is the
	// reader sniffing returned, positioned at the input's first byte;
	// closeSrc closes what was opened. nil for files read by name.
	src      io.Reader
	closeSrc func()
	// spool holds the fetches pass 1 read, for pass 2 (spool.go).
	spool *fetchSpool
	// window is the reorder window of pass 2 for this file: reorderWindow,
	// or the whole file for a log written newest first (see
	// newestFirst).
	window int
	// split is true when pass 2 reads the runs of its spool (runs.go) as
	// sources of their own.
	split  bool
	failed bool // its fetches could not be spooled, or its closing problems say it failed
	// explicit is an input named on the command line (or standard
	// input), not found in a directory: it must be readable.
	explicit bool
	// site is the authority the input is bound to (URL=PATH), "" when
	// unbound; hostless counts its fetches that named no host.
	site     string
	hostless int64
}

// closeInput closes an input read once; a no-op for the others and
// when called again.
func (fs *fileState) closeInput() {
	if fs.closeSrc != nil {
		fs.closeSrc()
		fs.closeSrc, fs.src = nil, nil
	}
}

// Run performs the audit. It returns ErrInputs (wrapped) when an input
// could not be read; the tables are written all the same.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxProblemsPerFile <= 0 {
		cfg.MaxProblemsPerFile = input.DefaultMaxProblems
	}

	// Refuse an existing output before any work.
	w, err := output.Create(cfg.Out, output.Options{Force: cfg.Force})
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			w.Abort()
		}
	}()
	sum, model, err := execute(ctx, cfg, w)
	if sum == nil {
		return nil, err
	}
	start := time.Now()
	m := &output.Manifest{
		Tool:     "repaudit",
		Version:  cfg.Version,
		Command:  cfg.Command,
		Options:  cfg.ManifestOptions,
		Inputs:   sum.Files,
		Timings:  sum.Timings,
		Catalog:  &sum.Catalog,
		AsOf:     formatTime(model.AsOf()),
		Started:  formatTime(sum.First),
		Finished: formatTime(sum.Last),
		Notices:  sum.Notices,
	}
	for _, c := range model.ArchiveCrawlers() {
		m.ArchiveCrawlers = append(m.ArchiveCrawlers, output.ArchiveCrawler{File: c.File, Agent: c.Agent, DerivedFrom: c.From, Crawl: c.Crawl})
	}
	if cerr := w.Commit(m); cerr != nil {
		return nil, fmt.Errorf("audit: commit: %w", cerr)
	}
	committed = true
	sum.Timings["commit"] = time.Since(start).Seconds()
	sum.Counts = w.Counts()
	return sum, err
}

// execute runs the audit's phases and writes every row to sink; it
// returns the summary and the model (for the manifest). An ErrInputs
// comes with a summary: the rows were written all the same.
func execute(ctx context.Context, cfg Config, w table.Sink) (*Summary, *evaluate.Model, error) {
	if err := input.CheckSources(cfg.Options); err != nil {
		return nil, nil, err
	}
	r := newRun(ctx, cfg)
	defer r.cleanup()
	if err := r.phase("sniff", r.prepare); err != nil {
		return nil, nil, err
	}
	if err := r.newBuilder(); err != nil {
		return nil, nil, err
	}
	if err := r.phase("pass1", r.readPass1); err != nil {
		return nil, nil, err
	}
	r.settleAsOf()
	var model *evaluate.Model
	r.phase("build", func() error { model, r.builder = r.builder.Build(), nil; return nil })
	defer model.Close()
	counter := &countingSink{Sink: w, sum: r.sum}
	// The tables Build settles whole are written, and their buffers
	// freed, before pass 2's tables fill (Model.WriteBuiltTables).
	if err := r.phase("built", func() error { return model.WriteBuiltTables(counter) }); err != nil {
		return nil, nil, fmt.Errorf("audit: write tables: %w", err)
	}
	// Pass 2 makes one ViewTracker (judging.views), which can then let
	// go of the archive's robots.txt fetches as it applies them.
	model.OneViewTracker()
	if err := r.phase("pass2", func() error { return r.judgePass2(model, counter) }); err != nil {
		return nil, nil, err
	}
	// The fetches and violations tables get few rows from here on (the
	// archive's unpaired captures and findings): their spare buffers go
	// while the model's tables are written (output.Writer.Trim).
	if t, ok := w.(interface{ Trim() }); ok {
		t.Trim()
	}
	if err := r.phase("write", func() error { return r.writeTables(model, counter) }); err != nil {
		return nil, nil, err
	}
	return r.finish(model)
}

// run is one audit under way: what its phases read and add to.
type run struct {
	ctx     context.Context
	cfg     Config
	sum     *Summary
	st      *input.State
	timings map[string]float64
	catalog *bots.Catalog
	ids     *identity.Store
	builder *evaluate.Builder
	files   []*fileState      // the streamed inputs, documents and listings, in input order
	opened  []*fileState      // inputs read once, closed at the end whatever happens
	inputs  []string          // cfg.Inputs without their URL= bindings
	bound   map[string]string // path (as Expand lists it) -> the authority it is bound to
	spool   *spoolDir
	events  atomic.Int64 // events read or judged, for the progress line
	asOf    asOfChoice   // what the data say of the default as-of (asof.go)
}

// settleAsOf finds the default as-of in the inputs' times, ignoring
// outliers (asof.go), and reports them and an --as-of before the data.
func (r *run) settleAsOf() {
	var streamed []*fileState
	for _, fs := range r.files {
		if fs.err == nil && streamKind(fs.f.Kind) {
			streamed = append(streamed, fs)
		}
	}
	r.asOf = chooseAsOf(streamed)
	given := !r.cfg.Eval.AsOf.IsZero()
	asOf := r.cfg.Eval.AsOf
	if !given && len(r.asOf.ignored) > 0 {
		r.builder.SetDefaultAsOf(r.asOf.at)
		asOf = r.asOf.at
	}
	r.st.Problems = append(r.st.Problems, r.asOf.problems(asOf, given)...)
}

func newRun(ctx context.Context, cfg Config) *run {
	return &run{
		ctx: ctx, cfg: cfg, st: &input.State{}, timings: map[string]float64{}, spool: newSpoolDir(cfg.Out),
		sum: &Summary{Out: cfg.Out, Findings: map[string]int64{},
			referrers: map[string]int64{}, ProblemsBySeverity: map[string]int64{}},
	}
}

// phase runs fn and records how long it took.
func (r *run) phase(name string, fn func() error) error {
	start := time.Now()
	err := fn()
	r.timings[name] = time.Since(start).Seconds()
	profile.Phase(name)
	return err
}

// cleanup closes the inputs read once and removes the spool.
func (r *run) cleanup() {
	for _, fs := range r.opened {
		fs.closeInput()
	}
	for _, fs := range r.files {
		if fs.spool != nil {
			fs.spool.release()
		}
	}
	r.spool.remove()
}

// judgePass2 judges the fetches pass 1 spooled, merged in time order
// (judgeAll), and writes them to sink.
func (r *run) judgePass2(model *evaluate.Model, sink table.Sink) error {
	if beforePass2 != nil {
		beforePass2()
	}
	var sources []*fileState
	var total int64
	first := map[string]string{} // digest → first input with it
	for _, fs := range r.files {
		if fs.err != nil || fs.stats.Fetches == 0 || judgedTwice(fs, first) {
			continue
		}
		if fs.spool.err != nil {
			fs.problems = append(fs.problems, spoolFailed(fs))
			fs.failed = true
			continue
		}
		fs.window = newestFirst(fs)
		fs.split = fs.window == reorderWindow && fs.stats.Descending <= fs.stats.Ascending
		if fs.split {
			fs.problems = append(fs.problems, runProblems(fs, fs.split)...)
		}
		sources = append(sources, fs)
		total += fs.spool.size()
	}
	r.events.Store(0)
	prog := newProgress(r.cfg.Progress, "judging", total, &r.events)
	defer prog.stop()
	return judgeAll(r.ctx, r.cfg.Jobs, model, sources, sink, &prog.done, &r.events)
}

// writeTables writes the model's tables and the problems, in input
// order: local files first, then each input.
func (r *run) writeTables(model *evaluate.Model, sink *countingSink) error {
	if err := model.WriteTables(sink); err != nil {
		return fmt.Errorf("audit: write tables: %w", err)
	}
	if err := model.Close(); err != nil { // the spilled robots.txt bodies
		return fmt.Errorf("audit: %w", err)
	}
	for _, p := range r.st.Problems {
		if err := writeProblem(sink, p); err != nil {
			return err
		}
	}
	for _, fs := range r.files {
		for _, p := range r.fileProblems(fs) {
			if err := writeProblem(sink, p); err != nil {
				return err
			}
			fs.failed = fs.failed || p.Code == problem.InputUnreadable
		}
		if fs.err != nil || fs.failed {
			r.sum.Failed = append(r.sum.Failed, fs.f.Path)
		}
	}
	return nil
}

func writeProblem(sink table.Sink, p event.Problem) error {
	return sink.Problem(input.ProblemRow(p))
}

// fileProblems returns the problems of one input: those kept (pass 2
// adds to them), then those that close its list (input.Result.Closing).
func (r *run) fileProblems(fs *fileState) []event.Problem {
	return append(fs.problems, fs.res.Closing()...)
}

// finish fills in the summary: the manifest's inputs, the time range,
// the notices; ErrInputs when an input failed.
func (r *run) finish(model *evaluate.Model) (*Summary, *evaluate.Model, error) {
	sum := r.sum
	for _, fs := range r.files {
		in := fs.res.Input()
		if f := fs.stats.First; !f.IsZero() && (sum.First.IsZero() || f.Before(sum.First)) {
			sum.First = f
		}
		if l := fs.stats.Last; l.After(sum.Last) {
			sum.Last = l
		}
		sum.Files = append(sum.Files, in)
	}
	if len(r.asOf.ignored) > 0 && sum.Last.After(r.asOf.at) {
		sum.Last = r.asOf.at // the outliers are not the data's range
	}
	sum.Files = append(sum.Files, r.st.Inputs...)
	sum.Failed = append(r.st.Failed, sum.Failed...)
	sum.Timings = r.timings
	unbound, siteErr := r.unsettled(model)
	sum.facts.DNSGiven = r.ids.HasDNS() // a snapshot among the inputs counts as a --dns-dir
	sum.Notices = notices(model, r.catalog, sum, r.cfg, unbound)
	sum.Notices = append(sum.Notices, r.asOf.notices(model.AsOf(), !r.cfg.Eval.AsOf.IsZero())...)
	sum.AsOf, sum.AsOfDefault = model.AsOf(), r.cfg.Eval.AsOf.IsZero()
	if sum.AsOfDefault && r.asOf.at.Equal(sum.AsOf) {
		sum.AsOfFrom = r.asOf.src
	}
	sum.Listings = len(r.cfg.Index)+len(r.cfg.Snippets) > 0
	var err error
	if len(sum.Failed) > 0 {
		err = fmt.Errorf("%w: %s", ErrInputs, failedList(sum.Failed, sum.why))
	}
	return sum, model, errors.Join(err, siteErr)
}

// beforePass2, when set (tests only), runs between the passes: that is
// where a rotated or rewritten file changes under the audit.
var beforePass2 func()

// streamKind reports the kinds read as streams of fetches and captures.
func streamKind(k ingest.Kind) bool {
	return k == ingest.KindWARC || k == ingest.KindARC || k == ingest.KindLog
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// countingSink counts rows as they pass, so the closing summary says
// exactly what the tables hold (and what report will say).
type countingSink struct {
	table.Sink
	sum *Summary
}

func (c *countingSink) Violation(v *table.Violation) error {
	c.sum.Findings[v.Kind]++
	return c.Sink.Violation(v)
}

func (c *countingSink) Fetch(f *table.Fetch) error {
	c.count(f)
	return c.Sink.Fetch(f)
}

// count counts f as Fetch does, without writing it (judging calls it
// on another goroutine than the one that writes).
func (c *countingSink) count(f *table.Fetch) {
	c.sum.Fetches++
	c.sum.tally(f)
	if f.RobotsVerdict != "" && f.RobotsVerdict != "not_judged" {
		c.sum.Judged++
	}
	if f.Agent != "" && f.Signature == "unrecorded" {
		c.sum.Unverifiable++
	}
}

func (c *countingSink) RobotsVersion(v *table.RobotsVersion) error {
	c.sum.facts.TallyVersion(v)
	return c.Sink.RobotsVersion(v)
}

// Finish passes on that a table is whole (table.Finisher): one model
// writes the model's tables, once.
func (c *countingSink) Finish(name string) error { return table.Finish(c.Sink, name) }

func (c *countingSink) Retention(r *table.Retention) error {
	c.sum.facts.TallyRetention(r)
	return c.Sink.Retention(r)
}

func (c *countingSink) Problem(p *table.Problem) error {
	c.sum.facts.TallyProblem(p)
	if p.Severity == string(event.SevError) && p.SourceFile != "" {
		// The first error says why an input failed, unless its verdict
		// (input-unreadable) comes after errors of its lines.
		if _, ok := c.sum.why[p.SourceFile]; !ok && len(c.sum.why) < maxAgents || ok && p.Code == string(problem.InputUnreadable) {
			if c.sum.why == nil {
				c.sum.why = map[string]string{}
			}
			c.sum.why[p.SourceFile] = p.Message
		}
	}
	c.sum.Problems++
	c.sum.ProblemsBySeverity[p.Severity]++
	return c.Sink.Problem(p)
}

// runInto runs an audit into any sink (tests use a table.Collector).
func runInto(ctx context.Context, cfg Config, sink table.Sink) error {
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxProblemsPerFile <= 0 {
		cfg.MaxProblemsPerFile = input.DefaultMaxProblems
	}
	_, _, err := execute(ctx, cfg, sink)
	return err
}

// failedList names the failed inputs, each with the first error its
// problem rows give (why), as far as the run has one.
func failedList(failed []string, why map[string]string) string {
	parts := make([]string, len(failed))
	for i, f := range failed {
		parts[i] = f
		if w := why[f]; w != "" {
			parts[i] += " (" + w + ")"
		}
	}
	return strings.Join(parts, ", ")
}
