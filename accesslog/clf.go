package accesslog

import (
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

func (r *Reader) parseCLFLine(s string, vhost bool) bool {
	f := &r.fetch
	i := 0
	var vh string
	if vhost {
		vh, i = token(s, 0)
	}
	h, i := token(s, i)
	if h == "" {
		return r.fail(CodeUnparsedLine, "no client address", s)
	}
	// %l and %u: skip to the bracketed time. Searching for '[' tolerates a
	// user name with spaces.
	open := strings.IndexByte(s[i:], '[')
	if open < 0 {
		return r.fail(CodeUnparsedLine, "no [time] field", s)
	}
	open += i
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
	f.ClientIP = parseIP(h)
	if vhost {
		f.Host, f.Scheme = normHost(vh, "")
	}

	i = skipSpace(s, closeIdx+1)
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
