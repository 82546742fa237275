package identity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Forward-confirmed reverse DNS: the check Google, Bing, Apple, Amazon and
// Common Crawl document for their crawlers. A PTR lookup of the client
// address must give a name under one of the operator's suffixes, and an
// A/AAAA lookup of that name must give the address back. "repaudit dns
// verify" does the lookups and writes a snapshot; the audit reads it and
// never touches the network.
//
// A snapshot is JSON lines: a header line, then one line per address.
//
//	{"format":"repaudit-dns-snapshot/1","resolver":"system","started":"...","finished":"..."}
//	{"address":"66.249.66.1","tokens":["Googlebot"],"suffixes":[".googlebot.com",".google.com"],
//	 "ptr":["crawl-66-249-66-1.googlebot.com"],"forward":[{"name":"crawl-66-249-66-1.googlebot.com",
//	 "addresses":["66.249.66.1"]}],"result":"confirmed","time":"..."}
//
// The facts (PTR names, forward answers) are kept as well as the result,
// so that the audit judges them again against its own catalog's suffixes.

// DNSSnapshotFormat is the header's format value.
const DNSSnapshotFormat = "repaudit-dns-snapshot/1"

// DNS check results.
const (
	DNSConfirmed           = "confirmed"             // a PTR name under the suffixes resolves back to the address
	DNSNameOutsideSuffixes = "name_outside_suffixes" // PTR names exist, none under the suffixes
	DNSForwardMismatch     = "forward_mismatch"      // a PTR name under the suffixes does not resolve to the address
	DNSNoPTR               = "no_ptr"                // the address has no PTR record
	DNSLookupError         = "lookup_error"          // a lookup failed (time-out, SERVFAIL, ...): nothing known
)

// Bounds of a snapshot.
const (
	MaxDNSLine      = 64 << 10 // bytes per line
	MaxDNSNames     = 16       // PTR names per address
	MaxDNSAddresses = 32       // forward answers per name
	maxDNSTokens    = 16
	maxDNSError     = 512
)

// ErrNotDNSSnapshot is returned by ParseDNSSnapshot for input whose first
// line is not a snapshot header.
var ErrNotDNSSnapshot = errors.New("identity: not a DNS snapshot (no repaudit-dns-snapshot/1 header line)")

// DNSSnapshotHeader is a snapshot's first line.
type DNSSnapshotHeader struct {
	Format   string    `json:"format"`
	Resolver string    `json:"resolver"` // "system" or HOST:PORT
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
}

// DNSForward is the forward (A and AAAA) answer for one PTR name.
type DNSForward struct {
	Name      string   `json:"name"`
	Addresses []string `json:"addresses"`
	Error     string   `json:"error,omitempty"`
}

// DNSEntry is the lookup of one address.
type DNSEntry struct {
	Address  string       `json:"address"`
	Tokens   []string     `json:"tokens"`   // bots the address claimed
	Suffixes []string     `json:"suffixes"` // their catalog suffixes at lookup time
	PTR      []string     `json:"ptr"`
	Forward  []DNSForward `json:"forward,omitempty"`
	Result   string       `json:"result"`
	Error    string       `json:"error,omitempty"`
	Time     time.Time    `json:"time"`

	addr netip.Addr
}

// Addr returns the entry's address (valid after ParseDNSSnapshot).
func (e *DNSEntry) Addr() netip.Addr { return e.addr }

// DNSSnapshot is one parsed snapshot file.
type DNSSnapshot struct {
	Header  DNSSnapshotHeader
	Entries []DNSEntry
	Source  string // the file
}

// DNSNameUnder reports whether a host name lies under one of suffixes:
// ".googlebot.com" takes any name ending in it (not the bare domain), a
// suffix without the leading dot takes the name itself or any name under
// it. Case and a trailing dot are ignored.
func DNSNameUnder(name string, suffixes []string) bool {
	n := strings.ToLower(strings.TrimSuffix(name, "."))
	for _, s := range suffixes {
		s = strings.ToLower(strings.TrimSuffix(s, "."))
		if s == "" || s == "." {
			continue
		}
		if strings.HasPrefix(s, ".") {
			if len(n) > len(s) && strings.HasSuffix(n, s) {
				return true
			}
		} else if n == s || strings.HasSuffix(n, "."+s) {
			return true
		}
	}
	return false
}

