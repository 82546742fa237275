package accesslog

import (
	"strings"
	"time"
)

// HAProxy HTTP logs (option httplog), as syslog writes them:
//
//	Feb 25 16:19:49 host haproxy[7]: 141.35.244.171:53332
//	[25/Feb/2019:16:19:48.143] frontend~ backend/server 0/0/7/1457/1487
//	200 11394 - - ---- 2/1/0/0/0 0/0 {captured request headers}
//	{captured response headers} "GET /path HTTP/1.1"
//
// The syslog prefix (RFC 3164 timestamp, host, tag[pid]:) is optional and
// ignored. The accept date has milliseconds and no zone: it is the proxy's
// local time, read as UTC and said once per file (CodeLocalTime). Fields
// a custom log-format inserts between backend/server and the timers are
// skipped. Captured headers are not mapped: their names are in the
// proxy's configuration, not in the log. Lines that are not HTTP request
// logs (proxy start messages, TCP logs, TLS handshake failures) are
// reported (CodeNotRequest), not judged.

// haproxyMessage returns the part of a line after its syslog prefix: the
// text after the first "]: " or ": " tag end within the first 256 bytes,
// or the whole line when it starts with the client address.
func haproxyMessage(s string) string {
	if c, _ := token(s, 0); strings.IndexByte(c, ':') > 0 && !strings.HasSuffix(c, ":") {
		if n, _ := token(s, len(c)); strings.HasPrefix(n, "[") {
			return s
		}
	}
	head := s[:min(len(s), 256)]
	if k := strings.Index(head, "]: "); k >= 0 {
		return s[k+3:]
	}
	if k := strings.Index(head, ": "); k >= 0 {
		return s[k+2:]
	}
	return s
}

// isHAProxyLine reports whether a line is an HAProxy request log line:
// client ip:port then a bracketed accept date with milliseconds.
func isHAProxyLine(s string) bool {
	m := haproxyMessage(s)
	c, i := token(m, 0)
	if strings.IndexByte(c, ':') < 0 {
		return false
	}
	d, _ := token(m, i)
	if len(d) < 22 || d[0] != '[' || d[len(d)-1] != ']' {
		return false
	}
	_, ok := haproxyTime(d[1 : len(d)-1])
	return ok
}

// haproxyTime parses "dd/Mon/yyyy:hh:mm:ss.mmm" (no zone) as UTC.
func haproxyTime(s string) (t time.Time, ok bool) {
	if len(s) < 20 {
		return t, false
	}
	base, ok := parseCLFTime(s[:20] + " +0000")
	if !ok {
		return t, false
	}
	nsec := 0
	if rest := s[20:]; rest != "" {
		if rest[0] != '.' || len(rest) == 1 || len(rest) > 10 {
			return t, false
		}
		scale := 100000000
		for i := 1; i < len(rest); i++ {
			if rest[i] < '0' || rest[i] > '9' {
				return t, false
			}
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
	}
	return base.Add(time.Duration(nsec)), true
}

// isTimers reports whether tok is HAProxy's timer field: five
// slash-separated integers, each possibly -1 ("TR/Tw/Tc/Tr/Ta").
func isTimers(tok string) bool {
	parts := 0
	for _, p := range strings.Split(tok, "/") {
		p = strings.TrimPrefix(p, "-")
		p = strings.TrimPrefix(p, "+")
		if _, ok := atoi(p, 1<<40); !ok {
			return false
		}
		parts++
	}
	return parts == 5
}

func parseHAProxy(r *Reader, s string) bool {
	f := &r.fetch
	m := haproxyMessage(s)
	client, i := token(m, 0)
	date, i := token(m, i)
	if strings.IndexByte(client, ':') < 0 || len(date) < 22 || date[0] != '[' || date[len(date)-1] != ']' {
		return r.notRequest("not an HAProxy request log line", s)
	}
	t, ok := haproxyTime(date[1 : len(date)-1])
	if !ok {
		return r.fail(CodeBadTime, "accept date is not [dd/Mon/yyyy:hh:mm:ss.mmm]", s)
	}
	// frontend, backend/server, (custom fields), timers.
	found := false
	for k := 0; k < 8; k++ {
		var tok string
		tok, i = token(m, i)
		if tok == "" {
			break
		}
		if isTimers(tok) {
			found = true
			break
		}
	}
	if !found {
		return r.notRequest("HAProxy line without HTTP timers (TCP log or event)", s)
	}
	status, i := token(m, i)
	bytes, i := token(m, i)
	q := strings.IndexByte(m[i:], '"')
	if q < 0 {
		return r.notRequest("HAProxy line without a request", s)
	}
	req, esc, _, ok := quoted(m, i+q)
	if !ok {
		return r.fail(CodeUnparsedLine, "request has no closing quote", s)
	}
	if esc {
		req = unescapeLog(req)
	}
	r.localTime("HAProxy writes the accept date in the proxy's local time without a zone")
	f.Time = t
	f.ClientIP = parseIPPort(client)
	r.setRequest(f, req, s)
	f.Status = r.parseStatus(status, s)
	f.Bytes = r.parseBytes(strings.TrimPrefix(bytes, "+"), s)
	addHeader(f, "Host", f.Host)
	return true
}
