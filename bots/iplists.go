package bots

import (
	"sort"
)

// IPRangeList is one published IP range list and the bots it vouches for.
type IPRangeList struct {
	URL    string   // as the operator publishes it (https)
	Tokens []string // product tokens of the bots whose ranges it lists, sorted
}

// IPRangeLists returns every list the catalog knows, sorted by URL.
func (c *Catalog) IPRangeLists() []IPRangeList {
	byURL := map[string][]string{}
	for _, b := range c.bots {
		if b.IPRangesURL != "" {
			byURL[b.IPRangesURL] = append(byURL[b.IPRangesURL], b.Token)
		}
	}
	out := make([]IPRangeList, 0, len(byURL))
	for u, toks := range byURL {
		sort.Strings(toks)
		out = append(out, IPRangeList{URL: u, Tokens: toks})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URL < out[j].URL })
	return out
}
