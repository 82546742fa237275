package evaluate

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Origins of a robots.txt version (robots_versions.source): where the
// content came from. WARC captures are OriginWARC; the others are what a
// site keeps of its own file (docs/semantics.md, "Evaluation" §3a).
const (
	OriginWARC    = "warc"    // a capture in an input WARC
	OriginWayback = "wayback" // a Wayback Machine capture saved by `repaudit robots history`
	OriginFile    = "file"    // a plain file given with --robots FILE[@TIME] or among the inputs
	OriginGit     = "git"     // a commit of a git repository (--robots-git)
	OriginDir     = "dir"     // a dated snapshot in a directory (--robots-dir)
)

// SiteVersion is one version of a site's robots.txt as the site keeps it:
// a plain file, a commit in git, a dated snapshot. It says what the site
// served from From on, not what a bot saw: a bot's view still comes from
// its own robots.txt fetches (docs/semantics.md, "Evaluation" §5.1), whose
// content is the site
// version in force at the fetch.
type SiteVersion struct {
	// URL is the robots.txt URL the content was served at; "" means the
	// site's: Options.DefaultAuthority, or the one site the inputs name.
	URL string
	// From is when the site started serving it. Zero means no time is
	// known: the version is in force for the whole data range (from the
	// earliest time in the data), and its evidence says so.
	From time.Time
	// Body is the file's content. Absent says the file did not exist
	// (removed in a commit): the site then answered 404, which RFC 9309
	// §2.3.1.3 reads as "unavailable": allow all.
	Body   []byte
	Absent bool
	// Origin is one of the Origin constants; Ref is what a person opens to
	// check it: the file, "REPO@COMMIT:PATH", the snapshot's name.
	Origin string
	Ref    string
	// Detail is added to the evidence after the time, e.g. the commit's
	// subject line.
	Detail string
	Source event.Source
}

