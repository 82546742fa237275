package audit

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/ingest"
)

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
		b, err := input.SplitBound("input", a, nil)
		if err != nil {
			return err
		}
		r.inputs = append(r.inputs, b.Rest)
		if b.Auth == "" {
			continue
		}
		if b.Rest == StdinName || !strings.ContainsAny(b.Rest, "*?[") && !isDir(b.Rest) {
			if err := set(b.Rest, b.Auth); err != nil {
				return err
			}
			continue
		}
		paths, _, err := ingest.Expand([]string{b.Rest})
		if err != nil {
			continue // said when the inputs are expanded
		}
		for _, p := range paths {
			if err := set(p, b.Auth); err != nil {
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
	sites := input.Sites(r.cfg.Eval)
	if len(sites) < 2 {
		return nil
	}
	for _, fs := range r.files {
		if fs.err == nil && fs.f.Kind == ingest.KindRobots && fs.site == "" {
			return input.UnboundError("robots.txt input "+fs.f.Path, sites[0]+"="+fs.f.Path, sites)
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
	sites := input.Sites(r.cfg.Eval)
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
		names := input.UnboundSources(r.cfg.Options)
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
