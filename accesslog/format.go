package accesslog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Format names an access log format. The string values are what users type
// (for example with a --log-format flag) and what event.Fetch.Format holds.
type Format string

// The formats this package reads. docs/semantics.md says which fields of each map
// to which event.Fetch fields.
const (
	Combined       Format = "combined"        // Apache/nginx combined
	Common         Format = "common"          // Apache Common Log Format
	VhostCombined  Format = "vhost_combined"  // Apache: "%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\"" (also "%v %h ...")
	NginxJSON      Format = "nginx-json"      // JSON lines, keys = nginx variable names
	CaddyJSON      Format = "caddy-json"      // Caddy structured access log
	CloudFront     Format = "cloudfront"      // AWS CloudFront standard logs (W3C #Fields:, tab-separated)
	ALB            Format = "alb"             // AWS Application Load Balancer
	CloudflareJSON Format = "cloudflare-json" // Cloudflare Logpush http_requests
	FastlyJSON     Format = "fastly-json"     // Fastly JSON logging endpoint, common shapes
	W3C            Format = "w3c"             // IIS / W3C extended (#Fields:, space-separated, quoted or aligned)
	ELBClassic     Format = "elb-classic"     // AWS Classic Load Balancer
	S3             Format = "s3"              // Amazon S3 server access logs
	HAProxy        Format = "haproxy"         // HAProxy HTTP logs (option httplog), with or without a syslog prefix
	TraefikJSON    Format = "traefik-json"    // Traefik access log, JSON format
	MatomoJSON     Format = "matomo-json"     // the nginx JSON shape Matomo's log analytics recommends
)

// ErrUnknownFormat is returned (wrapped, naming the file) when the format
// of an input cannot be detected or a format name is not known.
var ErrUnknownFormat = errors.New("accesslog: unknown log format")

// Formats returns every supported format, in a fixed order.
func Formats() []Format {
	return append([]Format(nil), allFormats...)
}

// ParseFormat maps a user-supplied name to a Format. Matching ignores case
// and treats '_' and '-' alike ("vhost-combined", "NGINX_JSON"); a few
// common aliases are accepted: "clf" (common), "iis" (w3c), "elb" (alb),
// "classic-elb" (elb-classic), "traefik" (traefik-json), "matomo"
// (matomo-json), "nginx" (combined), "apache" (combined).
func ParseFormat(s string) (Format, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.ReplaceAll(n, "_", "-")
	for _, r := range formatTable {
		if n == strings.ReplaceAll(string(r.format), "_", "-") {
			return r.format, nil
		}
	}
	for _, r := range formatTable {
		if slices.Contains(r.aliases, n) {
			return r.format, nil
		}
	}
	return "", fmt.Errorf("%w %q (known: %s)", ErrUnknownFormat, s, formatList())
}

func formatList() string {
	var b strings.Builder
	for i, f := range allFormats {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(f))
	}
	return b.String()
}