// AddSiteVersion adds one version of a site's robots.txt. It is safe for
// concurrent use; Build places versions without a URL on the site and
// versions without a time at the start of the data.
func (b *Builder) AddSiteVersion(v SiteVersion) {
	d := &rdoc{
		isRobots: true,
		time:     v.From.UTC(),
		origin:   v.Origin,
		assumed:  v.From.IsZero(),
		rdocCold: &rdocCold{
			recordType: "resource",
			originRef:  strings.Clone(v.Ref),
			detail:     strings.Clone(v.Detail),
			size:       int64(len(v.Body)),
		},
	}
	if d.origin == "" {
		d.origin = OriginFile
	}
	if v.URL != "" {
		if auth, hostport, _, ok := splitURL(v.URL); ok {
			d.auth, d.hostport = auth, hostport
			d.rawURL = strings.Clone(v.URL)
			d.url = auth + "/robots.txt"
		}
	}
	if v.Absent {
		d.status = 404
		h := sha256.Sum256([]byte("absent\n" + v.Ref))
		d.idDigest = hex.EncodeToString(h[:])[:6]
	} else {
		d.status = 200
		h := sha256.Sum256(v.Body)
		d.digest = hex.EncodeToString(h[:])
		d.idDigest = d.digest[:6]
		d.file = b.robots.add(d.digest, v.Body)
		d.truncated = d.file.trunc
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	d.src = v.Source
	d.src.File = b.intern(d.src.File)
	if !d.assumed {
		b.noteTime(d.time)
	}
	b.siteDocs = append(b.siteDocs, d)
}

// NoteHosts records, once per input file, the authorities its fetches
// named (scheme://host[:port], or host[:port] when the scheme is not
// known) and how many fetches named none. Build uses them to settle the
// site of host-less log lines and robots.txt files when --site is absent.
func (b *Builder) NoteHosts(hosts []string, hostless int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seenHosts == nil {
		b.seenHosts = make(map[string]string)
	}
	for _, h := range hosts {
		scheme, hp := "", h
		if i := strings.Index(h, "://"); i >= 0 {
			scheme, hp = h[:i], h[i+3:]
		}
		hp = normalizeHost(scheme, hp)
		if hp == "" || len(b.seenHosts) >= maxSeenHosts {
			continue
		}
		if prev, ok := b.seenHosts[hp]; !ok || prev == "" {
			b.seenHosts[strings.Clone(hp)] = scheme
		}
	}
	b.hostless += hostless
}

// maxSeenHosts caps the authorities remembered for site inference: a
// hostile log may name millions; past a few the answer is "ambiguous".
const maxSeenHosts = 64

// Site says how the site of host-less inputs was settled.
type Site struct {
	// Authority is scheme://host[:port]; "" when none could be settled.
	Authority string
	// Inferred is true when it was not given with --site but was the one
	// authority the inputs name.
	Inferred bool
	// Candidates are the authorities the inputs name when there are
	// several (sorted; at most a few), so a message can list them.
	Candidates []string
	// Hostless counts fetches whose log line names no host; Versions
	// counts site robots.txt versions given without a URL.
	Hostless int64
	Versions int
}

// Needed reports whether some input needed a site (host-less fetches or
// robots.txt files without a URL).
func (s Site) Needed() bool { return s.Hostless > 0 || s.Versions > 0 }

// settleSite picks the authority of host-less inputs (docs/semantics.md,
// "The audit run", Inputs; docs/design.md, "Site sources"): the
// --site option, else the only authority the inputs name. Called by Build
// before the timelines are built.
func (m *Model) settleSite(b *Builder) {
	s := Site{Hostless: b.hostless}
	for _, d := range b.siteDocs {
		if d.auth == "" {
			s.Versions++
		}
	}
	if m.defHost != "" {
		s.Authority = m.defScheme + "://" + m.defHost
		m.site = s
		return
	}
	if !s.Needed() {
		m.site = s
		return
	}
	if len(m.opts.Sites) > 1 {
		// Several sites were named: what names none is not guessed to be
		// the one other site the inputs happen to name.
		s.Candidates = slices.Clone(m.opts.Sites)
		sort.Strings(s.Candidates)
		m.site = s
		return
	}
	known := make(map[string]string) // host[:port] -> scheme ("" unknown)
	for hp, scheme := range b.seenHosts {
		known[hp] = scheme
	}
	for _, d := range b.docs {
		if d.isRobots && d.hostport != "" {
			known[d.hostport] = d.auth[:strings.Index(d.auth, ":")]
		}
	}
	for _, d := range b.siteDocs {
		if d.hostport != "" {
			known[d.hostport] = d.auth[:strings.Index(d.auth, ":")]
		}
	}
	for _, c := range b.captures {
		if auth, hp, _, ok := splitURL(c.url()); ok {
			if _, seen := known[hp]; !seen {
				known[hp] = auth[:strings.Index(auth, ":")]
			}
		}
	}
	if len(known) == 1 {
		for hp, scheme := range known {
			if scheme == "" {
				scheme = "https"
			}
			m.defScheme, m.defHost = scheme, hp
			s.Authority, s.Inferred = scheme+"://"+hp, true
		}
	} else {
		for hp, scheme := range known {
			if scheme == "" {
				scheme = "https"
			}
			s.Candidates = append(s.Candidates, scheme+"://"+hp)
		}
		sort.Strings(s.Candidates)
	}
	m.site = s
}

// placeSiteDocs gives every site version its authority and time and adds
// it to docs. A version without a URL when no site is settled cannot be
// placed: it is reported and left out.
func (m *Model) placeSiteDocs(b *Builder) []*rdoc {
	docs := b.docs
	if len(b.siteDocs) == 0 {
		return docs
	}
	start := b.minTime
	if start.IsZero() {
		start = m.opts.AsOf
	}
	docs = slices.Clone(docs)
	for _, d := range b.siteDocs {
		if d.auth == "" {
			if m.defHost == "" {
				msg := "robots.txt from " + d.originRef + " names no site and none could be settled"
				if len(m.site.Candidates) > 1 {
					msg += " (the inputs name " + itoa(len(m.site.Candidates)) + " sites)"
				}
				m.problem(d.src, problem.RobotsSourceNoSite, event.SevError, msg+": pass --site https://HOST; not used")
				continue
			}
			d.auth = m.defScheme + "://" + m.defHost
			d.hostport = m.defHost
			d.url = d.auth + "/robots.txt"
			d.rawURL = d.url
		}
		if d.assumed {
			d.time = start
		}
		docs = append(docs, d)
	}
	return docs
}

// Site says how the site of host-less inputs was settled.
func (m *Model) Site() Site { return m.site }

// Authority returns the authority of an absolute http(s) URL,
// scheme://host[:port] normalized as every authority is (scheme and host
// lower-cased, the default port and a trailing dot removed), and its
// host[:port]; ok is false for anything else.
func Authority(raw string) (auth, hostport string, ok bool) {
	auth, hostport, _, ok = splitURL(raw)
	if !ok || hostport == "" || !(strings.HasPrefix(auth, "https://") || strings.HasPrefix(auth, "http://")) {
		return "", "", false
	}
	return auth, hostport, true
}

// FirstVersion returns the earliest time any robots.txt version is in
// force, over every authority; zero when there is none.
func (m *Model) FirstVersion() time.Time {
	var first time.Time
	for _, a := range m.authList {
		if len(a.versions) > 0 && (first.IsZero() || a.versions[0].from.Before(first)) {
			first = a.versions[0].from
		}
	}
	return first
}

// versionOrigin is the part of a version's evidence between its URL and
// ", version ID)": when and where the content came from.
func versionOrigin(d *rdoc) string {
	switch d.origin {
	case OriginGit:
		s := " from git " + d.originRef + " (committed " + fmtTime(d.time)
		if d.detail != "" {
			s += ", " + d.detail
		}
		if d.status == 404 {
			s += ", file removed: unavailable, allow all (RFC 9309 §2.3.1.3)"
		}
		return s
	case OriginDir:
		return " from snapshot " + d.originRef + " (dated " + fmtTime(d.time) + " by its name"
	case OriginFile:
		if d.assumed {
			return " from file " + d.originRef + " (no time given: assumed in force for the whole data range, from " + fmtTime(d.time)
		}
		return " from file " + d.originRef + " (given as served from " + fmtTime(d.time)
	case OriginWayback:
		return " captured " + fmtTime(d.time) + " by the Wayback Machine (" + d.originRef + ", saved in " + d.src.String() + ", status " + itoa(d.status)
	}
	return capturedAt(d.time, d.src, d.status)
}

// originName is the version's robots_versions.source value.
func (d *rdoc) originName() string {
	if d.origin == "" {
		return OriginWARC
	}
	return d.origin
}

// inWARC reports whether the version's content is a record of an input
// WARC (its source names a WARC file and offset).
func (d *rdoc) inWARC() bool {
	return d.origin == "" || d.origin == OriginWARC || d.origin == OriginWayback
}

// NoteTimes records the span of one input's events, so that versions
// without a time cover every fetch and AsOf defaults to the latest time
// even for fetches pass 1 does not keep.
func (b *Builder) NoteTimes(first, last time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.noteTime(first.UTC())
	b.noteTime(last.UTC())
}

// AssumedVersions counts the robots.txt versions given without a time
// and assumed in force for the whole data range.
func (m *Model) AssumedVersions() int {
	n := 0
	for _, a := range m.authList {
		for _, v := range a.versions {
			if v.doc.assumed && !v.segment {
				n++
			}
		}
	}
	return n
}

// archived reports whether the version is a capture in the input WARCs
// themselves: only those are the archive crawler's own robots.txt
// fetches.
func (d *rdoc) archived() bool { return d.origin == "" || d.origin == OriginWARC }

// isWayback reports whether a WARC-Source-URI names a Wayback Machine
// replay ("…/web/20250301000000id_/https://…"), as `repaudit robots
// history` writes it.
func isWayback(src string) bool {
	i := strings.Index(src, "/web/")
	if i < 0 {
		return false
	}
	ts := src[i+len("/web/"):]
	n := 0
	for n < len(ts) && ts[n] >= '0' && ts[n] <= '9' {
		n++
	}
	return n >= 4 && n <= 14 && strings.HasPrefix(ts[n:], "id_/")
}
