package accesslog

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// jsonEscape escapes a value as nginx escape=json does (standard JSON).
func jsonEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return r.Replace(s)
}

func TestNginxJSON(t *testing.T) {
	n := Options{Format: NginxJSON}
	signed := hdr("Host", "Example.com:443", "User-Agent", "Bot/1.0", "Signature", sigValue,
		"Signature-Input", sigInput, "Signature-Agent", sigAgent)
	runReadCases(t, []readCase{
		{
			name: "escape=json with signature headers",
			opts: n,
			in: `{"time_iso8601":"2024-05-01T12:00:00+02:00","remote_addr":"2001:db8::5","request_method":"GET","request_uri":"/a?b=1","status":"200","body_bytes_sent":"1234","http_referer":"","http_host":"Example.com:443","scheme":"https","http_user_agent":"Bot/1.0","http_signature":"` +
				jsonEscape(sigValue) + `","http_signature_input":"` + jsonEscape(sigInput) + `","http_signature_agent":"` + jsonEscape(sigAgent) + `"}` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T10:00:00Z"), ClientIP: ip("2001:db8::5"), Method: "GET",
				Scheme: "https", Host: "example.com", Target: "/a?b=1", Status: 200, Bytes: 1234,
				UserAgent: "Bot/1.0", Header: signed, SignatureRecorded: true,
				Format: "nginx-json", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "default escaping writes \\x22 inside JSON",
			opts: n,
			in: `{"time_local":"01/May/2024:12:00:00 +0200","remote_addr":"192.0.2.1","request":"GET /a?b=1 HTTP/1.1","status":"200","body_bytes_sent":"1234","http_host":"Example.com:443","scheme":"https","http_user_agent":"Bot/1.0","http_signature":"` +
				nginxEscape(sigValue) + `","http_signature_input":"` + nginxEscape(sigInput) + `","http_signature_agent":"` + nginxEscape(sigAgent) + `"}` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T10:00:00Z"), ClientIP: ip("192.0.2.1"), Method: "GET",
				Scheme: "https", Host: "example.com", Target: "/a?b=1", Status: 200, Bytes: 1234,
				UserAgent: "Bot/1.0", Header: hdr("Host", "Example.com:443", "User-Agent", "Bot/1.0", "Signature", sigValue,
					"Signature-Input", sigInput, "Signature-Agent", sigAgent),
				SignatureRecorded: true, Format: "nginx-json", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "msec, numbers, absent values, extra headers, host fallback",
			opts: n,
			in:   `{"msec": 1714564800.125, "remote_addr": "-", "request_uri": "/", "request_method": "GET", "status": 404, "body_bytes_sent": 0, "host": "example.net", "server_port": "80", "http_x_forwarded_for": "203.0.113.9, 10.0.0.1", "http_signature": "-", "http_signature_input": "", "http_user_agent": "-"}` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T12:00:00.125Z"), Method: "GET", Scheme: "http", Host: "example.net",
				Target: "/", Status: 404, Bytes: 0, Header: hdr("X-Forwarded-For", "203.0.113.9, 10.0.0.1"),
				SignatureRecorded: true, Format: "nginx-json", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "unicode escapes and bad lines",
			opts: n,
			in: `{"time_iso8601":"2024-05-01T12:00:00Z","remote_addr":"192.0.2.1","request_uri":"/caf\u00e9","status":"200","http_user_agent":"\ud83e\udd16 bot"}` + "\n" +
				`{"time_iso8601":"2024-05-01T12:00:00Z","remote_addr":"192.0.2.1",` + "\n" +
				`{"remote_addr":"192.0.2.1","request_uri":"/"}` + "\n" +
				`{"time_iso8601":"2024-05-01T12:00:01Z","request_uri":"/ok"} trailing` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T12:00:00Z"), ClientIP: ip("192.0.2.1"), Target: "/café", Status: 200, Bytes: -1,
				UserAgent: "🤖 bot", Header: hdr("User-Agent", "🤖 bot"), Format: "nginx-json", Source: event.Source{Line: 1},
			}},
			wantCodes: []problem.Code{CodeUnparsedLine, CodeBadTime, CodeUnparsedLine},
		},
	})
}

func TestCaddyJSON(t *testing.T) {
	line := `{"level":"info","ts":1714564800.5,"logger":"http.log.access.log0","msg":"handled request","request":{"remote_ip":"10.0.0.2","remote_port":"51234","client_ip":"2001:db8::9","proto":"HTTP/2.0","method":"GET","host":"Example.com","uri":"/feed?x=1","headers":{"User-Agent":["PerplexityBot/1.0"],"Accept":["text/html","*/*"],"Signature-Input":["` +
		jsonEscape(sigInput) + `"],"Signature":["` + jsonEscape(sigValue) + `"]},"tls":{"resumed":false,"version":772,"cipher_suite":4865,"proto":"h2","server_name":"example.com"}},"bytes_read":0,"user_id":"","duration":0.0012,"size":5120,"status":200,"resp_headers":{"Content-Type":["text/html"]}}`
	plain := `{"level":"info","ts":"2024-05-01T12:00:01.000Z","logger":"http.log.access","msg":"handled request","request":{"remote_ip":"192.0.2.4","remote_port":"1","proto":"HTTP/1.1","method":"HEAD","host":"example.com:80","uri":"/","headers":{}},"size":0,"status":301}`
	runReadCases(t, []readCase{{
		name: "tls, headers, client_ip; plain http",
		opts: Options{Format: CaddyJSON},
		in:   line + "\n" + plain + "\n",
		want: []event.Fetch{
			{
				Time: mustTime(t, "2024-05-01T12:00:00.5Z"), ClientIP: ip("2001:db8::9"), Method: "GET", Scheme: "https",
				Host: "example.com", Target: "/feed?x=1", Status: 200, Bytes: 5120, UserAgent: "PerplexityBot/1.0",
				Header: hdr("Host", "Example.com", "User-Agent", "PerplexityBot/1.0", "Accept", "text/html", "Accept", "*/*",
					"Signature-Input", sigInput, "Signature", sigValue),
				SignatureRecorded: true, Format: "caddy-json", Source: event.Source{Line: 1},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:01Z"), ClientIP: ip("192.0.2.4"), Method: "HEAD", Scheme: "http",
				Host: "example.com", Target: "/", Status: 301, Bytes: 0, Header: hdr("Host", "example.com:80"),
				SignatureRecorded: true, Format: "caddy-json", Source: event.Source{Line: 2},
			},
		},
	}})
}

