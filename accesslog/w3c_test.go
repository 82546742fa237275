package accesslog

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

func TestCloudFront(t *testing.T) {
	fields := "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"
	row := func(vals ...string) string { return strings.Join(vals, "\t") + "\n" }
	in := "#Version: 1.0\n#Fields: " + fields + "\n" +
		row("2024-05-01", "12:00:00", "LAX1-C1", "3201", "192.0.2.100", "GET", "d111111abcdef8.cloudfront.net", "/index.html", "200",
			"https://www.example.com/", "Mozilla/5.0%20(compatible;%20bingbot/2.0;%20+http://www.bing.com/bingbot.htm)", "a=1&b=%2520", "-", "Hit",
			"SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==", "www.Example.com", "https", "140", "0.001", "-", "TLSv1.3",
			"TLS_AES_128_GCM_SHA256", "Hit", "HTTP/2.0", "-", "-", "51234", "0.001", "Hit", "text/html", "3000", "-", "-") +
		row("2024-05-01", "12:00:01", "LAX1-C1", "500", "2001:db8::100", "GET", "d111111abcdef8.cloudfront.net", "/a%20b.html", "404",
			"-", "curl/8.0%2520double", "-", "-", "Error",
			"req2", "-", "http", "100", "0.002", "-", "-",
			"-", "Error", "HTTP/1.1", "-", "-", "51235", "0.002", "Error", "text/html", "-", "-", "-") +
		row("2024-05-01", "12:00:02", "too", "few")
	runReadCases(t, []readCase{{
		name: "standard log",
		opts: Options{Format: CloudFront},
		in:   in,
		want: []event.Fetch{
			{
				Time: mustTime(t, "2024-05-01T12:00:00Z"), ClientIP: ip("192.0.2.100"), Method: "GET", Scheme: "https",
				Host: "www.example.com", Target: "/index.html?a=1&b=%2520", Status: 200, Bytes: 3201,
				UserAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", Referer: "https://www.example.com/",
				Header: hdr("Referer", "https://www.example.com/", "User-Agent", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
					"Host", "www.Example.com"),
				Format: "cloudfront", Source: event.Source{Line: 3},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:01Z"), ClientIP: ip("2001:db8::100"), Method: "GET", Scheme: "http",
				Host: "d111111abcdef8.cloudfront.net", Target: "/a%20b.html", Status: 404, Bytes: 500,
				UserAgent: "curl/8.0%20double", Header: hdr("User-Agent", "curl/8.0%20double"),
				Format: "cloudfront", Source: event.Source{Line: 4},
			},
		},
		wantCodes: []problem.Code{CodeUnparsedLine},
	}})
}

