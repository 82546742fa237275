package accesslog

import (
	"strings"
	"time"
)

// Traefik JSON access logs (accessLog.format: json): one object per
// request with Traefik's own keys. ClientHost is the client address,
// RequestHost/RequestMethod/RequestPath/RequestScheme the request,
// DownstreamStatus and DownstreamContentSize what the client got,
// StartUTC the time. Request headers kept by the accessLog.fields.headers
// configuration appear as "request_<Name>" keys; Signature and
// Signature-Input count as recorded only when such a key is present.

func parseTraefik(r *Reader, s string) bool {
	f := &r.fetch
	var start, startLocal, tm, clientHost, clientAddr, method, path, host, scheme, status, size string
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		switch key := k.str(); key {
		case "StartUTC":
			start = v.str()
		case "StartLocal":
			startLocal = v.str()
		case "time":
			tm = v.str()
		case "ClientHost":
			clientHost = v.str()
		case "ClientAddr":
			clientAddr = v.str()
		case "RequestMethod":
			method = v.str()
		case "RequestPath":
			path = v.str()
		case "RequestHost":
			host = v.str()
		case "RequestScheme":
			scheme = v.str()
		case "DownstreamStatus":
			status = v.str()
		case "DownstreamContentSize":
			size = v.str()
		default:
			if name, ok := strings.CutPrefix(key, "request_"); ok && name != "" {
				val := v.str()
				if isSignatureField(name) {
					f.SignatureRecorded = true
				}
				addHeader(f, name, val)
				switch {
				case strings.EqualFold(name, "User-Agent"):
					f.UserAgent = val
				case strings.EqualFold(name, "Referer"):
					f.Referer = val
				}
			}
		}
	}
	if it.bad {
		return r.fail(CodeUnparsedLine, "malformed JSON object", s)
	}
	var t time.Time
	ok := false
	for _, c := range []string{start, startLocal, tm} {
		if !absent(c) {
			if t, ok = parseISOTime(c); ok {
				break
			}
		}
	}
	if !ok {
		return r.fail(CodeBadTime, "no readable StartUTC, StartLocal or time", s)
	}
	f.Time = t
	blankAbsent(&f.UserAgent)
	blankAbsent(&f.Referer)
	f.ClientIP = parseIP(clientHost)
	if !f.ClientIP.IsValid() {
		f.ClientIP = parseIPPort(clientAddr)
	}
	f.Host, f.Scheme = normHost(host, normScheme(scheme))
	addMissingHeader(f, "Host", f.Host)
	if !absent(method) {
		f.Method = method
	}
	if absent(path) {
		r.warn(CodeBadRequest, "no RequestPath", s)
	} else {
		r.setTarget(f, path)
	}
	return r.finishPlaceholders(f, status, size, s)
}

// parseMatomoJSON reads the JSON shape Matomo's log analytics recommends
// for nginx (log_format matomo with escape=json): "ip", "host", "path",
// "status", "referrer", "user_agent", "length", "date" (ISO 8601), and
// optionally "idsite" and "generation_time_milli", which are ignored.
func parseMatomoJSON(r *Reader, s string) bool {
	f := &r.fetch
	var ip, host, path, status, length, date, method string
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		switch k.str() {
		case "ip":
			ip = v.str()
		case "host":
			host = v.str()
		case "path":
			path = v.str()
		case "status":
			status = v.str()
		case "referrer":
			f.Referer = v.str()
		case "user_agent":
			f.UserAgent = v.str()
		case "length":
			length = v.str()
		case "date":
			date = v.str()
		case "method":
			method = v.str()
		}
	}
	if it.bad {
		return r.fail(CodeUnparsedLine, "malformed JSON object", s)
	}
	t, ok := parseISOTime(date)
	if !ok {
		return r.fail(CodeBadTime, "date is not ISO 8601", s)
	}
	f.Time = t
	blankAbsent(&f.UserAgent)
	blankAbsent(&f.Referer)
	f.ClientIP = parseIP(ip)
	f.Host, f.Scheme = normHost(host, "")
	addHeader(f, "Host", f.Host)
	addHeader(f, "User-Agent", f.UserAgent)
	addHeader(f, "Referer", f.Referer)
	if !absent(method) {
		f.Method = method
	}
	if absent(path) {
		r.warn(CodeBadRequest, "no path", s)
	} else {
		r.setTarget(f, path)
	}
	return r.finishPlaceholders(f, status, length, s)
}
