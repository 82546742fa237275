package audit

import (
	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
)

// The helpers below let another driver of the same evaluation (the Beam
// pipeline in the nested module beam/) read inputs exactly as Run does.

// LoadCatalog returns the default bot catalog with the --bots files merged
// over it, in order.
func LoadCatalog(paths []string) (*bots.Catalog, error) {
	catalog := bots.Default()
	for _, p := range paths {
		c, err := loadCatalog(p)
		if err != nil {
			return nil, err
		}
		catalog = catalog.Merge(c)
	}
	return catalog, nil
}

// LoadLocalIdentity adds the --card, --jwks and --ip-ranges files of cfg to
// ids (valid for the whole run) and returns the problems they had.
func LoadLocalIdentity(cfg Config, ids *identity.Store) ([]event.Problem, error) {
	catalog, err := LoadCatalog(cfg.Bots)
	if err != nil {
		return nil, err
	}
	var problems []event.Problem
	err = loadLocalIdentity(cfg, catalog, ids, &problems)
	return problems, err
}

// LoadDocument adds a card, key set or IP list found among the inputs to
// ids, reporting its problems to keep. IP lists are tied to their bots
// through the default catalog's list URLs.
func LoadDocument(f ingest.File, ids *identity.Store, keep func(event.Problem)) error {
	return loadDocument(f, bots.Default(), ids, keep)
}

// ReadListing reads an index or snippet listing, giving each entry to add,
// and returns the lines it could not use.
func ReadListing(path string, add func(evaluate.ListingEntry)) ([]event.Problem, error) {
	var problems []event.Problem
	err := readListing(path, add, &problems)
	return problems, err
}

// IdentityProblem turns a problem of a card, key set or IP list into an
// input problem located at the capture or file that held it.
func IdentityProblem(p identity.Problem, at event.Source) event.Problem {
	return identityProblem(p, at)
}

// SideInputs lists the files given with flags besides the streamed inputs
// (catalogs, cards, key sets, IP lists, listings) as Run records them in
// the manifest, after the streamed ones.
func SideInputs(cfg Config) []output.Input {
	st := &runState{}
	recordSideInputs(cfg, st)
	return st.inputs
}
