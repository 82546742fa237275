package accesslog

import (
	"net/netip"
	"strings"
)

// Apache/nginx text formats: common, combined, vhost_combined.
//
//	common:         %h %l %u %t "%r" %>s %b
//	combined:       %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"
//	vhost_combined: %v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"
//
// One parser reads all three: referer and user agent are read whenever
// present, and fields after the user agent are either named by
// Options.ExtraHeaders or ignored.

func parseCLF(r *Reader, s string) bool   { return r.parseCLFLine(s, false) }
func parseVhost(r *Reader, s string) bool { return r.parseCLFLine(s, true) }

// maxGroups bounds the fields read before the [time] field.
const maxGroups = 8

// timeOpen returns the index of the '[' that opens the time field: the
// first '[' after a space or tab (an IPv6 client is never bracketed in
// these formats, and a user name with spaces stays before it), or -1.
func timeOpen(s string) int {
	for i := 1; i < len(s); {
		j := strings.IndexByte(s[i:], '[')
		if j < 0 {
			return -1
		}
		if i += j; s[i-1] == ' ' || s[i-1] == '\t' {
			return i
		}
		i++
	}
	return -1
}

// span is a field's [start, end) in the line.
type span struct{ start, end int }

// splitGroups cuts the fields before the time into groups: a quoted
// string is one group, and tokens joined by commas ("10.0.0.2, 10.0.0.1")
// are one group, as nginx writes $http_x_forwarded_for. It fills out and
// returns the number of groups (which may exceed len(out): later ones are
// counted, not kept).
func splitGroups(s string, out []span) int {
	n, i := 0, 0
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return n
		}
		start := i
		for {
			if s[i] == '"' {
				if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
					i += j + 2
				} else {
					i = len(s)
				}
			} else {
				for i < len(s) && s[i] != ' ' && s[i] != '\t' && (i == start || s[i] != '"') {
					i++
				}
			}
			// A token ending in ',' or followed by one continues the group.
			j := skipSpace(s, i)
			if j >= len(s) {
				break
			}
			if s[i-1] == ',' {
				i = j
				continue
			}
			if s[j] == ',' {
				if i = skipSpace(s, j+1); i < len(s) {
					continue
				}
			}
			break
		}
		if n < len(out) {
			out[n] = span{start, i}
		}
		n++
	}
}

// chainEnd returns the index of the last group of the client field that
// starts at groups[first]: following groups that are IP addresses join it
// (nginx's "$http_x_forwarded_for $remote_addr") as long as the two
// groups %l and %u remain after them.
func chainEnd(s string, groups []span, first int) int {
	last := first
	for k := first + 1; k <= len(groups)-3; k++ {
		if !parseIP(s[groups[k].start:groups[k].end]).IsValid() {
			break
		}
		last = k
	}
	return last
}

// clientChain reads a client field (one group or several): the first
// address is the client, and when there are several the whole chain is
// returned too, comma-and-space separated.
func clientChain(field string) (netip.Addr, string) {
	if plainToken(field) {
		return parseIP(field), "" // the common case: one address, no allocation
	}
	addrs := strings.FieldsFunc(field, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' || c == '"' })
	switch len(addrs) {
	case 0:
		return netip.Addr{}, ""
	case 1:
		return parseIP(addrs[0]), ""
	}
	return parseIP(addrs[0]), strings.Join(addrs, ", ")
}

// plainToken reports whether s holds no ',', ' ' or '"' (one scan).
func plainToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == ' ' || c == '"' {
			return false
		}
	}
	return true
}

// hostEntry is a vhost field as written and as normHost reads it.
type hostEntry struct{ raw, host, scheme string }

// hostSlots is the size of Reader.hosts.
const hostSlots = 1 << 8

