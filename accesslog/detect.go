package accesslog

import (
	"bytes"
	"strings"
)

// Detect guesses the format of a log from sample lines (blank lines are
// ignored). A "#Fields:" directive decides between W3C and CloudFront
// (CloudFront's name x-edge-* columns). Otherwise each line is classified
// on its own: JSON objects by their keys, ALB lines by their type and ISO
// time, Apache/nginx text lines by their shape. ok is false unless one
// format takes a strict majority of the lines that are not directives.
// Combined and common lines count together (combined wins when any line
// has a user agent), since one parser reads both.
func Detect(lines [][]byte) (Format, bool) {
	votes := make(map[Format]int)
	n := 0
	for _, l := range lines {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if l[0] == '#' {
			if rest, ok := cutPrefixFold(string(l), "#Fields:"); ok {
				if strings.Contains(rest, "x-edge-") {
					return CloudFront, true
				}
				return W3C, true
			}
			continue
		}
		n++
		if f := classifyLine(string(l)); f != "" {
			votes[f]++
		}
	}
	if n == 0 {
		return "", false
	}
	if c := votes[Combined] + votes[Common]; c > 0 {
		if votes[Combined] > 0 {
			votes[Combined] = c
			delete(votes, Common)
		}
	}
	best, bestN := Format(""), 0
	for _, f := range allFormats {
		if votes[f] > bestN {
			best, bestN = f, votes[f]
		}
	}
	if bestN*2 <= n {
		return "", false
	}
	return best, true
}

// classifyLine names the format one line looks like, or "".
func classifyLine(s string) Format {
	if s[0] == '{' {
		return classifyJSON(s)
	}
	if t, i := token(s, 0); isALBType(t) {
		if ts, _ := token(s, i); len(ts) >= 19 {
			if _, ok := parseISOTime(ts); ok {
				return ALB
			}
		}
	}
	return classifyCLF(s)
}

func isALBType(t string) bool {
	switch t {
	case "http", "https", "h2", "grpcs", "ws", "wss":
		return true
	}
	return false
}

// classifyCLF recognises "%h %l %u [time] "request" status bytes", with an
// optional leading virtual host and optional quoted referer and user
// agent.
func classifyCLF(s string) Format {
	i, toks := 0, 0
	for toks < 5 {
		i = skipSpace(s, i)
		if i >= len(s) || s[i] == '[' {
			break
		}
		_, i = token(s, i)
		toks++
	}
	if i >= len(s) || s[i] != '[' || (toks != 3 && toks != 4) {
		return ""
	}
	end := strings.IndexByte(s[i:], ']')
	if end < 0 {
		return ""
	}
	if _, ok := parseCLFTime(s[i+1 : i+end]); !ok {
		return ""
	}
	i = skipSpace(s, i+end+1)
	if i >= len(s) || s[i] != '"' {
		return ""
	}
	_, _, i, ok := quoted(s, i)
	if !ok {
		return ""
	}
	status, i := token(s, i)
	size, i := token(s, i)
	if _, ok := atoi(status, 999); !ok && status != "-" {
		return ""
	}
	if _, ok := atoi(size, 1<<62); !ok && size != "-" {
		return ""
	}
	if toks == 4 {
		return VhostCombined
	}
	i = skipSpace(s, i)
	if i < len(s) && s[i] == '"' {
		return Combined
	}
	return Common
}

// classifyJSON names a JSON format by the keys of the object.
func classifyJSON(s string) Format {
	var nginx, caddy, cloudflare, fastly int
	hasRequestObj := false
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		switch key := k.str(); key {
		case "remote_addr", "time_local", "time_iso8601", "request_uri", "body_bytes_sent",
			"http_user_agent", "http_referer", "http_host", "msec", "request_time":
			nginx++
		case "ts", "logger", "msg", "resp_headers", "duration", "bytes_read", "user_id":
			caddy++
		case "request":
			if v.kind == jsonObject {
				hasRequestObj = true
			}
		case "client_ip", "response_status", "request_user_agent", "response_body_size",
			"request_referer", "fastly_server", "response_reason", "is_tls":
			fastly++
		default:
			if strings.HasPrefix(key, "ClientRequest") || strings.HasPrefix(key, "Edge") ||
				key == "ClientIP" || key == "RayID" || key == "VerifiedBotCategory" {
				cloudflare++
			}
		}
	}
	if it.bad {
		return ""
	}
	if hasRequestObj && caddy > 0 {
		return CaddyJSON
	}
	switch {
	case cloudflare >= 2 && cloudflare >= nginx && cloudflare >= fastly:
		return CloudflareJSON
	case nginx >= 2 && nginx >= fastly:
		return NginxJSON
	case fastly >= 2:
		return FastlyJSON
	}
	return ""
}
