package audit

import (
	"flag"
	"fmt"
	"os"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
)

// The helpers below let another driver of the same evaluation (the Beam
// pipeline in the nested module beam/) read inputs exactly as Run does.

// LoadCatalog returns the default bot catalog with the --bots files merged
// over it, in order.
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

// LoadDocument adds a card, key set, IP list or DNS snapshot found among the inputs to
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

// SiteSources is what Run reads from --robots, --robots-git and
// --robots-dir: the versions, the problems of the sources (located at the
// file or directory), the sources that could not be read (failed inputs),
// and their manifest entries, which Run lists after the streamed inputs and
// before SideInputs.
type SiteSources struct {
	Versions []evaluate.SiteVersion
	Problems []event.Problem
	Failed   []string
	Inputs   []output.Input
}

// ReadSiteSources reads the robots.txt versions of cfg.Robots,
// cfg.RobotsGit and cfg.RobotsDir exactly as Run does.
func ReadSiteSources(cfg Config) SiteSources {
	st := &runState{}
	var out SiteSources
	readSiteSources(cfg, func(v evaluate.SiteVersion) { out.Versions = append(out.Versions, v) }, st)
	out.Problems, out.Failed, out.Inputs = st.problems, st.failed, st.inputs
	return out
}

// ExistingInputs keeps the input arguments that name something, as Run
// does: each path that does not exist, and each pattern that matches
// nothing, is a failed input with an input-unreadable problem instead of
// an error, and the run goes on with the rest.
func ExistingInputs(args []string) (kept []string, problems []event.Problem, failed []string) {
	st := &runState{}
	kept = existingInputs(args, st)
	return kept, st.problems, st.failed
}

// SourceFlags are the flags naming the site's own sources that 'repaudit
// audit' and 'repaudit-beam' share besides Flags: robots.txt versions as
// the site keeps them, and directories of IP range lists. They fill the
// Config fields of the same names.
type SourceFlags struct {
	IPRangesDirs List
	DNSDirs      List
	Robots       List
	RobotsGit    List
	RobotsDir    List
}

// Register defines the source flags on fs.
func (f *SourceFlags) Register(fs *flag.FlagSet) {
	fs.Var(&f.IPRangesDirs, "ip-ranges-dir", "`DIR` of IP range lists as 'repaudit ranges fetch' writes them (or named as published, e.g. googlebot.json); repeatable")
	fs.Var(&f.DNSDirs, "dns-dir", "`DIR` of reverse-DNS snapshots as 'repaudit dns verify' writes them: read offline, they verify or refute the addresses of bots with rdns_suffixes; repeatable")
	fs.Var(&f.Robots, "robots", "the site's robots.txt `[URL=]FILE[@TIME]`, served from TIME (RFC 3339 or YYYY-MM-DD) until the next version; without @TIME, in force for the whole data range; URL= binds it to that site (https://www.example.org=FILE) whatever --site says; repeatable")
	fs.Var(&f.RobotsGit, "robots-git", "git repository `[URL=]DIR[:PATH]` holding the site's robots.txt (PATH default robots.txt): every commit that changed it is a version from its committer time; URL= binds it to that site; repeatable")
	fs.Var(&f.RobotsDir, "robots-dir", "`[URL=]DIR` of dated robots.txt snapshots named by date or time (2025-03-01.txt, robots-2025-03-01T12:00:00Z.txt); URL= binds them to that site; a subdirectory named by a host (DIR/www.example.org/2025-03-01.txt) holds that host's snapshots (https, unless a --site names the host with http); repeatable")
}

// SiteVersionOf turns a robots.txt version read by package history (a
// robots.txt among the inputs) into the evaluation's, as Run does.
func SiteVersionOf(v history.Version) evaluate.SiteVersion { return siteVersion(v, "") }

// DuplicateInputs returns, of the given local files (in input order, each
// one Run would read: sniffed without error and not skipped), those whose
// content is the same as an earlier one's, with the input-duplicate
// problems Run writes for them: Run reads each content once.
func DuplicateInputs(paths []string) (dup map[string]bool, problems []event.Problem) {
	var files []*fileState
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		files = append(files, &fileState{f: ingest.File{Path: p, Size: fi.Size()}})
	}
	st := &runState{}
	kept := map[*fileState]bool{}
	for _, f := range dropDuplicates(files, st) {
		kept[f] = true
	}
	dup = map[string]bool{}
	for _, f := range files {
		if !kept[f] {
			dup[f.f.Path] = true
		}
	}
	return dup, st.problems
}

// HostSet notes, for one input file read on one goroutine, the
// authorities its fetches name (at most 64) and how many name none, as
// Run does for site inference; the pipeline notes them the same way.
type HostSet struct{ h hostSet }

// Note notes one fetch.
func (s *HostSet) Note(f *event.Fetch) { s.h.note(f) }

// Hosts returns the authorities noted, in order of first sight, and the
// number of fetches that named no host.
func (s *HostSet) Hosts() (list []string, hostless int64) { return s.h.list, s.h.hostless }

// Referrers returns the referrer sites (scheme://host) of the host-less
// fetches noted, with their counts (at most 256 sites): the --site hint
// of the notices (NoticeFacts.AddReferrers).
func (s *HostSet) Referrers() map[string]int64 { return s.h.referrers }

// CheckSources checks the URL= forms of cfg.Robots, cfg.RobotsGit and
// cfg.RobotsDir, and, with several sites in cfg.Eval, that every source
// is bound to one, as Run does before it reads anything. Its error names
// the flag and the fix.
func CheckSources(cfg Config) error { return checkSources(cfg) }