// JudgeDNS decides the result of an entry's facts against suffixes: a
// PTR name under them whose forward answer holds the address is
// confirmed; else one whose answer (without error) lacks it is a forward
// mismatch; else PTR names none of which is under them are outside the
// suffixes. Otherwise (no PTR, lookups failed) the entry's own result
// stands. name is the PTR name the result rests on.
func JudgeDNS(e *DNSEntry, suffixes []string) (result, name string) {
	if len(e.PTR) == 0 {
		if e.Result == DNSNoPTR {
			return DNSNoPTR, ""
		}
		return DNSLookupError, ""
	}
	addr := e.addr
	if !addr.IsValid() { // an entry being built, not parsed
		addr, _ = netip.ParseAddr(e.Address)
	}
	addr = addr.Unmap()
	under, mismatch := "", ""
	for _, n := range e.PTR {
		if !DNSNameUnder(n, suffixes) {
			continue
		}
		if under == "" {
			under = n
		}
		for _, fw := range e.Forward {
			if !strings.EqualFold(strings.TrimSuffix(fw.Name, "."), strings.TrimSuffix(n, ".")) || fw.Error != "" {
				continue
			}
			for _, a := range fw.Addresses {
				if ip, err := netip.ParseAddr(a); err == nil && ip.Unmap() == addr {
					return DNSConfirmed, n
				}
			}
			if mismatch == "" {
				mismatch = n
			}
		}
	}
	switch {
	case mismatch != "":
		return DNSForwardMismatch, mismatch
	case under != "":
		return DNSLookupError, under // under the suffixes, but no forward answer
	}
	return DNSNameOutsideSuffixes, e.PTR[0]
}

// WriteDNSSnapshot writes a snapshot: the header line, then one line per
// entry.
func WriteDNSSnapshot(w io.Writer, h DNSSnapshotHeader, entries []DNSEntry) error {
	h.Format = DNSSnapshotFormat
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for i := range entries {
		if err := enc.Encode(&entries[i]); err != nil {
			return err
		}
	}
	return nil
}

// ParseDNSSnapshot reads a snapshot written by WriteDNSSnapshot. source
// names the input in problems, as "source:LINE". A line that is not a
// usable entry is a problem and is skipped; only input without a header
// line is an error (ErrNotDNSSnapshot, wrapped).
func ParseDNSSnapshot(data []byte, source string) (*DNSSnapshot, []Problem, error) {
	s := &DNSSnapshot{Source: source}
	var probs []Problem
	line, header := 0, false
	for raw := range bytes.Lines(data) {
		line++
		b := bytes.TrimSpace(raw)
		if len(b) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", source, line)
		at := event.Source{File: source, Line: int64(line), Offset: -1}
		if !header {
			if err := json.Unmarshal(b, &s.Header); err != nil || s.Header.Format != DNSSnapshotFormat {
				return nil, nil, fmt.Errorf("%s: %w", where, ErrNotDNSSnapshot)
			}
			header = true
			continue
		}
		if len(b) > MaxDNSLine {
			probs = append(probs, Problem{Source: where, Code: problem.DNSBadEntry, Message: fmt.Sprintf("line longer than %d bytes; skipped", MaxDNSLine), Where: at})
			continue
		}
		e, msg := parseDNSEntry(b)
		if msg != "" {
			probs = append(probs, Problem{Source: where, Code: problem.DNSBadEntry, Message: msg + "; skipped", Where: at})
			continue
		}
		s.Entries = append(s.Entries, e)
	}
	if !header {
		return nil, nil, fmt.Errorf("%s: %w", source, ErrNotDNSSnapshot)
	}
	return s, probs, nil
}

