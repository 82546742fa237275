package accesslog

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/fixtures"
)

// requestRE matches a quoted HTTP request line ("GET /x HTTP/1.1"): the
// independent count of request lines for formats whose files also hold
// lines that record no request.
var requestRE = regexp.MustCompile(`"[A-Z]+ \S+ HTTP/\d`)

// countLines counts the request lines of a fixture without the parser:
// with byRequest, the lines holding a quoted HTTP request; otherwise
// every line that is neither empty nor a "#" directive.
func countLines(t *testing.T, data []byte, byRequest bool) int {
	t.Helper()
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case !byRequest || requestRE.MatchString(l):
			n++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// realLogCases are the logs under the real-logs fixture directory, each
// with the format it should be detected as and facts read from its lines.
var realLogCases = []struct {
	file   string
	format Format
	// byRequest: count only lines with a quoted HTTP request. Used
	// where the file also holds lines recording no request, each
	// reported as CodeNotRequest: ELB TCP connections ("- - - "),
	// an S3 batch operation (request "-"), HAProxy's proxy start
	// messages and TLS handshake failures.
	byRequest bool
	check     func(t *testing.T, fs []event.Fetch)
}{
	{"beats-nginx-test.log", Combined, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].ClientIP.String(), "10.0.0.2")
		want(t, fs[0].ForwardedFor, "10.0.0.2, 10.0.0.1, 127.0.0.1")
		want(t, fs[4].ClientIP.String(), "10.5.102.222")
		want(t, fs[4].ForwardedFor, "10.5.102.222, 199.96.1.1, 204.246.1.1, 10.2.1.185")
		want(t, fs[5].ForwardedFor, "2a03:0000:10ff:f00f:0000:0000:0:8000, 10.225.192.17, 10.2.2.121")
		want(t, fs[5].ClientIP.String(), "2a03:0:10ff:f00f::8000")
		want(t, fs[3].ForwardedFor, "")
		want(t, fs[5].UserAgent, "Mozilla/5.0 (compatible; Facebot 1.0; https://developers.facebook.com/docs/sharing/webmasters/crawler)")
	}},
	{"beats-nginx-test-with-host.log", VhostCombined, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Host, "example.com")
		want(t, fs[0].ForwardedFor, "10.0.0.2, 10.0.0.1, 127.0.0.1")
		want(t, fs[4].ForwardedFor, "10.5.102.222, 175.16.199.1, 204.246.1.1, 10.2.1.185")
		want(t, fs[5].Host, "1.128.3.4")
		want(t, fs[5].ForwardedFor, "2a02:cf40:10ff:f00f:0000:0000:0:8000, 10.225.192.17, 10.2.2.121")
		want(t, fs[9].ForwardedFor, "localhost, localhost")
	}},
	{"beats-haproxy.log", HAProxy, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].ClientIP.String(), "1.2.3.4")
		want(t, fs[0].Target, "/component---src-pages-index-js-4b15624544f97cf0bb8f.js")
		want(t, fs[1].Method, "OPTIONS")
		want(t, fs[0].Time.Format("2006-01-02T15:04:05.000Z"), "2018-07-30T09:03:52.726Z")
	}},
	{"lnav-haproxy.log", HAProxy, true, nil},
	{"matomo-haproxy.log", HAProxy, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Method+" "+fs[0].Target, "POST /user/")
	}},
	{"beats-elb-http.log", ELBClassic, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[2].Host, "filebeat-aws-elb-test-1703142762.eu-central-1.elb.amazonaws.com")
		want(t, fs[2].UserAgent, "curl/7.58.0")
	}},
	{"beats-elb-example-http.log", ELBClassic, false, nil},
	{"matomo-elb.log", ELBClassic, true, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Scheme+"://"+fs[0].Host+fs[0].Target, "https://www.example.com/path/index.html")
	}},
	{"beats-s3-server-access.log", S3, true, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Host, "s3.ap-southeast-1.amazonaws.com")
		want(t, fs[0].Target, "/test-s3-ks/?location&aws-account=627959692251")
	}},
	{"matomo-s3.log", S3, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Host, "www.example.com")
		want(t, fs[0].Target, "/index")
	}},
	{"matomo-iis_custom.log", W3C, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].ClientIP.String(), "70.95.0.0")
		want(t, fs[0].Host, "xzy.example.com")
		want(t, fs[0].Time.Format("2006-01-02T15:04:05.000"), "2012-08-15T17:00:00.363")
		want(t, fs[1].UserAgent, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2227.1 Safari/537.36")
	}},
	{"lnav-w3c-iis-advanced.log", W3C, false, nil},
	{"matomo-incapsula_w3c.log", W3C, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].ClientIP.String(), "123.123.123.123")
		want(t, fs[0].Host+fs[0].Target, "www.example.com/page.php?variable=test")
		want(t, fs[0].Method, "GET")
	}},
	{"lnav-w3c-oracle-webcache.log", W3C, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Target, "/admin/images/oc_bottomleft.gif")
		want(t, fs[0].Time.Format("2006-01-02T15:04:05Z"), "2001-10-31T08:00:18Z") // #GMT-Offset: -0800
		want(t, fs[0].UserAgent, "Mozilla/4.5 [en] (WinNT; I)")
	}},
	{"lnav-w3c-big.log", W3C, false, nil},
	{"matomo-netscaler.log", W3C, false, nil},
	{"matomo-nginx_json.log", MatomoJSON, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].Host, "www.piwik.org")
		want(t, fs[0].Time.Format("2006-01-02T15:04:05Z"), "2013-10-10T14:52:00Z")
	}},
	{"matomo-traefik_json.log", TraefikJSON, false, func(t *testing.T, fs []event.Fetch) {
		want(t, fs[0].ClientIP.String(), "1.2.3.4")
		want(t, fs[0].UserAgent, "Prometheus/2.40.5")
		want(t, fs[0].Target, "/my/app/auth?id=1234&user=dude")
		want(t, fs[0].Host, "localhost")
	}},
	{"matomo-common.log.bz2", Common, false, nil},
	{"matomo-common.log.gz", Common, false, nil},
}

