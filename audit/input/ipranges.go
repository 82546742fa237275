package input

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
)

// ipListOwner is what an IP list file was published for.
type ipListOwner struct {
	URL     string    // the catalog's URL of the list
	Tokens  []string  // the bots it vouches for
	Fetched time.Time // fetch time from the file name; zero for a file named as published
}

// mapIPListFile ties an IP list file to a catalog list by its base name:
// either a name "ranges fetch" writes (URL and fetch time, see
// identity.IPListFileName), or the list's own file name as the operator
// publishes it ("googlebot.json") when that names exactly one catalog list,
// or several that vouch for the same bots. The string says why not, and
// what to do, when the file cannot be tied.
func mapIPListFile(name string, lists []bots.IPRangeList) (ipListOwner, string) {
	base := filepath.Base(name)
	if u, at, err := identity.ParseIPListFileName(base); err == nil {
		for _, l := range lists {
			if l.URL == u {
				return ipListOwner{URL: l.URL, Tokens: l.Tokens, Fetched: at}, ""
			}
		}
		return ipListOwner{}, fmt.Sprintf("named for %s, which no bot in the catalog publishes; pass it as --ip-ranges TOKEN=%s, or add the URL to a --bots file", u, name)
	}
	var matches []bots.IPRangeList
	for _, l := range lists {
		if u, err := url.Parse(l.URL); err == nil && path.Base(u.Path) == base {
			matches = append(matches, l)
		}
	}
	switch {
	case len(matches) == 0:
		return ipListOwner{}, fmt.Sprintf("its name is not one the catalog's IP lists are published under (%s) nor one 'repaudit ranges fetch' writes; rename it, or pass it as --ip-ranges TOKEN=%s",
			strings.Join(publishedNames(lists), ", "), name)
	case len(matches) > 1:
		for _, m := range matches[1:] {
			if strings.Join(m.Tokens, ",") != strings.Join(matches[0].Tokens, ",") {
				var urls []string
				for _, m := range matches {
					urls = append(urls, m.URL)
				}
				return ipListOwner{}, fmt.Sprintf("%s is the name of several lists for different bots (%s); rename it as 'repaudit ranges fetch' names files, or pass it as --ip-ranges TOKEN=%s",
					base, strings.Join(urls, ", "), name)
			}
		}
	}
	return ipListOwner{URL: matches[0].URL, Tokens: matches[0].Tokens}, ""
}

// publishedNames lists the distinct base names of the catalog's lists.
func publishedNames(lists []bots.IPRangeList) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		if u, err := url.Parse(l.URL); err == nil {
			if b := path.Base(u.Path); !seen[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	sort.Strings(out)
	return out
}

// loadIPListFile reads one IP list file and adds it for every bot its
// catalog list vouches for: in force from its fetch time when the name
// carries one (several snapshots of a list form a timeline), for the whole
// run otherwise. A file that cannot be used is a problem, not an error.
func loadIPListFile(p string, lists []bots.IPRangeList, ids *identity.Store, keep func(event.Problem)) {
	src := event.Source{File: p, Offset: -1}
	owner, why := mapIPListFile(p, lists)
	if why != "" {
		keep(event.Problem{Source: src, Code: problem.IPListUnmapped, Severity: event.SevWarning, Message: "IP range list not used: " + why})
		return
	}
	data, err := readDoc(p)
	if err != nil {
		keep(event.Problem{Source: src, Code: problem.IPListUnreadable, Severity: event.SevError, Message: err.Error()})
		return
	}
	l, ps, err := identity.ParseIPList(data, p)
	if err != nil {
		keep(event.Problem{Source: src, Code: problem.IPListUnreadable, Severity: event.SevError, Message: err.Error() + "; skipped"})
		return
	}
	for _, q := range ps {
		keep(identityProblem(q, src))
	}
	l.Source = owner.URL + " (" + p + ")"
	for _, tok := range owner.Tokens {
		ids.AddIPList(tok, l, owner.Fetched)
	}
}

// loadIPRangesDirs reads every --ip-ranges-dir: each regular, non-hidden
// file directly in it is an IP list tied to its bots by name. A directory
// that cannot be read is an error.
func loadIPRangesDirs(dirs []string, catalog *bots.Catalog, ids *identity.Store, problems *[]event.Problem) error {
	if len(dirs) == 0 {
		return nil
	}
	lists := catalog.IPRangeLists()
	keep := func(p event.Problem) { *problems = append(*problems, p) }
	for _, dir := range dirs {
		if err := eachDirFile("--ip-ranges-dir", dir, errNoIPLists, func(p string) { loadIPListFile(p, lists, ids, keep) }); err != nil {
			return err
		}
	}
	return nil
}

// eachDirFile calls load with the path of each regular, non-hidden file
// directly in dir, a directory given with flag. A directory that cannot
// be read is an error, and so is one with no such file (errEmpty, which
// names the command that fills it).
func eachDirFile(flag, dir string, errEmpty error, load func(path string)) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
			continue
		}
		n++
		load(filepath.Join(dir, e.Name()))
	}
	if n == 0 {
		return fmt.Errorf("%s %s: %w", flag, dir, errEmpty)
	}
	return nil
}

var errNoIPLists = errors.New("no files (run 'repaudit ranges fetch --out DIR' first)")
