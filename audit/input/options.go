package input

import (
	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/evaluate"
)

// Options are what the input layer reads with: the flags every driver of
// the audit shares ('repaudit audit' and 'repaudit-beam') that name or
// shape inputs. Each driver builds them once from the flags
// (audit.Flags.Resolve) and embeds them in its configuration
// (audit.Config, the pipeline's Config).
type Options struct {
	LogFormat accesslog.Format // "" = detect per file
	// LogExtraHeaders names extra quoted fields after the User-Agent in
	// combined-style logs (see accesslog.Options.ExtraHeaders).
	LogExtraHeaders []string
	Bots            []string            // --bots files, merged over the default catalog
	Cards           []string            // --card files, valid for the whole run
	JWKS            []string            // --jwks files: trusted keys
	IPRanges        map[string][]string // --ip-ranges TOKEN=FILE
	IPRangesDirs    []string            // --ip-ranges-dir: IP list files tied to bots by name (ipranges.go)
	DNSDirs         []string            // --dns-dir: reverse-DNS snapshots of 'repaudit dns verify' (dns.go)
	Index           []string            // --index listings
	Snippets        []string            // --snippets listings
	// Robots, RobotsGit and RobotsDir are robots.txt versions as the site
	// keeps them: --robots FILE[@TIME], --robots-git DIR[:PATH],
	// --robots-dir DIR (see package history).
	Robots    []string
	RobotsGit []string
	RobotsDir []string
	// Eval is read for the sites (--site) sources are bound to.
	Eval evaluate.Options
	// MaxProblemsPerFile caps the problems kept per input (and code); the
	// rest are counted in one summary problem per code. 0 =
	// DefaultMaxProblems.
	MaxProblemsPerFile int
}
