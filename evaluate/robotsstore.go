package evaluate

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/repaudit/repaudit/robots"
)

// Memory for robots.txt contents is bounded by design (docs/semantics.md,
// "Memory"): each distinct body (by SHA-256) is stored once however many
// captures carry it; bodies stay in memory up to a budget and go to a
// spill file beside the output past it; parsed files are a cache of
// bounded estimated size, rebuilt from the body when an evicted one is
// needed again. Parsing is deterministic, so a rebuilt file is the one
// that was evicted, and no judgement depends on what the cache holds.

// DefaultRobotsCacheBytes is the budget of parsed robots.txt files when
// Options.RobotsCacheBytes is 0.
const DefaultRobotsCacheBytes = 16 << 20

// robotsContent is one distinct robots.txt body, parsed.
type robotsContent struct {
	store  *robotsStore
	digest string
	size   int  // body octets
	trunc  bool // the parse stopped at the parsing limit
	stats  fileStats
	// tokens are the lower-cased product tokens the file's groups name,
	// each once, in file order.
	tokens []string

	body []byte // nil when spilled (or empty)
	off  int64  // offset of the body in the spill file when body is nil

	parsed atomic.Pointer[robots.File] // nil when not cached
	used   atomic.Bool                 // CLOCK reference bit
	cost   int64                       // estimated bytes of the parsed file
}

// fileStats are the counts robots_versions reports of a parsed file.
type fileStats struct {
	groups, rules, diagnostics int32
	hasACAP                    bool
}

// robotsStore holds the distinct robots.txt contents of a run.
type robotsStore struct {
	maxBytes int // robots.Options.MaxBytes

	mu       sync.Mutex
	byDigest map[string]*robotsContent

	// The parsed-file cache: a CLOCK ring over the cached contents.
	ring      []*robotsContent
	hand      int
	cached    int64 // estimated bytes of the cached files
	cacheSize int64 // budget

	inMem    int64 // body octets kept in memory
	memSize  int64 // budget of inMem before bodies are spilled
	dir      string
	spill    *tempFile
	spillEnd int64
	noSpill  bool  // creating or writing the spill file failed: bodies stay in memory
	err      error // first error reading the spill file; sticky

	parses atomic.Int64 // robots.Parse calls, for tests
}

func newRobotsStore(opts Options) *robotsStore {
	cache := opts.RobotsCacheBytes
	if cache <= 0 {
		cache = DefaultRobotsCacheBytes
	}
	return &robotsStore{
		maxBytes:  opts.RobotsMaxBytes,
		byDigest:  make(map[string]*robotsContent),
		cacheSize: cache,
		memSize:   cache / 4,
		dir:       opts.SpillDir,
	}
}

func (s *robotsStore) parse(body []byte) *robots.File {
	s.parses.Add(1)
	return robots.Parse(body, robots.Options{MaxBytes: s.maxBytes})
}

