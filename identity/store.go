package identity

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/problem"
)

// directoryPath is where a signature agent's key directory lives
// (draft-meunier-webbotauth-httpsig-directory; Signature-Agent type
// "directory").
const directoryPath = "/.well-known/http-message-signatures-directory"

// timeline is the history of one published document: dated snapshots in
// time order, and at most one undated snapshot (a local file given on the
// command line).
type timeline[T any] struct {
	dated   []snap[T] // sorted by at; equal times keep insertion order
	undated *snap[T]
}

type snap[T any] struct {
	at time.Time
	v  T
}

func (tl *timeline[T]) add(at time.Time, v T) {
	if at.IsZero() {
		tl.undated = &snap[T]{at, v}
		return
	}
	// Insert after every snapshot at or before at: the later-added of two
	// equal-time snapshots wins.
	i, _ := slices.BinarySearchFunc(tl.dated, at, func(s snap[T], t time.Time) int {
		if s.at.After(t) {
			return 1
		}
		return -1
	})
	tl.dated = slices.Insert(tl.dated, i, snap[T]{at, v})
}

// in returns the snapshot in force at t: the latest dated one at or before
// t, else the undated one, else none.
func (tl *timeline[T]) in(t time.Time) (snap[T], bool) {
	i, _ := slices.BinarySearchFunc(tl.dated, t, func(s snap[T], t time.Time) int {
		if s.at.After(t) {
			return 1
		}
		return -1
	})
	if i > 0 {
		return tl.dated[i-1], true
	}
	if tl.undated != nil {
		return *tl.undated, true
	}
	return snap[T]{}, false
}

// inOrEarliest is in, except that a time before every dated snapshot gets
// the earliest one (when there is no undated one): for IP lists, whose
// operators stamp creationTime when the file is downloaded, so that the
// only list a user has, dated after their logs, still covers them
// (docs/semantics.md, "Cards, key sets, IP lists" §11). early reports
// that fallback.
func (tl *timeline[T]) inOrEarliest(t time.Time) (s snap[T], early, ok bool) {
	if s, ok := tl.in(t); ok {
		return s, false, true
	}
	if len(tl.dated) > 0 {
		return tl.dated[0], true, true
	}
	return snap[T]{}, false, false
}

func (tl *timeline[T]) latest() (snap[T], bool) {
	if n := len(tl.dated); n > 0 {
		return tl.dated[n-1], true
	}
	if tl.undated != nil {
		return *tl.undated, true
	}
	return snap[T]{}, false
}

// ipSnap is one IP list snapshot with its lookup structure.
type ipSnap struct {
	list *IPList
	set  *prefixSet
}

// Store holds identity state over time: card, key set and IP list
// snapshots, each on its own timeline, and the local trust store. Build it
// with the Add methods, then query it; all methods are safe for concurrent
// use.
//
// Every Add takes the time the snapshot became known: the capture time
// (WARC-Date) for captures, the list's creationTime for IP lists that have
// one, or the zero time for local files given on the command line. A query
// at time t uses the latest dated snapshot at or before t; when there is
// none, the undated (local) snapshot if any; otherwise nothing is known.
// See docs/semantics.md.
type Store struct {
	mu        sync.RWMutex
	cards     map[string]*timeline[*Card]
	cardTLs   []*timeline[*Card] // card timelines in the order first added
	cardTimes []time.Time        // every dated card snapshot time, sorted
	keys      map[string]*timeline[[]Key]
	keyIDs    map[string]*timeline[[]Key] // the same snapshots by keyIdentifier
	ips       map[string]*timeline[ipSnap]
	dns       map[netip.Addr]*timeline[dnsSnapEntry] // DNS snapshot lookups by address (dns.go)
	trusted   []Key

	// uaCache memoises CardForUA by (User-Agent, epoch), where the epoch
	// is the number of dated card snapshots at or before t: between two
	// card snapshot times every answer is the same. AddCard resets it.
	uaCache     atomic.Pointer[sync.Map]
	uaCacheSize atomic.Int64
}

// maxUACache bounds the CardForUA memo; it is emptied when full.
const maxUACache = 1 << 16

