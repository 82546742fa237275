package audit

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/history"
)

// Flags are the command-line flags that every driver of the audit shares
// ('repaudit audit' and 'repaudit-beam'): the files that accompany the
// streamed inputs and how fetches are judged. Register them on a flag
// set, parse it, then Resolve them into the input layer's options; a
// driver adds its own flags (output, workers, progress) beside them.
type Flags struct {
	// Input receives the flags that name files as given (--bots,
	// --card, --jwks, --index, --snippets, --ip-ranges-dir, --dns-dir,
	// --robots, --robots-git, --robots-dir); Resolve completes it from
	// the flags below.
	Input            input.Options
	LogFormat        string
	LogExtraHeaders  string
	IndexAgent       string
	ArchiveAgent     List
	AsOf             string
	Site             List
	RobotsTTL        time.Duration
	Skew             time.Duration
	UnreachableAfter time.Duration
	AllowTestKeys    bool
	RobotsMaxBytes   int
	IPRanges         List
}

// List collects a repeatable flag.
type List []string

func (l *List) String() string     { return strings.Join(*l, ",") }
func (l *List) Set(v string) error { *l = append(*l, v); return nil }

// Register defines the shared flags on fs with their defaults.
func (f *Flags) Register(fs *flag.FlagSet) {
	var names []string
	for _, lf := range accesslog.Formats() {
		names = append(names, string(lf))
	}
	fs.StringVar(&f.LogFormat, "log-format", "", "log format for every log input instead of detection: "+strings.Join(names, ", "))
	fs.StringVar(&f.IndexAgent, "index-agent", "", "product `TOKEN` whose directives --index/--snippets listings are judged under (default: global rules only)")
	fs.Var(&f.ArchiveAgent, "archive-agent", "product `TOKEN` of the crawler of every input WARC and ARC file, or FILE=TOKEN for one file (FILE as given, or a path under a directory given); repeatable (default: per file, from its request records' User-Agent or its warcinfo record)")
	fs.StringVar(&f.AsOf, "as-of", "", "judge retention as of this `TIME` (RFC 3339 or YYYY-MM-DD; default: the latest time in the data)")
	fs.DurationVar(&f.RobotsTTL, "robots-ttl", 24*time.Hour, "robots.txt cache lifetime (RFC 9309 §2.4); older views are stale")
	fs.DurationVar(&f.Skew, "skew", 60*time.Second, "allowed clock skew for signature created/expires")
	fs.Var(&f.Site, "site", "`URL` of the site (https://example.com) for log lines that carry no host (combined, common); repeatable: with several, bind each host-less log and each robots.txt source to its site with URL=PATH")
	fs.BoolVar(&f.AllowTestKeys, "allow-test-keys", false, "verify signatures made with the public RFC 9421 test keys normally")
	fs.IntVar(&f.RobotsMaxBytes, "robots-max-bytes", 500*1024, "robots.txt parsing limit in bytes (at least 500 KiB per RFC 9309 §2.5)")
	fs.StringVar(&f.LogExtraHeaders, "log-extra-headers", "", "comma-separated `NAMES` of extra quoted fields after the User-Agent in combined/common logs, e.g. Signature,Signature-Input,Signature-Agent; for HAProxy logs, the captured request headers {a|b} in capture order, e.g. Host,User-Agent")
	fs.DurationVar(&f.UnreachableAfter, "unreachable-after", 30*24*time.Hour, "continuous robots.txt unreachability after which it counts as unavailable (RFC 9309 §2.3.1.4)")
	fs.Var((*List)(&f.Input.Bots), "bots", "bot catalog `FILE` to merge over the default (our JSON or ai.robots.txt robots.json); repeatable")
	fs.Var((*List)(&f.Input.Cards), "card", "Signature Agent Card `FILE`, valid for the whole run; repeatable")
	fs.Var((*List)(&f.Input.JWKS), "jwks", "JWK Set `FILE` whose keys are trusted for any Signature-Agent; repeatable")
	fs.Var(&f.IPRanges, "ip-ranges", "published IP ranges `TOKEN=FILE` (JAFAR/Google/OpenAI JSON); repeatable, several snapshots form a timeline")
	fs.Var((*List)(&f.Input.Index), "index", "index listing `FILE` (URLs, CDX, CDXJ or CSV url[,time][,agent]); repeatable")
	fs.Var((*List)(&f.Input.Snippets), "snippets", "snippet listing `FILE`, same shapes as --index; repeatable")
	fs.Var((*List)(&f.Input.IPRangesDirs), "ip-ranges-dir", "`DIR` of IP range lists as 'repaudit ranges fetch' writes them (or named as published, e.g. googlebot.json); repeatable")
	fs.Var((*List)(&f.Input.DNSDirs), "dns-dir", "`DIR` of reverse-DNS snapshots as 'repaudit dns verify' writes them: read offline, they verify or refute the addresses of bots with rdns_suffixes; repeatable")
	fs.Var((*List)(&f.Input.Robots), "robots", "the site's robots.txt `[URL=]FILE[@TIME]`, served from TIME (RFC 3339 or YYYY-MM-DD) until the next version; without @TIME, in force for the whole data range; URL= binds it to that site (https://www.example.org=FILE) whatever --site says; repeatable")
	fs.Var((*List)(&f.Input.RobotsGit), "robots-git", "git repository `[URL=]DIR[:PATH]` holding the site's robots.txt (PATH default robots.txt): every commit that changed it is a version from its committer time; URL= binds it to that site; repeatable")
	fs.Var((*List)(&f.Input.RobotsDir), "robots-dir", "`[URL=]DIR` of dated robots.txt snapshots named by date or time (2025-03-01.txt, robots-2025-03-01T12:00:00Z.txt); URL= binds them to that site; a subdirectory named by a host (DIR/www.example.org/2025-03-01.txt) holds that host's snapshots (https, unless a --site names the host with http); repeatable")
}

