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
	for _, r := range formatTable {
		if r.sniff != nil && r.sniff(s) {
			return r.format
		}
	}
	return classifyCLF(s)
}

// isALBLine reports whether a line starts like an ALB line: its type,
// then an ISO 8601 time.
func isALBLine(s string) bool {
	t, i := token(s, 0)
	if !isALBType(t) {
		return false
	}
	ts, _ := token(s, i)
	if len(ts) < 19 {
		return false
	}
	_, ok := parseISOTime(ts)
	return ok
}

// Closest names the format most sample lines look like, loosely: lines
// that classify exactly count first; otherwise a line counts for the
// format whose outline it has (a JSON object, a "#Fields:" directive, a
// bracketed time and a quoted request) even when its fields do not read.
// It returns "" when no line has the outline of any format.
func Closest(lines [][]byte) (Format, int) {
	votes := make(map[Format]int)
	for _, l := range lines {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		s := string(l)
		f := Format("")
		if s[0] != '#' {
			f = classifyLine(s)
		}
		if f == "" {
			f = outline(s)
		}
		if f != "" {
			votes[f]++
		}
	}
	best, bestN := Format(""), 0
	for _, f := range allFormats {
		if votes[f] > bestN {
			best, bestN = f, votes[f]
		}
	}
	return best, bestN
}

// outline guesses a format from the rough shape of a line.
func outline(s string) Format {
	switch {
	case strings.HasPrefix(s, "{"):
		return NginxJSON
	case hasPrefixFold(s, "#Fields:"):
		return W3C
	case strings.Contains(s, "[") && strings.Contains(s, "]") && strings.Count(s, `"`) >= 2:
		if isHAProxyLine(s) || strings.Contains(s, "haproxy[") {
			return HAProxy
		}
		return Combined
	}
	return ""
}

func isALBType(t string) bool {
	switch t {
	case "http", "https", "h2", "grpcs", "ws", "wss":
		return true
	}
	return false
}

// classifyCLF recognises "%h %l %u [time] "request" status bytes", with an
// optional leading virtual host, a client field that may be an
// X-Forwarded-For list, and optional quoted referer and user agent.
func classifyCLF(s string) Format {
	i := timeOpen(s)
	if i < 0 {
		return ""
	}
	var g [maxGroups]span
	n := splitGroups(s[:i], g[:])
	if n < 3 || n > maxGroups {
		return ""
	}
	// Three groups: client, %l, %u. More: a virtual host first (a plain
	// token), or a client field of several groups (an X-Forwarded-For
	// list, quoted or with commas, then the remote address).
	vhost := false
	if n > 3 {
		g0 := s[g[0].start:g[0].end]
		vhost = g0[0] != '"' && strings.IndexByte(g0, ',') < 0
		first := 0
		if vhost {
			first = 1
		}
		if chainEnd(s, g[:n], first) != n-3 {
			return ""
		}
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
	if vhost {
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
	votes := map[Format]int{}
	hasRequestObj := false
	it := iterJSON(s, 0, '{')
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		key := k.str()
		if key == "request" && v.kind == jsonObject {
			hasRequestObj = true
		}
		if f := jsonVote(key); f != "" {
			votes[f]++
		}
	}
	if it.bad {
		return ""
	}
	nginx, caddy, cloudflare := votes[NginxJSON], votes[CaddyJSON], votes[CloudflareJSON]
	fastly, traefik, matomo := votes[FastlyJSON], votes[TraefikJSON], votes[MatomoJSON]
	if hasRequestObj && caddy > 0 {
		return CaddyJSON
	}
	switch {
	case traefik >= 3:
		return TraefikJSON
	case matomo >= 4 && nginx == 0:
		return MatomoJSON
	case cloudflare >= 2 && cloudflare >= nginx && cloudflare >= fastly:
		return CloudflareJSON
	case nginx >= 2 && nginx >= fastly:
		return NginxJSON
	case fastly >= 2:
		return FastlyJSON
	}
	return ""
}
