package bots

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

//go:generate go run ./internal/gencatalog -out data

// The maintained data the default catalog is built from, and our overlay.
// bots/doc.go says where each comes from and how to refresh it.
var (
	//go:embed data/crawler-user-agents.json
	cuaJSON []byte
	//go:embed data/versions.json
	versionsJSON []byte
	//go:embed overlay.json
	overlayJSON []byte
)

// Names of the embedded sources, as Bot.Sources gives them.
const (
	SourceCrawlerUserAgents = "crawler-user-agents"
	SourceOverlay           = "overlay"
)

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
)

// Default returns the embedded catalog: crawler-user-agents, then our
// overlay merged over it (see Merge). ai.robots.txt's robots.json is not
// embedded (a file copied from another repository is not kept in this
// one): merge it at run time with --bots, which reads its shape. It is built once; the catalog is immutable. It panics
// only if the embedded data is broken, which the package tests rule out.
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := buildDefault()
		if err != nil {
			panic("bots: embedded catalog: " + err.Error())
		}
		defaultCat = c
	})
	return defaultCat
}

func buildDefault() (*Catalog, error) {
	cua, err := loadCUA(cuaJSON)
	if err != nil {
		return nil, fmt.Errorf("crawler-user-agents.json: %w", err)
	}
	ovl, err := Load(bytes.NewReader(overlayJSON), SourceOverlay)
	if err != nil {
		return nil, err
	}
	c := newCatalog(cua).Merge(ovl)
	var v struct {
		CUA struct {
			Version string `json:"version"`
		} `json:"crawler-user-agents"`
	}
	if err := json.Unmarshal(versionsJSON, &v); err != nil {
		return nil, fmt.Errorf("versions.json: %w", err)
	}
	c.versions = Versions{CrawlerUserAgents: v.CUA.Version}
	return c, nil
}

