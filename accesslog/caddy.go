package accesslog

import (
	"time"

	"github.com/repaudit/repaudit/event"
)

// Caddy's structured access log (the "http.log.access" logger, JSON
// encoder): one object per request with "ts", "status", "size" and a
// "request" object holding remote_ip, client_ip, proto, method, host, uri,
// headers (name -> array of values) and tls (present for HTTPS).

func parseCaddy(r *Reader, s string) bool {
	f := &r.fetch
	var ts jsonValue
	var request, status, size string
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		switch k.str() {
		case "ts":
			ts = v
		case "request":
			if v.kind == jsonObject {
				request = v.raw
			}
		case "status":
			status = v.str()
		case "size":
			size = v.str()
		}
	}
	if it.bad {
		return r.fail(CodeUnparsedLine, "malformed JSON object", s)
	}
	t, ok := jsonTime(ts)
	if !ok {
		return r.fail(CodeBadTime, "no readable ts", s)
	}
	f.Time = t
	if request == "" {
		return r.fail(CodeUnparsedLine, "no request object", s)
	}
	var remoteIP, clientIP, host string
	tls := false
	rit := iterJSON(request, 1, '{')
	for {
		k, v, ok := rit.next()
		if !ok {
			break
		}
		switch k.str() {
		case "remote_ip", "remote_addr":
			remoteIP = v.str()
		case "client_ip":
			clientIP = v.str()
		case "method":
			f.Method = v.str()
		case "host":
			host = v.str()
		case "uri":
			f.Target = v.str()
		case "tls":
			tls = v.kind == jsonObject
		case "headers":
			if v.kind != jsonObject {
				break
			}
			f.SignatureRecorded = true
			if !r.addHeaderMap(f, v.raw, 2) {
				return r.fail(CodeUnparsedLine, "malformed request.headers", s)
			}
		}
	}
	if rit.bad {
		return r.fail(CodeUnparsedLine, "malformed request object", s)
	}
	if clientIP == "" {
		clientIP = remoteIP
	}
	f.ClientIP = parseIPPort(clientIP)
	f.Scheme = "http"
	if tls {
		f.Scheme = "https"
	}
	f.Host, f.Scheme = normHost(host, f.Scheme)
	if f.Host != "" && !f.Header.Has("Host") {
		// Go's server moves Host out of the header map; put it back first.
		f.Header = append(f.Header, event.Field{})
		copy(f.Header[1:], f.Header)
		f.Header[0] = event.Field{Name: "Host", Value: host}
	}
	f.UserAgent = f.Header.Get("User-Agent")
	f.Referer = f.Header.Get("Referer")
	blankAbsent(&f.Method)
	return r.finish(f, status, size, s)
}

// addHeaderMap appends the fields of a JSON object mapping header names to
// a string or an array of strings. depth is the object's nesting level.
func (r *Reader) addHeaderMap(f *event.Fetch, obj string, depth int) bool {
	it := iterJSON(obj, depth, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		name := k.str()
		switch v.kind {
		case jsonArray:
			ait := iterJSON(v.raw, depth+1, '[')
			for {
				_, e, ok := ait.next()
				if !ok {
					break
				}
				if e.kind == jsonString {
					f.Header = append(f.Header, event.Field{Name: name, Value: e.str()})
				}
			}
			if ait.bad {
				return false
			}
		case jsonString:
			f.Header = append(f.Header, event.Field{Name: name, Value: v.str()})
		}
	}
	return !it.bad
}

// jsonTime reads a timestamp that is a JSON number or string: Unix time
// (see parseUnixTime), RFC 3339, or the CLF layout.
func jsonTime(v jsonValue) (time.Time, bool) {
	s := v.str()
	if absent(s) {
		return time.Time{}, false
	}
	if t, ok := parseUnixTime(s); ok {
		return t, true
	}
	if t, ok := parseISOTime(s); ok {
		return t, true
	}
	if len(s) == 28 && s[0] == '[' && s[27] == ']' {
		s = s[1:27]
	}
	return parseCLFTime(s)
}
