package audit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/problem"
)

// Binding a source to its site (docs/semantics.md, "Many sites in one
// run"): every robots.txt source and every input may be given as
// URL=PATH, and then belongs to that URL's authority whatever --site
// says. Names are names first: an argument that exists as given is a
// path, even with a '=' or "://" in it.

// bound is an argument as given and what it names: the authority it is
// bound to ("" when unbound) and the rest (a path, with @TIME or :PATH
// for --robots and --robots-git).
type bound struct {
	arg, auth, rest string
}

// splitBound reads arg as given to flag ("--robots-dir", …, or "input"
// for a positional argument). pathOf, when not nil, takes the path out
// of a rest that carries more (FILE@TIME, DIR:PATH), so that an existing
// file whose name holds '=' is still a path. An argument that starts
// like a URL (scheme://…=) but names no http(s) site is an error naming
// the flag.
func splitBound(flag, arg string, pathOf func(string) string) (bound, error) {
	b := bound{arg: arg, rest: arg}
	if exists(arg) || (pathOf != nil && exists(pathOf(arg))) {
		return b, nil
	}
	u, rest, ok := strings.Cut(arg, "=")
	if !ok || !looksLikeURL(u) {
		return b, nil
	}
	what := flag + " " + arg
	if flag == "input" {
		what = "input " + strconv.Quote(arg)
	}
	auth, err := siteURL("the URL in "+what, u)
	if err != nil {
		return b, err
	}
	if rest == "" {
		return b, fmt.Errorf("%s: no path after %q (give URL=PATH)", what, u+"=")
	}
	b.auth, b.rest = auth, rest
	return b, nil
}

// looksLikeURL reports whether s starts with a URL scheme and "://":
// such an argument is meant as URL=PATH, and a bad URL in it is an
// error, not a file name that does not exist.
func looksLikeURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok || scheme == "" {
		return false
	}
	for i, c := range scheme {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// validHost reports whether hp is a host[:port] a site can have: a name
// of letters, digits, '-', '_' and '.' holding a dot (or "localhost"),
// an IPv4 address, or a bracketed IPv6 address; with an optional port.
// Snapshot subdirectories of --robots-dir are held to it, so that "old"
// or "2024" is not taken for a site.
func validHost(hp string) bool { return hostOK(hp, true) }

// hostOK is validHost; without needDot a one-label name ("intranet") is
// a host too, as a URL given explicitly may name one.
func hostOK(hp string, needDot bool) bool {
	host, port := hp, ""
	if strings.HasPrefix(hp, "[") {
		i := strings.IndexByte(hp, ']')
		if i < 0 {
			return false
		}
		host, port = hp[:i+1], strings.TrimPrefix(hp[i+1:], ":")
		if len(hp) > i+1 && hp[i+1] != ':' {
			return false
		}
		if len(host) < 4 || strings.Trim(host[1:len(host)-1], "0123456789abcdefABCDEF:.") != "" {
			return false
		}
	} else if i := strings.LastIndexByte(hp, ':'); i >= 0 {
		host, port = hp[:i], hp[i+1:]
		if port == "" {
			return false
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return false
		}
	}
	if strings.HasPrefix(host, "[") {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	labels := strings.Split(host, ".")
	if (needDot && len(labels) < 2) || len(host) > 253 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return false
		}
	}
	// A name whose last label is all digits is an IPv4 address or nothing.
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" && (needDot || len(labels) > 1) {
		return len(labels) == 4 && strings.Trim(host, "0123456789.") == ""
	}
	return true
}

// runSites returns the sites named with --site: several (Options.Sites)
// or one (Options.DefaultAuthority).
func runSites(opts evaluate.Options) []string {
	if len(opts.Sites) > 0 {
		return opts.Sites
	}
	if opts.DefaultAuthority != "" {
		return []string{opts.DefaultAuthority}
	}
	return nil
}

// hostAuthority is the authority of a --robots-dir subdirectory named
// host[:port]: https, unless a --site names that host with http (the
// name says no scheme).
func hostAuthority(name string, sites []string) (string, bool) {
	if !validHost(name) {
		return "", false
	}
	for _, s := range sites {
		scheme, _, _ := strings.Cut(s, "://")
		if a, _, ok := evaluate.Authority(scheme + "://" + name + "/"); ok && a == s && scheme == "http" {
			return a, true
		}
	}
	a, _, ok := evaluate.Authority("https://" + name + "/")
	return a, ok
}

