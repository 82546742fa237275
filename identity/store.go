package identity

import (
	"net/netip"
	"sync"
	"time"
)

// Store holds identity state over time. Build it with the Add methods, then
// query it; both are safe for concurrent use.
type Store struct {
	mu sync.RWMutex
}

// NewStore returns an empty Store.
func NewStore() *Store { return &Store{} }

// AddCard records a card snapshot known from time at (zero: valid for the whole run).
func (s *Store) AddCard(c *Card, at time.Time) {}

// AddKeys records a JWK Set or key directory fetched from url.
func (s *Store) AddKeys(url string, keys []Key, at time.Time) {}

// AddIPList records an IP list snapshot published by owner.
func (s *Store) AddIPList(owner string, l *IPList, at time.Time) {}

// AddTrustedKeys adds keys from the local trust store.
func (s *Store) AddTrustedKeys(keys []Key) {}

// Keys returns the keys published under ref as of t.
func (s *Store) Keys(ref string, t time.Time) (keys []Key, known bool) { return nil, false }

// TrustedKeys returns the local trust store.
func (s *Store) TrustedKeys() []Key { return nil }

// CardForUA returns the card whose expected user agent or product token matches ua.
func (s *Store) CardForUA(ua string, t time.Time) (*Card, bool) { return nil, false }

// CardByID returns the card with the client_id as of t.
func (s *Store) CardByID(clientID string, t time.Time) (*Card, bool) { return nil, false }

// CheckIP checks ip against the ranges published by owner in force at t.
func (s *Store) CheckIP(owner string, ip netip.Addr, t time.Time) IPCheck {
	return IPCheck{Result: IPNoList}
}

// Cards returns every card known.
func (s *Store) Cards() []*Card { return nil }

// AddCapture sniffs a captured document and adds it.
func (s *Store) AddCapture(url string, body []byte, at time.Time, source string) (kind string, problems []Problem) {
	return "", nil
}
