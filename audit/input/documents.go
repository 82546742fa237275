package input

import (
	"fmt"
	"io"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/listing"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
)

// readDoc reads a small JSON document with a size cap.
func readDoc(path string) ([]byte, error) {
	const maxDoc = 16 << 20
	f, _, err := ingest.OpenDecompressed(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDoc+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxDoc {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxDoc)
	}
	return data, nil
}

// identityProblem makes a problem of a card, key set or IP list into a
// row: a warning, as the document was read leniently, unless the registry
// says its code is info — a publisher's quirk that loses nothing, such as
// the zero-width spaces Bing serves bingbot.json with, must not fail a
// --fail-on-problems run that uses the list exactly as published.
func identityProblem(p identity.Problem, at event.Source) event.Problem {
	src := at
	switch {
	case src.File != "":
	case p.Where.File != "":
		src = p.Where
	default:
		src = event.Source{File: p.Source, Offset: -1}
	}
	sev := event.SevWarning
	if e, ok := problem.Lookup(problem.KindProblem, p.Code); ok && e.Severity == problem.Info {
		sev = event.SevInfo
	}
	return event.Problem{Source: src, Code: p.Code, Severity: sev, Message: p.Message}
}

// LoadLocalIdentity adds to ids the --card, --jwks and --ip-ranges files
// of cfg: they are valid for the whole run (added at the zero time); and
// the --ip-ranges-dir and --dns-dir directories (see loadIPRangesDirs,
// loadDNSDirs). The files' problems are appended to problems; an error
// names the flag whose file could not be used.
func LoadLocalIdentity(cfg Options, catalog *bots.Catalog, ids *identity.Store, problems *[]event.Problem) error {
	keep := func(ps []identity.Problem, file string) {
		for _, p := range ps {
			*problems = append(*problems, identityProblem(p, event.Source{File: file, Offset: -1}))
		}
	}
	for _, p := range cfg.Cards {
		data, err := readDoc(p)
		if err != nil {
			return fmt.Errorf("--card: %w", err)
		}
		c, ps, err := identity.ParseCard(data, p)
		if err != nil {
			return fmt.Errorf("--card %s: %w", p, err)
		}
		keep(ps, p)
		ids.AddCard(c, time.Time{})
	}
	for _, p := range cfg.JWKS {
		data, err := readDoc(p)
		if err != nil {
			return fmt.Errorf("--jwks: %w", err)
		}
		keys, ps, err := identity.ParseJWKS(data, p)
		if err != nil {
			return fmt.Errorf("--jwks %s: %w", p, err)
		}
		keep(ps, p)
		ids.AddTrustedKeys(keys)
	}
	for token, paths := range cfg.IPRanges {
		for _, p := range paths {
			data, err := readDoc(p)
			if err != nil {
				return fmt.Errorf("--ip-ranges: %w", err)
			}
			l, ps, err := identity.ParseIPList(data, p)
			if err != nil {
				return fmt.Errorf("--ip-ranges %s=%s: %w", token, p, err)
			}
			keep(ps, p)
			ids.AddIPList(token, l, l.CreationTime)
		}
	}
	if err := loadIPRangesDirs(cfg.IPRangesDirs, catalog, ids, problems); err != nil {
		return err
	}
	return loadDNSDirs(cfg.DNSDirs, ids, problems)
}

// LoadDocument adds a card, key set, IP list or DNS snapshot found among
// the inputs. An IP list is tied to its bots by its file name, as in
// --ip-ranges-dir; a DNS snapshot is read as a file of a --dns-dir.
func LoadDocument(f ingest.File, catalog *bots.Catalog, ids *identity.Store, keep func(event.Problem)) error {
	switch f.Kind {
	case ingest.KindIPList:
		loadIPListFile(f.Path, catalog.IPRangeLists(), ids, keep)
		return nil
	case ingest.KindDNS:
		loadDNSFile(f.Path, ids, keep)
		return nil
	}
	data, err := readDoc(f.Path)
	if err != nil {
		return err
	}
	src := event.Source{File: f.Path, Offset: -1}
	add := func(ps []identity.Problem) {
		for _, p := range ps {
			keep(identityProblem(p, src))
		}
	}
	switch f.Kind {
	case ingest.KindCard:
		c, ps, err := identity.ParseCard(data, f.Path)
		if err != nil {
			return err
		}
		add(ps)
		ids.AddCard(c, time.Time{})
	case ingest.KindJWKS:
		keys, ps, err := identity.ParseJWKS(data, f.Path)
		if err != nil {
			return err
		}
		add(ps)
		ids.AddTrustedKeys(keys)
		keep(event.Problem{Source: src, Code: problem.InputJWKSTrusted, Severity: event.SevInfo,
			Message: fmt.Sprintf("key set given as an input: its %d keys are trusted for any Signature-Agent (as --jwks)", len(keys))})
	}
	return nil
}

// ReadListing reads an index or snippet listing (package listing),
// giving each entry to add, and appends the lines it could not use to
// problems. An error means the listing could not be read at all.
func ReadListing(path string, add func(e evaluate.ListingEntry), problems *[]event.Problem) error {
	f, _, err := ingest.OpenDecompressed(path)
	if err != nil {
		return fmt.Errorf("listing: %w", err)
	}
	defer f.Close()
	r := listing.NewReader(f, path)
	for e, err := range r.All() {
		if err != nil {
			return err
		}
		add(evaluate.ListingEntry{URL: e.URL, Time: e.Time, Agent: e.Agent, Source: e.Source})
	}
	*problems = append(*problems, r.Problems()...)
	return nil
}

// LoadCatalog returns the default bot catalog with the --bots files
// paths merged over it, in order.
func LoadCatalog(paths []string) (*bots.Catalog, error) {
	catalog, err := bots.LoadWith(paths...)
	if err != nil {
		return nil, fmt.Errorf("--bots: %w", err)
	}
	return catalog, nil
}

// CatalogInfo is the manifest's description of a bot catalog loaded from
// the --bots files paths (LoadCatalog).
func CatalogInfo(catalog *bots.Catalog, paths []string) output.Catalog {
	dv := catalog.DataVersions()
	return output.Catalog{CrawlerUserAgents: dv.CrawlerUserAgents, Bots: catalog.Len(), Files: paths}
}
