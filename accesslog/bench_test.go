package accesslog

import (
	"github.com/repaudit/repaudit/internal/cputime"

	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

const benchLines = 10000

// benchInput builds benchLines realistic lines of a format; the time moves
// one second every ten lines, as on a busy server.
func benchInput(f Format) string {
	var b strings.Builder
	ua := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	switch f {
	case CloudFront:
		b.WriteString("#Version: 1.0\n#Fields: " + cloudFrontDefaultFields + "\n")
	case W3C:
		b.WriteString("#Fields: " + iisDefaultFields + "\n")
	}
	for i := range benchLines {
		s := i / 10
		hh, mm, ss := s/3600%24, s/60%60, s%60
		ip := fmt.Sprintf("192.0.%d.%d", i/256%256, i%256)
		path := fmt.Sprintf("/articles/%d/some-slug-%d?page=%d", i%977, i, i%5)
		switch f {
		case Combined, Common, VhostCombined:
			if f == VhostCombined {
				b.WriteString("www.example.com:443 ")
			}
			fmt.Fprintf(&b, `%s - - [01/May/2024:%02d:%02d:%02d +0000] "GET %s HTTP/1.1" 200 %d`, ip, hh, mm, ss, path, 1000+i)
			if f != Common {
				fmt.Fprintf(&b, ` "https://www.example.com/" "%s"`, ua)
			}
		case NginxJSON:
			fmt.Fprintf(&b, `{"time_iso8601":"2024-05-01T%02d:%02d:%02d+00:00","remote_addr":"%s","request_method":"GET","request_uri":"%s","status":"200","body_bytes_sent":"%d","http_referer":"https://www.example.com/","http_user_agent":"%s","http_host":"www.example.com","scheme":"https","http_signature":"","http_signature_input":"","http_signature_agent":""}`,
				hh, mm, ss, ip, path, 1000+i, ua)
		case CaddyJSON:
			fmt.Fprintf(&b, `{"level":"info","ts":%d.%06d,"logger":"http.log.access.log0","msg":"handled request","request":{"remote_ip":"%s","remote_port":"51234","client_ip":"%s","proto":"HTTP/2.0","method":"GET","host":"www.example.com","uri":"%s","headers":{"User-Agent":["%s"],"Accept":["*/*"],"Accept-Encoding":["gzip, br"]},"tls":{"resumed":false,"version":772,"cipher_suite":4865,"proto":"h2","server_name":"www.example.com"}},"bytes_read":0,"user_id":"","duration":0.0012,"size":%d,"status":200,"resp_headers":{"Content-Type":["text/html"]}}`,
				1714521600+s, i, ip, ip, path, ua, 1000+i)
		case CloudflareJSON:
			fmt.Fprintf(&b, `{"ClientIP":"%s","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"%s","ClientRequestProtocol":"HTTP/2","ClientRequestScheme":"https","ClientRequestUserAgent":"%s","ClientRequestReferer":"","EdgeStartTimestamp":%d000000000,"EdgeResponseStatus":200,"EdgeResponseBytes":%d,"VerifiedBotCategory":"AI Crawler","RayID":"8f00aa00bb00cc00"}`,
				ip, path, ua, 1714521600+s, 1000+i)
		case FastlyJSON:
			fmt.Fprintf(&b, `{"timestamp":"2024-05-01T%02d:%02d:%02d+0000","client_ip":"%s","geo_country":"united states","host":"www.example.com","url":"%s","request":"GET","request_protocol":"HTTP/1.1","request_referer":"","request_user_agent":"%s","response_state":"HIT","response_status":200,"response_reason":"OK","response_body_size":%d,"is_tls":true}`,
				hh, mm, ss, ip, path, ua, 1000+i)
		case CloudFront:
			fmt.Fprintf(&b, "2024-05-01\t%02d:%02d:%02d\tLAX1-C1\t%d\t%s\tGET\td111111abcdef8.cloudfront.net\t/articles/%d\t200\t-\t%s\tpage=1\t-\tHit\tSOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==\twww.example.com\thttps\t140\t0.001\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t51234\t0.001\tHit\ttext/html\t3000\t-\t-",
				hh, mm, ss, 1000+i, ip, i, strings.ReplaceAll(ua, " ", "%20"))
		case ALB:
			fmt.Fprintf(&b, `https 2024-05-01T%02d:%02d:%02d.186641Z app/my-loadbalancer/50dc6c495c0c9188 %s:2817 10.0.0.1:80 0.086 0.048 0.037 200 200 0 %d "GET https://www.example.com:443%s HTTP/1.1" "%s" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e58577259" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 2024-05-01T%02d:%02d:%02d.100000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"`,
				hh, mm, ss, ip, 1000+i, path, ua, hh, mm, ss)
		case W3C:
			fmt.Fprintf(&b, "2024-05-01 %02d:%02d:%02d 10.0.0.5 GET /articles/%d page=1 443 - %s %s - 200 0 0 15",
				hh, mm, ss, i, ip, strings.ReplaceAll(ua, " ", "+"))
		case ELBClassic:
			fmt.Fprintf(&b, `2024-05-01T%02d:%02d:%02d.186641Z my-loadbalancer %s:2817 10.0.0.1:80 0.000086 0.001048 0.001337 200 200 0 %d "GET https://www.example.com:443%s HTTP/1.1" "%s" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2`,
				hh, mm, ss, ip, 1000+i, path, ua)
		case S3:
			fmt.Fprintf(&b, `79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be www.example.com [01/May/2024:%02d:%02d:%02d +0000] %s - 3E57427F3EXAMPLE WEBSITE.GET.OBJECT articles "GET %s HTTP/1.1" 200 - %d %d 70 10 "-" "%s" - s9lzHYrFp76ZVxRcpX9+5cjAnEH2ROuNkd2BHfIa6UkFVdtjf5mKR3/eTPFvsiP/XV/VLi31234= SigV4 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader www.example.com TLSv1.2`,
				hh, mm, ss, ip, path, 1000+i, 1000+i, ua)
		case HAProxy:
			fmt.Fprintf(&b, `May  1 %02d:%02d:%02d lb1 haproxy[1234]: %s:51234 [01/May/2024:%02d:%02d:%02d.%03d] https-in~ web/web1 0/0/1/12/13 200 %d - - ---- 12/12/0/0/0 0/0 "GET %s HTTP/1.1"`,
				hh, mm, ss, ip, hh, mm, ss, i%1000, 1000+i, path)
		case TraefikJSON:
			fmt.Fprintf(&b, `{"ClientAddr":"%s:51234","ClientHost":"%s","ClientPort":"51234","ClientUsername":"-","DownstreamContentSize":%d,"DownstreamStatus":200,"Duration":1234567,"OriginContentSize":%d,"OriginDuration":1200000,"OriginStatus":200,"Overhead":34567,"RequestAddr":"www.example.com","RequestContentSize":0,"RequestCount":%d,"RequestHost":"www.example.com","RequestMethod":"GET","RequestPath":"%s","RequestPort":"-","RequestProtocol":"HTTP/2.0","RequestScheme":"https","RetryAttempts":0,"RouterName":"web@docker","ServiceName":"web@docker","StartUTC":"2024-05-01T%02d:%02d:%02d.123456789Z","entryPointName":"websecure","level":"info","msg":"","request_User-Agent":"%s","time":"2024-05-01T%02d:%02d:%02dZ"}`,
				ip, ip, 1000+i, 1000+i, i, path, hh, mm, ss, ua, hh, mm, ss)
		case MatomoJSON:
			fmt.Fprintf(&b, `{"ip": "%s","host": "www.example.com","path": "%s","status": "200","referrer": "https://www.example.com/","user_agent": "%s","length": %d,"generation_time_milli": 0.012,"date": "2024-05-01T%02d:%02d:%02d+00:00"}`,
				ip, path, ua, 1000+i, hh, mm, ss)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func BenchmarkReader(b *testing.B) {
	for _, f := range Formats() {
		b.Run(string(f), func(b *testing.B) {
			data := []byte(benchInput(f))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			lines := 0
			cpu0 := cputime.Process()
			for b.Loop() {
				r, err := NewReader(bytes.NewReader(data), "bench.log", Options{Format: f})
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					lines++
				}
				for _, p := range r.Problems() {
					if p.Code != CodeLocalTime { // HAProxy says once that its times have no zone
						b.Fatalf("problem: %v", p)
					}
				}
			}
			b.ReportMetric(float64(lines)/b.Elapsed().Seconds(), "lines/s")
			if cpu := cputime.Process() - cpu0; cpu > 0 {
				b.ReportMetric(float64(lines)/cpu.Seconds(), "lines/cpu-s")
			}
		})
	}
}

func BenchmarkDetect(b *testing.B) {
	data := benchInput(Combined)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewReader(strings.NewReader(data), "bench.log", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
