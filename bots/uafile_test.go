package bots

import (
	"flag"
	"regexp"
	"strings"
	"testing"
)

// TestUAFiles measures identification on User-Agent files given on the
// command line, one User-Agent a line, for checking the rules on sets
// they were not written from:
//
//	go test ./bots/ -run TestUAFiles -v -uabots a.txt,b.txt -uabrowsers c.txt [-uamisses]
//
// It reports the share of bot User-Agents named, the share of browser
// User-Agents named (false positives), how many got a generic word as
// their name and how many look-alikes ("X-like Googlebot", "not
// Googlebot") were attributed to the bot they imitate. It skips without
// the flags and fails nothing: the figures are for people to read.
func TestUAFiles(t *testing.T) {
	if *uaBots == "" && *uaBrowsers == "" {
		t.Skip("no -uabots or -uabrowsers files given")
	}
	c := Default()
	for _, set := range []struct {
		files   string
		wantBot bool
	}{{*uaBots, true}, {*uaBrowsers, false}} {
		if set.files == "" {
			continue
		}
		var uas []string
		for _, p := range strings.Split(set.files, ",") {
			uas = append(uas, readLines(t, p)...)
		}
		m := measure(c, uas)
		kind := "browsers named as bots (false positives)"
		if set.wantBot {
			kind = "bots named"
		}
		t.Logf("%s: %d User-Agents, %.2f%% %s; %d generic names; look-alikes %d, %d attributed to the imitated bot",
			set.files, len(uas), 100*float64(m.named)/float64(len(uas)), kind, len(m.generic), m.lookAlikes, len(m.imitated))
		for _, s := range m.generic {
			t.Logf("generic: %s", s)
		}
		for _, s := range m.imitated {
			t.Logf("imitated: %s", s)
		}
		if !*uaMisses {
			continue
		}
		for _, ua := range uas {
			id := c.IdentifyUA(ua)
			if (id.Agent != "") != set.wantBot {
				t.Logf("miss: %q -> %q (%s: %q)", ua, id.Agent, id.Rule, id.Matched)
			}
		}
	}
}

var (
	uaBots     = flag.String("uabots", "", "comma-separated files of bot User-Agents for TestUAFiles")
	uaBrowsers = flag.String("uabrowsers", "", "comma-separated files of browser User-Agents for TestUAFiles")
	uaMisses   = flag.Bool("uamisses", false, "TestUAFiles logs every User-Agent it gets wrong")
)

// imitation finds a bot name right after a word that says the client
// only resembles it or is not it: "inoreader.com-like FeedFetcher",
// "like Googlebot", "not a robot", "no Googlebot". The measurement's own
// reading, independent of scanWords.
var imitation = regexp.MustCompile(`(?i)(?:like|not(?: an?)?|no|non)[ -]+([A-Za-z][A-Za-z0-9_.!-]*)`)

// uaGenericNames are names that say what a client is, not who: a client
// so named is counted as given a generic name (crawler stems and generic
// words alone, and the header's own name).
var uaGenericNames = map[string]bool{
	"user-agent": true, "useragent": true, "user": true, "app": true, "tool": true,
	"library": true, "client": true, "browser": true, "http": true, "mozilla": true,
}

// uaMeasure is what measure counts.
type uaMeasure struct {
	named, lookAlikes int
	generic, imitated []string
}

func measure(c *Catalog, uas []string) uaMeasure {
	var m uaMeasure
	for _, ua := range uas {
		id := c.IdentifyUA(ua)
		if id.Agent != "" {
			m.named++
			if l := strings.ToLower(id.Agent); IsGeneric(id.Agent) || uaGenericNames[l] || isStem(l) {
				m.generic = append(m.generic, id.Agent+" <- "+ua)
			}
		}
		for _, sm := range imitation.FindAllStringSubmatchIndex(ua, -1) {
			name := strings.TrimRight(ua[sm[2]:sm[3]], ".-")
			b, ok := c.Identify(name)
			if !ok || b.Framework {
				continue
			}
			m.lookAlikes++
			if id.Bot == b && indexFold(ua[:sm[2]], id.Matched) < 0 && indexFold(ua[sm[3]:], id.Matched) < 0 {
				m.imitated = append(m.imitated, id.Agent+" <- "+ua)
			}
			break
		}
	}
	return m
}

func isStem(l string) bool {
	for _, s := range crawlerStems {
		if l == s && s != "slurp" && s != "prerender" && s != "externalhit" {
			return true
		}
	}
	return false
}
