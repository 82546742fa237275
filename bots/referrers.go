package bots

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Referrer is one host of an operator's product that sends readers to
// sites: a Referer header naming it is a referral by that operator (a
// ChatGPT answer's link followed from chatgpt.com, say). The report's
// crawl-to-refer ratio divides an operator's page fetches by these
// referrals.
type Referrer struct {
	Operator string // as Bot.Operator spells it ("OpenAI")
	Host     string // lower case, no port ("chatgpt.com")
}

var (
	referrersOnce sync.Once
	referrers     []Referrer
	referrersErr  error
)

// Referrers returns the referrer hosts of the embedded overlay's
// "operators" member, sorted by operator and host. The overlay cites the
// source of each (see doc.go). The list is shared: do not modify it. It
// panics only if the embedded data is broken, which the package tests rule
// out.
func Referrers() []Referrer {
	referrersOnce.Do(func() { referrers, referrersErr = loadReferrers(overlayJSON) })
	if referrersErr != nil {
		panic("bots: embedded overlay: " + referrersErr.Error())
	}
	return referrers
}

// loadReferrers reads the "operators" member of a catalog in our shape.
func loadReferrers(data []byte) ([]Referrer, error) {
	var v struct {
		Operators []struct {
			Operator      string   `json:"operator"`
			ReferrerHosts []string `json:"referrer_hosts"`
			URL           string   `json:"url"`
			Notes         string   `json:"notes"`
		} `json:"operators"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("operators: %w", err)
	}
	var out []Referrer
	seen := map[string]string{}
	for _, op := range v.Operators {
		if op.Operator == "" || op.URL == "" {
			return nil, fmt.Errorf("operators: %q: want an operator and a url", op.Operator)
		}
		for _, h := range op.ReferrerHosts {
			if h == "" || h != strings.ToLower(h) || strings.ContainsAny(h, ":/ ") {
				return nil, fmt.Errorf("operators: %s: host %q: want a lower-case host name", op.Operator, h)
			}
			if prev, dup := seen[h]; dup {
				return nil, fmt.Errorf("operators: host %s given for %s and %s", h, prev, op.Operator)
			}
			seen[h] = op.Operator
			out = append(out, Referrer{Operator: op.Operator, Host: h})
		}
	}
	slices.SortFunc(out, func(a, b Referrer) int {
		if c := strings.Compare(a.Operator, b.Operator); c != 0 {
			return c
		}
		return strings.Compare(a.Host, b.Host)
	})
	return out, nil
}
