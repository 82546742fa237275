package identity

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// IPListSnapshot is one published IP range list as fetched at one time:
// the body exactly as served, what ParseIPList read from it, and the file
// name (IPListFileName) that "repaudit ranges fetch" writes it under, so
// that "audit --ip-ranges-dir" can read the snapshots of a list as a
// timeline.
type IPListSnapshot struct {
	URL      string    // the list's own URL (not a mirror's)
	At       time.Time // fetch time, UTC, to the second
	Name     string    // file name: URL and At, reversibly; set by FileName
	Body     []byte    // as served; what is written
	List     *IPList
	Problems []Problem
}

// NewIPListSnapshot reads body, fetched from listURL (or its mirror) at
// at, as an IP range list (ParseIPList). The error says why the body is
// not one; nothing should then be written.
func NewIPListSnapshot(listURL string, body []byte, at time.Time) (*IPListSnapshot, error) {
	list, probs, err := ParseIPList(body, listURL)
	if err != nil {
		return nil, err
	}
	return &IPListSnapshot{URL: listURL, At: at.UTC().Truncate(time.Second), Body: body, List: list, Problems: probs}, nil
}

// FileName names the snapshot's file (IPListFileName of its URL and
// time) and sets Name; the error says why the URL has no file name.
func (s *IPListSnapshot) FileName() (string, error) {
	name, err := IPListFileName(s.URL, s.At)
	if err != nil {
		return "", err
	}
	s.Name = name
	return name, nil
}

// Summary describes the snapshot for a report line: the number of
// prefixes, the list's creationTime, the bots (tokens) it is for, the
// first problem found, and the file name.
func (s *IPListSnapshot) Summary(tokens []string) string {
	created := "no creationTime"
	if !s.List.CreationTime.IsZero() {
		created = "creationTime " + s.List.CreationTime.Format(time.RFC3339)
	}
	note := ""
	if len(s.Problems) > 0 {
		note = fmt.Sprintf(", %d note(s): %s", len(s.Problems), s.Problems[0].Message)
	}
	return fmt.Sprintf("%d prefixes (%s), for %s%s -> %s", len(s.List.Prefixes), created, strings.Join(tokens, ", "), note, s.Name)
}

// MirrorURL is where a local mirror serves listURL: mirror, then
// listURL's host and escaped path (RFC 3986 §3.2.2, §3.3); the query is
// not kept. An empty mirror gives listURL itself.
func MirrorURL(mirror, listURL string) (string, error) {
	if mirror == "" {
		return listURL, nil
	}
	u, err := url.Parse(listURL)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(mirror, "/") + "/" + u.Host + u.EscapedPath(), nil
}
