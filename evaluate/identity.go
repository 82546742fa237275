package evaluate

import (
	"hash/maphash"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
)

// IdentifiedByUAToken is fetches.identified_by of a bot the catalog does
// not know, named by its own product token: it has no operator and no
// category.
const IdentifiedByUAToken = "ua-token"

// How an agent was identified (fetches.identified_by).
const (
	byCatalog     = "catalog"
	byRobotsGroup = "robots-group"
	byUAToken     = IdentifiedByUAToken
	byCard        = "card"
)

// uaInfo is everything about a User-Agent string that depends on nothing
// else; it is cached.
type uaInfo struct {
	catalog   ident    // identity from the catalog; token "" when not in it
	lowers    []string // group tokens of the UA's names, lower-cased, for robots-group matching
	groupIDs  []ident  // identity by robots-group for each of those names
	uaToken   ident    // identity by the UA's bot token; token "" when none
	cardMaybe bool     // some known card's expected user agent matches
}

// ident is the identity of the client of one request.
type ident struct {
	token         string
	lower         string
	robots        string // product token that selects its robots.txt group (bots.Bot.GroupToken)
	operator      string
	category      string
	by            string
	userTriggered bool
	bot           *bots.Bot
	card          *identity.Card
}

// uaCache is a bounded concurrent cache of uaInfo by User-Agent. A full
// shard evicts an entry at random (the map's iteration order) for each
// one it adds, which bounds memory on logs with millions of distinct
// User-Agents without the miss cliff of clearing the shard.
type uaCache struct {
	seed   maphash.Seed
	max    int // entries a shard holds
	shards [64]uaShard
}

type uaShard struct {
	mu sync.RWMutex
	m  map[string]*uaInfo
}

// uaShardMax is the most entries a shard holds: 262,144 in all, some
// 170 MB of agents and their identities.
const uaShardMax = 4096

// uaEntryBytes is about what one cached agent holds (its string, the
// uaInfo and the identities' strings): some 650 bytes measured on
// crawler User-Agents of 80 characters.
const uaEntryBytes = 650

// uaCacheShare is the part of the Go heap's soft limit (--memory-limit,
// GOMEMLIMIT) the cache may take.
const uaCacheShare = 16

func (c *uaCache) init() {
	c.seed = maphash.MakeSeed()
	c.max = uaShardCap(debug.SetMemoryLimit(-1)) // -1 reads the limit
	for i := range c.shards {
		c.shards[i].m = make(map[string]*uaInfo)
	}
}

// uaShardCap is the entries a shard may hold under a heap limit of
// limit bytes: a sixteenth of it, between 64 and uaShardMax a shard.
func uaShardCap(limit int64) int {
	n := limit / uaCacheShare / uaEntryBytes / int64(len(uaCache{}.shards))
	return int(min(max(n, 64), uaShardMax))
}

func (m *Model) uaInfo(ua string) *uaInfo {
	sh := &m.uaCache.shards[maphash.String(m.uaCache.seed, ua)%uint64(len(m.uaCache.shards))]
	sh.mu.RLock()
	info, ok := sh.m[ua]
	sh.mu.RUnlock()
	if ok {
		return info
	}
	info = m.computeUAInfo(ua)
	sh.mu.Lock()
	if len(sh.m) >= max(m.uaCache.max, 1) {
		for k := range sh.m {
			delete(sh.m, k)
			break
		}
	}
	sh.m[strings.Clone(ua)] = info
	sh.mu.Unlock()
	return info
}

// computeUAInfo applies the catalog's identification rules (bots.Catalog
// IdentifyUA, docs/semantics.md "Bot identification"): a catalog bot, else
// a bot the catalog does not know named by its own product token, with no
// operator. The UA's names (bots.Names: whole words, no generic word, no
// "like X") are the candidates for robots-group identification.
func (m *Model) computeUAInfo(ua string) *uaInfo {
	info := &uaInfo{}
	uid := m.catalog.IdentifyUA(ua)
	switch {
	case uid.Bot != nil:
		info.catalog.fromBot(uid.Bot, byCatalog)
	case uid.Agent != "":
		m.fromToken(&info.uaToken, strings.Clone(uid.Agent), byUAToken)
	}
	for _, n := range bots.Names(ua) {
		var id ident
		m.fromToken(&id, strings.Clone(n), byRobotsGroup)
		info.lowers = append(info.lowers, strings.ToLower(id.robots))
		info.groupIDs = append(info.groupIDs, id)
	}
	for _, c := range m.cards {
		if c.MatchesUA(ua) {
			info.cardMaybe = true
			break
		}
	}
	return info
}

// uaLocal is one goroutine's cache in front of the shared uaCache (a
// Judger's, the ViewTracker's), direct-mapped by the address of the
// User-Agent's bytes: the spool's decoder and the log reader intern the
// values that repeat, so one agent mostly comes as one string, found
// without hashing it or taking a shard's lock (which both cores would
// contend for). Equal address and length mean equal strings; an entry
// holds its string, so the address is not reused.
type uaLocal [uaLocalSlots]struct {
	ua   string
	info *uaInfo
}