// siteSource is one robots.txt source flag's argument, parsed.
type siteSource struct {
	flag string // "--robots", "--robots-git", "--robots-dir"
	bound
}

// parseSources parses the URL= forms of cfg.Robots, cfg.RobotsGit and
// cfg.RobotsDir. Its error names the flag.
func parseSources(cfg Config) ([]siteSource, error) {
	var out []siteSource
	for _, s := range []struct {
		flag   string
		args   []string
		pathOf func(string) string
	}{
		{"--robots", cfg.Robots, func(a string) string {
			if i := strings.LastIndexByte(a, '@'); i > 0 {
				return a[:i]
			}
			return a
		}},
		{"--robots-git", cfg.RobotsGit, func(a string) string { d, _ := history.SplitGitArg(a); return d }},
		{"--robots-dir", cfg.RobotsDir, nil},
	} {
		for _, a := range s.args {
			b, err := splitBound(s.flag, a, s.pathOf)
			if err != nil {
				return nil, err
			}
			out = append(out, siteSource{s.flag, b})
		}
	}
	return out, nil
}

// checkSources refuses a run that would have to guess whose a robots.txt
// source is: with several --site, a source not bound with URL= (a
// --robots-dir counts as bound when it holds only host subdirectories).
// It reads no robots.txt, only names and directory listings.
func checkSources(cfg Config) error {
	srcs, err := parseSources(cfg)
	if err != nil {
		return err
	}
	sites := runSites(cfg.Eval)
	if len(sites) < 2 {
		return nil
	}
	for _, s := range srcs {
		if s.auth != "" || (s.flag == "--robots-dir" && !hasTopFiles(s.rest)) {
			continue
		}
		return unboundError(s.flag+" "+s.arg, s.flag+" "+sites[0]+"="+s.rest, sites)
	}
	return nil
}

// unboundError says that what names no site cannot be given one of the
// several sites, with the URL= fix.
func unboundError(what, fix string, sites []string) error {
	return fmt.Errorf("%s names no site and %d sites were given (%s): bind it to its site with URL=, e.g. %s",
		what, len(sites), listSome(sites, 5), fix)
}

// hasTopFiles reports whether dir holds a file (not hidden, not a
// directory) at its top level: a snapshot bound to no host. A dir that
// cannot be listed says so when it is read.
func hasTopFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return true
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// dirVersions is one --robots-dir read: its snapshots, each bound to an
// authority ("" for the top-level ones of an unbound dir).
type dirVersions struct {
	versions []history.Version
	auths    []string // parallel to versions
	probs    []event.Problem
}

// readRobotsDir reads a --robots-dir: the dated snapshots at its top
// level belong to auth ("" when unbound), and each subdirectory named
// host[:port] holds the snapshots of that host (hostAuthority). A
// subdirectory named otherwise is reported and not read. It is an error
// when nothing dated is found anywhere.
func readRobotsDir(dir, auth string, sites []string) (dirVersions, error) {
	var out dirVersions
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out, fmt.Errorf("--robots-dir: %w", err)
	}
	top := false
	var subs []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, name))
		if err == nil && st.IsDir() {
			subs = append(subs, name)
		} else {
			top = true
		}
	}
	add := func(vs []history.Version, a string) {
		for _, v := range vs {
			out.versions = append(out.versions, v)
			out.auths = append(out.auths, a)
		}
	}
	var topErr error
	if top || len(subs) == 0 {
		vs, probs, err := history.ReadDir(dir)
		out.probs = append(out.probs, probs...)
		add(vs, auth)
		topErr = err
	}
	sort.Strings(subs)
	for _, name := range subs {
		p := filepath.Join(dir, name)
		a, ok := hostAuthority(name, sites)
		if !ok {
			out.probs = append(out.probs, event.Problem{Source: event.Source{File: p, Offset: -1}, Code: problem.RobotsDirNotHost, Severity: event.SevWarning,
				Message: "--robots-dir " + dir + ": subdirectory " + strconv.Quote(name) + " is not named by a host (like www.example.org or blog.example.org:8080): not read"})
			continue
		}
		vs, probs, err := history.ReadDir(p)
		out.probs = append(out.probs, probs...)
		if err != nil {
			out.probs = append(out.probs, event.Problem{Source: event.Source{File: p, Offset: -1}, Code: problem.RobotsSnapshotUndated, Severity: event.SevWarning,
				Message: "--robots-dir " + dir + ": no dated robots.txt snapshot for " + a + " in " + p})
			continue
		}
		add(vs, a)
	}
	if len(out.versions) == 0 {
		if topErr != nil {
			return out, topErr
		}
		return out, fmt.Errorf("--robots-dir %s: no dated robots.txt snapshot in it or its host subdirectories", dir)
	}
	return out, nil
}