type uaCacheKey struct {
	ua    string
	epoch int
}

// NewStore returns an empty Store.
func NewStore() *Store {
	s := &Store{
		cards:  map[string]*timeline[*Card]{},
		keys:   map[string]*timeline[[]Key]{},
		keyIDs: map[string]*timeline[[]Key]{},
		ips:    map[string]*timeline[ipSnap]{},
	}
	s.uaCache.Store(new(sync.Map))
	return s
}

// originOf returns the origin of an absolute URL in lookup form, or "".
func originOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return normURL(u.Scheme + "://" + u.Host)
}

func cardKey(c *Card) string {
	if c.filedUnder != "" {
		return c.filedUnder
	}
	if c.ClientID != "" {
		return normURL(c.ClientID)
	}
	return "source:" + c.Source
}

// AddCard records a card snapshot known from time at (zero: a local file,
// valid for the whole run). Cards are keyed by client_id; a card without
// one (an inline data: card, a legacy local file) is keyed by its Source,
// and a captured card whose client_id is not its capture URL by that URL.
func (s *Store) AddCard(c *Card, at time.Time) {
	if c == nil {
		return
	}
	k := cardKey(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	tl, ok := s.cards[k]
	if !ok {
		tl = &timeline[*Card]{}
		s.cards[k] = tl
		s.cardTLs = append(s.cardTLs, tl)
	}
	tl.add(at, c)
	if !at.IsZero() {
		i, _ := slices.BinarySearchFunc(s.cardTimes, at, time.Time.Compare)
		s.cardTimes = slices.Insert(s.cardTimes, i, at)
	}
	s.uaCache.Store(new(sync.Map))
	s.uaCacheSize.Store(0)
}

// AddKeys records a JWK Set or key directory fetched from url, known from
// time at. When url is a key directory
// (<origin>/.well-known/http-message-signatures-directory) it is also
// indexed under its origin, the value a Signature-Agent member of type
// "directory" carries. Each key's Source is extended to name url and the
// snapshot time.
func (s *Store) AddKeys(url string, keys []Key, at time.Time) {
	ks := make([]Key, len(keys))
	copy(ks, keys)
	for i := range ks {
		ks[i].Source = snapshotSource(url, ks[i].Source, at)
	}
	n, id := urlForms(url)
	s.mu.Lock()
	defer s.mu.Unlock()
	addKeysTo(s.keys, n, ks, at)
	if id != n {
		addKeysTo(s.keyIDs, id, ks, at)
	}
	if o := originOf(url); o != "" && o+directoryPath == n {
		addKeysTo(s.keys, o, ks, at)
	}
}

func addKeysTo(m map[string]*timeline[[]Key], k string, keys []Key, at time.Time) {
	tl, ok := m[k]
	if !ok {
		tl = &timeline[[]Key]{}
		m[k] = tl
	}
	tl.add(at, keys)
}

// snapshotSource names a snapshot: "URL (where, as of TIME)".
func snapshotSource(url, where string, at time.Time) string {
	var parts []string
	if where != "" && where != url {
		parts = append(parts, where)
	}
	if !at.IsZero() {
		parts = append(parts, "as of "+at.UTC().Format(time.RFC3339))
	} else {
		parts = append(parts, "local, whole run")
	}
	return url + " (" + strings.Join(parts, ", ") + ")"
}

// AddIPList records an IP list snapshot published by owner: a bot product
// token (from --ip-ranges TOKEN=FILE; matched case-insensitively) or the
// ips_uri URL of a card. The snapshot is placed at the list's creationTime
// when it has one, else at at (capture time, or zero for a local file).
func (s *Store) AddIPList(owner string, l *IPList, at time.Time) {
	if l == nil {
		return
	}
	if !l.CreationTime.IsZero() {
		at = l.CreationTime
	}
	k := ipOwnerKey(owner)
	snapv := ipSnap{list: l, set: newPrefixSet(l.Prefixes)}
	s.mu.Lock()
	defer s.mu.Unlock()
	tl, ok := s.ips[k]
	if !ok {
		tl = &timeline[ipSnap]{}
		s.ips[k] = tl
	}
	tl.add(at, snapv)
}

func ipOwnerKey(owner string) string {
	if strings.Contains(owner, "://") {
		return normURL(owner)
	}
	return "token:" + strings.ToLower(strings.TrimSpace(owner))
}

// AddTrustedKeys adds keys from local --jwks files: trusted for any
// Signature-Agent, at any time (a local trust store).
func (s *Store) AddTrustedKeys(keys []Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trusted = append(s.trusted, keys...)
}

// TrustedKeys returns a copy of the local trust store.
func (s *Store) TrustedKeys() []Key {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.trusted)
}

