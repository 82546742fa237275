package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/identity"
)

// Hot partitions (beam/README.md, "A hot host"; docs/semantics.md,
// "Partitioned runs").
//
// A partition with at least Config.HotFetches fetches is hot: its fetches
// are judged in up to Config.HotShards shards, keyed by (host[:port],
// agent), instead of by one worker. What splits, and why:
//
//   - Judging a fetch (Model.JudgeIntoView) is stateless given the
//     partition's model and the bot's robots.txt view: every shard builds
//     the whole model (every capture, listing entry and site version of
//     the host, and every robots.txt fetch and WARC request record, which
//     are few), so each shard's verdicts are those of the whole partition.
//   - The robots.txt views are per (authority, bot), streamed in time order
//     by a ViewTracker: every shard steps every robots.txt fetch of the
//     host (those other shards judge travel as replicas, not judged
//     twice), so every view is the whole partition's.
//   - Crawl-delay is per (authority, agent, identity) in time order: the
//     fetches of one agent must be judged by one Tracker. The agent of a
//     fetch is the product token its User-Agent is identified as, which on
//     a host depends on the host's robots.txt groups (a name in the UA
//     that a group names) and on cards; so a plan stage builds the hot
//     host's model once, takes every User-Agent's possible tokens
//     (Model.AgentTokens) and joins User-Agents that share one into a
//     component; a component is judged by one shard.
//   - Signature replay detection needs every signed request of the host
//     together, in order, and a signed request (or one whose User-Agent a
//     card may claim) can be named after any card's product token: those
//     User-Agents, with every card's product tokens, are in shard 0.
//   - The timeline, directives, retention, listings, archive findings and
//     the host's problems are written once, by shard 0, from its model.
//
// So the memory bound of a worker becomes the largest component's
// fetches (one busy bot) plus the host's model, instead of all the host's
// fetches.
const (
	// DefaultHotFetches is Config.HotFetches when 0: about 0.5 GB of
	// decoded fetches in one worker.
	DefaultHotFetches = 1 << 20
	// DefaultHotShards is Config.HotShards when 0.
	DefaultHotShards = 16
)

var (
	hotPartitions = beam.NewCounter("repaudit", "hot-partitions")
	hotShardCount = beam.NewCounter("repaudit", "hot-shards")
)

// shardKey is the key of shard i of a partition in the judging stage: the
// shard's number, a colon, the partition (which may hold any byte).
func shardKey(partition string, i int) string { return strconv.Itoa(i) + ":" + partition }

// parseShardKey splits a shardKey.
func parseShardKey(k string) (int, string) {
	c := strings.IndexByte(k, ':')
	if c < 0 {
		return 0, k
	}
	i, err := strconv.Atoi(k[:c])
	if err != nil {
		return 0, k
	}
	return i, k[c+1:]
}

// shard0 keys a batch for shard 0 of its partition (no partition is hot).
func shard0(key string, batch []byte, emit func(string, []byte)) { emit(shardKey(key, 0), batch) }

// uaCount is how many fetches of a hot partition a User-Agent made, and
// whether any of them was signed.
type uaCount struct {
	UA     string `json:"ua"`
	N      int64  `json:"n"`
	Signed bool   `json:"s,omitempty"`
}

// scanFn reads the routed batches of a partition, grouped, and finds
// whether it is hot by adding up the fetch counts in the batches'
// headers. It holds a partition's batches back until that is known:
// until the count reaches Min (hot), or until the last batch (not hot);
// so it holds at most about Min fetches' sealed batches. A batch of a
// partition that is not hot goes on to the judging stage as shard 0 of
// itself (emitCold); a batch of a hot partition goes to splitFn
// (emitHot), and scanFn sends on what the partition's model is built from
// (every record but the fetches that only get judged) and counts its
// fetches by User-Agent, for planFn. It reads no side input: a stage that
// reads one keeps Prism's watermark loop busy while it runs (world.go).
type scanFn struct {
	Min int64 `json:"min"`

	counts map[string]map[string]*uaCount
}

