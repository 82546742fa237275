package identity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/problem"
)

// MaxIPListBytes caps an IP range list. Published bot lists are a few
// kilobytes; cloud-wide lists reach a few megabytes.
const MaxIPListBytes = 32 << 20

// ipListDoc is the JAFAR shape (draft-illyes-aipref-jafar-00), which
// Google's and OpenAI's lists share.
type ipListDoc struct {
	CreationTime *string          `json:"creationTime"`
	Prefixes     *json.RawMessage `json:"prefixes"`
}

type ipPrefixEntry struct {
	IPv4 *string `json:"ipv4Prefix"`
	IPv6 *string `json:"ipv6Prefix"`
}

// ParseIPList reads a published IP range list: JAFAR ("creationTime",
// "prefixes": [{"ipv4Prefix"|"ipv6Prefix": CIDR, "service"?}]) and the
// same shape as served by Google (googlebot.json and successors, whose
// creationTime has no zone and microseconds) and OpenAI (gptbot.json, ...).
// Prefix entries may also be bare CIDR strings. CreationTime is UTC and
// zero when absent or unreadable; a time without a zone is read as UTC.
// A bad prefix is a Problem and is skipped; a prefix with host bits set is
// masked and reported. Zero-width spaces (U+200B), which Bing's
// bingbot.json has carried since 2022 between JSON tokens and inside
// prefix strings, are removed before parsing and reported once.
func ParseIPList(data []byte, source string) (*IPList, []Problem, error) {
	v, ps, err := parseIPList(data, source)
	return v, located(ps, source), err
}

func parseIPList(data []byte, source string) (*IPList, []Problem, error) {
	if len(data) > MaxIPListBytes {
		return nil, nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), MaxIPListBytes)
	}
	var probs []Problem
	if n := bytes.Count(data, zeroWidthSpace); n > 0 {
		data = bytes.ReplaceAll(data, zeroWidthSpace, nil)
		probs = append(probs, Problem{Source: source, Code: problem.IPListZeroWidthSpace, Message: fmt.Sprintf("%d zero-width spaces (U+200B) removed before reading", n)})
	}
	var doc ipListDoc
	if err := json.Unmarshal(trimBOM(data), &doc); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrNotIPList, err)
	}
	if doc.Prefixes == nil {
		return nil, nil, fmt.Errorf("%w: no \"prefixes\" array", ErrNotIPList)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(*doc.Prefixes, &raw); err != nil {
		return nil, nil, fmt.Errorf("%w: \"prefixes\" is not an array", ErrNotIPList)
	}
	l := &IPList{Source: source}
	if doc.CreationTime != nil {
		t, err := parseCreationTime(*doc.CreationTime)
		if err != nil {
			probs = append(probs, Problem{Source: source, Code: problem.IPListBadTime, Message: fmt.Sprintf("creationTime %s: %v; ignored", quoteShort(*doc.CreationTime), err)})
		}
		l.CreationTime = t
	}
	l.Prefixes = make([]netip.Prefix, 0, len(raw))
	seen := make(map[netip.Prefix]bool, len(raw))
	for i, r := range raw {
		loc := source + "#prefixes[" + strconv.Itoa(i) + "]"
		var text, family string
		var s string
		if json.Unmarshal(r, &s) == nil {
			text = s
		} else {
			var e ipPrefixEntry
			if err := json.Unmarshal(r, &e); err != nil {
				probs = append(probs, Problem{Source: loc, Code: problem.IPListBadEntry, Message: "entry is neither an object nor a string"})
				continue
			}
			switch {
			case e.IPv4 != nil && e.IPv6 != nil:
				probs = append(probs, Problem{Source: loc, Code: problem.IPListBadEntry, Message: "entry has both ipv4Prefix and ipv6Prefix; ipv4Prefix used"})
				text, family = *e.IPv4, "ipv4Prefix"
			case e.IPv4 != nil:
				text, family = *e.IPv4, "ipv4Prefix"
			case e.IPv6 != nil:
				text, family = *e.IPv6, "ipv6Prefix"
			default:
				probs = append(probs, Problem{Source: loc, Code: problem.IPListBadEntry, Message: "entry has no ipv4Prefix or ipv6Prefix"})
				continue
			}
		}
		p, err := parseCIDR(strings.TrimSpace(text))
		if err != nil {
			probs = append(probs, Problem{Source: loc, Code: problem.IPListBadPrefix, Message: fmt.Sprintf("%s: %v", quoteShort(text), err)})
			continue
		}
		if (family == "ipv4Prefix" && !p.Addr().Is4()) || (family == "ipv6Prefix" && !p.Addr().Is6()) {
			probs = append(probs, Problem{Source: loc, Code: problem.IPListWrongFamily, Message: fmt.Sprintf("%s under %s", p, family)})
		}
		if m := p.Masked(); m != p {
			probs = append(probs, Problem{Source: loc, Code: problem.IPListHostBits, Message: fmt.Sprintf("%s has host bits set; read as %s", p, m)})
			p = m
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		l.Prefixes = append(l.Prefixes, p)
	}
	return l, probs, nil
}

// zeroWidthSpace is U+200B in UTF-8.
var zeroWidthSpace = []byte("\u200b")

// parseCIDR parses a CIDR prefix; a bare address is a host prefix.
// IPv4-mapped IPv6 prefixes are turned into IPv4 ones.
func parseCIDR(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p, nil
}

// creationTimeLayouts are the timestamp shapes seen in published lists:
// RFC 3339 (JAFAR), and Google's/OpenAI's zone-less microsecond form.
var creationTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

func parseCreationTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range creationTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	// Some lists carry a Unix time.
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 && n < 253402300799 {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("not an ISO 8601 timestamp")
}

// prefixSet answers "which prefix contains this address" in time
// proportional to the number of distinct prefix lengths.
type prefixSet struct {
	lens4, lens6 []int // distinct prefix lengths, longest first
	m            map[netip.Prefix]struct{}
}

func newPrefixSet(ps []netip.Prefix) *prefixSet {
	s := &prefixSet{m: make(map[netip.Prefix]struct{}, len(ps))}
	var have4, have6 [129]bool
	for _, p := range ps {
		p = p.Masked()
		s.m[p] = struct{}{}
		if p.Addr().Is4() {
			have4[p.Bits()] = true
		} else {
			have6[p.Bits()] = true
		}
	}
	for b := 128; b >= 0; b-- {
		if have4[b] {
			s.lens4 = append(s.lens4, b)
		}
		if have6[b] {
			s.lens6 = append(s.lens6, b)
		}
	}
	return s
}

// lookup returns the longest prefix containing a.
func (s *prefixSet) lookup(a netip.Addr) (netip.Prefix, bool) {
	a = a.Unmap().WithZone("")
	lens := s.lens6
	if a.Is4() {
		lens = s.lens4
	}
	for _, b := range lens {
		p, err := a.Prefix(b)
		if err != nil {
			continue
		}
		if _, ok := s.m[p]; ok {
			return p, true
		}
	}
	return netip.Prefix{}, false
}
