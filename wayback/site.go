package wayback

import (
	"fmt"
	"net/url"
	"strings"
)

// SiteURL reads a site named as a URL with scheme http or https, or as a
// bare host (https is assumed), and returns its origin: scheme and host
// only, the host lower-cased (RFC 3986 §3.2.2: hosts are
// case-insensitive) and the scheme's default port dropped (§6.2.3). A
// URL with user information is refused.
func SiteURL(s string) (*url.URL, error) {
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return nil, fmt.Errorf("%q is not a site URL such as https://example.com", s)
	}
	return &url.URL{Scheme: u.Scheme, Host: strings.ToLower(stripDefaultPort(u.Scheme, u.Host))}, nil
}

func stripDefaultPort(scheme, host string) string {
	switch {
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		return strings.TrimSuffix(host, ":80")
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		return strings.TrimSuffix(host, ":443")
	}
	return host
}
