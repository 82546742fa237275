package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/table"
	"github.com/repaudit/repaudit/warc"
)

// Config is one validated audit run.
type Config struct {
	Inputs    []string         // files, directories, globs
	Out       string           // output directory
	Force     bool             // replace an existing output directory
	Jobs      int              // parallel workers; 0 = all cores
	LogFormat accesslog.Format // "" = detect per file
	// LogExtraHeaders names extra quoted fields after the User-Agent in
	// combined-style logs (see accesslog.Options.ExtraHeaders).
	LogExtraHeaders []string
	Bots            []string            // --bots files, merged over the default catalog
	Cards           []string            // --card files, valid for the whole run
	JWKS            []string            // --jwks files: trusted keys
	IPRanges        map[string][]string // --ip-ranges TOKEN=FILE
	IPRangesDirs    []string            // --ip-ranges-dir: IP list files tied to bots by name (audit/ipranges.go)
	Index           []string            // --index listings
	Snippets        []string            // --snippets listings
	// Robots, RobotsGit and RobotsDir are robots.txt versions as the site
	// keeps them: --robots FILE[@TIME], --robots-git DIR[:PATH],
	// --robots-dir DIR (see package history).
	Robots    []string
	RobotsGit []string
	RobotsDir []string
	Eval      evaluate.Options
	// Progress receives a live progress line; nil for silence.
	Progress io.Writer
	// Version, Command and Options are recorded in the manifest.
	Version string
	Command []string
	Options map[string]any
	// Stdin is read for the input "-" (StdinName); nil makes "-" a
	// failed input.
	Stdin io.Reader
	// MaxProblemsPerFile caps the problems kept per input (and code); the
	// rest are counted in one summary problem. 0 = 10000.
	MaxProblemsPerFile int
}

// InputError means some input could not be read (the run still wrote
// everything it could, and problems.parquet says what failed).
var InputError = errors.New("audit: some inputs could not be read")

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

	mu        sync.Mutex
	referrers map[string]int64 // referrer sites of host-less log lines, for the --site hint
	notJudged map[string]int64 // fetches not judged, by evaluate.NotJudged* code
	noList    map[string]int64 // bot fetches whose IP no list could check, by agent
}

type fileState struct {
	f        ingest.File
	stats    ingest.Stats
	err      error
	problems []event.Problem
	dropped  map[string]int64
	sha      string
	// read1 is the number of stored bytes pass 1 read (and hashed into
	// sha); pass 2 reads exactly those bytes and checks them (pass2).
	read1 int64
	// window is the reorder window of pass 2 for this file: reorderWindow,
	// or the whole file for a log written newest first (see
	// newestFirst).
	window int
	pass2  pass2Check
}

// Run performs the audit. It returns InputError (wrapped) when an input
// could not be read; the tables are written all the same.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxProblemsPerFile <= 0 {
		cfg.MaxProblemsPerFile = 10000
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
		Options:  cfg.Options,
		Inputs:   sum.Files,
		Timings:  sum.Timings,
		Catalog:  &sum.Catalog,
		AsOf:     formatTime(model.AsOf()),
		Started:  formatTime(sum.First),
		Finished: formatTime(sum.Last),
		Notices:  sum.Notices,
	}
	for _, c := range model.ArchiveCrawlers() {
		m.ArchiveCrawlers = append(m.ArchiveCrawlers, output.ArchiveCrawler{File: c.File, Agent: c.Agent, DerivedFrom: c.From})
	}
	if cerr := w.Commit(m); cerr != nil {
		return nil, fmt.Errorf("audit: commit: %w", cerr)
	}
	committed = true
	sum.Timings["commit"] = time.Since(start).Seconds()
	sum.Counts = w.Counts()
	return sum, err
}

