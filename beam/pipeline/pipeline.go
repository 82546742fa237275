package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
)

func init() {
	register.DoFn10x1[context.Context, string,
		func(string, []byte), func(string, []byte), func(string, string),
		func([]byte), func([]byte), func([]byte), func([]byte), func(string, []byte), error](&readFn{})
	register.DoFn6x1[context.Context, string, func(*[]byte) bool, func([]byte), func([]byte), func([]byte), error](&fileFn{})
	register.DoFn4x1[context.Context, string, func(*[]byte) bool, func([]byte), error](&judgeFn{})
	register.DoFn6x1[context.Context, []byte, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(string, []byte), error](&worldFn{})
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&writeRowsFn{})
	register.DoFn5x1[context.Context, string, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, error](&finalizeFn{})
	register.Function2x0(keyOne)
	register.DoFn6x1[context.Context, string, func(*[]byte) bool, func(*string) bool, func(string, []byte), func(string, string), error](&redirectFn{})
	register.Function3x1(unkey)
	register.Function2x1(mergeShared)
	register.DoFn5x1[context.Context, string, []byte, func(*[]byte) bool, func(string, []byte), error](&routeFn{})
	register.Function2x0(dropAll)
	register.Function2x0(dropAllStrings)
	register.Function3x0(ungroup)
	register.Function4x0(splitHostless)
	register.DoFn4x1[context.Context, []byte, func(*[]byte) bool, func([]byte), error](&settleFn{})
	register.Function3x0(shard0)
	register.DoFn7x1[context.Context, string, func(*[]byte) bool,
		func(string, []byte), func(string, []byte), func(string, []byte), func(string, []byte), error](&scanFn{})
	register.DoFn8x1[context.Context, string, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func([]byte), error](&planFn{})
	register.DoFn5x1[context.Context, string, []byte, func(*[]byte) bool, func(string, []byte), error](&splitFn{})
	register.Emitter1[[]byte]()
	register.Emitter2[string, []byte]()
	register.Emitter2[string, string]()
	register.Iter1[[]byte]()
	register.Iter1[string]()
}

