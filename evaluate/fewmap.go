package evaluate

// fewMap is a map for the model's many small sets of views: an
// authority's bots' views (viewSet) and a host's current views
// (curViews). Most hold one to four entries, so those live in a slice,
// searched in turn, and a Go map is made only past fewViews: a map of
// one entry costs about 700 bytes, which was 27 MB of live heap (the
// authorities' views) and 31 MB of pass 2's allocation (the hosts'
// current views) on an archive of 40,000 hosts.
type fewMap[K comparable, V any] struct {
	few  []fewEntry[K, V]
	many map[K]V
}

type fewEntry[K comparable, V any] struct {
	k K
	v V
}

// fewViews is how many entries a fewMap holds in its slice.
const fewViews = 4

// get returns the value of k, the zero value when there is none.
func (s *fewMap[K, V]) get(k K) V {
	if s.many != nil {
		return s.many[k]
	}
	for i := range s.few {
		if s.few[i].k == k {
			return s.few[i].v
		}
	}
	var zero V
	return zero
}

// set makes v the value of k.
func (s *fewMap[K, V]) set(k K, v V) {
	if s.many != nil {
		s.many[k] = v
		return
	}
	for i := range s.few {
		if s.few[i].k == k {
			s.few[i].v = v
			return
		}
	}
	if len(s.few) < fewViews {
		s.few = append(s.few, fewEntry[K, V]{k, v})
		return
	}
	s.many = make(map[K]V, 2*fewViews)
	for _, p := range s.few {
		s.many[p.k] = p.v
	}
	s.many[k] = v
	s.few = nil
}

// len returns the number of entries.
func (s *fewMap[K, V]) len() int { return len(s.few) + len(s.many) }

// each calls fn for every entry, in no particular order.
func (s *fewMap[K, V]) each(fn func(K, V)) {
	for _, p := range s.few {
		fn(p.k, p.v)
	}
	for k, v := range s.many {
		fn(k, v)
	}
}
