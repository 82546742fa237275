package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/table"
	"github.com/repaudit/repaudit/warc"
)

// readFn reads one input file (an element is a JSON fileRef) the way pass 1
// of audit.Run does, and sends on what each later stage needs:
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
	cfg := &fn.Cfg
	maxProblems := cfg.MaxProblemsPerFile
	if maxProblems <= 0 {
		maxProblems = 10000
	}
	kept := 0
	dropped := map[string]int64{}
	local, cleanup, err := fetchLocal(ctx, ref.Path)
	if err != nil {
		return err
	}
	defer cleanup()
	// Events and problems name the file as given, also when it was copied
	// here from a remote filesystem.
	rename := func(s *event.Source) {
		if s.File == local {
			s.File = ref.Path
		}
	}
	report := func(p event.Problem) {
		rename(&p.Source)
		emitProblem(encode(&table.Problem{
			SourceFile: p.Source.File, SourceLine: p.Source.Line, Offset: p.Source.Offset,
			Code: string(p.Code), Severity: p.Severity, Message: p.Message,
		}))
	}
	keep := func(p event.Problem) { // audit.Run's cap per file
		if kept < maxProblems {
			kept++
			report(p)
		} else {
			dropped[string(p.Code)]++
		}
	}
	var shared evaluate.Shared
	events := newBatcher(emitEvent)
	defer events.flush() // also after an error: what was read is judged
	var seq int64
	var scratch []byte // one fetch record, copied into its batch
	var hosts audit.HostSet
	onFetch := func(ft *event.Fetch) error {
		seq++
		rename(&ft.Source)
		hosts.Note(ft)
		// audit.Run gives pass 1 the WARC request records and
		// the fetches of /robots.txt; pass 2 judges them all.
		model := ft.Origin == event.OriginWARC || robots.IsRobotsTxt(ft.Target)
		if model {
			shared.NoteFetch(ft)
		}
		out := ft
		if !evaluate.NeedsHeader(ft) {
			cp := *ft       // the reader reuses ft
			cp.Header = nil // read only for signed requests
			out = &cp
		}
		scratch = appendFetchRecord(scratch[:0], &record{Kind: kindFetch, Model: model, File: ref.Idx, Split: ref.Split, Seq: seq, Fetch: out})
		events.add(evaluate.FetchPartition(ft, cfg.Eval.DefaultAuthority), scratch)
		return nil
	}
	if ref.Splits > 1 {
		// One byte range of a large plain-text log (split.go).
		err := readSplit(ctx, ref, local, cfg, onFetch, emitSplit, shared.NoteTimes)
		shared.NoteHosts(hosts.Hosts())
		if refs := hosts.Referrers(); len(refs) > 0 {
			emitFile(encode(&fileInfo{Idx: ref.Idx, Referrers: refs}))
		}
		emitShared(encode(&shared))
		return err
	}

	if ref.Role != "" {
		// A listing named with --index or --snippets: audit.Run reads it
		// before pass 1 and fails the run when it cannot.
		kind := byte(kindIndex)
		if ref.Role == "snippets" {
			kind = kindSnippet
		}
		probs, err := audit.ReadListing(local, func(e evaluate.ListingEntry) {
			rename(&e.Source)
			shared.NoteEntry(e)
			events.add(evaluate.ListingPartition(e), encode(&record{Kind: kind, Entry: &e}))
		})
		if err != nil {
			return fmt.Errorf("--%s %s: %w", ref.Role, ref.Path, err)
		}
		for _, p := range probs {
			report(p)
		}
		emitShared(encode(&shared))
		return nil
	}

	f, err := ingest.Sniff(local, cfg.LogFormat)
	if err == nil && f.Kind == ingest.KindUnknown && !ref.Explicit {
		report(event.Problem{Source: event.Source{File: ref.Path, Offset: -1}, Code: problem.InputSkipped, Severity: event.SevInfo,
			Message: "found in a directory input but holds nothing repaudit reads (" + f.Note + "); skipped"})
		return nil
	}
	var stats ingest.Stats
	sha := ""
	if err == nil {
		switch f.Kind {
		case ingest.KindWARC, ingest.KindARC, ingest.KindLog:
			scratch := identity.NewStore() // for the problems of captured documents
			digest := sha256.New()
			stats, err = ingest.Read(ctx, f, ingest.Options{Resolver: warc.NewResolver(32 << 20), Digest: digest, LogExtraHeaders: cfg.LogExtraHeaders}, ingest.Handler{
				Fetch: onFetch,
				Capture: func(c *event.Capture) error {
					rename(&c.Source)
					if c.Status >= 200 && c.Status < 300 || c.Status == 0 && c.RecordType == "resource" {
						if kind := identity.CaptureKind(c.URL, c.ContentType, c.Body); kind != "" {
							_, probs := scratch.AddCapture(c.URL, c.Body, c.Time, c.Source.String())
							for _, p := range probs {
								keep(audit.IdentityProblem(p, c.Source))
							}
							emitIdentity(encode(&identityDoc{URL: c.URL, Body: c.Body, Time: c.Time, Where: c.Source.String()}))
						}
					}
					key, ok := evaluate.CapturePartition(c)
					if !ok {
						return nil
					}
					shared.NoteCapture(c)
					cc := *c
					cc.WARCHeader = nil // not read by the evaluation
					if !evaluate.NeedsBody(c) {
						cc.Body = nil
					}
					rec := encode(&record{Kind: kindCapture, Capture: &cc})
					events.add(key, rec)
					if evaluate.RobotsLike(c) {
						emitDoc(evaluate.URLKey(c.URL), rec)
						if t, ok := evaluate.RedirectTarget(c); ok && evaluate.URLPartition(t) != key {
							emitReq(t, key)
						}
					}
					return nil
				},
				Warcinfo: func(src event.Source, info event.Header) { rename(&src); shared.NoteWarcinfo(src, info) },
				Problem:  func(p event.Problem) { rename(&p.Source); keep(p) },
			})
			if err == nil {
				sha = hex.EncodeToString(digest.Sum(nil))
			}
			shared.NoteHosts(hosts.Hosts())
			shared.NoteTimes(stats.First, stats.Last)
			if err == nil && stats.Fetches+stats.Captures == 0 {
				// As audit.Run: a log or archive that gives nothing is worth a row.
				report(event.Problem{Source: event.Source{File: ref.Path, Offset: -1}, Code: problem.InputEmpty, Severity: event.SevWarning,
					Message: fmt.Sprintf("no fetch or capture was read from this %s input (%d bytes)", f.Kind, stats.Bytes)})
			}
		case ingest.KindRobots:
			// A robots.txt among the inputs: one version of the site's
			// file, in force for the whole data range.
			var v history.Version
			if v, err = history.ReadFile(local, time.Time{}); err == nil {
				if v.File == local {
					v.File, v.Ref = ref.Path, ref.Path
				}
				sv := audit.SiteVersionOf(v)
				shared.NoteSiteVersion(sv)
				events.add(evaluate.URLPartition(sv.URL), encode(&record{Kind: kindSite, Site: &sv}))
				stats.Records = map[string]int64{"robots.txt": 1}
			}
		case ingest.KindCard, ingest.KindJWKS, ingest.KindIPList, ingest.KindDNS:
			err = audit.LoadDocument(f, identity.NewStore(), func(p event.Problem) { rename(&p.Source); keep(p) })
			if err == nil {
				emitIdentity(encode(&identityDoc{Path: ref.Path, Kind: string(f.Kind)}))
			}
		case ingest.KindListing:
			var probs []event.Problem
			probs, err = audit.ReadListing(local, func(e evaluate.ListingEntry) {
				rename(&e.Source)
				shared.NoteEntry(e)
				events.add(evaluate.ListingPartition(e), encode(&record{Kind: kindIndex, Entry: &e}))
			})
			for _, p := range probs {
				rename(&p.Source)
				report(p) // audit.Run keeps a listing's problems uncapped
			}
		default:
			err = fmt.Errorf("%s: cannot tell what this file holds (%s); name its kind with a flag", ref.Path, f.Note)
		}
		if err == nil && sha == "" {
			sha, err = ingest.FileSHA256(local)
		}
	}
	codes := make([]string, 0, len(dropped))
	for c := range dropped {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		report(event.Problem{Source: event.Source{File: ref.Path, Offset: -1}, Code: problem.Code(c), Severity: event.SevError,
			Message: fmt.Sprintf("%d more problems with this code not listed (cap %d per file)", dropped[c], maxProblems)})
	}
	info := fileInfo{Idx: ref.Idx, Listed: true, First: stats.First, Last: stats.Last}
	if err != nil {
		info.Failed = true
		report(event.Problem{Source: event.Source{File: ref.Path, Offset: -1}, Code: problem.InputUnreadable, Severity: event.SevError, Message: err.Error()})
	}
	in := output.Input{Path: ref.Path, Size: f.Size, SHA256: sha, Kind: string(f.Kind), Format: f.Format}
	if in.Format == "" {
		in.Format = stats.Format
	}
	for _, n := range stats.Records {
		in.Records += n
	}
	for _, n := range stats.Problems {
		in.Problems += n
	}
	info.Input = in
	info.Referrers = hosts.Referrers()
	emitFile(encode(&info))
	emitShared(encode(&shared))
	return nil
}
