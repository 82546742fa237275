package robots

import (
	"bytes"
	"slices"
	"sync"
)

// This file bounds the work of one check when a group has many wildcard
// rules and the URL is long. Rule by rule, matching a pattern whose only
// wildcard is '*' (plus an optional final '$') is a greedy left-to-right
// scan: each literal segment at its leftmost place after the previous one
// (pattern.match). That is linear in the URL, but a group of R such rules
// costs R × len(URL): 6,500 "Disallow: /*aaaa…ab" rules against a 100 KB
// URL take seconds.
//
// wildIndex runs the same greedy scans for every wildcard rule of a group
// at once, in one pass over the URL: an Aho–Corasick automaton over the
// group's distinct literal segments reports, at each URL position, the
// segments that end there, and each rule waits in a queue for its next
// segment. A rule advances on the first occurrence of its next segment
// that starts at or after the end of its previous one — the leftmost
// placement pattern.match takes — so the answers are the same (a
// differential fuzz test, FuzzWildIndex, holds them to it). The work is
// O(len(URL) × k + rule octets), where k is the most segments that can end
// at one URL position: at most the number of distinct segment lengths,
// about 1,000 for a file at the 500 KiB parsing limit, and 1 for the file
// above. Groups and URLs small enough for the rule-by-rule scan keep it
// (no allocation, no index).

// wildThreshold is rules × URL octets above which a group is matched
// through its wildIndex.
const wildThreshold = 1 << 18

// lazyWild builds a group's wildIndex on first need; a File stays
// read-only and safe for concurrent use.
type lazyWild struct {
	once sync.Once
	idx  *wildIndex
	wild int // wildcard rules in the group (the rule-by-rule cost per octet)
}

func (l *lazyWild) get(g *compiledGroup) *wildIndex {
	l.once.Do(func() { l.idx = buildWildIndex(g.rules) })
	return l.idx
}

// wildIndex is the Aho–Corasick automaton of one group's segments and, per
// wildcard rule, the segments it waits for in order.
type wildIndex struct {
	// Trie nodes; node 0 is the root. The edges of node i are
	// edgeByte/edgeTo[edgeOff[i]:edgeOff[i+1]], sorted by byte.
	edgeOff  []int32
	edgeByte []byte
	edgeTo   []int32
	fail     []int32
	seg      []int32 // segment ending at the node, -1 if none
	dict     []int32 // nearest node on the fail chain with a segment, -1 if none
	segLen   []int32 // octets of each segment

	// For each rule of the group (same index as compiledGroup.rules):
	// its segment ids in order, the tail checked at the end for an
	// anchored rule. ruleSegs[i] is nil for rules without '*'.
	ruleSegs [][]int32

	pool sync.Pool // *wildScratch
}

// buildWildIndex builds the Aho-Corasick automaton over the literal
// segments of the group's wildcard rules: a trie of the segments, its
// edges flattened, then its failure and dictionary links.
func buildWildIndex(rules []compiledRule) *wildIndex {
	w := &wildIndex{ruleSegs: make([][]int32, len(rules))}
	t := segTrie{children: map[trieEdge]int32{}, nodes: 1, segOf: map[string]int32{}}
	for i := range rules {
		p := &rules[i].pat
		if p.rest == nil {
			continue
		}
		segs := p.rest
		if p.anchored {
			segs = segs[:len(segs)-1] // the tail is checked against the end of the URL
		}
		ids := make([]int32, len(segs))
		for j, s := range segs {
			ids[j] = t.add(w, s)
		}
		w.ruleSegs[i] = ids
	}
	w.flatten(&t)
	w.link(t.nodes)
	return w
}

// trieEdge names the edge out of node on byte c.
type trieEdge struct {
	node int32
	c    byte
}

// segTrie is the trie of segments while buildWildIndex builds it.
type segTrie struct {
	children map[trieEdge]int32
	nodes    int
	segOf    map[string]int32
	segEnd   []int32 // node where each segment ends
}

// add returns the id of segment s, adding it to the trie, and its length
// to w.segLen, the first time it is seen.
func (t *segTrie) add(w *wildIndex, s []byte) int32 {
	if id, ok := t.segOf[string(s)]; ok {
		return id
	}
	n := int32(0)
	for _, c := range s {
		k := trieEdge{n, c}
		next, ok := t.children[k]
		if !ok {
			next = int32(t.nodes)
			t.nodes++
			t.children[k] = next
		}
		n = next
	}
	id := int32(len(w.segLen))
	t.segOf[string(s)] = id
	w.segLen = append(w.segLen, int32(len(s)))
	t.segEnd = append(t.segEnd, n)
	return id
}

