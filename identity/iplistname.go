package identity

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// File names of fetched IP range lists ("repaudit ranges fetch" writes
// them, "audit --ip-ranges-dir" reads them). A name encodes the list's URL
// and the time it was fetched, reversibly:
//
//	ESCAPED-URL "." YYYY-MM-DD "T" hhmmss "Z" ".json"
//
// ESCAPED-URL is the URL without "https://" (the scheme is always https)
// with every "/" written as "_", every byte other than ASCII letters,
// digits, "." and "-" written as "%XX" (upper-case hex; "_" itself is
// "%5F"), so that the name is one path segment on every file system and
// maps back to exactly one URL. The time is UTC, to the second. Example:
//
//	https://www.bing.com/toolbox/bingbot.json fetched 2026-11-23 18:45:00 UTC
//	www.bing.com_toolbox_bingbot.json.2026-11-23T184500Z.json
const ipListTimeLayout = "2006-01-02T150405Z"

// ErrNotIPListName is returned by ParseIPListFileName for names that are
// not in the scheme.
var ErrNotIPListName = errors.New("identity: not a fetched IP list file name")

// IPListFileName returns the file name for the list at listURL (https)
// fetched at t.
func IPListFileName(listURL string, t time.Time) (string, error) {
	rest, ok := strings.CutPrefix(listURL, "https://")
	if !ok || rest == "" {
		return "", fmt.Errorf("identity: IP list URL %q is not https", listURL)
	}
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '/':
			b.WriteByte('_')
		case isNameByte(c):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	b.WriteByte('.')
	b.WriteString(t.UTC().Format(ipListTimeLayout))
	b.WriteString(".json")
	return b.String(), nil
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-'
}

// ParseIPListFileName reverses IPListFileName: it returns the list URL and
// the fetch time a file name (a base name, not a path) encodes, or
// ErrNotIPListName. Only names IPListFileName would write are accepted.
func ParseIPListFileName(name string) (listURL string, fetched time.Time, err error) {
	stem, ok := strings.CutSuffix(name, ".json")
	n := len(ipListTimeLayout)
	if !ok || len(stem) < n+2 || stem[len(stem)-n-1] != '.' {
		return "", time.Time{}, ErrNotIPListName
	}
	t, terr := time.Parse(ipListTimeLayout, stem[len(stem)-n:])
	if terr != nil {
		return "", time.Time{}, ErrNotIPListName
	}
	esc := stem[:len(stem)-n-1]
	var b strings.Builder
	for i := 0; i < len(esc); i++ {
		switch c := esc[i]; {
		case c == '_':
			b.WriteByte('/')
		case isNameByte(c):
			b.WriteByte(c)
		case c == '%' && i+2 < len(esc) && isUpperHex(esc[i+1]) && isUpperHex(esc[i+2]):
			b.WriteByte(unhex(esc[i+1])<<4 | unhex(esc[i+2]))
			i += 2
		default:
			return "", time.Time{}, ErrNotIPListName
		}
	}
	listURL = "https://" + b.String()
	// Canonical names only: one URL, one name.
	if again, err := IPListFileName(listURL, t); err != nil || again != name {
		return "", time.Time{}, ErrNotIPListName
	}
	if u, err := url.Parse(listURL); err != nil || u.Host == "" {
		return "", time.Time{}, ErrNotIPListName
	}
	return listURL, t, nil
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
