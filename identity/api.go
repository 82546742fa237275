package identity

import (
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Problem is one piece of identity input that could not be used, or was
// read only leniently. Source names the file or URL (with "@offset" for a
// WARC capture, ":line" for a registry line, "#keys[3]" for a member of a
// JSON document): finer than an event.Source can say. Where is the same
// place as an event.Source: the document as named to the parser (File,
// Offset -1), with the Line for a registry line; audit turns the Problem
// into an event.Problem at the capture or file it read, else at Where.
// Code is one of package problem's.
type Problem struct {
	Source  string
	Code    problem.Code
	Message string
	Where   event.Source
}

// located sets Where of every problem that has none to the document
// named source: a file or URL, or a WARC capture's "file@offset".
func located(ps []Problem, source string) []Problem {
	where := event.Source{File: source, Offset: -1}
	if i := strings.LastIndexByte(source, '@'); i > 0 {
		if off, err := strconv.ParseInt(source[i+1:], 10, 64); err == nil && off >= 0 {
			where = event.Source{File: source[:i], Offset: off}
		}
	}
	for i := range ps {
		if ps[i].Where.File == "" {
			ps[i].Where = where
		}
	}
	return ps
}

// Card layouts recognised by ParseCard.
const (
	LayoutRegistry03 = "registry-03" // client metadata with a "web_bot_auth" object
	LayoutLegacyFlat = "legacy-flat" // registry-00..02: bot fields at top level
)

// Card is a Signature Agent Card (draft-meunier-webbotauth-registry-03
// §"Signature Agent Card"), read from either the current layout or the
// older flat one.
type Card struct {
	ClientID          string   // card's client_id (must equal the URL it was fetched from, when fetched)
	Name              string   // client_name / legacy name
	ClientURI         string   // client_uri
	ProductToken      string   // web_bot_auth.rfc9309-product-token (or legacy equivalents)
	ExpectedUserAgent []string // string or array in the card; patterns with prefix and '*' matching
	Trigger           string   // e.g. "fetcher", "crawler"
	Purpose           string   // e.g. "tdm", "search" (an array in the card is joined with ",")
	// RFC9309Compliance is ComplianceTrue, ComplianceFalse or
	// ComplianceUnset: registry-04 §3.2.3's boolean, or the reading of a
	// registry-03 list of directives.
	RFC9309Compliance string
	RFC9309Directives []string // the registry-03 list as written; nil for a boolean
	JWKS              []Key    // inline "jwks" (or legacy top-level "keys")
	JWKSURI           string   // jwks_uri
	IPsURI            string   // ips_uri
	Layout            string   // LayoutRegistry03 or LayoutLegacyFlat
	// Invalid is a non-empty stable reason when the card is invalid (for
	// example "jwks-and-jwks-uri"). An invalid card is kept so that claims
	// against it can be reported, but its keys are never trusted.
	Invalid string
	Source  string // where the card was read from

	// filedUnder, when set, is the Store key of the card instead of its
	// client_id: a card with a mismatched client_id is filed under the URL
	// it was captured at (a copy served elsewhere never replaces the real
	// card), an inline data: card without client_id under its data: URL.
	filedUnder string
}

// RegistryEntry is one usable line of a registry file.
type RegistryEntry struct {
	URL    string // the line as written: an https URL or a data: URL
	Line   int    // 1-based line number
	Inline []byte // for data: URLs, the decoded payload (an inline card); nil otherwise
}

// IPList is one snapshot of a bot's published IP ranges.
type IPList struct {
	CreationTime time.Time // zero when the list does not say
	Prefixes     []netip.Prefix
	Source       string
}

// IP check results.
const (
	IPInRange    = "in_range"
	IPNotInRange = "not_in_range"
	// IPNotGiven: no list was given for the owner (Store.CheckIP says so
	// of every owner it holds no list for). A caller that knows the bot
	// publishes a list names its URL in IPCheck.ListSource.
	IPNotGiven = "not_given"
	// IPNotPublished: the bot publishes no list (no list URL is known for
	// it). The store cannot tell this from IPNotGiven; the caller that
	// knows the bot's catalog entry and card can.
	IPNotPublished = "not_published"
	// IPNoAddress: the fetch has no usable client address to check.
	IPNoAddress = "no_address"
)

// IPCheck is the result of checking a client address against the IP list
// in force at a time, with the evidence that produced it.
type IPCheck struct {
	Result     string       // IPInRange, IPNotInRange, IPNotGiven, IPNotPublished or IPNoAddress
	Prefix     netip.Prefix // the matching prefix when in range
	ListSource string       // the snapshot consulted; for IPNotGiven, the URL of the list not given, when known
	ListTime   time.Time    // the time that snapshot became known (zero: local file)
	// Earliest is true when t is before every snapshot of the list: the
	// earliest one was used, as lists are dated when downloaded.
	Earliest bool
}

// Capture kinds returned by CaptureKind.
const (
	KindCard   = "card"
	KindJWKS   = "jwks"
	KindIPList = "iplist"
)