// flatten stores the trie's edges in w, sorted by node then byte, and the
// segment that ends at each node.
func (w *wildIndex) flatten(t *segTrie) {
	nodes := t.nodes
	edges := make([]trieEdge, 0, len(t.children))
	for k := range t.children {
		edges = append(edges, k)
	}
	slices.SortFunc(edges, func(a, b trieEdge) int {
		if a.node != b.node {
			return int(a.node - b.node)
		}
		return int(a.c) - int(b.c)
	})
	w.edgeOff = make([]int32, nodes+1)
	w.edgeByte = make([]byte, len(edges))
	w.edgeTo = make([]int32, len(edges))
	for i, e := range edges {
		w.edgeOff[e.node+1]++
		w.edgeByte[i] = e.c
		w.edgeTo[i] = t.children[e]
	}
	for i := 1; i <= nodes; i++ {
		w.edgeOff[i] += w.edgeOff[i-1]
	}
	w.seg = make([]int32, nodes)
	for i := range w.seg {
		w.seg[i] = -1
	}
	for id, n := range t.segEnd {
		w.seg[n] = int32(id)
	}
}

// link sets the failure and dictionary links of the flattened trie of
// nodes nodes, breadth first.
func (w *wildIndex) link(nodes int) {
	w.fail = make([]int32, nodes)
	w.dict = make([]int32, nodes)
	w.dict[0] = -1
	queue := make([]int32, 0, nodes)
	for e := w.edgeOff[0]; e < w.edgeOff[1]; e++ {
		c := w.edgeTo[e]
		w.fail[c] = 0
		w.dict[c] = -1
		queue = append(queue, c)
	}
	for qi := 0; qi < len(queue); qi++ {
		n := queue[qi]
		for e := w.edgeOff[n]; e < w.edgeOff[n+1]; e++ {
			c, b := w.edgeTo[e], w.edgeByte[e]
			f := w.fail[n]
			for {
				if t := w.child(f, b); t >= 0 {
					w.fail[c] = t
					break
				}
				if f == 0 {
					w.fail[c] = 0
					break
				}
				f = w.fail[f]
			}
			if fc := w.fail[c]; w.seg[fc] >= 0 {
				w.dict[c] = fc
			} else {
				w.dict[c] = w.dict[fc]
			}
			queue = append(queue, c)
		}
	}
}