// add returns the content of body, whose SHA-256 in hex is digest,
// parsing and storing it the first time it is seen.
func (s *robotsStore) add(digest string, body []byte) *robotsContent {
	s.mu.Lock()
	c := s.byDigest[digest]
	s.mu.Unlock()
	if c != nil {
		return c
	}
	f := s.parse(body) // outside the lock: pass 1 parses in parallel
	c = &robotsContent{store: s, digest: digest, size: len(body), trunc: f.Truncated, stats: statsOf(f), tokens: tokensOf(f), cost: parsedCost(f)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev := s.byDigest[digest]; prev != nil {
		return prev
	}
	s.byDigest[digest] = c
	s.keepBody(c, body)
	s.cache(c, f)
	return c
}

// keepBody stores a copy of body in memory within the budget, else in
// the spill file; without a spill directory, or once the spill file could
// not be created or written, in memory: that costs memory, never a
// result. s.mu is held.
func (s *robotsStore) keepBody(c *robotsContent, body []byte) {
	if len(body) == 0 {
		return
	}
	if s.inMem+int64(len(body)) > s.memSize && s.dir != "" && !s.noSpill {
		if s.spill == nil {
			if f, err := createTemp(s.dir, ".repaudit-robots-*.tmp"); err != nil {
				s.noSpill = true
			} else {
				s.spill = f
			}
		}
		if s.spill != nil {
			if _, err := s.spill.WriteAt(body, s.spillEnd); err == nil {
				c.off = s.spillEnd
				s.spillEnd += int64(len(body))
				return
			}
			s.noSpill = true // a full disk: later bodies stay in memory
		}
	}
	c.body = append([]byte(nil), body...)
	s.inMem += int64(len(body))
}

// cache puts f in the cache as c's parsed file and evicts others, by the
// CLOCK algorithm, until the estimated size fits the budget; c itself is
// never evicted here. s.mu is held.
func (s *robotsStore) cache(c *robotsContent, f *robots.File) {
	if c.parsed.Load() != nil {
		return
	}
	c.parsed.Store(f)
	c.used.Store(true)
	s.ring = append(s.ring, c)
	s.cached += c.cost
	for s.cached > s.cacheSize && len(s.ring) > 1 {
		if s.hand >= len(s.ring) {
			s.hand = 0
		}
		v := s.ring[s.hand]
		if v == c || v.used.Swap(false) {
			s.hand++
			continue
		}
		v.parsed.Store(nil)
		s.cached -= v.cost
		last := len(s.ring) - 1
		s.ring[s.hand] = s.ring[last]
		s.ring[last] = nil
		s.ring = s.ring[:last]
	}
}

// file returns the parsed file, from the cache or parsed again from the
// stored body. Safe for concurrent use.
func (c *robotsContent) file() *robots.File {
	if c == nil {
		return nil
	}
	if f := c.parsed.Load(); f != nil {
		// Stored only when clear: the judging workers check fetches
		// against the same few files, and a store per check would move
		// the cache line between their cores.
		if !c.used.Load() {
			c.used.Store(true)
		}
		return f
	}
	s := c.store
	body := c.body
	if body == nil && c.size > 0 {
		body = make([]byte, c.size)
		if _, err := s.spill.ReadAt(body, c.off); err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = fmt.Errorf("robots.txt spill file: read: %w", err)
			}
			s.mu.Unlock()
			body = nil // judged as empty; Model.Close reports the error
		}
	}
	f := s.parse(body)
	s.mu.Lock()
	s.cache(c, f)
	s.mu.Unlock()
	return f
}

// Check judges target for agent against the content (robots.File.Check).
func (c *robotsContent) Check(agent, target string) robots.Verdict {
	return c.file().Check(agent, target)
}

// close releases the spill file and returns the first spill error.
func (s *robotsStore) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.err
	if s.spill != nil {
		if cerr := s.spill.close(); err == nil && cerr != nil {
			err = fmt.Errorf("robots.txt spill file: %w", cerr)
		}
		s.spill = nil
	}
	return err
}

func statsOf(f *robots.File) fileStats {
	st := fileStats{groups: int32(len(f.Groups)), diagnostics: int32(len(f.Diagnostics)), hasACAP: f.ACAP != nil}
	for _, g := range f.Groups {
		st.rules += int32(len(g.Rules))
	}
	return st
}

func tokensOf(f *robots.File) []string {
	var out []string
	seen := make(map[string]bool)
	for _, g := range f.Groups {
		for _, a := range g.Agents {
			t := strings.ToLower(a.Token)
			if !seen[t] {
				seen[t] = true
				// A copy: the token points into the file's text otherwise,
				// and would keep the whole body alive.
				out = append(out, strings.Clone(t))
			}
		}
	}
	return out
}

// parsedCost estimates the bytes a parsed file holds: its text, a Line
// per line, and per rule the Rule, its compiled pattern and its place in
// the sorted group (robots/doc.go gives the per-line bound).
func parsedCost(f *robots.File) int64 {
	st := statsOf(f)
	return int64(f.Size) + 96*int64(len(f.Lines)) + 160*int64(st.rules) + 256*int64(st.groups) + 1024
}