func (fn *scanFn) StartBundle(emitCold, emitHot, emitModel, emitUAs func(string, []byte)) {
	fn.counts = map[string]map[string]*uaCount{}
}

func (fn *scanFn) ProcessElement(ctx context.Context, key string, batches func(*[]byte) bool,
	emitCold, emitHot, emitModel, emitUAs func(string, []byte)) error {
	var (
		held [][]byte
		n    int64
		hot  bool
		b    []byte
	)
	for batches(&b) {
		if !hot {
			n += batchFetches(b)
			held = append(held, b)
			b = nil
			if n < fn.Min {
				continue
			}
			hot = true
			for _, h := range held {
				if err := fn.scanHot(key, h, emitHot, emitModel); err != nil {
					return err
				}
			}
			held = nil
			continue
		}
		if err := fn.scanHot(key, b, emitHot, emitModel); err != nil {
			return err
		}
		b = nil
	}
	for _, h := range held {
		emitCold(shardKey(key, 0), h)
	}
	return nil
}

// scanHot sends a batch of a hot partition on to splitFn, and what its
// model is built from on to planFn, and counts its User-Agents.
func (fn *scanFn) scanHot(key string, batch []byte, emitHot, emitModel func(string, []byte)) error {
	emitHot(key, batch)
	model := newBatcher(emitModel)
	counts := fn.counts[key]
	if counts == nil {
		counts = map[string]*uaCount{}
		fn.counts[key] = counts
	}
	err := eachRecord(batch, func(rec []byte) error {
		if rec[0] != fetchTag {
			model.add(key, rec)
			return nil
		}
		r, err := decodeFetchRecord(rec)
		if err != nil {
			return fmt.Errorf("partition %q: %w", key, err)
		}
		if r.Model {
			model.add(key, rec)
		}
		c := counts[r.Fetch.UserAgent]
		if c == nil {
			c = &uaCount{UA: r.Fetch.UserAgent}
			counts[c.UA] = c
		}
		c.N++
		c.Signed = c.Signed || evaluate.NeedsHeader(r.Fetch)
		return nil
	})
	model.flush()
	return err
}

func (fn *scanFn) FinishBundle(emitCold, emitHot, emitModel, emitUAs func(string, []byte)) {
	for key, counts := range fn.counts {
		cs := slices.Collect(maps.Values(counts))
		emitUAs(key, encode(cs))
	}
	fn.counts = nil
}

// hotPlan says which shard of a hot partition judges the fetches of each
// User-Agent.
type hotPlan struct {
	Key    string         `json:"key"`
	Shards int            `json:"shards"`
	UA     map[string]int `json:"ua"` // shard of each User-Agent; 0 when absent
}

// planFn builds a hot partition's model from its model records (the
// records a shard's model is built from, without the fetches judged only)
// and plans its shards (planShards).
type planFn struct {
	Cfg Config `json:"cfg"`

	world  *world
	tokens []string // every card's product tokens, lower case
}

func (fn *planFn) ProcessElement(ctx context.Context, key string, models func(*[]byte) bool, uas func(*[]byte) bool,
	sharedSI, identitySI, offsetsSI func(*[]byte) bool, emit func([]byte)) error {
	stageHook("plan")
	if fn.world == nil {
		w, err := loadWorld(ctx, &fn.Cfg, sharedSI, identitySI, offsetsSI)
		if err != nil {
			return err
		}
		fn.world = w
		if fn.tokens, err = cardTokens(ctx, &fn.Cfg, w.ids, identitySI); err != nil {
			return err
		}
	}
	var batches [][]byte
	var b []byte
	for models(&b) {
		batches = append(batches, b)
		b = nil
	}
	m, err := fn.world.buildModel(key, batches, nil)
	if err != nil {
		return err
	}
	all := map[string]uaCount{}
	for uas(&b) {
		var cs []uaCount
		if err := json.Unmarshal(b, &cs); err != nil {
			return fmt.Errorf("decode User-Agent counts: %w", err)
		}
		for _, c := range cs {
			a := all[c.UA]
			a.UA, a.N, a.Signed = c.UA, a.N+c.N, a.Signed || c.Signed
			all[c.UA] = a
		}
	}
	shards := fn.Cfg.HotShards
	if shards <= 0 {
		shards = DefaultHotShards
	}
	plan := planShards(key, slices.Collect(maps.Values(all)), m.AgentTokens, fn.tokens, shards)
	hotPartitions.Inc(ctx, 1)
	hotShardCount.Inc(ctx, int64(plan.Shards))
	emit(encode(&plan))
	return nil
}