func TestW3C(t *testing.T) {
	in := "#Software: Microsoft Internet Information Services 10.0\r\n" +
		"#Version: 1.0\r\n" +
		"#Date: 2024-05-01 00:00:00\r\n" +
		"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\r\n" +
		"2024-05-01 00:00:01 10.0.0.5 GET /index.html - 443 - 192.0.2.20 Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 200 0 0 15\r\n" +
		"2024-05-01 00:00:02 10.0.0.5 GET /search q=a+b 80 - 2001:db8::20 Mozilla/5.0+(compatible;+YandexBot/3.0;++http://yandex.com/bots) http://www.example.com/?x=1+2 200 0 0 15\r\n" +
		"#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status sc-bytes cs-host cs(User-Agent) cs(Signature) cs(Signature-Input) cs(Signature-Agent)\r\n" +
		"2024-05-01 00:00:03.250 192.0.2.21 GET / - 200 512 WWW.example.com:443 Bot/1.0 " + sigValue + " " + strings.ReplaceAll(sigInput, " ", "+") + " " + sigAgent + "\r\n" +
		"2024-05-01 25:00:03 192.0.2.21 GET / - 200 512 www.example.com Bot/1.0 - - -\r\n"
	runReadCases(t, []readCase{{
		name: "IIS with a #Fields change",
		opts: Options{Format: W3C},
		in:   in,
		want: []event.Fetch{
			{
				Time: mustTime(t, "2024-05-01T00:00:01Z"), ClientIP: ip("192.0.2.20"), Method: "GET", Scheme: "https",
				Target: "/index.html", Status: 200, Bytes: -1,
				UserAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
				Header:    hdr("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
				Format:    "w3c", Source: event.Source{Line: 5},
			},
			{
				Time: mustTime(t, "2024-05-01T00:00:02Z"), ClientIP: ip("2001:db8::20"), Method: "GET", Scheme: "http",
				Target: "/search?q=a+b", Status: 200, Bytes: -1,
				UserAgent: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", Referer: "http://www.example.com/?x=1+2",
				Header: hdr("User-Agent", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "Referer", "http://www.example.com/?x=1+2"),
				Format: "w3c", Source: event.Source{Line: 6},
			},
			{
				Time: mustTime(t, "2024-05-01T00:00:03.25Z"), ClientIP: ip("192.0.2.21"), Method: "GET", Scheme: "https",
				Host: "www.example.com", Target: "/", Status: 200, Bytes: 512, UserAgent: "Bot/1.0",
				Header: hdr("Host", "WWW.example.com:443", "User-Agent", "Bot/1.0", "Signature", sigValue,
					"Signature-Input", sigInput, "Signature-Agent", sigAgent),
				SignatureRecorded: true, Format: "w3c", Source: event.Source{Line: 8},
			},
		},
		wantCodes: []problem.Code{CodeBadTime},
	}})
}

func TestW3CWithoutFields(t *testing.T) {
	in := "2024-05-01 00:00:01 10.0.0.5 GET /a - 80 - 192.0.2.20 Bot - 200 0 0 15\n"
	_, got, probs := readAll(t, in, Options{Format: W3C})
	if len(got) != 1 || got[0].Target != "/a" || got[0].UserAgent != "Bot" {
		t.Fatalf("got %+v, want one fetch of /a by Bot with the IIS default fields", got)
	}
	if c := codes(probs); len(c) != 1 || c[0] != CodeNoFields {
		t.Errorf("problems: got %v, want [%s]", c, CodeNoFields)
	}
}

func TestALB(t *testing.T) {
	in := `https 2024-05-01T12:00:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.0.2.39:2817 10.0.0.1:80 0.086 0.048 0.037 200 200 0 57 "GET https://www.Example.com:443/page?x=1 HTTP/1.1" "curl/8.4.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e58577259" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 2024-05-01T11:59:59.100000Z "authenticate,forward" "-" "-" "10.0.0.1:80" "200" "-" "-"` + "\n" +
		`h2 2024-05-01T12:00:01.000000Z app/my-loadbalancer/50dc6c495c0c9188 [2001:db8::39]:2817 10.0.0.1:80 0.001 0.002 0.000 404 404 34 366 "GET https://www.example.com:8443/missing HTTP/2.0" "Mozilla/5.0 \"quoted\"" - - arn:x "Root=1" "-" "-" 0 2024-05-01T12:00:00.900000Z "forward" "-" "-" "10.0.0.1:80" "404" "-" "-"` + "\n" +
		`http 2024-05-01T12:00:02.000000Z app/my-loadbalancer/50dc6c495c0c9188 192.0.2.40:1111 - -1 -1 -1 400 - 0 0 "- http://www.example.com:80- -" "-" - - - "-" "-" "-" - 2024-05-01T12:00:02.000000Z "-" "-" "-" "-" "-" "-" "-"` + "\n"
	runReadCases(t, []readCase{{
		name: "ALB lines",
		opts: Options{Format: ALB},
		in:   in,
		want: []event.Fetch{
			{
				Time: mustTime(t, "2024-05-01T11:59:59.1Z"), ClientIP: ip("192.0.2.39"), Method: "GET", Scheme: "https",
				Host: "www.example.com", Target: "/page?x=1", Status: 200, Bytes: 57, UserAgent: "curl/8.4.0",
				Header: hdr("Host", "www.example.com", "User-Agent", "curl/8.4.0"), Format: "alb", Source: event.Source{Line: 1},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:00.9Z"), ClientIP: ip("2001:db8::39"), Method: "GET", Scheme: "https",
				Host: "www.example.com:8443", Target: "/missing", Status: 404, Bytes: 366, UserAgent: `Mozilla/5.0 "quoted"`,
				Header: hdr("Host", "www.example.com:8443", "User-Agent", `Mozilla/5.0 "quoted"`), Format: "alb", Source: event.Source{Line: 2},
			},
			{
				Time: mustTime(t, "2024-05-01T12:00:02Z"), ClientIP: ip("192.0.2.40"), Scheme: "http",
				Target: "http://www.example.com:80-", Status: 400, Bytes: 0, Format: "alb", Source: event.Source{Line: 3},
			},
		},
		wantCodes: []problem.Code{CodeBadRequest},
	}})
}