// Keys returns the keys published under ref as of t. ref is a directory
// origin ("https://example.com"), a JWK Set or directory URL (looked up
// as written, then by its identifier: normalized, query discarded), a card
// client_id (then the card's jwks_uri snapshot, or its inline jwks), or a
// data: URL carrying an inline key set (decoded on the spot); one pair of
// surrounding quotes or angle brackets is ignored. known is
// false when no snapshot for ref exists at or before t (and no local one):
// a verifier should then say "unverified", never "invalid". A card with
// Invalid set yields no keys with known true: the card is known, its keys
// are not trusted. Keys are returned as published, nbf/exp included; the
// caller checks Key.ValidAt. Key.Source names the snapshot.
func (s *Store) Keys(ref string, t time.Time) (keys []Key, known bool) {
	ref = unwrapRef(ref)
	if isDataURL(ref) {
		return inlineKeys(ref)
	}
	n, id := urlForms(ref)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if tl, ok := s.keys[n]; ok {
		if sn, ok := tl.in(t); ok {
			return slices.Clone(sn.v), true
		}
	}
	if tl, ok := s.cards[n]; ok {
		if sn, ok := tl.in(t); ok {
			return s.cardKeysLocked(sn.v, t)
		}
	}
	// A key set captured under another spelling of the same identifier:
	// draft-ietf-webbotauth-httpsig-protocol-01 §5.5 discards the query
	// and compares normalized forms. Key.Source names the URL the
	// snapshot was fetched from, so the evidence shows which spelling
	// supplied the keys.
	for _, m := range []map[string]*timeline[[]Key]{s.keys, s.keyIDs} {
		if tl, ok := m[id]; ok {
			if sn, ok := tl.in(t); ok {
				return slices.Clone(sn.v), true
			}
		}
	}
	return nil, false
}

// cardKeysLocked resolves a card's key material as of t (registry-03
// §"CIMD-based discovery" step 3: jwks_uri if present, else inline jwks).
func (s *Store) cardKeysLocked(c *Card, t time.Time) ([]Key, bool) {
	if c.Invalid != "" {
		return nil, true
	}
	if c.JWKSURI != "" {
		if tl, ok := s.keys[normURL(c.JWKSURI)]; ok {
			if sn, ok := tl.in(t); ok {
				return slices.Clone(sn.v), true
			}
		}
		// Legacy cards could carry both; fall back to the inline keys.
		if len(c.JWKS) > 0 {
			return slices.Clone(c.JWKS), true
		}
		return nil, false
	}
	if c.JWKS != nil {
		return slices.Clone(c.JWKS), true
	}
	// Neither: the client_id origin's key directory, if captured.
	if o := originOf(c.ClientID); o != "" {
		if tl, ok := s.keys[o]; ok {
			if sn, ok := tl.in(t); ok {
				return slices.Clone(sn.v), true
			}
		}
	}
	return nil, false
}

// unwrapRef removes one pair of surrounding double quotes or angle
// brackets: legacy Signature-Agent values carry the quotes of an sf-String
// ("https://chatgpt.com"), older directories wrote <https://chatgpt.com>.
func unwrapRef(ref string) string {
	ref = strings.TrimSpace(ref)
	if n := len(ref); n >= 2 && (ref[0] == '"' && ref[n-1] == '"' || ref[0] == '<' && ref[n-1] == '>') {
		return ref[1 : n-1]
	}
	return ref
}

