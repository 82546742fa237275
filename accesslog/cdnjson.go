package accesslog

import (
	"strings"

	"github.com/repaudit/repaudit/event"
)

// Cloudflare Logpush http_requests dataset (JSON lines). Field names are
// Cloudflare's; the RequestHeaders custom field (a map of lower-case
// header names to values) is read when present.

func parseCloudflare(r *Reader, s string) bool {
	f := &r.fetch
	var ts jsonValue
	var ip, host, uri, path, scheme, ua, referer, status, size string
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		switch k.str() {
		case "EdgeStartTimestamp":
			ts = v
		case "ClientIP":
			ip = v.str()
		case "ClientRequestHost":
			host = v.str()
		case "ClientRequestURI":
			uri = v.str()
		case "ClientRequestPath":
			path = v.str()
		case "ClientRequestMethod":
			f.Method = v.str()
		case "ClientRequestScheme":
			scheme = v.str()
		case "ClientRequestUserAgent":
			ua = v.str()
		case "ClientRequestReferer":
			referer = v.str()
		case "EdgeResponseStatus":
			status = v.str()
		case "EdgeResponseBytes":
			size = v.str()
		case "VerifiedBotCategory":
			f.CDNVerifiedBot = v.str()
		case "RequestHeaders":
			if !r.addCDNHeaders(f, v) {
				return r.fail(CodeUnparsedLine, "malformed RequestHeaders", s)
			}
		}
	}
	if it.bad {
		return r.fail(CodeUnparsedLine, "malformed JSON object", s)
	}
	t, ok := jsonTime(ts)
	if !ok {
		return r.fail(CodeBadTime, "no readable EdgeStartTimestamp", s)
	}
	f.Time = t
	f.ClientIP = parseIP(ip)
	f.Host, f.Scheme = normHost(host, normScheme(scheme))
	if absent(uri) {
		uri = path
	}
	if absent(uri) {
		r.warn(CodeBadRequest, "no ClientRequestURI", s)
	} else {
		r.setTarget(f, uri)
	}
	if !absent(ua) {
		f.UserAgent = ua
	}
	if !absent(referer) {
		f.Referer = referer
	}
	addMissingHeader(f, "Host", host)
	addMissingHeader(f, "User-Agent", f.UserAgent)
	addMissingHeader(f, "Referer", f.Referer)
	return r.finish(f, status, size, s)
}

// addMissingHeader appends a field the format logs on its own, unless a
// header map on the same line already carried it.
func addMissingHeader(f *event.Fetch, name, value string) {
	if absent(value) || f.Header.Has(name) {
		return
	}
	f.Header = append(f.Header, event.Field{Name: name, Value: value})
}

// Fastly has no fixed log format: customers write a JSON template in VCL.
// These are the key names of Fastly's documented JSON examples and their
// common variants (see docs/semantics.md for the full list).

func parseFastly(r *Reader, s string) bool {
	f := &r.fetch
	var ts jsonValue
	var ip, host, url, path, query, request, scheme, tls, status, size string
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		switch key := k.str(); key {
		case "timestamp", "time", "time_start", "start_time":
			if ts.kind == jsonInvalid {
				ts = v
			}
		case "client_ip", "ip", "remote_addr":
			ip = v.str()
		case "host", "request_host":
			host = v.str()
		case "url", "request_url", "uri", "request_uri":
			url = v.str()
		case "path", "url_path":
			path = v.str()
		case "query", "query_string":
			query = v.str()
		case "request_method", "method":
			f.Method = v.str()
		case "request":
			request = v.str()
		case "scheme", "request_scheme":
			scheme = v.str()
		case "is_tls", "tls":
			tls = v.str()
		case "response_status", "status":
			status = v.str()
		case "response_body_size", "body_size", "response_bytes", "bytes":
			size = v.str()
		case "request_user_agent", "user_agent", "useragent":
			f.UserAgent = v.str()
		case "request_referer", "referer", "referrer":
			f.Referer = v.str()
		case "request_headers":
			if !r.addCDNHeaders(f, v) {
				return r.fail(CodeUnparsedLine, "malformed request_headers", s)
			}
		case "signature", "signature_input", "signature_agent":
			name, sig := r.headerName(key)
			if sig {
				f.SignatureRecorded = true
			}
			addHeader(f, name, v.str())
		}
	}
	if it.bad {
		return r.fail(CodeUnparsedLine, "malformed JSON object", s)
	}
	t, ok := jsonTime(ts)
	if !ok {
		return r.fail(CodeBadTime, "no readable timestamp", s)
	}
	f.Time = t
	f.ClientIP = parseIP(ip)
	f.Scheme = normScheme(scheme)
	if f.Scheme == "" {
		switch strings.ToLower(tls) {
		case "true", "1":
			f.Scheme = "https"
		case "false", "0":
			f.Scheme = "http"
		}
	}
	f.Host, f.Scheme = normHost(host, f.Scheme)
	r.fastlyRequest(f, url, path, query, request, s)
	blankAbsent(&f.UserAgent)
	blankAbsent(&f.Referer)
	addMissingHeader(f, "Host", host)
	addMissingHeader(f, "User-Agent", f.UserAgent)
	addMissingHeader(f, "Referer", f.Referer)
	return r.finishPlaceholders(f, status, size, s)
}

// fastlyRequest sets f's target from url, else path and query, and the
// method from request (a request line, or only a method).
func (r *Reader) fastlyRequest(f *event.Fetch, url, path, query, request, s string) {
	switch {
	case !absent(url):
		r.setTarget(f, url)
	case !absent(path):
		f.Target = path
		if !absent(query) {
			if query[0] != '?' {
				f.Target += "?"
			}
			f.Target += query
		}
	}
	if !absent(request) {
		if strings.IndexByte(request, ' ') >= 0 {
			target := f.Target
			r.setRequest(f, request, s)
			if target != "" {
				f.Target = target
			}
		} else if f.Method == "" {
			f.Method = request // Fastly's own example logs the method as "request"
		}
	}
	if f.Target == "" {
		r.warn(CodeBadRequest, "no url", s)
	}
}

// addCDNHeaders adds a CDN log's map of request headers (Cloudflare
// RequestHeaders, Fastly request_headers) to f; when it carries a
// signature field, the source records them. A value that is not an object
// is ignored; false means a malformed object.
func (r *Reader) addCDNHeaders(f *event.Fetch, v jsonValue) bool {
	if v.kind != jsonObject {
		return true
	}
	if !r.addHeaderMap(f, v.raw, 1) {
		return false
	}
	for _, h := range f.Header {
		if isSignatureField(h.Name) {
			f.SignatureRecorded = true
		}
	}
	return true
}