// execute runs both passes and writes every row to sink; it returns the
// summary and the model (for the manifest). An InputError comes with a
// summary: the rows were written all the same.
func execute(ctx context.Context, cfg Config, w table.Sink) (*Summary, *evaluate.Model, error) {
	timings := map[string]float64{}
	phase := func(name string, start time.Time) { timings[name] = time.Since(start).Seconds() }
	sum := &Summary{Out: cfg.Out, Findings: map[string]int64{}, notJudged: map[string]int64{}, noList: map[string]int64{}, referrers: map[string]int64{},
		ProblemsBySeverity: map[string]int64{}}
	start := time.Now()
	st := &runState{}
	// "-" is standard input: Expand does not know it, and like every input
	// that cannot be read twice it is spooled once (spool.go).
	var named0 []string
	stdin := false
	for _, a := range cfg.Inputs {
		if a == StdinName {
			stdin = true
			continue
		}
		named0 = append(named0, a)
	}
	paths, skipped, err := ingest.Expand(existingInputs(named0, st))
	if err != nil {
		return nil, nil, err
	}
	if stdin {
		paths = append(paths, StdinName)
	}
	sp := newSpool(cfg.Out)
	defer sp.remove()
	catalog := bots.Default()
	for _, p := range cfg.Bots {
		c, err := loadCatalog(p)
		if err != nil {
			return nil, nil, err
		}
		catalog = catalog.Merge(c)
	}
	dv := catalog.DataVersions()
	sum.Catalog = output.Catalog{CrawlerUserAgents: dv.CrawlerUserAgents, AIRobotsTxt: dv.AIRobotsTxt,
		AIRobotsTxtDate: dv.AIRobotsTxtDate, Bots: catalog.Len(), Files: cfg.Bots}
	ids := identity.NewStore()
	st.problems = append(st.problems, skipped...) // directory entries Expand did not read
	if err := loadLocalIdentity(cfg, catalog, ids, &st.problems); err != nil {
		return nil, nil, err
	}

	// Listings named with --index or --snippets are read as such even when
	// a directory input also contains them; files found by walking a
	// directory that hold nothing repaudit reads are skipped with a note,
	// while a file named explicitly must be readable.
	named := map[string]bool{}
	for _, p := range append(append([]string(nil), cfg.Index...), cfg.Snippets...) {
		named[filepath.Clean(p)] = true
	}
	explicit := map[string]bool{StdinName: true}
	for _, a := range cfg.Inputs {
		if st, err := os.Stat(a); err == nil && !st.IsDir() {
			explicit[filepath.Clean(a)] = true
		}
	}
	var files []*fileState
	var total int64
	for _, p := range paths {
		if named[filepath.Clean(p)] {
			continue
		}
		var f ingest.File
		var sha string
		if needsSpool(p) {
			e, serr := sp.add(ctx, p, cfg.Stdin)
			if serr != nil {
				if ctx.Err() != nil {
					return nil, nil, ctx.Err()
				}
				files = append(files, &fileState{f: ingest.File{Path: p, Kind: ingest.KindUnknown}, err: serr})
				continue
			}
			f, err = ingest.SniffContext(ctx, e.path, cfg.LogFormat)
			f.Path, f.Spool, sha = p, e.path, e.sha
		} else {
			f, err = ingest.SniffContext(ctx, p, cfg.LogFormat)
		}
		if err == nil && f.Kind == ingest.KindUnknown && !explicit[filepath.Clean(p)] {
			st.problems = append(st.problems, event.Problem{Source: event.Source{File: p, Offset: -1}, Code: "input-skipped", Severity: event.SevInfo,
				Message: "found in a directory input but holds nothing repaudit reads (" + f.Note + "); skipped"})
			continue
		}
		files = append(files, &fileState{f: f, err: err, sha: sha})
	}
	files = dropDuplicates(files, st)
	for _, fs := range files {
		total += fs.f.Size
	}
	phase("sniff", start)

	eopts := cfg.Eval
	if eopts.SpillDir == "" {
		eopts.SpillDir = sp.base // large robots.txt bodies go beside the output
	}
	builder := evaluate.NewBuilder(eopts, catalog, ids)
	for _, p := range cfg.Index {
		if err := readListing(p, builder.AddIndexEntry, &st.problems); err != nil {
			return nil, nil, err
		}
	}
	for _, p := range cfg.Snippets {
		if err := readListing(p, builder.AddSnippetEntry, &st.problems); err != nil {
			return nil, nil, err
		}
	}
	readSiteVersions(cfg, builder, st)
	recordSideInputs(cfg, st)

	// Pass 1.
	start = time.Now()
	var events atomic.Int64
	prog := newProgress(cfg.Progress, "reading", total, &events)
	parallel(cfg.Jobs, len(files), func(i int) {
		fs := files[i]
		if fs.err != nil {
			return
		}
		fs.dropped = map[string]int64{}
		keep := func(p event.Problem) {
			p = renameSource(fs, p)
			if int64(len(fs.problems)) < int64(cfg.MaxProblemsPerFile) {
				fs.problems = append(fs.problems, p)
			} else {
				fs.dropped[p.Code]++
			}
		}
		switch fs.f.Kind {
		case ingest.KindWARC, ingest.KindARC, ingest.KindLog:
			resolver := warc.NewResolver(32 << 20)
			digest := newCountingHash()
			var hosts hostSet
			fs.stats, fs.err = ingest.Read(ctx, fs.f, ingest.Options{Progress: &prog.done, Resolver: resolver, Digest: digest, LogExtraHeaders: cfg.LogExtraHeaders}, ingest.Handler{
				Fetch: func(ft *event.Fetch) error {
					events.Add(1)
					hosts.note(ft)
					if ft.Origin == event.OriginWARC || robots.IsRobotsTxt(ft.Target) {
						builder.AddFetch(ft)
					}
					return nil
				},
				Capture: func(c *event.Capture) error {
					events.Add(1)
					if c.Status >= 200 && c.Status < 300 || c.Status == 0 && c.RecordType == "resource" {
						if kind := identity.CaptureKind(c.URL, c.ContentType, c.Body); kind != "" {
							_, probs := ids.AddCapture(c.URL, c.Body, c.Time, c.Source.String())
							for _, p := range probs {
								keep(identityProblem(p, c.Source))
							}
						}
					}
					builder.AddCapture(c)
					return nil
				},
				Warcinfo: builder.AddWarcinfo,
				Problem:  keep,
			})
			if fs.err == nil {
				// The digest and size describe exactly the bytes read,
				// which pass 2 reads again and checks (judge.go).
				fs.sha, fs.read1 = digest.hex(), digest.n
				fs.f.Size = digest.n
			}
			builder.NoteHosts(hosts.list, hosts.hostless)
			sum.mergeReferrers(&hosts)
			builder.NoteTimes(fs.stats.First, fs.stats.Last)
		case ingest.KindRobots:
			// A robots.txt among the inputs: one version of the site's file,
			// in force for the whole data range.
			var v history.Version
			if v, fs.err = history.ReadFile(fs.f.ReadPath(), time.Time{}); fs.err == nil {
				builder.AddSiteVersion(siteVersion(v))
				fs.stats.Records = map[string]int64{"robots.txt": 1}
			}
			prog.done.Add(fs.f.Size)
		case ingest.KindCard, ingest.KindJWKS, ingest.KindIPList:
			rf := fs.f
			rf.Path = rf.ReadPath() // problems are renamed by keep
			fs.err = loadDocument(rf, catalog, ids, keep)
			prog.done.Add(fs.f.Size)
		case ingest.KindListing:
			fs.err = readListing(fs.f.ReadPath(), builder.AddIndexEntry, &fs.problems)
			for i := range fs.problems {
				fs.problems[i] = renameSource(fs, fs.problems[i])
			}
			prog.done.Add(fs.f.Size)
		default:
			fs.err = fmt.Errorf("%s: cannot tell what this file holds (%s); name its kind with a flag", fs.f.Path, fs.f.Note)
			prog.done.Add(fs.f.Size)
		}
		if fs.err == nil && fs.sha == "" {
			// Documents and listings are small; streams were hashed as read.
			fs.sha, fs.err = fileSHA256(fs.f.ReadPath())
		}
	})
	prog.stop()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	phase("pass1", start)

	start = time.Now()
	model := builder.Build()
	defer model.Close()
	phase("build", start)

	// Pass 2.
	if beforePass2 != nil {
		beforePass2()
	}
	start = time.Now()
	var sources []*fileState
	var total2 int64
	for _, fs := range files {
		if fs.err == nil && fs.stats.Fetches > 0 {
			fs.window = newestFirst(fs)
			sources = append(sources, fs)
			total2 += fs.f.Size
		}
	}
	events.Store(0)
	prog = newProgress(cfg.Progress, "judging", total2, &events)
	counter := &countingSink{Sink: w, sum: sum}
	err = judgeAll(ctx, cfg.Jobs, model, sources, cfg.LogExtraHeaders, counter, &prog.done, &events)
	prog.stop()
	if err != nil {
		return nil, nil, err
	}
	for _, fs := range sources {
		checkPass2(fs)
	}
	phase("pass2", start)

	start = time.Now()
	if err := model.WriteTables(counter); err != nil {
		return nil, nil, fmt.Errorf("audit: write tables: %w", err)
	}
	if err := model.Close(); err != nil {
		return nil, nil, fmt.Errorf("audit: %w", err)
	}
	// Problems, in input order: local files first, then each input.
	writeProblem := func(p event.Problem) error {
		return counter.Problem(&table.Problem{
			SourceFile: p.Source.File, SourceLine: p.Source.Line, Offset: p.Source.Offset,
			Code: p.Code, Severity: p.Severity, Message: p.Message,
		})
	}
	for _, p := range st.problems {
		if err := writeProblem(p); err != nil {
			return nil, nil, err
		}
	}
	for _, fs := range files {
		for _, p := range fs.problems {
			if err := writeProblem(p); err != nil {
				return nil, nil, err
			}
		}
		codes := make([]string, 0, len(fs.dropped))
		for c := range fs.dropped {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, c := range codes {
			if err := writeProblem(event.Problem{Source: event.Source{File: fs.f.Path, Offset: -1}, Code: c, Severity: event.SevError,
				Message: fmt.Sprintf("%d more problems with this code not listed (cap %d per file)", fs.dropped[c], cfg.MaxProblemsPerFile)}); err != nil {
				return nil, nil, err
			}
		}
		if s := fs.stats; fs.err == nil && streamKind(fs.f.Kind) && s.Fetches+s.Captures == 0 {
			// A log or archive that gives nothing is worth a row: a
			// scheduled audit can fail on it (--fail-on-problems).
			if err := writeProblem(event.Problem{Source: event.Source{File: fs.f.Path, Offset: -1}, Code: "input-empty", Severity: event.SevWarning,
				Message: fmt.Sprintf("no fetch or capture was read from this %s input (%d bytes)", fs.f.Kind, s.Bytes)}); err != nil {
				return nil, nil, err
			}
		}
		if fs.err != nil {
			sum.Failed = append(sum.Failed, fs.f.Path)
			if err := writeProblem(event.Problem{Source: event.Source{File: fs.f.Path, Offset: -1}, Code: "input-unreadable", Severity: event.SevError, Message: fs.err.Error()}); err != nil {
				return nil, nil, err
			}
		} else if fs.pass2.failed {
			sum.Failed = append(sum.Failed, fs.f.Path)
		}
	}
	for _, fs := range files {
		in := output.Input{Path: fs.f.Path, Size: fs.f.Size, SHA256: fs.sha, Kind: string(fs.f.Kind), Format: fs.f.Format}
		if in.Format == "" {
			in.Format = fs.stats.Format
		}
		for _, n := range fs.stats.Records {
			in.Records += n
		}
		for _, n := range fs.stats.Problems {
			in.Problems += n
		}
		if f := fs.stats.First; !f.IsZero() && (sum.First.IsZero() || f.Before(sum.First)) {
			sum.First = f
		}
		if l := fs.stats.Last; l.After(sum.Last) {
			sum.Last = l
		}
		sum.Files = append(sum.Files, in)
	}
	sum.Files = append(sum.Files, st.inputs...)
	sum.Failed = append(st.failed, sum.Failed...)
	phase("write", start)
	sum.Timings = timings
	sum.Notices = notices(model, catalog, sum)
	if len(sum.Failed) > 0 {
		return sum, model, fmt.Errorf("%w: %s", InputError, strings.Join(sum.Failed, ", "))
	}
	return sum, model, nil
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

// parallel runs fn(0..n-1) on jobs goroutines.
func parallel(jobs, n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(jobs, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
	c.sum.Fetches++
	c.sum.tally(f)
	if f.RobotsVerdict != "" && f.RobotsVerdict != "not_judged" {
		c.sum.Judged++
	}
	if f.Agent != "" && f.Signature == "unrecorded" {
		c.sum.Unverifiable++
	}
	return c.Sink.Fetch(f)
}

func (c *countingSink) Problem(p *table.Problem) error {
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
		cfg.MaxProblemsPerFile = 10000
	}
	_, _, err := execute(ctx, cfg, sink)
	return err
}