// bindInputs takes the URL= bindings off the positional inputs (r.inputs)
// and maps each file they name to its site (r.bound). A file bound to
// two sites is an error.
func (r *run) bindInputs() error {
	r.bound = map[string]string{}
	set := func(p, auth string) error {
		if prev, ok := r.bound[p]; ok && prev != auth {
			return fmt.Errorf("input %s is bound to both %s and %s", p, prev, auth)
		}
		r.bound[p] = auth
		return nil
	}
	for _, a := range r.cfg.Inputs {
		b, err := splitBound("input", a, nil)
		if err != nil {
			return err
		}
		r.inputs = append(r.inputs, b.rest)
		if b.auth == "" {
			continue
		}
		if b.rest == StdinName || !strings.ContainsAny(b.rest, "*?[") && !isDir(b.rest) {
			if err := set(b.rest, b.auth); err != nil {
				return err
			}
			continue
		}
		paths, _, err := ingest.Expand([]string{b.rest})
		if err != nil {
			continue // said when the inputs are expanded
		}
		for _, p := range paths {
			if err := set(p, b.auth); err != nil {
				return err
			}
		}
	}
	return nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// checkRobotsInputs refuses, with several --site, a robots.txt among the
// inputs that is not bound to one of them: whose it is would be a guess.
func (r *run) checkRobotsInputs() error {
	sites := runSites(r.cfg.Eval)
	if len(sites) < 2 {
		return nil
	}
	for _, fs := range r.files {
		if fs.err == nil && fs.f.Kind == ingest.KindRobots && fs.site == "" {
			return unboundError("robots.txt input "+fs.f.Path, sites[0]+"="+fs.f.Path, sites)
		}
	}
	return nil
}

// unsettled finds, after pass 1, what named no site while several could
// own it: with several --site, the inputs bound to none whose lines named
// no host (their counts, for the notice); without --site, robots.txt
// sources when the inputs name several sites (evaluate reported each
// with robots-source-no-site and left it out). Either is an ErrNoSite.
func (r *run) unsettled(model *evaluate.Model) (unbound map[string]int64, err error) {
	sites := runSites(r.cfg.Eval)
	var errs []error
	if len(sites) > 1 {
		for _, fs := range r.files {
			if fs.site == "" && fs.hostless > 0 {
				if unbound == nil {
					unbound = map[string]int64{}
				}
				unbound[fs.f.Path] += fs.hostless
			}
		}
		if len(unbound) > 0 {
			lines := byCountLabeled(unbound)
			first := lines[0][:strings.LastIndex(lines[0], " (")]
			errs = append(errs, fmt.Errorf("%w: log lines name no host in %s and %d sites were given (%s): they were not judged (no-host); bind each log to its site with URL=PATH, e.g. %s=%s",
				ErrNoSite, listSome(lines, 5), len(sites), listSome(sites, 5), sites[0], first))
		}
	}
	site := model.Site()
	if len(sites) == 0 && site.Versions > 0 && site.Authority == "" && len(site.Candidates) > 1 {
		var names []string
		if srcs, perr := parseSources(r.cfg); perr == nil {
			for _, s := range srcs {
				if s.auth == "" && (s.flag != "--robots-dir" || hasTopFiles(s.rest)) {
					names = append(names, s.flag+" "+s.arg)
				}
			}
		}
		for _, fs := range r.files {
			if fs.err == nil && fs.f.Kind == ingest.KindRobots && fs.site == "" {
				names = append(names, "robots.txt input "+fs.f.Path)
			}
		}
		what := "robots.txt sources"
		if len(names) > 0 {
			what = listSome(names, 3)
		}
		more := ""
		if len(site.Candidates) >= 64 {
			more = " or more"
		}
		errs = append(errs, fmt.Errorf("%w: %s %s no site and the inputs name %d%s sites (%s): not used (robots-source-no-site); bind each with URL=, e.g. --robots-dir %s=DIR, or give one --robots-dir DIR with a subdirectory per host",
			ErrNoSite, what, pluralVerb(len(names), "names", "name"), len(site.Candidates), more, listSome(site.Candidates, 5), site.Candidates[0]))
	}
	return unbound, errors.Join(errs...)
}

func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
