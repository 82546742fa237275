package accesslog

import (
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// W3C extended log files (IIS, W3C "Extended Log File Format" working
// draft) and AWS CloudFront standard logs, which are W3C extended files
// with tab separators and percent-encoded values. A "#Fields:" directive
// names the columns and may change mid-file; other "#" lines are
// directives or comments.

type w3cRole uint8

const (
	roleNone w3cRole = iota
	roleDate
	roleTime
	roleClientIP
	roleMethod
	roleStem
	roleQuery
	roleURI
	roleStatus
	roleBytes
	roleHost     // Host header: cs-host, x-host-header, W3C cs(Host)
	roleDistHost // CloudFront cs(Host): the distribution's domain name
	roleProtocol // CloudFront cs-protocol: http, https, ws, wss
	roleServerPort
	roleHeader // any other cs(Name) and x-forwarded-for
)

type w3cState struct {
	roles   []w3cRole
	names   []string // header name per column, for header roles
	vals    []string
	haveSig bool // the columns include Signature or Signature-Input
	told    bool // the default-field problem was reported
	// local is set when the date and time columns are date-local and
	// time-local (IIS Advanced Logging): server time, no zone.
	local bool
	// offset is the #GMT-Offset directive in seconds east of UTC (Oracle
	// Web Cache writes local times and says their offset); hasOffset
	// tells whether one was given.
	offset    int
	hasOffset bool
}

// Default columns when data comes before any #Fields directive.
const (
	iisDefaultFields        = "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken"
	cloudFrontDefaultFields = "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"
)

// setFields reads the column names of a #Fields directive.
func (st *w3cState) setFields(list string, cloudFront bool) {
	st.roles, st.names, st.haveSig, st.local = st.roles[:0], st.names[:0], false, false
	hasUTC := false
	for _, name := range strings.Fields(list) {
		if l := strings.ToLower(name); l == "date" || l == "time" {
			hasUTC = true
		}
	}
	for _, name := range strings.Fields(list) {
		role, hdr := roleNone, ""
		switch lower := strings.ToLower(name); lower {
		case "date":
			role = roleDate
		case "time":
			role = roleTime
		case "date-local", "time-local":
			// Used only when the file has no UTC date and time columns.
			if !hasUTC {
				role, st.local = roleDate, true
				if lower == "time-local" {
					role = roleTime
				}
			}
		case "c-ip":
			role = roleClientIP
		case "cs-method":
			role = roleMethod
		case "cs-uri-stem":
			role = roleStem
		case "cs-uri-query":
			role = roleQuery
		case "cs-uri":
			role = roleURI
		case "sc-status":
			role = roleStatus
		case "sc-bytes", "bytes":
			role = roleBytes
		case "cs-host", "x-host-header":
			role, hdr = roleHost, "Host"
		case "cs-protocol":
			role = roleProtocol
		case "s-port":
			role = roleServerPort
		case "x-forwarded-for", "s-xff":
			role, hdr = roleHeader, "X-Forwarded-For"
		default:
			if strings.HasPrefix(lower, "cs(") && strings.HasSuffix(lower, ")") && len(name) > 4 {
				role, hdr = roleHeader, name[3:len(name)-1]
				if strings.EqualFold(hdr, "referrer") {
					hdr = "Referer" // Incapsula and Oracle spell it as in English
				}
				if strings.EqualFold(hdr, "host") {
					role = roleHost
					if cloudFront {
						role, hdr = roleDistHost, ""
					}
				}
			}
		}
		if isSignatureField(hdr) {
			st.haveSig = true
		}
		st.roles = append(st.roles, role)
		st.names = append(st.names, hdr)
	}
}

func parseW3C(r *Reader, s string) bool {
	st := &r.w3c
	cloudFront := r.format == CloudFront
	if t := strings.TrimLeft(s, " "); t != "" && t[0] == '#' {
		s = t // a directive indented by a hand edit or an exporter
	}
	if s[0] == '#' {
		if rest, ok := cutPrefixFold(s, "#Fields:"); ok {
			st.setFields(rest, cloudFront)
		} else if rest, ok := cutPrefixFold(s, "#GMT-Offset:"); ok {
			st.offset, st.hasOffset = zoneOffset(strings.TrimSpace(rest))
		}
		return false
	}
	if st.roles == nil {
		def := iisDefaultFields
		if cloudFront {
			def = cloudFrontDefaultFields
		}
		st.setFields(def, cloudFront)
		if !st.told {
			st.told = true
			r.report(event.SevInfo, CodeNoFields, "data before any #Fields directive; using the default "+string(r.format)+" fields", "")
		}
	}
	sep := byte(' ')
	if strings.IndexByte(s, '\t') >= 0 {
		sep = '\t'
	}
	vals := splitSep(s, sep, st.vals[:0], len(st.roles))
	if sep == ' ' && (len(vals) != len(st.roles) || s[0] == '"') {
		// Quoted values (IIS Advanced Logging, Incapsula) or columns
		// aligned with runs of spaces (Oracle Web Cache). A plain IIS
		// line that splits right keeps its quotes: a logged
		// Signature-Agent value is a quoted string itself.
		vals = splitW3C(s, vals[:0], len(st.roles))
	}
	st.vals = vals
	if len(vals) != len(st.roles) {
		return r.fail(CodeUnparsedLine, "values do not match the #Fields columns", s)
	}
	return r.w3cRow(s, vals)
}

// splitSep cuts a line at every sep; it stops after more than n values.
func splitSep(s string, sep byte, vals []string, n int) []string {
	for rest := s; ; {
		j := strings.IndexByte(rest, sep)
		if j < 0 {
			vals = append(vals, rest)
			break
		}
		vals = append(vals, rest[:j])
		rest = rest[j+1:]
		if len(vals) > n {
			break
		}
	}
	return vals
}

// splitW3C cuts a line into values separated by runs of spaces, where a
// value may be double-quoted with "" standing for a quote inside (the
// W3C working draft's string syntax). It stops after more than n values.
func splitW3C(s string, vals []string, n int) []string {
	i := 0
	for len(vals) <= n {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] != '"' {
			j := i
			for j < len(s) && s[j] != ' ' {
				j++
			}
			vals = append(vals, s[i:j])
			i = j
			continue
		}
		j, esc := i+1, false
		for j < len(s) {
			if s[j] == '"' {
				if j+1 < len(s) && s[j+1] == '"' {
					esc, j = true, j+2
					continue
				}
				break
			}
			j++
		}
		v := s[i+1 : min(j, len(s))]
		if esc {
			v = strings.ReplaceAll(v, `""`, `"`)
		}
		vals = append(vals, v)
		i = j + 1
	}
	return vals
}

