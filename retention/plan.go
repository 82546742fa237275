package retention

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/repaudit/repaudit/surt"
)

// Format is an export format.
type Format string

// The formats Build and Plan.Write know.
const (
	FormatPywbACL           Format = "pywb-acl"           // pywb .aclj, exact-match rules
	FormatWaybackExclusions Format = "wayback-exclusions" // OpenWayback exclusion list, URL per line
	FormatCDX               Format = "cdx"                // CDX11 lines of the captures to remove
)

// Formats lists the formats in the order help text shows them.
var Formats = []Format{FormatPywbACL, FormatWaybackExclusions, FormatCDX}

// ErrFormat is returned for a format Build does not know.
var ErrFormat = errors.New("retention: unknown format")

// Actions of the retention table.
const (
	ActionKeep    = "keep"
	ActionDelete  = "delete"
	ActionEmbargo = "embargo"
	ActionReview  = "review"
)

// Capture is one row of the retention table.
type Capture struct {
	URL        string
	Time       time.Time
	Action     string
	Reason     string
	Due        *time.Time // nil: no due date
	Status     int
	RecordType string
	WARCFile   string
	Offset     int64
	Length     int64
	RecordID   string

	key string // SURT key, set by Build
}

// Key returns the capture's SURT key (set once Build has seen it).
func (c *Capture) Key() string { return c.key }

// Scan calls fn for every capture of a retention table, in any order,
// and stops at the first error fn or the reading returns.
type Scan func(fn func(*Capture) error) error

// Rule is one rule of an export: it hides the captures in Hidden, and
// also those in AlsoHidden, kept captures the format cannot tell apart
// from them (a conflict).
type Rule struct {
	Key    string // SURT key
	URL    string // the URL of the earliest hidden capture
	Access string // pywb: exclude (delete) or block (embargo, review); other formats: exclude
	// Before and After bound the rule to captures strictly before or
	// strictly after a time (pywb's per-rule date fields); zero when
	// unused. At most one is set.
	Before, After time.Time
	Hidden        []*Capture
	AlsoHidden    []*Capture
}

// Problem is a capture that got no rule, and why.
type Problem struct {
	Capture *Capture
	Err     error
}

// Plan is what an export holds.
type Plan struct {
	Format Format
	AsOf   *time.Time // the audit's --as-of; nil when the manifest has none
	Rules  []Rule     // sorted by Key, then time
	// Upcoming are captures whose action changes after AsOf: kept ones
	// with a due date (a time-limit not yet reached) and other actions
	// not yet due. They get no rule; sorted by due date.
	Upcoming []*Capture
	Problems []Problem
	Captures int // rows read
	Hidden   int // captures the rules hide (AlsoHidden not counted)
}

