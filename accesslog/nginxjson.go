package accesslog

import (
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// nginx JSON lines: a log_format that writes one JSON object per request,
// its keys named after the nginx variables they hold (see docs/semantics.md).
// Every "http_*" key is a request header: http_signature_input becomes
// Signature-Input.

const maxNameCache = 256

// nginxFields are the values of an nginx JSON line that are not headers.
type nginxFields struct {
	msec, iso, local, addr, method, requestURI, request, uri, args string
	status, bodyBytes, httpHost, host, scheme, https, port         string
}

func parseNginxJSON(r *Reader, s string) bool {
	f := &r.fetch
	var n nginxFields
	if !r.nginxKeys(&n, s) {
		return r.fail(CodeUnparsedLine, "malformed JSON object", s)
	}
	var t time.Time
	ok := false
	switch {
	case !absent(n.msec):
		t, ok = parseUnixTime(n.msec)
	case !absent(n.iso):
		t, ok = parseISOTime(n.iso)
	case !absent(n.local):
		t, ok = r.clfTime.parse(strings.Trim(n.local, "[]"))
	}
	if !ok {
		return r.fail(CodeBadTime, "no readable msec, time_iso8601 or time_local", s)
	}
	f.Time = t
	blankAbsent(&f.UserAgent)
	blankAbsent(&f.Referer)
	f.ClientIP = parseIP(n.addr)
	n.setHost(f)
	r.nginxRequest(&n, s)
	return r.finishPlaceholders(f, n.status, n.bodyBytes, s)
}

// nginxKeys reads the keys of line s into n and the headers into
// r.fetch; false when s is not a well-formed JSON object.
func (r *Reader) nginxKeys(n *nginxFields, s string) bool {
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		key := k.str()
		switch key {
		case "msec":
			n.msec = v.str()
		case "time_iso8601":
			n.iso = v.str()
		case "time_local":
			n.local = v.str()
		case "remote_addr":
			n.addr = v.str()
		case "request_method":
			n.method = v.str()
		case "request_uri":
			n.requestURI = v.str()
		case "request":
			n.request = v.str()
		case "uri":
			n.uri = v.str()
		case "args", "query_string":
			n.args = v.str()
		case "status":
			n.status = v.str()
		case "body_bytes_sent":
			n.bodyBytes = v.str()
		case "host":
			n.host = v.str()
		case "scheme":
			n.scheme = v.str()
		case "https":
			n.https = v.str()
		case "server_port":
			n.port = v.str()
		default:
			if len(key) > 5 && strings.HasPrefix(key, "http_") {
				r.nginxHeader(n, key, v.str())
			}
		}
	}
	return !it.bad
}

// nginxHeader adds the request header of the "http_*" key.
func (r *Reader) nginxHeader(n *nginxFields, key, val string) {
	f := &r.fetch
	name, sig := r.headerName(key[5:])
	if sig {
		f.SignatureRecorded = true
	}
	addHeader(f, name, val)
	switch key {
	case "http_host":
		n.httpHost = val
	case "http_user_agent":
		f.UserAgent = val
	case "http_referer":
		f.Referer = val
	}
}

// setHost sets f's host and scheme: from $scheme, else $https, else the
// port; the host from the Host header, else $host.
func (n *nginxFields) setHost(f *event.Fetch) {
	f.Scheme = normScheme(n.scheme)
	if f.Scheme == "" && strings.EqualFold(n.https, "on") {
		f.Scheme = "https"
	}
	httpHost := n.httpHost
	if absent(httpHost) {
		httpHost = n.host
	}
	f.Host, f.Scheme = normHost(httpHost, f.Scheme)
	if f.Scheme == "" {
		switch n.port {
		case "443":
			f.Scheme = "https"
		case "80":
			f.Scheme = "http"
		}
	}
}

// nginxRequest sets the method and target: from $request_uri, else
// $request, else $uri and $args.
func (r *Reader) nginxRequest(n *nginxFields, s string) {
	f := &r.fetch
	switch {
	case !absent(n.requestURI):
		f.Method = n.method
		r.setTarget(f, n.requestURI)
	case !absent(n.request):
		r.setRequest(f, n.request, s)
		if f.Method == "" && !absent(n.method) {
			f.Method = n.method
		}
	case !absent(n.uri):
		f.Method = n.method
		f.Target = n.uri
		if !absent(n.args) {
			f.Target = n.uri + "?" + n.args
		}
	default:
		f.Method = n.method
		r.warn(CodeBadRequest, "no request_uri, request or uri", s)
	}
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