// vhost is normHost(raw, "") with the host interned, remembered for the
// fields seen lately (a log names a few sites, over and over): in a
// direct-mapped cache, then a map cleared as intern's is.
func (r *Reader) vhost(raw string) (host, scheme string) {
	if r.hosts == nil {
		r.hosts = new([hostSlots]hostEntry)
	}
	e := &r.hosts[quickHash(raw)&(hostSlots-1)]
	if e.raw == raw { // also "": the zero entry is normHost's answer for it
		return e.host, e.scheme
	}
	v, ok := r.hostMap[raw]
	if !ok {
		host, scheme = normHost(raw, "")
		if host != "" {
			host = r.intern(host) // raw may alias the read buffer
		}
		if len(raw) > maxIntern {
			return host, scheme
		}
		v = hostEntry{strings.Clone(raw), host, scheme}
		if r.hostMap == nil || len(r.hostMap) >= maxInterned {
			r.hostMap = make(map[string]hostEntry, 64)
		}
		r.hostMap[v.raw] = v
	}
	*e = v
	return v.host, v.scheme
}

func (r *Reader) parseCLFLine(s string, vhost bool) bool {
	f := &r.fetch
	open := timeOpen(s)
	if open < 0 {
		if h, _ := token(s, 0); h == "" {
			return r.fail(CodeUnparsedLine, "no client address", s)
		}
		return r.fail(CodeUnparsedLine, "no [time] field", s)
	}
	var groups [maxGroups]span
	n := splitGroups(s[:open], groups[:])
	first := 0
	if vhost {
		first = 1
	}
	if n <= first {
		return r.fail(CodeUnparsedLine, "no client address", s)
	}
	closeIdx := strings.IndexByte(s[open:], ']')
	if closeIdx < 0 {
		return r.fail(CodeUnparsedLine, "no [time] field", s)
	}
	closeIdx += open
	t, ok := r.clfTime.parse(s[open+1 : closeIdx])
	if !ok {
		return r.fail(CodeBadTime, "time is not [dd/Mon/yyyy:hh:mm:ss +zzzz]", s)
	}
	f.Time = t
	last := chainEnd(s, groups[:min(n, maxGroups)], first)
	f.ClientIP, f.ForwardedFor = clientChain(s[groups[first].start:groups[last].end])
	if vhost {
		f.Host, f.Scheme = r.vhost(s[groups[0].start:groups[0].end])
	}

	i := skipSpace(s, closeIdx+1)
	if i >= len(s) || s[i] != '"' {
		return r.fail(CodeUnparsedLine, "request line is not quoted", s)
	}
	req, esc, i, ok := quoted(s, i)
	if !ok {
		return r.fail(CodeUnparsedLine, "request line has no closing quote", s)
	}
	if esc {
		req = unescapeLog(req)
	}
	status, i := token(s, i)
	bytes, i := token(s, i)
	if status == "" {
		return r.fail(CodeUnparsedLine, "no status", s)
	}
	if absent(req) && status == "408" {
		// Apache's routine line for a client that opened a connection
		// and sent nothing before the timeout: no request, as ELB's
		// "- - -" lines.
		return r.notRequest("connection closed without a request (\"-\" 408)", s)
	}
	r.setRequest(f, req, s)
	f.Status = r.parseStatus(status, s)
	f.Bytes = r.parseBytes(bytes, s)

	referer, i, _ := field(s, i)
	ua, i, _ := field(s, i)
	if !absent(referer) {
		f.Referer = referer
	}
	if !absent(ua) {
		f.UserAgent = ua
	}
	addHeader(f, "User-Agent", f.UserAgent)
	addHeader(f, "Referer", f.Referer)
	if len(r.extra) > 0 {
		for _, name := range r.extra {
			var v string
			var ok bool
			if v, i, ok = field(s, i); !ok {
				break
			}
			// The field is there, even if "-": the log would have shown
			// a signature the client sent.
			if isSignatureField(name) {
				f.SignatureRecorded = true
			}
			addHeader(f, name, v)
		}
	}
	return true
}