// TestRealFixtures reads every file of shared/fixtures/real-logs beside the
// repository (see its README for where each comes from) in full,
// auto-detected, and checks that it gives at least as many fetches as it
// has request lines, and a problem for every line it does not read.
func TestRealFixtures(t *testing.T) {
	dir := fixtures.Path(t, "real-logs")
	seen := map[string]bool{}
	for _, tt := range realLogCases {
		seen[tt.file] = true
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			plain := raw
			switch filepath.Ext(tt.file) {
			case ".gz":
				zr, err := gzip.NewReader(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				plain, _ = io.ReadAll(zr)
			case ".bz2":
				plain, _ = io.ReadAll(bzip2.NewReader(bytes.NewReader(raw)))
			}
			wantN := countLines(t, plain, tt.byRequest)
			if wantN == 0 {
				t.Fatal("fixture has no request line")
			}
			r, err := NewReader(bytes.NewReader(raw), tt.file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Format() != tt.format {
				t.Errorf("detected %q, want %q", r.Format(), tt.format)
			}
			var fs []event.Fetch
			var probs []event.Problem
			for {
				f, err := r.Next()
				probs = append(probs, r.Problems()...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				c := *f
				c.Header = append(event.Header(nil), c.Header...)
				fs = append(fs, c)
			}
			if len(fs) < wantN {
				t.Errorf("%d fetches, want at least %d (one per request line); problems %v", len(fs), wantN, probs)
			}
			// Every line not read is a problem with file and line.
			skippedLines := map[int64]bool{}
			for _, p := range probs {
				if p.Source.File != tt.file || p.Source.Line < 1 {
					t.Errorf("problem without file and line: %v", p)
				}
				if p.Code == CodeUnparsedLine || p.Code == CodeBadTime || p.Code == CodeNotRequest {
					skippedLines[p.Source.Line] = true
				}
			}
			if int64(len(skippedLines)) != r.Skipped() {
				t.Errorf("%d lines skipped, %d reported", r.Skipped(), len(skippedLines))
			}
			for _, p := range probs {
				if p.Severity == event.SevError {
					t.Errorf("error reading a real log: %v", p)
				}
			}
			if tt.check != nil && len(fs) >= wantN {
				tt.check(t, fs)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !seen[e.Name()] && e.Name() != "README.md" {
			t.Errorf("%s is not read by this test", filepath.Join(dir, e.Name()))
		}
	}
}

func want(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