func isDataURL(s string) bool {
	return len(s) >= 5 && strings.EqualFold(s[:5], "data:")
}

// inlineKeys decodes a data: URL carrying a key set (a Signature-Agent
// member may carry an inline directory). Unusable data is not known.
func inlineKeys(ref string) ([]Key, bool) {
	if len(ref) > MaxRegistryLine {
		return nil, false
	}
	payload, err := decodeDataURL(ref)
	if err != nil {
		return nil, false
	}
	keys, _, err := ParseJWKS(payload, "data: URL")
	if err != nil {
		return nil, false
	}
	return keys, true
}

// CardForUA returns the card in force at t whose expected-user-agent or
// product token matches ua (see Card.MatchesUA). When several match, the
// most specific wins: an exact whole-UA pattern, else the longest literal
// match; ties go to the card added first. Invalid cards are returned too
// (a claim is a claim); check Card.Invalid.
func (s *Store) CardForUA(ua string, t time.Time) (*Card, bool) {
	if ua == "" {
		return nil, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	epoch, _ := slices.BinarySearchFunc(s.cardTimes, t, func(e, t time.Time) int {
		if e.After(t) {
			return 1
		}
		return -1
	})
	key := uaCacheKey{ua, epoch}
	cache := s.uaCache.Load()
	if v, ok := cache.Load(key); ok {
		c := v.(*Card)
		return c, c != nil
	}
	var buf [maxUATokens]string
	tokens := uaTokens(ua, buf[:0])
	var best *Card
	bestScore := 0
	for _, tl := range s.cardTLs {
		sn, ok := tl.in(t)
		if !ok {
			continue
		}
		if sc := sn.v.uaScoreTokens(ua, tokens); sc > bestScore {
			best, bestScore = sn.v, sc
		}
	}
	if s.uaCacheSize.Add(1) > maxUACache {
		cache = new(sync.Map)
		s.uaCache.Store(cache)
		s.uaCacheSize.Store(1)
	}
	cache.Store(key, best)
	return best, best != nil
}

// CardByID returns the card with this client_id in force at t.
func (s *Store) CardByID(clientID string, t time.Time) (*Card, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	tl, ok := s.cards[normURL(clientID)]
	if !ok {
		return nil, false
	}
	sn, ok := tl.in(t)
	return sn.v, ok
}

// CheckIP checks ip against the ranges published by owner in force at t
// (the latest snapshot at or before t, else a local undated one, else the
// earliest dated one, which also covers earlier times: IPCheck.Earliest). owner is
// a product token (case-insensitive), an ips_uri URL, or a card client_id.
// When a token has no list of its own, the ips_uri list of the card (in
// force at t) with that product token is used. An owner with no list is
// IPNotGiven: whether the bot publishes one is for the caller to say.
func (s *Store) CheckIP(owner string, ip netip.Addr, t time.Time) IPCheck {
	if !ip.IsValid() {
		return IPCheck{Result: IPNoAddress}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	tl, ok := s.ips[ipOwnerKey(owner)]
	if !ok {
		if uri := s.ipsURIForLocked(owner, t); uri != "" {
			tl, ok = s.ips[normURL(uri)]
		}
	}
	if !ok {
		return IPCheck{Result: IPNotGiven}
	}
	sn, early, ok := tl.inOrEarliest(t)
	if !ok {
		return IPCheck{Result: IPNotGiven}
	}
	res := IPCheck{Result: IPNotInRange, ListSource: sn.v.list.Source, ListTime: sn.at, Earliest: early}
	if p, ok := sn.v.set.lookup(ip); ok {
		res.Result, res.Prefix = IPInRange, p
	}
	return res
}

// ipsURIForLocked finds the ips_uri of the card named by owner (a client_id)
// or carrying owner as its product token, as of t.
func (s *Store) ipsURIForLocked(owner string, t time.Time) string {
	if tl, ok := s.cards[normURL(owner)]; ok {
		if sn, ok := tl.in(t); ok && sn.v.IPsURI != "" {
			return sn.v.IPsURI
		}
	}
	for _, tl := range s.cardTLs {
		sn, ok := tl.in(t)
		if ok && sn.v.IPsURI != "" && strings.EqualFold(sn.v.ProductToken, owner) {
			return sn.v.IPsURI
		}
	}
	return ""
}

// Cards returns the latest snapshot of every card, in the order the cards
// were first added.
func (s *Store) Cards() []*Card {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Card, 0, len(s.cardTLs))
	for _, tl := range s.cardTLs {
		if sn, ok := tl.latest(); ok {
			out = append(out, sn.v)
		}
	}
	return out
}

// AddCapture sniffs a captured document (CaptureKind) and adds it to the
// store as of at, the capture time. source locates the capture
// ("file.warc.gz@offset"). It returns the kind ("" when the body is none
// of card, jwks, iplist; nothing is added then) and the problems found. The
// caller passes only successful (2xx) responses. A card whose client_id is
// not the capture URL is kept with Invalid "client-id-mismatch"
// (registry-03 §"Client ID": simple string comparison), filed under the
// capture URL so that it never replaces the card its client_id names.
func (s *Store) AddCapture(url string, body []byte, at time.Time, source string) (kind string, problems []Problem) {
	kind = CaptureKind(url, "", body)
	switch kind {
	case KindCard:
		c, probs, err := ParseCard(body, source)
		if err != nil {
			return kind, append(probs, Problem{Source: source, Code: problem.CardUnreadable, Message: err.Error()})
		}
		if isDataURL(url) {
			// An inline registry entry (recorded by "cards fetch" as a
			// resource record): nothing was fetched, no client_id is due.
			if c.ClientID == "" {
				c.filedUnder = "inline:" + url
			}
		} else {
			probs = append(probs, checkFetchedClientID(c, url, source)...)
		}
		s.AddCard(c, at)
		return kind, probs
	case KindJWKS:
		keys, probs, err := ParseJWKS(body, source)
		if err != nil {
			return kind, append(probs, Problem{Source: source, Code: problem.JWKSUnreadable, Message: err.Error()})
		}
		s.AddKeys(url, keys, at)
		return kind, probs
	case KindIPList:
		l, probs, err := ParseIPList(body, source)
		if err != nil {
			return kind, append(probs, Problem{Source: source, Code: problem.IPListUnreadable, Message: err.Error()})
		}
		s.AddIPList(url, l, at)
		return kind, probs
	}
	return "", nil
}

// checkFetchedClientID applies registry-03 §"Client ID" to a card fetched
// from fetchURL: client_id must be present and identical to the URL. The
// flat layouts had no client_id; such a card is keyed by the URL instead.
func checkFetchedClientID(c *Card, fetchURL, source string) []Problem {
	switch {
	case c.ClientID == fetchURL:
		return nil
	case c.ClientID == "" && c.Layout == LayoutLegacyFlat:
		c.ClientID = fetchURL
		return []Problem{{Source: source, Code: problem.CardNoClientID, Message: "legacy card has no client_id; keyed by the URL it was fetched from"}}
	case c.ClientID == "":
		if c.Invalid == "" {
			c.Invalid = InvalidClientIDMissing
		}
		return []Problem{{Source: source, Code: problem.CardInvalid, Message: "card fetched from " + quoteShort(fetchURL) + " has no client_id (registry-03 §Client ID)"}}
	case normURL(c.ClientID) == normURL(fetchURL):
		// A crawler may have normalised the URL it recorded (host case,
		// default port); the card names the same resource.
		return []Problem{{Source: source, Code: problem.CardClientIDNormalized, Message: fmt.Sprintf("client_id %s equals the capture URL %s only after normalisation", quoteShort(c.ClientID), quoteShort(fetchURL))}}
	default:
		if c.Invalid == "" {
			c.Invalid = InvalidClientIDMismatch
		}
		c.filedUnder = "fetched:" + normURL(fetchURL)
		return []Problem{{Source: source, Code: problem.CardInvalid, Message: fmt.Sprintf("client_id %s is not the URL it was fetched from, %s (registry-03 §Client ID)", quoteShort(c.ClientID), quoteShort(fetchURL))}}
	}
}
