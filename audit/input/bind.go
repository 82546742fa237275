package input

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/problem"
)

// Binding a source to its site (docs/semantics.md, "Many sites in one
// run"): every robots.txt source and every input may be given as
// URL=PATH, and then belongs to that URL's authority whatever --site
// says. Names are names first: an argument that exists as given is a
// path, even with a '=' or "://" in it.

// Bound is an argument as given and what it names: the authority it is
// bound to ("" when unbound) and the rest (a path, with @TIME or :PATH
// for --robots and --robots-git).
type Bound struct {
	Arg, Auth, Rest string
}

// SplitBound reads arg as given to flag ("--robots-dir", …, or "input"
// for a positional argument). pathOf, when not nil, takes the path out
// of a rest that carries more (FILE@TIME, DIR:PATH), so that an existing
// file whose name holds '=' is still a path. An argument that starts
// like a URL (scheme://…=) but names no http(s) site is an error naming
// the flag.
func SplitBound(flag, arg string, pathOf func(string) string) (Bound, error) {
	b := Bound{Arg: arg, Rest: arg}
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
	auth, err := SiteURL("the URL in "+what, u)
	if err != nil {
		return b, err
	}
	if rest == "" {
		return b, fmt.Errorf("%s: no path after %q (give URL=PATH)", what, u+"=")
	}
	b.Auth, b.Rest = auth, rest
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

// Sites returns the sites named with --site: several (Options.Sites)
// or one (Options.DefaultAuthority).
func Sites(opts evaluate.Options) []string {
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
	Bound
}

// parseSources parses the URL= forms of cfg.Robots, cfg.RobotsGit and
// cfg.RobotsDir. Its error names the flag.
func parseSources(cfg Options) ([]siteSource, error) {
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
			b, err := SplitBound(s.flag, a, s.pathOf)
			if err != nil {
				return nil, err
			}
			out = append(out, siteSource{s.flag, b})
		}
	}
	return out, nil
}

// CheckSources refuses a run that would have to guess whose a robots.txt
// source is: with several --site, a source not bound with URL= (a
// --robots-dir counts as bound when it holds only host subdirectories).
// It reads no robots.txt, only names and directory listings.
func CheckSources(cfg Options) error {
	srcs, err := parseSources(cfg)
	if err != nil {
		return err
	}
	sites := Sites(cfg.Eval)
	if len(sites) < 2 {
		return nil
	}
	for _, s := range srcs {
		if s.Auth != "" || (s.flag == "--robots-dir" && !hasTopFiles(s.Rest)) {
			continue
		}
		return UnboundError(s.flag+" "+s.Arg, s.flag+" "+sites[0]+"="+s.Rest, sites)
	}
	return nil
}

// UnboundError says that what names no site cannot be given one of the
// several sites, with the URL= fix.
func UnboundError(what, fix string, sites []string) error {
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

// SiteURL reads the URL of a site as given to flag (--site, or the URL
// of a URL= binding): an http(s) URL with a host name, returned as its
// authority (any path is dropped).
func SiteURL(flag, s string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%s wants an http(s) URL like https://example.com, got %q%s", flag, s, why)
	}
	scheme, rest, ok := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") || rest == "" {
		return bad("")
	}
	host, _, _ := strings.Cut(rest, "/") // a path says nothing more
	if !hostOK(host, false) {
		return bad(": " + strconv.Quote(host) + " is not a host name")
	}
	auth, _, ok := evaluate.Authority(scheme + "://" + host + "/")
	if !ok {
		return bad("")
	}
	return auth, nil
}

func listSome(xs []string, max int) string {
	if len(xs) <= max {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:max], ", ") + fmt.Sprintf(" and %d more", len(xs)-max)
}

// UnboundSources names the robots.txt sources of o ("--robots-dir DIR",
// …) bound to no site: not with URL=, and for a --robots-dir, holding
// snapshots at its top level. None when their URL= forms do not parse
// (CheckSources says why).
func UnboundSources(o Options) []string {
	srcs, err := parseSources(o)
	if err != nil {
		return nil
	}
	var names []string
	for _, s := range srcs {
		if s.Auth == "" && (s.flag != "--robots-dir" || hasTopFiles(s.Rest)) {
			names = append(names, s.flag+" "+s.Arg)
		}
	}
	return names
}