func TestCloudflareJSON(t *testing.T) {
	cf := Options{Format: CloudflareJSON}
	runReadCases(t, []readCase{{
		name: "timestamps in three encodings, verified bot, request headers",
		opts: cf,
		in: `{"ClientIP":"192.0.2.50","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/news?id=7","ClientRequestProtocol":"HTTP/2","ClientRequestScheme":"https","ClientRequestUserAgent":"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)","ClientRequestReferer":"","EdgeStartTimestamp":"2024-05-01T12:00:00Z","EdgeResponseStatus":200,"EdgeResponseBytes":2048,"VerifiedBotCategory":"Search Engine Crawler","RayID":"8f00aa00bb00cc00"}` + "\n" +
			`{"ClientIP":"2001:db8::2","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/","ClientRequestScheme":"http","ClientRequestUserAgent":"Bot","EdgeStartTimestamp":1714564800000000000,"EdgeResponseStatus":403,"EdgeResponseBytes":10,"VerifiedBotCategory":"","RequestHeaders":{"signature-input":"` + jsonEscape(sigInput) + `","signature":"` + jsonEscape(sigValue) + `"}}` + "\n" +
			`{"ClientIP":"192.0.2.51","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/","EdgeStartTimestamp":"1714564801","EdgeResponseStatus":200}` + "\n",
		want: []event.Fetch{
			{
				Time: mustTime(t, "2024-05-01T12:00:00Z"), ClientIP: ip("192.0.2.50"), Method: "GET", Scheme: "https",
				Host: "www.example.com", Target: "/news?id=7", Status: 200, Bytes: 2048,
				UserAgent:      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
				Header:         hdr("Host", "www.example.com", "User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
				CDNVerifiedBot: "Search Engine Crawler", Format: "cloudflare-json", Source: event.Source{Line: 1},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:00Z"), ClientIP: ip("2001:db8::2"), Method: "GET", Scheme: "http",
				Host: "www.example.com", Target: "/", Status: 403, Bytes: 10, UserAgent: "Bot",
				Header:            hdr("signature-input", sigInput, "signature", sigValue, "Host", "www.example.com", "User-Agent", "Bot"),
				SignatureRecorded: true, Format: "cloudflare-json", Source: event.Source{Line: 2},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:01Z"), ClientIP: ip("192.0.2.51"), Method: "GET",
				Host: "www.example.com", Target: "/", Status: 200, Bytes: -1, Header: hdr("Host", "www.example.com"),
				Format: "cloudflare-json", Source: event.Source{Line: 3},
			},
		},
	}})
}

func TestFastlyJSON(t *testing.T) {
	runReadCases(t, []readCase{{
		name: "documented shape and a variant",
		opts: Options{Format: FastlyJSON},
		in: `{"timestamp":"2024-05-01T12:00:00+0000","client_ip":"192.0.2.77","geo_country":"united states","host":"www.example.com","url":"/img/a.png?w=100","request":"GET","request_protocol":"HTTP/1.1","request_referer":"https://www.example.com/","request_user_agent":"Applebot/0.1","response_state":"HIT","response_status":200,"response_reason":"OK","response_body_size":3096,"is_tls":true}` + "\n" +
			`{"time_start":"2024-05-01T14:00:00+02:00","ip":"2001:db8::77","host":"www.example.com","path":"/x","query":"a=b","method":"POST","status":"201","user_agent":"Bytespider","scheme":"http","signature":"` + jsonEscape(sigValue) + `","signature_input":"` + jsonEscape(sigInput) + `"}` + "\n",
		want: []event.Fetch{
			{
				Time: mustTime(t, "2024-05-01T12:00:00Z"), ClientIP: ip("192.0.2.77"), Method: "GET", Scheme: "https",
				Host: "www.example.com", Target: "/img/a.png?w=100", Status: 200, Bytes: 3096,
				UserAgent: "Applebot/0.1", Referer: "https://www.example.com/",
				Header: hdr("Host", "www.example.com", "User-Agent", "Applebot/0.1", "Referer", "https://www.example.com/"),
				Format: "fastly-json", Source: event.Source{Line: 1},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:00Z"), ClientIP: ip("2001:db8::77"), Method: "POST", Scheme: "http",
				Host: "www.example.com", Target: "/x?a=b", Status: 201, Bytes: -1, UserAgent: "Bytespider",
				Header:            hdr("Signature", sigValue, "Signature-Input", sigInput, "Host", "www.example.com", "User-Agent", "Bytespider"),
				SignatureRecorded: true, Format: "fastly-json", Source: event.Source{Line: 2},
			},
		},
	}})
}
