package evaluate

import (
	"fmt"
	"net/netip"
	"testing"
)

// TestViewSet: the views of an authority are found by key whether the
// set holds them in its slice (up to fewViews) or in its map past that,
// and each visits every view once.
func TestViewSet(t *testing.T) {
	var s viewSet
	keys := []vkey{}
	for i := range 2*fewViews + 1 {
		k := vkey{lower: fmt.Sprintf("bot%d", i/2)} // two scopes of one bot meet
		switch i % 3 {
		case 1:
			k.sc = viewScope{kind: scopeClient, ip: netip.AddrFrom4([4]byte{192, 0, 2, byte(i)})}
		case 2:
			k.sc = crawlScope(fmt.Sprintf("crawl-%d", i))
		}
		if s.get(k) != nil {
			t.Fatalf("%+v found before it was put", k)
		}
		s.set(k, &botView{token: k.lower})
		keys = append(keys, k)
		if s.len() != len(keys) {
			t.Fatalf("after %d puts len = %d", len(keys), s.len())
		}
		for _, k := range keys {
			if bv := s.get(k); bv == nil || bv.token != k.lower {
				t.Fatalf("after %d puts, %+v gives %v", len(keys), k, bv)
			}
		}
	}
	seen := map[vkey]int{}
	s.each(func(k vkey, _ *botView) { seen[k]++ })
	if len(seen) != len(keys) {
		t.Errorf("each visited %d keys, want %d", len(seen), len(keys))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("each visited %+v %d times", k, n)
		}
	}
	if s.get(vkey{lower: "absent"}) != nil {
		t.Error("a key never put was found")
	}
}