// Build adds the audit of cfg to the pipeline's scope. It expands the
// inputs and reads the --card, --jwks and --ip-ranges files now (their
// problems are written once, here), so that a missing input fails before
// any worker starts.
func Build(ctx context.Context, s beam.Scope, cfg Config) error {
	if err := cfg.validate(); err != nil {
		return err
	}
	if cfg.Eval.DefaultAuthority != "" && evaluate.URLPartition(cfg.Eval.DefaultAuthority) == "" {
		return fmt.Errorf("default authority %q is not an absolute http(s) URL", cfg.Eval.DefaultAuthority)
	}
	refs, skipped, err := expand(ctx, &cfg)
	if err != nil {
		return err
	}
	refs = splitRefs(ctx, refs, &cfg)
	catalog, err := input.LoadCatalog(cfg.Bots)
	if err != nil {
		return err
	}
	opts := cfg.Options
	var localProbs []event.Problem
	if err := input.LoadLocalIdentity(opts, catalog, identity.NewStore(), &localProbs); err != nil {
		return err
	}
	// The site's own robots.txt versions are read here, once, and sent to
	// the partition of their site (or of the site settled from the
	// inputs, see routeFn).
	var siteShared evaluate.Shared
	siteEvents := newBatcher(nil)
	var siteElems []string
	siteEvents.emit = func(key string, batch []byte) {
		siteElems = append(siteElems, string(encode(&keyed{Key: key, Value: batch})))
	}
	var site input.State
	input.ReadSiteSources(opts, func(v evaluate.SiteVersion) {
		siteShared.NoteSiteVersion(v)
		siteEvents.add(evaluate.URLPartition(v.URL), encode(&record{Kind: kindSite, Site: &v}))
	}, &site)
	siteEvents.flush()
	var launcherRows [][]byte
	for _, p := range slices.Concat(skipped, localProbs, site.Problems) {
		launcherRows = append(launcherRows, encode(input.ProblemRow(p)))
	}
	elems := make([]string, len(refs))
	for i, r := range refs {
		b, _ := json.Marshal(r)
		elems[i] = string(b)
	}

	s = s.Scope("repaudit")
	files := beam.Reshuffle(s, beam.CreateList(s.Scope("inputs"), elems))
	read := beam.ParDoN(s.Scope("read"), &readFn{Cfg: cfg}, files)
	events, docs, reqs, shared, idDocs, infos, probs, ranges := read[0], read[1], read[2], read[3], read[4], read[5], read[6], read[7]
	// The ranges of split files, put back together per file (split.go).
	fileProbs, fileInfos, offsets := beam.ParDo3(s.Scope("split-files"), &fileFn{MaxProblemsPerFile: cfg.MaxProblemsPerFile},
		beam.GroupByKey(s, ranges))
	probs = beam.Flatten(s, probs, fileProbs)
	infos = beam.Flatten(s, infos, fileInfos)
	// One element of shared facts for every side input that reads them.
	shared = beam.Combine(s.Scope("shared"), mergeShared,
		beam.Flatten(s, shared, beam.CreateList(s.Scope("site-shared"), [][]byte{encode(&siteShared)})))
	// Each WARC file's crawler, settled once over all inputs.
	shared = beam.ParDo(s.Scope("crawlers"), &settleFn{Cfg: cfg}, shared, beam.SideInput{Input: idDocs})
	events = beam.Flatten(s, events, beam.ParDo(s.Scope("site-versions"), unkey, beam.CreateList(s.Scope("site"), siteElems)))

	// Robots.txt redirects to another partition: one round per hop.
	all := []beam.PCollection{events}
	rs := s.Scope("redirects")
	for range evaluate.MaxRedirects {
		targets, next := beam.ParDo2(rs, &redirectFn{}, beam.CoGroupByKey(rs, docs, reqs))
		all = append(all, targets)
		reqs = next
	}
	// Events without a host wait for the shared facts that settle their
	// site (gate.go).
	keyed, hostless := beam.ParDo2(s.Scope("route"), splitHostless, beam.Flatten(s, all...))
	held := hold(s.Scope("route"), hostless, gateOn(s, shared))
	routed := beam.Flatten(s, keyed, beam.ParDo(s.Scope("route"), &routeFn{Cfg: cfg}, held, beam.SideInput{Input: shared}))
	// Hot partitions are judged in shards keyed by agent (hot.go). The
	// partitions wait for the world the judging stage loads: the side
	// inputs, written to one file by worldFn (world.go).
	worldGate := gateOn(s, shared, idDocs, offsets)
	worldPath := joinPath(tmpDir(cfg.Out), "world-"+randomID()+".json")
	worldDone := beam.ParDo(s.Scope("world"), &worldFn{Path: worldPath}, beam.Impulse(s),
		beam.SideInput{Input: shared}, beam.SideInput{Input: idDocs}, beam.SideInput{Input: offsets})
	grouped := beam.GroupByKey(s, beam.Flatten(s, hotShards(s, cfg, routed, shared, idDocs, offsets, worldGate), worldGate, worldDone))
	judgeParts := beam.ParDo(s.Scope("judge"), &judgeFn{Cfg: cfg, World: worldPath}, grouped)

	problems := beam.Flatten(s, probs, beam.CreateList(s.Scope("local-problems"), launcherRows))
	problemParts := beam.ParDo(s.Scope("problems"), &writeRowsFn{Out: cfg.Out}, problems)

	parts := beam.Flatten(s, judgeParts, problemParts)
	fs := s.Scope("finalize")
	beam.ParDo0(fs, &finalizeFn{Cfg: cfg, Start: time.Now().UnixNano(), SiteInputs: site.Inputs, World: worldPath},
		beam.CoGroupByKey(fs, beam.ParDo(fs, keyOne, parts), beam.ParDo(fs, keyOne, infos), beam.ParDo(fs, keyOne, shared)))
	return nil
}

// keyOne keys an element for finalizeFn, which takes every element of its
// inputs under one key.
func keyOne(b []byte, emit func(string, []byte)) { emit("", b) }