// parseDNSEntry decodes and checks one entry line; the string says what
// is wrong with it.
func parseDNSEntry(b []byte) (DNSEntry, string) {
	var e DNSEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return e, "not a JSON entry: " + err.Error()
	}
	ip, err := netip.ParseAddr(e.Address)
	switch {
	case err != nil:
		return e, fmt.Sprintf("address %q is not an IP address", e.Address)
	case ip.Zone() != "":
		return e, fmt.Sprintf("address %q has a zone", e.Address)
	case e.Time.IsZero():
		return e, "no lookup time"
	case len(e.PTR) > MaxDNSNames || len(e.Forward) > MaxDNSNames || len(e.Tokens) > maxDNSTokens || len(e.Suffixes) > maxDNSTokens:
		return e, fmt.Sprintf("more than %d PTR names, forward answers, tokens or suffixes", MaxDNSNames)
	case len(e.Error) > maxDNSError:
		return e, "error text too long"
	}
	switch e.Result {
	case DNSConfirmed, DNSNameOutsideSuffixes, DNSForwardMismatch, DNSNoPTR, DNSLookupError:
	default:
		return e, fmt.Sprintf("result %q is not one of confirmed, name_outside_suffixes, forward_mismatch, no_ptr, lookup_error", e.Result)
	}
	for _, fw := range e.Forward {
		if len(fw.Addresses) > MaxDNSAddresses {
			return e, fmt.Sprintf("more than %d forward answers for %s", MaxDNSAddresses, fw.Name)
		}
	}
	e.addr = ip.Unmap()
	e.Time = e.Time.UTC()
	return e, ""
}

// DNSCheck is the result of checking a client address against the DNS
// snapshots in force at a time, with the evidence.
type DNSCheck struct {
	Result   string // a DNS* result; "" when no snapshot holds the address
	Name     string // the PTR name the result rests on
	PTR      []string
	Answers  []string  // the forward answers for Name
	File     string    // the snapshot file
	Resolver string    // the snapshot's resolver
	Looked   time.Time // the lookup time
	// Earliest is true when t is before every lookup of the address: the
	// earliest one was used, as for IP lists.
	Earliest bool
}

// dnsSnapEntry is one lookup of an address with its snapshot.
type dnsSnapEntry struct {
	e    *DNSEntry
	snap *DNSSnapshot
}

// AddDNSSnapshot records every entry of a snapshot, each at its lookup
// time, on its address's timeline.
func (s *Store) AddDNSSnapshot(snap *DNSSnapshot) {
	if snap == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dns == nil {
		s.dns = map[netip.Addr]*timeline[dnsSnapEntry]{}
	}
	for i := range snap.Entries {
		e := &snap.Entries[i]
		tl, ok := s.dns[e.addr]
		if !ok {
			tl = &timeline[dnsSnapEntry]{}
			s.dns[e.addr] = tl
		}
		tl.add(e.Time, dnsSnapEntry{e, snap})
	}
}

// HasDNS reports whether any DNS snapshot was added.
func (s *Store) HasDNS() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.dns) > 0
}

// CheckDNS judges ip's lookup in force at t (the latest at or before t,
// else the earliest, as CheckIP does for IP lists) against suffixes, the
// claimed bot's. The result is "" when no snapshot holds ip.
func (s *Store) CheckDNS(ip netip.Addr, suffixes []string, t time.Time) DNSCheck {
	if !ip.IsValid() || len(suffixes) == 0 {
		return DNSCheck{}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	tl, ok := s.dns[ip.Unmap()]
	if !ok {
		return DNSCheck{}
	}
	sn, early, ok := tl.inOrEarliest(t)
	if !ok {
		return DNSCheck{}
	}
	e := sn.v.e
	res, name := JudgeDNS(e, suffixes)
	c := DNSCheck{Result: res, Name: name, PTR: e.PTR, File: sn.v.snap.Source,
		Resolver: sn.v.snap.Header.Resolver, Looked: e.Time, Earliest: early}
	for _, fw := range e.Forward {
		if strings.EqualFold(strings.TrimSuffix(fw.Name, "."), strings.TrimSuffix(name, ".")) {
			c.Answers = slices.Clone(fw.Addresses)
			break
		}
	}
	return c
}
