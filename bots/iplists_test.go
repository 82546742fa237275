package bots

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestIPRangeLists(t *testing.T) {
	lists := Default().IPRangeLists()
	if len(lists) == 0 {
		t.Fatal("the default catalog knows no IP range lists")
	}
	if !sort.SliceIsSorted(lists, func(i, j int) bool { return lists[i].URL < lists[j].URL }) {
		t.Error("lists are not sorted by URL")
	}
	seen := map[string]bool{}
	for _, l := range lists {
		if !strings.HasPrefix(l.URL, "https://") || seen[l.URL] {
			t.Errorf("list %q: not https, or listed twice", l.URL)
		}
		seen[l.URL] = true
		if len(l.Tokens) == 0 || !slices.IsSorted(l.Tokens) {
			t.Errorf("list %s: tokens %v empty or unsorted", l.URL, l.Tokens)
		}
		for _, tok := range l.Tokens {
			if b, ok := Default().Lookup(tok); !ok || b.IPRangesURL != l.URL {
				t.Errorf("list %s names %s, whose catalog entry says %q", l.URL, tok, b.IPRangesURL)
			}
		}
	}
	want := "https://developers.google.com/static/search/apis/ipranges/googlebot.json"
	i := slices.IndexFunc(lists, func(l IPRangeList) bool { return l.URL == want })
	if i < 0 || !slices.Contains(lists[i].Tokens, "Googlebot") {
		t.Errorf("googlebot.json missing or without Googlebot: %+v", lists)
	}
}
