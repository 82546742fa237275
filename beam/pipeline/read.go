package pipeline

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/robots"
)

// readFn reads one input file (an element is a JSON fileRef) through the
// input layer (package input), as the local audit's pass 1 does, and
// sends on what each later stage needs:
//
//   - events: KV<partition, batch of records> — captures, fetches, listing entries
//   - docs: KV<URL key, record> — robots-like captures, for redirects
//   - requests: KV<URL key, partition> — a robots.txt redirect to another partition
//   - shared: evaluate.Shared of the file (JSON)
//   - identity: identityDoc (JSON) — captured or input cards, key sets, IP lists
//   - files: fileInfo (JSON), for the manifest
//   - problems: table.Problem (JSON)
type readFn struct {
	Cfg Config `json:"cfg"`
}

func (fn *readFn) ProcessElement(ctx context.Context, elem string,
	emitEvent func(string, []byte), emitDoc func(string, []byte), emitReq func(string, string),
	emitShared func([]byte), emitIdentity func([]byte), emitFile func([]byte), emitProblem func([]byte),
	emitSplit func(string, []byte)) error {
	var ref fileRef
	if err := json.Unmarshal([]byte(elem), &ref); err != nil {
		return fmt.Errorf("read: bad file element: %w", err)
	}
	local, cleanup, err := fetchLocal(ctx, ref.Path)
	if err != nil {
		return err
	}
	defer cleanup()
	s := &readSink{cfg: &fn.Cfg, ref: ref, events: newBatcher(emitEvent), emitDoc: emitDoc, emitReq: emitReq,
		emitIdentity: emitIdentity, emitFile: emitFile, emitProblem: emitProblem}
	defer s.events.flush() // also after an error: what was read is judged
	switch {
	case ref.Splits > 1:
		// One byte range of a large plain-text log (split.go).
		err = readSplit(ctx, ref, local, &fn.Cfg, s.splitFetch, emitSplit, s.shared.NoteTimes)
		s.shared.NoteHosts(s.hosts.Hosts())
		if refs := s.hosts.Referrers(); len(refs) > 0 {
			emitFile(encode(&fileInfo{Idx: ref.Idx, Referrers: refs}))
		}
	case ref.Role != "":
		// A listing named with --index or --snippets: the local audit
		// reads it before pass 1 and fails the run when it cannot.
		if err = s.readRole(local); err != nil {
			return err
		}
	default:
		s.readFile(ctx, local)
	}
	emitShared(encode(&s.shared))
	return err
}

// readSink is the read stage's input.Sink: it batches records by
// partition and emits what the other stages need.
type readSink struct {
	cfg                                 *Config
	ref                                 fileRef
	shared                              evaluate.Shared
	events                              *batcher
	hosts                               input.HostSet // of a split's fetches (input.Result has a whole file's)
	seq                                 int64
	scratch                             []byte // one fetch record, copied into its batch
	emitDoc                             func(string, []byte)
	emitReq                             func(string, string)
	emitIdentity, emitFile, emitProblem func([]byte)
}

// readFile reads a whole file by its kind.
func (s *readSink) readFile(ctx context.Context, local string) {
	ref := s.ref
	f, err := ingest.Sniff(local, s.cfg.LogFormat)
	if err == nil && f.Kind == ingest.KindUnknown && !ref.Explicit {
		s.problem(input.Skipped(ref.Path, f.Note))
		return
	}
	// Events and problems name the file as given, also when it was
	// copied here from a remote filesystem.
	f.Path, f.Spool = ref.Path, ""
	if local != ref.Path {
		f.Spool = local
	}
	opts := s.cfg.Options
	// Documents go to the judging stages as identityDoc: the store here
	// only collects their problems.
	rd := input.Reader{Options: &opts, Catalog: bots.Default(), IDs: identity.NewStore()}
	res := rd.Read(ctx, input.File{File: f, Err: err, Explicit: ref.Explicit}, s)
	for _, p := range res.Problems.List {
		s.problem(p)
	}
	for _, p := range res.Closing() {
		s.problem(p)
	}
	if err == nil && (f.Kind == ingest.KindWARC || f.Kind == ingest.KindARC || f.Kind == ingest.KindLog) {
		s.shared.NoteHosts(res.Hosts.Hosts())
		s.shared.NoteTimes(res.Stats.First, res.Stats.Last)
	}
	s.emitFile(encode(&fileInfo{Idx: ref.Idx, Listed: true, First: res.Stats.First, Last: res.Stats.Last,
		Failed: res.Err != nil, Input: res.Input(), Referrers: res.Hosts.Referrers()}))
}