// Conflicts returns the rules that also hide kept captures.
func (p *Plan) Conflicts() []Rule {
	var out []Rule
	for _, r := range p.Rules {
		if len(r.AlsoHidden) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// due reports whether a capture's action applies as of asOf: a non-keep
// action with no due date or one at or before asOf (the report's rule;
// without an as-of every action is due).
func due(c *Capture, asOf *time.Time) bool {
	return c.Due == nil || asOf == nil || !c.Due.After(*asOf)
}

// Build reads the captures of scan and makes the rules of format f as of
// asOf. A capture whose URL has no SURT key is a Problem, not an error;
// errors are those of the scan.
func Build(scan Scan, asOf *time.Time, f Format) (*Plan, error) {
	switch f {
	case FormatPywbACL, FormatWaybackExclusions, FormatCDX:
	default:
		return nil, fmt.Errorf("%w %q", ErrFormat, f)
	}
	p := &Plan{Format: f, AsOf: asOf}
	hide := map[string][]*Capture{}
	err := scan(func(c *Capture) error {
		p.Captures++
		if c.Action == ActionKeep && c.Due == nil {
			return nil
		}
		if c.Action == ActionKeep || !due(c, asOf) {
			p.Upcoming = append(p.Upcoming, c)
			return nil
		}
		k, err := surt.Key(c.URL)
		if err != nil {
			p.Problems = append(p.Problems, Problem{Capture: c, Err: err})
			return nil
		}
		c.key = k
		hide[k] = append(hide[k], c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	kept, err := keptNear(scan, hide, f, asOf)
	if err != nil {
		return nil, err
	}
	p.Rules = makeRules(hide, kept, f)
	for _, r := range p.Rules {
		p.Hidden += len(r.Hidden)
	}
	sort.SliceStable(p.Upcoming, func(i, j int) bool {
		a, b := p.Upcoming[i], p.Upcoming[j]
		if !a.Due.Equal(*b.Due) {
			return a.Due.Before(*b.Due)
		}
		return a.URL < b.URL
	})
	return p, nil
}

// keptNear reads the captures again and returns, per key to hide, the
// kept captures a rule for that key could hide too: those with the same
// key, and for the prefix rules of OpenWayback those whose key starts
// with the rule's prefix. Captures not to hide now (kept, or not yet due)
// count as kept.
func keptNear(scan Scan, hide map[string][]*Capture, f Format, asOf *time.Time) (map[string][]*Capture, error) {
	kept := map[string][]*Capture{}
	if f == FormatCDX {
		return kept, nil // one line per capture: nothing else is touched
	}
	prefixes := map[string]string{} // prefix -> key to hide
	lengths := map[int]bool{}
	if f == FormatWaybackExclusions {
		for k := range hide {
			p := waybackPrefix(k)
			prefixes[p] = k
			lengths[len(p)] = true
		}
	}
	err := scan(func(c *Capture) error {
		if c.Action != ActionKeep && due(c, asOf) {
			return nil
		}
		k, err := surt.Key(c.URL)
		if err != nil {
			return nil
		}
		var cc *Capture
		if _, ok := hide[k]; ok {
			cc = copyKey(c, k)
			kept[k] = append(kept[k], cc)
		}
		for n := range lengths {
			if n > len(k) {
				continue
			}
			if h, ok := prefixes[k[:n]]; ok && h != k {
				if cc == nil {
					cc = copyKey(c, k)
				}
				kept[h] = append(kept[h], cc)
			}
		}
		return nil
	})
	return kept, err
}

func copyKey(c *Capture, k string) *Capture {
	cc := *c
	cc.key = k
	return &cc
}

// waybackPrefix is the part of a key an OpenWayback exclusion line for
// that URL matches as a prefix. Its StaticListExclusionFilter matches
// plain string prefixes of the key, its StaticMapExclusionFilter the
// same on path boundaries, and a line for a site's root ("/") excludes
// the whole host with its subdomains (SURTTokenizer.prefixKey drops the
// trailing ",)/"). The widest of these is taken, so that every kept
// capture either filter could hide is named.
func waybackPrefix(key string) string {
	if n := len(key); n >= 2 && key[n-2:] == ")/" {
		return key[:n-2]
	}
	return key
}

// makeRules makes one rule per key to hide (CDX: one per capture).
func makeRules(hide, kept map[string][]*Capture, f Format) []Rule {
	var rules []Rule
	for _, k := range slices.Sorted(maps.Keys(hide)) {
		h := hide[k]
		sortCaptures(h)
		sortCaptures(kept[k])
		if f == FormatCDX {
			for _, c := range h {
				rules = append(rules, Rule{Key: k, URL: c.URL, Access: "exclude", Hidden: []*Capture{c}})
			}
			continue
		}
		r := Rule{Key: k, URL: h[0].URL, Access: "exclude", Hidden: h}
		if f == FormatPywbACL {
			r.Access = pywbAccess(h)
			r.Before, r.After, r.AlsoHidden = bound(h, kept[k])
		} else {
			r.AlsoHidden = kept[k]
		}
		rules = append(rules, r)
	}
	return rules
}

// pywbAccess is exclude when any capture must be deleted (pywb then
// answers as if it did not exist), block otherwise (pywb answers 451:
// the capture exists but may not be shown).
func pywbAccess(h []*Capture) string {
	for _, c := range h {
		if c.Action == ActionDelete {
			return "exclude"
		}
	}
	return "block"
}

// bound picks pywb's per-rule date field for a key with hidden captures
// h and kept captures k, both sorted by time. pywb compares a capture's
// 14-digit timestamp, so times are taken to the second. All hidden
// before all kept: Before one second after the last hidden. All hidden
// after all kept: After one second before the first hidden. Otherwise
// no single rule separates them (pywb applies one rule per key): the
// bound that hides fewer kept captures is taken and those are returned.
func bound(h, k []*Capture) (before, after time.Time, also []*Capture) {
	if len(k) == 0 {
		return time.Time{}, time.Time{}, nil
	}
	first := h[0].Time.UTC().Truncate(time.Second)
	last := h[len(h)-1].Time.UTC().Truncate(time.Second)
	before = last.Add(time.Second)
	after = first.Add(-time.Second)
	var underBefore, overAfter []*Capture
	for _, c := range k {
		t := c.Time.UTC().Truncate(time.Second)
		if t.Before(before) {
			underBefore = append(underBefore, c)
		}
		if t.After(after) {
			overAfter = append(overAfter, c)
		}
	}
	if len(overAfter) < len(underBefore) {
		return time.Time{}, after, overAfter
	}
	return before, time.Time{}, underBefore
}

func sortCaptures(cs []*Capture) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		if a.WARCFile != b.WARCFile {
			return a.WARCFile < b.WARCFile
		}
		return a.Offset < b.Offset
	})
}