// child returns node n's child on byte b, or -1.
func (w *wildIndex) child(n int32, b byte) int32 {
	lo, hi := w.edgeOff[n], w.edgeOff[n+1]
	for lo < hi {
		m := int32(uint32(lo+hi) >> 1)
		switch c := w.edgeByte[m]; {
		case c == b:
			return w.edgeTo[m]
		case c < b:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1
}

// waiting is a rule in the queue of the segment it waits for.
type waiting struct {
	rule int32 // index in the group's rules
	k    int32 // index of the awaited segment in ruleSegs[rule]
	pos  int32 // the segment must start at or after pos
	next int32 // next entry of the same queue, -1 at the end
}

// wildScratch is the per-check state of a wildIndex, pooled so that a
// check allocates nothing once warm. Stamps make clearing unnecessary:
// a queue is empty unless its stamp is the check's gen, a cached output
// link is stale unless its stamp is the current epoch.
type wildScratch struct {
	gen     uint32
	qGen    []uint32 // per segment: gen when head/tail were set
	head    []int32
	tail    []int32
	q       []waiting
	start   []waiting // rules that pass their prefix, before the scan
	epoch   uint32    // bumped whenever a queue turns empty or non-empty
	cacheEp []uint32  // per node
	cacheTo []int32   // per node: first node on its output chain whose queue is non-empty
	path    []int32
	w       *wildIndex
}

func (w *wildIndex) scratch() *wildScratch {
	if s, ok := w.pool.Get().(*wildScratch); ok {
		return s
	}
	return &wildScratch{
		w:    w,
		qGen: make([]uint32, len(w.segLen)), head: make([]int32, len(w.segLen)), tail: make([]int32, len(w.segLen)),
		cacheEp: make([]uint32, len(w.seg)), cacheTo: make([]int32, len(w.seg)),
	}
}

func (s *wildScratch) bump() {
	s.epoch++
	if s.epoch == 0 { // wrapped: forget every cached link
		clear(s.cacheEp)
		s.epoch = 1
	}
}

func (s *wildScratch) queueHead(sid int32) int32 {
	if s.qGen[sid] != s.gen {
		return -1
	}
	return s.head[sid]
}

func (s *wildScratch) push(rule, k, pos int32) {
	sid := s.w.ruleSegs[rule][k]
	s.q = append(s.q, waiting{rule: rule, k: k, pos: pos, next: -1})
	e := int32(len(s.q) - 1)
	if s.queueHead(sid) < 0 {
		s.qGen[sid] = s.gen
		s.head[sid], s.tail[sid] = e, e
		s.bump()
		return
	}
	s.q[s.tail[sid]].next = e
	s.tail[sid] = e
}

func (s *wildScratch) pop(sid int32) waiting {
	e := s.head[sid]
	ent := s.q[e]
	s.head[sid] = ent.next
	if ent.next < 0 {
		s.qGen[sid] = 0
		s.bump()
	}
	return ent
}

// live returns the first node from n along the output chain (n itself,
// then dictionary links) whose segment has a non-empty queue, or -1.
// Nodes whose queue is empty are skipped through a cache valid for one
// epoch, so a long chain of segments nobody waits for costs nothing.
func (s *wildScratch) live(n int32) int32 {
	path := s.path[:0]
	res := int32(-1)
	for n >= 0 {
		if s.cacheEp[n] == s.epoch {
			res = s.cacheTo[n]
			break
		}
		if s.queueHead(s.w.seg[n]) >= 0 {
			res = n
			break
		}
		path = append(path, n)
		n = s.w.dict[n]
	}
	for _, p := range path {
		s.cacheEp[p], s.cacheTo[p] = s.epoch, res
	}
	s.path = path
	return res
}

// first returns the first rule of rules (most specific first) whose
// pattern matches u, or nil; the same answer as trying each rule's
// pattern.match in order.
func (w *wildIndex) first(rules []compiledRule, u []byte) *compiledRule {
	s := w.scratch()
	defer w.pool.Put(s)
	s.gen++
	if s.gen == 0 { // wrapped: forget every queue
		clear(s.qGen)
		s.gen = 1
	}
	s.bump()
	s.q, s.start = s.q[:0], s.start[:0]

	matched := -1 // lowest index of a matching rule
	note := func(i int) {
		if matched < 0 || i < matched {
			matched = i
		}
	}
	// done finishes a rule whose middle segments are placed, the last one
	// ending at pos.
	done := func(rule int32, pos int) {
		p := &rules[rule].pat
		if !p.anchored {
			note(int(rule))
			return
		}
		t := p.rest[len(p.rest)-1]
		if len(u)-len(t) >= pos && bytes.HasSuffix(u, t) {
			note(int(rule))
		}
	}
	pending := 0
	for i := range rules {
		p := &rules[i].pat
		if !bytes.HasPrefix(u, p.first) {
			continue
		}
		if p.rest == nil {
			if !p.anchored || len(u) == len(p.first) {
				note(i)
			}
			continue
		}
		if len(w.ruleSegs[i]) == 0 {
			done(int32(i), len(p.first))
			continue
		}
		s.start = append(s.start, waiting{rule: int32(i), pos: int32(len(p.first))})
	}
	// Each queue must stay in order of pos (the scan pops a prefix), and
	// later pushes always carry the largest pos yet: enqueue the starts
	// in order of pos.
	slices.SortStableFunc(s.start, func(a, b waiting) int { return int(a.pos - b.pos) })
	for _, st := range s.start {
		s.push(st.rule, 0, st.pos)
		pending++
	}
	state := int32(0)
	for i := 0; i < len(u) && pending > 0; i++ {
		b := u[i]
		for {
			if t := w.child(state, b); t >= 0 {
				state = t
				break
			}
			if state == 0 {
				break
			}
			state = w.fail[state]
		}
		n := state
		if w.seg[n] < 0 {
			n = w.dict[n]
		}
		for n = s.live(n); n >= 0; n = s.live(w.dict[n]) {
			sid := w.seg[n]
			start := int32(i+1) - w.segLen[sid]
			for e := s.queueHead(sid); e >= 0 && s.q[e].pos <= start; e = s.queueHead(sid) {
				ent := s.pop(sid)
				if int(ent.k)+1 == len(w.ruleSegs[ent.rule]) {
					pending--
					done(ent.rule, i+1)
					continue
				}
				s.push(ent.rule, ent.k+1, int32(i+1))
			}
		}
	}
	if matched < 0 {
		return nil
	}
	return &rules[matched]
}