// w3cRow fills the fetch from the values of one data line.
func (r *Reader) w3cRow(s string, vals []string) bool {
	st := &r.w3c
	cloudFront := r.format == CloudFront
	f := &r.fetch
	f.SignatureRecorded = st.haveSig
	var date, clock, stem, query, uri, status, bytes, host, distHost, port string
	for k, v := range vals {
		switch st.roles[k] {
		case roleDate:
			date = v
		case roleTime:
			clock = v
		case roleClientIP:
			f.ClientIP = parseIP(v)
		case roleMethod:
			if !absent(v) {
				f.Method = v
			}
		case roleStem:
			stem = v
		case roleQuery:
			query = v
		case roleURI:
			uri = v
		case roleStatus:
			status = v
		case roleBytes:
			bytes = v
		case roleHost:
			host = v
			addHeader(f, "Host", v)
		case roleDistHost:
			distHost = v
		case roleProtocol:
			f.Scheme = normScheme(v)
		case roleServerPort:
			port = v
		case roleHeader:
			if absent(v) {
				continue
			}
			name := st.names[k]
			v = w3cDecode(name, v, cloudFront)
			switch {
			case strings.EqualFold(name, "User-Agent"):
				f.UserAgent = v
			case strings.EqualFold(name, "Referer"):
				f.Referer = v
			}
			f.Header = append(f.Header, event.Field{Name: name, Value: v})
		}
	}
	t, ok := r.dateTime.parse(date, clock)
	if !ok {
		return r.fail(CodeBadTime, "date and time are not yyyy-mm-dd hh:mm:ss", s)
	}
	switch {
	case st.hasOffset:
		t = t.Add(-time.Duration(st.offset) * time.Second)
	case st.local:
		r.localTime("date-local and time-local are the server's local time and the file gives no #GMT-Offset")
	}
	f.Time = t
	if f.Scheme == "" {
		switch port {
		case "443":
			f.Scheme = "https"
		case "80":
			f.Scheme = "http"
		}
	}
	if absent(host) {
		host = distHost
	}
	f.Host, f.Scheme = normHost(host, f.Scheme)
	switch {
	case !absent(stem):
		f.Target = stem
		if !absent(query) {
			f.Target = stem + "?" + query
		}
	case !absent(uri):
		if uri[0] != '/' && !hasPrefixFold(uri, "http://") && !hasPrefixFold(uri, "https://") {
			// "www.example.com/page.php" (Incapsula): host and path.
			if k := strings.IndexByte(uri, '/'); k > 0 {
				if absent(host) && f.Host == "" {
					f.Host, f.Scheme = normHost(uri[:k], f.Scheme)
				}
				uri = uri[k:]
			}
		}
		r.setTarget(f, uri)
		if !absent(query) && strings.IndexByte(f.Target, '?') < 0 {
			f.Target += "?" + query
		}
	default:
		r.warn(CodeBadRequest, "no cs-uri-stem", s)
	}
	return r.finish(f, status, bytes, s)
}

// w3cDecode undoes a header value's log encoding. CloudFront
// percent-encodes header values; decoding once yields the value as sent
// (a "%2520" in the log was a "%20" on the wire). IIS writes spaces as
// '+' without escaping real '+': see iisUserAgent and iisStructured. Other
// IIS values are kept as logged.
func w3cDecode(name, v string, cloudFront bool) string {
	if cloudFront {
		return percentDecode(v)
	}
	if strings.IndexByte(v, '+') < 0 {
		return v
	}
	switch {
	case strings.EqualFold(name, "User-Agent"):
		return iisUserAgent(v)
	case isSignatureField(name), strings.EqualFold(name, "Signature-Agent"):
		return iisStructured(v)
	}
	return v
}

// iisUserAgent turns IIS's '+' back into spaces, keeping a '+' that starts
// a URL ("+http"), the convention bots use for their info link
// ("(compatible; Googlebot/2.1; +http://www.google.com/bot.html)").
func iisUserAgent(v string) string {
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '+' && !hasPrefixFold(v[i+1:], "http") {
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// iisStructured turns IIS's '+' back into spaces in a structured field
// value (RFC 8941), where a space can only appear outside strings and byte
// sequences and a '+' only inside them (base64 in :...:, or within "..."),
// so the decoding is exact.
func iisStructured(v string) string {
	b := []byte(v)
	inStr, inBytes := false, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inStr && c == '\\':
			i++
		case c == '"' && !inBytes:
			inStr = !inStr
		case c == ':' && !inStr:
			inBytes = !inBytes
		case c == '+' && !inStr && !inBytes:
			b[i] = ' '
		}
	}
	return string(b)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if !hasPrefixFold(s, prefix) {
		return "", false
	}
	return s[len(prefix):], true
}
