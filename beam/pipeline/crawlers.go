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
)

// loadIdentity loads what every partition identifies bots with: the
// catalog (--bots), the --card, --jwks and --ip-ranges files, and the
// cards, key sets and IP lists of the inputs (the identity side input).
func loadIdentity(ctx context.Context, cfg *Config, identitySI func(*[]byte) bool) (*bots.Catalog, *identity.Store, error) {
	catalog, err := input.LoadCatalog(cfg.Bots)
	if err != nil {
		return nil, nil, err
	}
	ids := identity.NewStore()
	// Their problems were written once, by the launcher's read of them.
	if err := input.LoadLocalIdentity(cfg.Options, catalog, ids, new([]event.Problem)); err != nil {
		return nil, nil, err
	}
	var b []byte
	for identitySI(&b) {
		var d identityDoc
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, nil, fmt.Errorf("decode identity document: %w", err)
		}
		if d.Path == "" {
			ids.AddCapture(d.URL, d.Body, d.Time, d.Where)
			continue
		}
		local, cleanup, err := fetchLocal(ctx, d.Path)
		if err != nil {
			return nil, nil, err
		}
		// IP lists are tied to their bots through the default catalog's
		// list URLs, as the read stage did (readFn).
		err = input.LoadDocument(ingest.File{Path: local, Kind: ingest.Kind(d.Kind)}, bots.Default(), ids, func(event.Problem) {})
		cleanup()
		if err != nil {
			return nil, nil, err
		}
	}
	return catalog, ids, nil
}

// settleFn settles every WARC file's crawler once, over all inputs
// (evaluate.Shared.SettleCrawlers), as the local audit does: a file whose
// captures say nothing of their crawler borrows the one every other file
// names, whichever partitions its captures fall in. Its one element is the
// shared facts combined over every file; it sends them on with Crawlers
// set and the per-file facts they were settled from dropped, so the side
// input every partition reads stays small (a run over thousands of WARC
// files no longer gives each partition every file's User-Agent counts).
type settleFn struct {
	Cfg Config `json:"cfg"`
}

func (fn *settleFn) ProcessElement(ctx context.Context, elem []byte, identitySI func(*[]byte) bool, emit func([]byte)) error {
	stageHook("settle")
	var s evaluate.Shared
	if err := json.Unmarshal(elem, &s); err != nil {
		return fmt.Errorf("decode shared facts: %w", err)
	}
	catalog, ids, err := loadIdentity(ctx, &fn.Cfg, identitySI)
	if err != nil {
		return err
	}
	s.Crawlers = s.SettleCrawlers(fn.Cfg.Eval, catalog, ids)
	if s.Crawlers == nil {
		s.Crawlers = []evaluate.ArchiveCrawler{}
	}
	s.FileUserAgents, s.Warcinfo, s.CaptureFiles = nil, nil, nil
	emit(encode(&s))
	return nil
}