const uaLocalSlots = 256

// uaInfoLocal is m.uaInfo(ua) through l, which may be nil.
func (m *Model) uaInfoLocal(ua string, l *uaLocal) *uaInfo {
	if l == nil || ua == "" {
		return m.uaInfo(ua)
	}
	k := addrOf(ua)
	e := &l[slotIn(k.bits(), uaLocalSlots)]
	if e.info != nil && addrOf(e.ua) == k {
		return e.info
	}
	info := m.uaInfo(ua)
	e.ua, e.info = ua, info
	return info
}

// identifyUA identifies the client behind a User-Agent at t on authority a
// (docs/semantics.md, "Evaluation" §4.1): the catalog first, then a Signature Agent Card, then a
// product token that names a group of a's robots.txt, then the UA's bot
// token. A plain browser gets no token.
func (m *Model) identifyUA(ua string, a *authority, t time.Time) ident {
	return m.identifyUALocal(ua, a, t, nil)
}

// identifyUALocal is identifyUA through a goroutine's cache l (nil: none).
func (m *Model) identifyUALocal(ua string, a *authority, t time.Time, l *uaLocal) ident {
	info := m.uaInfoLocal(ua, l)
	var id ident
	if info.cardMaybe {
		if c, ok := m.ids.CardForUA(ua, t); ok {
			id.card = c
		}
	}
	card := id.card
	switch {
	case info.catalog.token != "":
		id = info.catalog
	case card != nil && card.ProductToken != "":
		m.fromCard(&id)
	default:
		if a != nil {
			for i, l := range info.lowers {
				if a.groups[l] {
					id = info.groupIDs[i]
					break
				}
			}
		}
		if id.token == "" {
			id = info.uaToken
		}
	}
	id.card = card
	if id.card != nil && id.card.Trigger == "fetcher" {
		id.userTriggered = true
	}
	return id
}

func (id *ident) fromBot(b *bots.Bot, by string) {
	id.bot = b
	id.token = b.Token
	id.lower = strings.ToLower(b.Token)
	id.robots = b.GroupToken()
	id.operator = b.Operator
	id.category = b.Category
	id.by = by
	id.userTriggered = b.UserTriggered || b.Category == bots.CategoryAIAssistant
}

// groupToken is the product token robots.txt group selection uses: the
// catalog's (or the name's first word, "Kangaroo Bot" -> "Kangaroo"), else
// the agent's token.
func (id *ident) groupToken() string {
	if id.robots != "" {
		return id.robots
	}
	return id.token
}

// fromCard names the agent after its card's product token; the catalog
// entry of that token, when there is one, gives operator and category.
func (m *Model) fromCard(id *ident) {
	c := id.card
	if b, ok := m.catalog.Lookup(c.ProductToken); ok {
		id.fromBot(b, byCard)
		id.token = c.ProductToken
		id.lower = strings.ToLower(c.ProductToken)
		id.robots = c.ProductToken
	} else {
		id.token = c.ProductToken
		id.lower = strings.ToLower(c.ProductToken)
		id.robots = c.ProductToken
		id.operator = c.Name
		id.category = bots.CategoryOther
		id.by = byCard
	}
	if id.operator == "" {
		id.operator = c.Name
	}
}

// fromToken names the agent by a name read from its User-Agent; the
// catalog entry of that name, when there is one, gives operator and
// category, else the operator is unknown ("").
func (m *Model) fromToken(id *ident, token, by string) {
	if b, ok := m.catalog.Lookup(token); ok {
		id.fromBot(b, by)
		id.token = token
		id.lower = strings.ToLower(token)
		if b.RobotsToken == "" {
			id.robots = bots.GroupTokenOf(token)
		}
		return
	}
	id.token = token
	id.lower = strings.ToLower(token)
	id.robots = bots.GroupTokenOf(token)
	id.category = bots.CategoryOther
	id.by = by
}

// cardForAgent finds the card behind a Signature-Agent value: by client_id,
// else a known card with the same origin.
func (m *Model) cardForAgent(agent string, t time.Time) (*identity.Card, bool) {
	if agent == "" {
		return nil, false
	}
	if c, ok := m.ids.CardByID(agent, t); ok {
		return c, true
	}
	o := originOf(agent)
	if o == "" {
		return nil, false
	}
	for _, c := range m.cards {
		if originOf(c.ClientID) == o {
			if cc, ok := m.ids.CardByID(c.ClientID, t); ok {
				return cc, true
			}
		}
	}
	return nil, false
}

func originOf(u string) string {
	u = strings.Trim(strings.TrimSpace(u), `"`)
	auth, _, _, ok := splitURL(u)
	if !ok {
		return ""
	}
	return auth
}
