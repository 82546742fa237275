package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/table"
)

func init() {
	register.DoFn9x1[context.Context, string,
		func(string, []byte), func(string, []byte), func(string, string),
		func([]byte), func([]byte), func([]byte), func([]byte), error](&readFn{})
	register.DoFn6x1[context.Context, string, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func([]byte), error](&judgeFn{})
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&writeRowsFn{})
	register.DoFn5x1[context.Context, []byte, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, error](&finalizeFn{})
	register.DoFn6x1[context.Context, string, func(*[]byte) bool, func(*string) bool, func(string, []byte), func(string, string), error](&redirectFn{})
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
	if _, err := audit.LoadCatalog(cfg.Bots); err != nil {
		return err
	}
	localProbs, err := audit.LoadLocalIdentity(audit.Config{Cards: cfg.Cards, JWKS: cfg.JWKS, IPRanges: cfg.IPRanges}, identity.NewStore())
	if err != nil {
		return err
	}
	var launcherRows [][]byte
	for _, p := range append(skipped, localProbs...) {
		launcherRows = append(launcherRows, encode(&table.Problem{
			SourceFile: p.Source.File, SourceLine: p.Source.Line, Offset: p.Source.Offset,
			Code: string(p.Code), Severity: p.Severity, Message: p.Message,
		}))
	}
	elems := make([]string, len(refs))
	for i, r := range refs {
		b, _ := json.Marshal(r)
		elems[i] = string(b)
	}

	s = s.Scope("repaudit")
	files := beam.Reshuffle(s, beam.CreateList(s.Scope("inputs"), elems))
	events, docs, reqs, shared, idDocs, infos, probs := beam.ParDo7(s.Scope("read"), &readFn{Cfg: cfg}, files)

	// Robots.txt redirects to another partition: one round per hop.
	all := []beam.PCollection{events}
	rs := s.Scope("redirects")
	for range evaluate.MaxRedirects {
		targets, next := beam.ParDo2(rs, &redirectFn{}, beam.CoGroupByKey(rs, docs, reqs))
		all = append(all, targets)
		reqs = next
	}
	grouped := beam.GroupByKey(s, beam.Flatten(s, all...))
	judgeParts := beam.ParDo(s.Scope("judge"), &judgeFn{Cfg: cfg}, grouped,
		beam.SideInput{Input: shared}, beam.SideInput{Input: idDocs})

	problems := beam.Flatten(s, probs, beam.CreateList(s.Scope("local-problems"), launcherRows))
	problemParts := beam.ParDo(s.Scope("problems"), &writeRowsFn{Out: cfg.Out}, problems)

	parts := beam.Flatten(s, judgeParts, problemParts)
	beam.ParDo0(s.Scope("finalize"), &finalizeFn{Cfg: cfg, Start: time.Now().UnixNano()}, beam.Impulse(s),
		beam.SideInput{Input: parts}, beam.SideInput{Input: infos}, beam.SideInput{Input: shared})
	return nil
}

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
		one := appendRecord(nil, b)
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
