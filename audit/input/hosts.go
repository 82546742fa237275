package input

import (
	"strings"

	"github.com/repaudit/repaudit/event"
)

// HostSet notes, for one input file read on one goroutine, the
// authorities its fetches name (capped) and how many name none.
// Both drivers note every fetch of a file here: the authorities feed the
// site inference (evaluate), the referrers the --site hint of the notices.
type HostSet struct {
	seen      map[string]bool
	parts     map[hostKey]bool // the (scheme, host) pairs already noted
	list      []string
	hostless  int64
	referrers map[string]int64 // scheme://host of the referrers of host-less lines (capped)
}

// Hosts returns the authorities noted (at most 64), in order of first
// sight, and the number of fetches that named no host.
func (h *HostSet) Hosts() (list []string, hostless int64) { return h.list, h.hostless }

// Referrers returns the referrer sites (scheme://host) of the host-less
// fetches noted, with their counts (at most 256 sites).
func (h *HostSet) Referrers() map[string]int64 { return h.referrers }

// Note notes one fetch.
func (h *HostSet) Note(f *event.Fetch) {
	if f.Host == "" {
		h.hostless++
		if f.Referer != "" && f.Referer != "-" {
			h.noteReferrer(f.Referer)
		}
		return
	}
	if len(h.list) >= 64 {
		return
	}
	// Looked up by its parts first: the key string is built once per
	// (scheme, host), not once per fetch.
	if h.parts[hostKey{f.Scheme, f.Host}] {
		return
	}
	if h.parts == nil {
		h.parts = make(map[hostKey]bool)
		h.seen = make(map[string]bool)
	}
	h.parts[hostKey{strings.Clone(f.Scheme), strings.Clone(f.Host)}] = true
	key := f.Host
	if f.Scheme != "" {
		key = f.Scheme + "://" + f.Host
	}
	if !h.seen[key] {
		h.seen[key] = true
		h.list = append(h.list, strings.Clone(key))
	}
}

// hostKey is an authority as a fetch names it.
type hostKey struct{ scheme, host string }

// noteReferrer counts the site a referrer names: on a site's own log,
// most referrers of page views are its own pages, which suggests the
// --site to pass when the log names no host.
func (h *HostSet) noteReferrer(ref string) {
	scheme, rest, ok := strings.Cut(ref, "://")
	if !ok || (scheme != "http" && scheme != "https") {
		return
	}
	host, _, _ := strings.Cut(rest, "/")
	host, _, _ = strings.Cut(host, "?")
	if host == "" || strings.ContainsAny(host, " \"\\<>") {
		return
	}
	key := scheme + "://" + strings.ToLower(host)
	if h.referrers == nil {
		h.referrers = make(map[string]int64)
	}
	if _, ok := h.referrers[key]; ok || len(h.referrers) < 256 {
		h.referrers[key]++
	}
}