// cuaEntry is one entry of crawler-user-agents.json.
type cuaEntry struct {
	Pattern     string   `json:"pattern"`
	URL         string   `json:"url"`
	Instances   []string `json:"instances"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	DependsOn   []string `json:"depends_on"`
}

// CrawlerUserAgentsInstances returns the example User-Agents of the
// embedded crawler-user-agents list, in file order: real headers of
// crawlers, which the tests use to measure identification.
func CrawlerUserAgentsInstances() []string {
	var list []cuaEntry
	if err := json.Unmarshal(cuaJSON, &list); err != nil {
		return nil
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Instances...)
	}
	return out
}

// loadCUA turns crawler-user-agents entries into bots: each pattern (a
// regular expression in that list) becomes one or more literal names (see
// literals); a pattern that is more than a name keeps its expression,
// which a User-Agent must then also match. Entries whose names coincide
// (case-insensitive) are one bot.
func loadCUA(data []byte) ([]*Bot, error) {
	var list []cuaEntry
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	frameworks := map[string]bool{}
	for _, e := range list {
		for _, d := range e.DependsOn {
			frameworks[strings.ToLower(d)] = true
		}
	}
	byToken := map[string]*Bot{}
	var out []*Bot
	for _, e := range list {
		lits, anchored, exact := literals(e.Pattern)
		if len(lits) == 0 {
			continue
		}
		var re *regexp.Regexp
		if !exact {
			re, _ = regexp.Compile(e.Pattern) // nil when RE2 cannot: the name alone then
		}
		tok := strings.TrimRight(display(lits[0], e.Instances), " ;:,()/")
		b, ok := byToken[strings.ToLower(tok)]
		if !ok {
			b = &Bot{Token: tok, Sources: []string{SourceCrawlerUserAgents}, Notes: capText(e.Description)}
			if strings.HasPrefix(e.URL, "http") {
				b.URL = capText(e.URL)
			}
			b.Category, b.Framework = cuaCategory(e.Tags)
			if frameworks[strings.ToLower(tok)] || isFramework(tok) {
				b.Framework = true
			}
			if b.Framework {
				b.set |= setFramework
			}
			byToken[strings.ToLower(tok)] = b
			out = append(out, b)
		}
		for _, l := range lits {
			p := display(l, e.Instances)
			if anchored {
				p = "^" + p
			}
			b.Patterns = appendNew(b.Patterns, p)
			if re != nil {
				if b.verify == nil {
					b.verify = map[string]*regexp.Regexp{}
				}
				b.verify[p] = re
			}
		}
	}
	return out, nil
}

// cuaCategory maps crawler-user-agents tags to a category.
func cuaCategory(tags []string) (category string, framework bool) {
	has := map[string]bool{}
	for _, t := range tags {
		has[t] = true
	}
	switch {
	case has["http-library"]:
		return CategoryOther, true
	case has["ai-crawler"] && has["search-engine"]:
		return CategoryAISearch, false
	case has["ai-crawler"]:
		return CategoryAITraining, false
	case has["search-engine"]:
		return CategorySearch, false
	case has["archiver"]:
		return CategoryArchiver, false
	case has["seo"]:
		return CategorySEO, false
	case has["monitoring"] || has["scanner"]:
		return CategoryMonitor, false
	case has["feed-reader"]:
		return CategoryFeed, false
	}
	return CategoryOther, false
}

// display returns lit as most instances spell it (the first on a tie),
// else lit.
func display(lit string, instances []string) string {
	count := map[string]int{}
	best := lit
	for _, in := range instances {
		if i := indexFold(in, lit); i >= 0 {
			sp := in[i : i+len(lit)]
			count[sp]++
			if count[sp] > count[best] {
				best = sp
			}
		}
	}
	return best
}

func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFoldASCII(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// literals reads the names a crawler-user-agents pattern stands for. The
// patterns are regular expressions, nearly all plain names ("Googlebot\/",
// "coccoc"); the few others use alternation ("Ahrefs(Bot|SiteAudit)"),
// case classes ("[cC]laude[bB]ot"), anchors ("^curl") and, rarely, more
// ("BlogTraffic\/\d\.\d+ Feed-Fetcher"). literals expands alternation and
// case classes, reads "^" as anchored, stops at anything else and reports
// exact false, so that the caller keeps the expression to check. A
// trailing "/" or punctuation is dropped: whole-word matching already says
// where a name ends.
func literals(p string) (lits []string, anchored, exact bool) {
	exact = true
	if s, ok := strings.CutPrefix(p, "(^| )"); ok {
		p = s
	}
	for _, alt := range splitTop(p) {
		if strings.HasPrefix(alt, "^") {
			alt, anchored = alt[1:], true
		}
		outs, ex := expand(alt)
		exact = exact && ex
		for _, o := range outs {
			// Trailing punctuation stays: "Odin;" is not "Odin".
			o = strings.TrimLeft(strings.TrimSpace(o), " ;:,()/")
			if len(o) >= 3 && hasLetter(o) && isTokenChar(o[0]) {
				lits = appendNew(lits, o)
			}
		}
	}
	return lits, anchored, exact
}

// splitTop splits a pattern at the '|' outside groups and classes.
func splitTop(p string) []string {
	var out []string
	depth, class, last := 0, false, 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, p[last:i])
			last = i + 1
		}
	}
	return append(out, p[last:])
}

// expand expands one alternative into its literal strings.
func expand(p string) (outs []string, exact bool) {
	outs = []string{""}
	add := func(s string) {
		for i := range outs {
			outs[i] += s
		}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			if strings.IndexByte(`/.()-[]?+*|^$ {}'`, p[i]) >= 0 {
				add(p[i : i+1])
				continue
			}
			return outs, false
		case c == '[':
			j := strings.IndexByte(p[i:], ']')
			if j == 3 && p[i+1]|0x20 == p[i+2]|0x20 && hasLetter(p[i+1:i+2]) {
				add(strings.ToLower(p[i+1 : i+2]))
				i += j
				continue
			}
			return outs, false
		case c == '(':
			j := strings.IndexByte(p[i:], ')')
			if j < 0 {
				return outs, false
			}
			inner := p[i+1 : i+j]
			if strings.ContainsAny(inner, `\[]().*+?{}^$`) {
				return outs, false
			}
			var next []string
			for _, o := range outs {
				for _, a := range strings.Split(inner, "|") {
					next = append(next, o+a)
				}
			}
			outs = next
			i += j
		case c == '$' && i == len(p)-1:
			return outs, false
		case strings.IndexByte(".*+?{", c) >= 0:
			if c != '.' {
				// The previous character is optional or repeated.
				for k := range outs {
					if outs[k] != "" {
						outs[k] = outs[k][:len(outs[k])-1]
					}
				}
			}
			return outs, false
		default:
			add(p[i : i+1])
		}
	}
	return outs, true
}