// readRole reads a listing named with --index or --snippets.
func (s *readSink) readRole(local string) error {
	kind := byte(kindIndex)
	if s.ref.Role == "snippets" {
		kind = kindSnippet
	}
	var probs []event.Problem
	err := input.ReadListing(local, func(e evaluate.ListingEntry) { s.entry(kind, e, local) }, &probs)
	if err != nil {
		return fmt.Errorf("--%s %s: %w", s.ref.Role, s.ref.Path, err)
	}
	for _, p := range probs {
		if p.Source.File == local {
			p.Source.File = s.ref.Path
		}
		s.problem(p)
	}
	return nil
}

func (s *readSink) problem(p event.Problem) { s.emitProblem(encode(input.ProblemRow(p))) }

// splitFetch is Fetch for the fetches of a byte range, which the input
// layer does not read (split.go).
func (s *readSink) splitFetch(ft *event.Fetch) error {
	s.hosts.Note(ft)
	s.Fetch(ft)
	return nil
}

func (s *readSink) Fetch(ft *event.Fetch) {
	s.seq++
	// The local audit gives pass 1 the WARC request records and the
	// fetches of /robots.txt; pass 2 judges them all.
	model := ft.Origin == event.OriginWARC || robots.IsRobotsTxt(ft.Target)
	if model {
		s.shared.NoteFetch(ft)
	}
	out := ft
	if !evaluate.NeedsHeader(ft) {
		cp := *ft       // the reader reuses ft
		cp.Header = nil // read only for signed requests
		out = &cp
	}
	s.scratch = appendFetchRecord(s.scratch[:0], &record{Kind: kindFetch, Model: model, File: s.ref.Idx, Split: s.ref.Split, Seq: s.seq, Fetch: out})
	s.events.add(evaluate.FetchPartition(ft, s.cfg.Eval.DefaultAuthority), s.scratch)
}

func (s *readSink) Capture(c *event.Capture, isIdentity bool) {
	if isIdentity {
		s.emitIdentity(encode(&identityDoc{URL: c.URL, Body: c.Body, Time: c.Time, Where: c.Source.String()}))
	}
	key, ok := evaluate.CapturePartition(c)
	if !ok {
		return
	}
	s.shared.NoteCapture(c)
	cc := *c
	cc.WARCHeader = nil // not read by the evaluation
	if !evaluate.NeedsBody(c) {
		cc.Body = nil
	}
	rec := encode(&record{Kind: kindCapture, Capture: &cc})
	s.events.add(key, rec)
	if evaluate.RobotsLike(c) {
		s.emitDoc(evaluate.URLKey(c.URL), rec)
		if t, ok := evaluate.RedirectTarget(c); ok && evaluate.URLPartition(t) != key {
			s.emitReq(t, key)
		}
	}
}

func (s *readSink) Warcinfo(src event.Source, info event.Header) { s.shared.NoteWarcinfo(src, info) }

func (s *readSink) SiteVersion(v evaluate.SiteVersion) {
	s.shared.NoteSiteVersion(v)
	s.events.add(evaluate.URLPartition(v.URL), encode(&record{Kind: kindSite, Site: &v}))
}

func (s *readSink) Entry(e evaluate.ListingEntry) { s.entry(kindIndex, e, "") }

// entry sends a listing entry of the given kind to its partition; local,
// when not "", is a copy whose name the entry's source takes back.
func (s *readSink) entry(kind byte, e evaluate.ListingEntry, local string) {
	if local != "" && e.Source.File == local {
		e.Source.File = s.ref.Path
	}
	s.shared.NoteEntry(e)
	s.events.add(evaluate.ListingPartition(e), encode(&record{Kind: kind, Entry: &e}))
}

func (s *readSink) Document(f ingest.File) {
	s.emitIdentity(encode(&identityDoc{Path: f.Path, Kind: string(f.Kind)}))
}
