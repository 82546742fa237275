package event

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ASCIIHost returns host[:port] with an internationalized host name in
// its ASCII form (IDNA, UTS #46 lookup mapping: "münchen.example"
// becomes "xn--mnchen-3ya.example"), so that one host has one name
// whether a log, a WARC or a URL wrote it in Unicode or in Punycode, as
// robots.txt is fetched by the ASCII name (RFC 9309 §2.3, RFC 3986
// §3.2.2). A host all ASCII, an IP literal, invalid UTF-8 or a name IDNA rejects is
// returned unchanged. The caller lower-cases.
func ASCIIHost(hostport string) string {
	ascii := true
	for i := 0; i < len(hostport); i++ {
		if hostport[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii || strings.HasPrefix(hostport, "[") || !utf8.ValidString(hostport) {
		return hostport
	}
	name, port := hostport, ""
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		name, port = hostport[:i], hostport[i:]
	}
	a, err := idna.Lookup.ToASCII(name)
	if err != nil || a == "" {
		return hostport
	}
	return strings.ToLower(a) + port
}