// redirectFn is one hop of robots.txt redirects across partitions: for a
// URL, it sends every robots-like capture of it to each partition that
// asked, and asks in turn for the URLs those captures redirect to.
type redirectFn struct{}

func (*redirectFn) ProcessElement(ctx context.Context, url string, docs func(*[]byte) bool, reqs func(*string) bool,
	emitTarget func(string, []byte), emitNext func(string, string)) error {
	var parts []string
	var p string
	for reqs(&p) {
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	asked := map[[2]string]bool{}
	var b []byte
	for docs(&b) {
		r, err := decodeRecord(b)
		if err != nil {
			return fmt.Errorf("redirect target %s: %w", url, err)
		}
		next, redirects := evaluate.RedirectTarget(r.Capture)
		one := sealBatch(appendRecord(nil, b), 0)
		for _, p := range parts {
			emitTarget(p, one)
			if redirects && evaluate.URLPartition(next) != p && !asked[[2]string{next, p}] {
				asked[[2]string{next, p}] = true
				emitNext(next, p)
			}
		}
	}
	return nil
}

// keyed is a KV element made by the launcher (beam.CreateList makes single
// values; unkey turns them into KVs).
type keyed struct {
	Key   string `json:"k"`
	Value []byte `json:"v"`
}

func unkey(ctx context.Context, elem string, emit func(string, []byte)) error {
	var kv keyed
	if err := json.Unmarshal([]byte(elem), &kv); err != nil {
		return fmt.Errorf("decode launcher element: %w", err)
	}
	emit(kv.Key, kv.Value)
	return nil
}

// failedInputs counts the input-unreadable problems written: inputs that
// could not be read (repaudit-beam exits 2 then, as `repaudit audit`).
var failedInputs = beam.NewCounter("repaudit", "inputs-failed")

// FailedInputs returns how many inputs could not be read in a finished
// run (0 when the runner reports no metrics).
func FailedInputs(pr beam.PipelineResult) int64 { return Counter(pr, "inputs-failed") }

// Counter returns the value of the pipeline's counter name in a finished
// run: inputs-failed, hot-partitions (partitions judged in shards by
// agent) and hot-shards (their shards). 0 when the runner reports no
// metrics.
func Counter(pr beam.PipelineResult, name string) int64 {
	if pr == nil {
		return 0
	}
	var n int64
	for _, c := range pr.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "repaudit" && c.Name() == name {
			n += c.Result()
		}
	}
	return n
}

// routeFn gives the batches of events without a host (log lines of a
// site not named with --site, site robots.txt versions without a URL) the
// partition of the site settled over all inputs
// (evaluate.Shared.SettleSite), as the local audit settles it. Its input is
// held behind the shared facts (gate.go), under keys of its own.
type routeFn struct {
	Cfg Config `json:"cfg"`

	site *string
}

func (fn *routeFn) ProcessElement(ctx context.Context, key string, batch []byte, sharedSI func(*[]byte) bool, emit func(string, []byte)) error {
	if fn.site == nil {
		var all evaluate.Shared
		var b []byte
		for sharedSI(&b) {
			var s evaluate.Shared
			if err := json.Unmarshal(b, &s); err != nil {
				return fmt.Errorf("decode shared facts: %w", err)
			}
			all.Merge(s)
		}
		hp := evaluate.URLPartition(all.SettleSite(fn.Cfg.Eval).Authority)
		fn.site = &hp
	}
	emit(*fn.site, batch)
	return nil
}

// mergeShared combines the shared facts of two inputs (evaluate.Shared
// JSON) into one.
func mergeShared(a, b []byte) []byte {
	var x, y evaluate.Shared
	if err := json.Unmarshal(a, &x); err != nil {
		panic(fmt.Sprintf("pipeline: decode shared facts: %v", err)) // written by encode: cannot happen
	}
	if err := json.Unmarshal(b, &y); err != nil {
		panic(fmt.Sprintf("pipeline: decode shared facts: %v", err))
	}
	x.Merge(y)
	return encode(&x)
}