// Resolve validates the parsed flags and returns the options they make:
// Input completed with the log format, the extra headers, the IP range
// files and the evaluation options. Its errors name the flag and say
// what it wants.
func (f *Flags) Resolve() (input.Options, error) {
	s := f.Input
	var none input.Options
	if f.LogFormat != "" {
		lf, err := accesslog.ParseFormat(f.LogFormat)
		if err != nil {
			return none, err
		}
		s.LogFormat = lf
	}
	at, err := ParseTime("as-of", f.AsOf)
	if err != nil {
		return none, err
	}
	// A zero or negative duration would silently become the default in
	// evaluate.Options; say so instead.
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"robots-ttl", f.RobotsTTL}, {"skew", f.Skew}, {"unreachable-after", f.UnreachableAfter}} {
		if d.v <= 0 {
			return none, fmt.Errorf("--%s must be a positive duration (like 90s, 24h), got %s", d.name, d.v)
		}
	}
	if f.RobotsMaxBytes < 500*1024 {
		return none, fmt.Errorf("--robots-max-bytes must be at least 512000 (RFC 9309 §2.5)")
	}
	s.IPRanges = map[string][]string{}
	for _, r := range f.IPRanges {
		tok, file, ok := strings.Cut(r, "=")
		if !ok || tok == "" || file == "" {
			return none, fmt.Errorf("--ip-ranges wants TOKEN=FILE, got %q", r)
		}
		s.IPRanges[tok] = append(s.IPRanges[tok], file)
	}
	var sites []string
	for _, site := range f.Site {
		a, err := SiteAuthority(site)
		if err != nil {
			return none, err
		}
		if !slices.Contains(sites, a) {
			sites = append(sites, a)
		}
	}
	authority := ""
	var several []string
	if len(sites) == 1 {
		authority = sites[0]
	} else if len(sites) > 1 {
		several = sites
	}
	for _, n := range strings.Split(f.LogExtraHeaders, ",") {
		if n = strings.TrimSpace(n); n != "" {
			s.LogExtraHeaders = append(s.LogExtraHeaders, n)
		}
	}
	every, perFile, err := archiveAgents(f.ArchiveAgent)
	if err != nil {
		return none, err
	}
	s.Eval = evaluate.Options{
		AsOf: at, RobotsTTL: f.RobotsTTL, UnreachableAfter: f.UnreachableAfter, Skew: f.Skew, AllowTestKeys: f.AllowTestKeys,
		RobotsMaxBytes: f.RobotsMaxBytes, ArchiveAgent: every, ArchiveAgents: perFile, IndexAgent: f.IndexAgent, DefaultAuthority: authority,
		Sites: several,
	}
	return s, nil
}

// archiveAgents reads the --archive-agent values: at most one TOKEN, the
// crawler of every file, and any number of FILE=TOKEN, the crawler of one
// file each. A product token holds no "=", so the last one splits.
func archiveAgents(vals []string) (every string, perFile map[string]string, err error) {
	for _, v := range vals {
		i := strings.LastIndexByte(v, '=')
		if i < 0 {
			if every != "" && every != v {
				return "", nil, fmt.Errorf("--archive-agent names the crawler of every file twice (%s, %s): give FILE=TOKEN for single files", every, v)
			}
			if strings.TrimSpace(v) == "" {
				return "", nil, fmt.Errorf("--archive-agent wants TOKEN or FILE=TOKEN, got %q", v)
			}
			every = strings.TrimSpace(v)
			continue
		}
		file, tok := v[:i], strings.TrimSpace(v[i+1:])
		if file == "" || tok == "" {
			return "", nil, fmt.Errorf("--archive-agent wants TOKEN or FILE=TOKEN, got %q", v)
		}
		key := filepath.Clean(file)
		if prev, ok := perFile[key]; ok && prev != tok {
			return "", nil, fmt.Errorf("--archive-agent names two crawlers of %s: %s and %s", file, prev, tok)
		}
		if perFile == nil {
			perFile = make(map[string]string)
		}
		perFile[key] = tok
	}
	return every, perFile, nil
}

// ParseTime reads a --as-of style time given to the flag name, in the
// forms history.ParseTime reads (RFC 3339, a date-time without zone, a
// date, the compact forms); times without a zone are UTC. An empty value
// is the zero time.
func ParseTime(name, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := history.ParseTime(v)
	if err != nil {
		return time.Time{}, fmt.Errorf("--%s: %q is neither RFC 3339 nor YYYY-MM-DD", name, v)
	}
	return t, nil
}

// SiteAuthority turns --site into scheme://host[:port], normalized as
// every authority is (docs/semantics.md, Evaluation §2).
func SiteAuthority(s string) (string, error) {
	return input.SiteURL("--site", s)
}