// planShards joins the User-Agents that can be judged as one agent into
// components and packs the components into at most shards shards, the
// largest first into the least loaded (ties to the lower shard), so that
// a shard holds a few bots' fetches. User-Agents that are signed or that a
// card may claim go to shard 0 with every card token (cardTokens).
func planShards(key string, uas []uaCount, agentTokens func(string) ([]string, bool), cardTokens []string, shards int) hotPlan {
	slices.SortFunc(uas, func(x, y uaCount) int { return strings.Compare(x.UA, y.UA) })
	// Union-find over nodes: "u"+User-Agent, "t"+token, and "m" (shard 0).
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	union := func(x, y string) {
		rx, ry := find(x), find(y)
		if rx == ry {
			return
		}
		// The main node stays a root, so that its component is known.
		if ry == "m" || (rx != "m" && ry < rx) {
			rx, ry = ry, rx
		}
		parent[ry] = rx
	}
	find("m")
	claimed := false
	for _, c := range uas {
		u := "u" + c.UA
		find(u)
		tokens, byCard := agentTokens(c.UA)
		for _, t := range tokens {
			union(u, "t"+t)
		}
		if byCard || c.Signed {
			union(u, "m")
			claimed = true
		}
	}
	if claimed {
		for _, t := range cardTokens {
			union("m", "t"+t)
		}
	}
	// Components and their fetches.
	weight := map[string]int64{"m": 0}
	for _, c := range uas {
		weight[find("u"+c.UA)] += c.N
	}
	roots := slices.Collect(maps.Keys(weight))
	slices.SortFunc(roots, func(x, y string) int {
		if x == "m" || y == "m" {
			return cmp.Compare(b2i(y == "m"), b2i(x == "m"))
		}
		if c := cmp.Compare(weight[y], weight[x]); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	n := max(1, min(shards, len(roots)))
	load := make([]int64, n)
	shardOf := map[string]int{}
	for _, r := range roots {
		s := 0
		if r != "m" {
			s = slices.Index(load, slices.Min(load))
		}
		shardOf[r] = s
		load[s] += weight[r]
	}
	plan := hotPlan{Key: key, Shards: n, UA: map[string]int{}}
	for _, c := range uas {
		if s := shardOf[find("u"+c.UA)]; s != 0 {
			plan.UA[c.UA] = s
		}
	}
	return plan
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cardTokens returns the product tokens (lower case) of every card the
// run knows, of every version: the store's latest snapshots, and each
// card document captured or given (a card's token may change between
// versions, and a signature names the card in force at its time).
func cardTokens(ctx context.Context, cfg *Config, ids *identity.Store, identitySI func(*[]byte) bool) ([]string, error) {
	var out []string
	add := func(c *identity.Card) {
		if c == nil || c.ProductToken == "" {
			return
		}
		if l := strings.ToLower(c.ProductToken); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	for _, c := range ids.Cards() {
		add(c)
	}
	parse := func(path string) error {
		local, cleanup, err := fetchLocal(ctx, path)
		if err != nil {
			return err
		}
		defer cleanup()
		data, err := os.ReadFile(local)
		if err != nil {
			return err
		}
		if c, _, err := identity.ParseCard(data, path); err == nil {
			add(c)
		}
		return nil
	}
	for _, p := range cfg.Cards {
		if err := parse(p); err != nil {
			return nil, err
		}
	}
	var b []byte
	for identitySI(&b) {
		var d identityDoc
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("decode identity document: %w", err)
		}
		switch {
		case d.Path == "":
			if c, _, err := identity.ParseCard(d.Body, d.Where); err == nil {
				add(c)
			}
		case d.Kind == "card":
			if err := parse(d.Path); err != nil {
				return nil, err
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// splitFn keys the batches of hot partitions (scanFn sends it no other)
// for the judging stage: a hot partition's records are split by its
// plan: a fetch to the shard of its User-Agent (a robots.txt fetch or
// WARC request record also, as a replica, to every other shard), every
// other record to every shard. A partition planned into one shard is
// shard 0 of itself.
type splitFn struct {
	plans map[string]*hotPlan
}

func (fn *splitFn) ProcessElement(ctx context.Context, key string, batch []byte, planSI func(*[]byte) bool,
	emit func(string, []byte)) error {
	if fn.plans == nil {
		fn.plans = map[string]*hotPlan{}
		var b []byte
		for planSI(&b) {
			var p hotPlan
			if err := json.Unmarshal(b, &p); err != nil {
				return fmt.Errorf("decode hot plan: %w", err)
			}
			fn.plans[p.Key] = &p
		}
	}
	p := fn.plans[key]
	if p == nil || p.Shards <= 1 {
		emit(shardKey(key, 0), batch)
		return nil
	}
	out := newBatcher(emit)
	keys := make([]string, p.Shards)
	for i := range keys {
		keys[i] = shardKey(key, i)
	}
	var replica []byte
	err := eachRecord(batch, func(rec []byte) error {
		if rec[0] != fetchTag {
			for _, k := range keys {
				out.add(k, rec)
			}
			return nil
		}
		r, err := decodeFetchRecord(rec)
		if err != nil {
			return fmt.Errorf("partition %q: %w", key, err)
		}
		own := p.UA[r.Fetch.UserAgent]
		if own >= p.Shards {
			return fmt.Errorf("partition %q: shard %d of %d", key, own, p.Shards)
		}
		out.add(keys[own], rec)
		if r.Model {
			replica = append(replica[:0], rec...)
			replica[1] |= flagReplica
			for i, k := range keys {
				if i != own {
					out.add(k, replica)
				}
			}
		}
		return nil
	})
	out.flush()
	return err
}

// hotShards adds the stages that key each batch of routed by shard of its
// partition (splitFn), hot partitions planned by planFn. worldGate is
// gateOn(shared, idDocs, offsets): planFn loads its world from them.
func hotShards(s beam.Scope, cfg Config, routed, shared, idDocs, offsets, worldGate beam.PCollection) beam.PCollection {
	s = s.Scope("hot")
	if cfg.HotFetches < 0 {
		return beam.ParDo(s, shard0, routed)
	}
	min := cfg.HotFetches
	if min == 0 {
		min = DefaultHotFetches
	}
	// scanFn finds the hot partitions in the grouped batches; splitFn
	// reads the plans, so the hot partitions' batches wait for them behind
	// a GroupByKey (gate.go); planFn's CoGroupByKey waits for the world it
	// loads.
	cold, hotBatches, models, uas := beam.ParDo4(s.Scope("scan"), &scanFn{Min: min}, beam.GroupByKey(s.Scope("scan"), routed))
	plans := beam.ParDo(s.Scope("plan"), &planFn{Cfg: cfg},
		beam.CoGroupByKey(s, beam.Flatten(s, models, worldGate), uas),
		beam.SideInput{Input: shared}, beam.SideInput{Input: idDocs}, beam.SideInput{Input: offsets})
	split := beam.ParDo(s.Scope("split"), &splitFn{}, hold(s.Scope("split"), hotBatches, gateOn(s, plans)),
		beam.SideInput{Input: plans})
	return beam.Flatten(s, cold, split)
}
