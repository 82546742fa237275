package accesslog

import (
	"strings"
	"time"
)

// nginx JSON lines: a log_format that writes one JSON object per request,
// its keys named after the nginx variables they hold (see docs/semantics.md).
// Every "http_*" key is a request header: http_signature_input becomes
// Signature-Input.

const maxNameCache = 256

func parseNginxJSON(r *Reader, s string) bool {
	f := &r.fetch
	var msec, iso, local, addr, method, requestURI, request, uri, args string
	var status, bodyBytes, httpHost, host, scheme, https, port string
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		key := k.str()
		switch key {
		case "msec":
			msec = v.str()
		case "time_iso8601":
			iso = v.str()
		case "time_local":
			local = v.str()
		case "remote_addr":
			addr = v.str()
		case "request_method":
			method = v.str()
		case "request_uri":
			requestURI = v.str()
		case "request":
			request = v.str()
		case "uri":
			uri = v.str()
		case "args", "query_string":
			args = v.str()
		case "status":
			status = v.str()
		case "body_bytes_sent":
			bodyBytes = v.str()
		case "host":
			host = v.str()
		case "scheme":
			scheme = v.str()
		case "https":
			https = v.str()
		case "server_port":
			port = v.str()
		default:
			if len(key) > 5 && strings.HasPrefix(key, "http_") {
				name, sig := r.headerName(key[5:])
				if sig {
					f.SignatureRecorded = true
				}
				val := v.str()
				addHeader(f, name, val)
				switch key {
				case "http_host":
					httpHost = val
				case "http_user_agent":
					f.UserAgent = val
				case "http_referer":
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
	switch {
	case !absent(msec):
		t, ok = parseUnixTime(msec)
	case !absent(iso):
		t, ok = parseISOTime(iso)
	case !absent(local):
		t, ok = r.clfTime.parse(strings.Trim(local, "[]"))
	}
	if !ok {
		return r.fail(CodeBadTime, "no readable msec, time_iso8601 or time_local", s)
	}
	f.Time = t
	blankAbsent(&f.UserAgent)
	blankAbsent(&f.Referer)
	f.ClientIP = parseIP(addr)

	f.Scheme = normScheme(scheme)
	if f.Scheme == "" && strings.EqualFold(https, "on") {
		f.Scheme = "https"
	}
	if absent(httpHost) {
		httpHost = host
	}
	f.Host, f.Scheme = normHost(httpHost, f.Scheme)
	if f.Scheme == "" {
		switch port {
		case "443":
			f.Scheme = "https"
		case "80":
			f.Scheme = "http"
		}
	}

	switch {
	case !absent(requestURI):
		f.Method = method
		r.setTarget(f, requestURI)
	case !absent(request):
		r.setRequest(f, request, s)
		if f.Method == "" && !absent(method) {
			f.Method = method
		}
	case !absent(uri):
		f.Method = method
		f.Target = uri
		if !absent(args) {
			f.Target = uri + "?" + args
		}
	default:
		f.Method = method
		r.warn(CodeBadRequest, "no request_uri, request or uri", s)
	}
	return r.finishPlaceholders(f, status, bodyBytes, s)
}

// headerName turns an nginx variable suffix ("signature_input") into a
// header name ("Signature-Input"): underscores to hyphens, each word
// capitalised. sig reports a signature field (isSignatureField). Results
// are cached per Reader.
func (r *Reader) headerName(v string) (name string, sig bool) {
	if n, ok := r.names[v]; ok {
		return n.name, n.sig
	}
	b := []byte(v)
	up := true
	for i, c := range b {
		switch {
		case c == '_' || c == '-':
			b[i] = '-'
			up = true
			continue
		case up && c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !up && c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		up = false
	}
	n := headerNameInfo{name: string(b)}
	n.sig = isSignatureField(n.name)
	if r.names == nil {
		r.names = make(map[string]headerNameInfo)
	}
	if len(r.names) < maxNameCache {
		r.names[strings.Clone(v)] = n
	}
	return n.name, n.sig
}

type headerNameInfo struct {
	name string
	sig  bool
}
