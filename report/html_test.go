//go:build cgo

package report

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/repaudit/repaudit/internal/slowtest"
)

// buildHTML renders the fixture report, with a hostile agent name to check
// escaping.
func buildHTML(t *testing.T) []byte {
	t.Helper()
	c := fixture()
	c.Violations[6].Agent = `<script>alert("x")</script>`
	c.Violations[6].URLPath = `/"><img src=x onerror=alert(1)>`
	dir := writeAudit(t, c, fixtureManifest())
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkDOM checks a (possibly browser-serialized) page has the charts and
// tables with the fixture's numbers, and nothing that escaped.
func checkDOM(t *testing.T, page string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	f := collectDOM(t, doc)
	checkDOMCharts(t, f)
	checkDOMRows(t, f.cells)
	if !strings.Contains(page, "&lt;script&gt;alert") {
		t.Error("hostile agent name not shown escaped")
	}
}

// domFacts is what checkDOM counts and collects in a page.
type domFacts struct {
	rects   map[string][]string // chart id -> rect titles
	ticks   map[string]int      // chart id -> tick lines
	svgs    map[string]bool
	bare    []string // tables not inside a scroll container
	scripts int
	imgs    int
	cells   map[string][][]string // section id -> rows of cell text
}

// collectDOM walks doc for charts, tables, scripts and images, and
// reports external references and event handlers as it goes.
func collectDOM(t *testing.T, doc *html.Node) domFacts {
	t.Helper()
	f := domFacts{
		rects: make(map[string][]string),
		ticks: make(map[string]int),
		svgs:  make(map[string]bool),
		cells: make(map[string][][]string),
	}
	var walk func(n *html.Node, chart, section string, scroll bool)
	walk = func(n *html.Node, chart, section string, scroll bool) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "div":
				scroll = scroll || attr(n, "class") == "scroll"
			case "table":
				if !scroll {
					f.bare = append(f.bare, section)
				}
			case "line":
				if attr(n, "class") == "tick" {
					f.ticks[chart]++
				}
			case "figure":
				chart = attr(n, "id")
			case "section":
				section = attr(n, "id")
			case "svg":
				f.svgs[chart] = true
			case "rect":
				f.rects[chart] = append(f.rects[chart], text(n))
			case "script":
				f.scripts++
			case "img":
				f.imgs++
			case "tr":
				var row []string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
						row = append(row, text(c))
					}
				}
				f.cells[section] = append(f.cells[section], row)
			}
			for _, a := range n.Attr {
				if a.Key == "src" || a.Key == "href" && !strings.HasPrefix(a.Val, "#") {
					t.Errorf("external reference %s=%q", a.Key, a.Val)
				}
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("event handler attribute %s", a.Key)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, chart, section, scroll)
		}
	}
	walk(doc, "", "", false)
	return f
}

// checkDOMCharts checks the charts' bars and ticks and the page's
// scripts, images and bare tables.
func checkDOMCharts(t *testing.T, f domFacts) {
	t.Helper()
	if len(f.bare) > 0 {
		t.Errorf("tables outside a scroll container in sections %q", f.bare)
	}
	// One tick per version change: three versions on two authorities,
	// each starting at its own time.
	if f.ticks["chart-robots"] != 3 {
		t.Errorf("robots timeline: got %d ticks, want 3", f.ticks["chart-robots"])
	}
	if f.scripts != 0 || f.imgs != 0 {
		t.Errorf("got %d scripts and %d images, want none", f.scripts, f.imgs)
	}
	for _, id := range []string{"chart-kinds", "chart-over-time", "chart-traffic", "chart-robots"} {
		if !f.svgs[id] {
			t.Errorf("chart %s missing", id)
		}
	}
	wantRects := map[string][]string{
		"chart-kinds":     {"disallowed_fetch: 2 attributed", "ip_not_published: 1 spoofed"},
		"chart-over-time": {"2025-03-01 GPTBot: 1", "2025-03-02 GPTBot (spoofed): 2"},
		// Bytes per bot per day; the spoofed GPTBot is its own series and
		// the browser's 1 MiB is not drawn.
		"chart-traffic": {"2025-03-01 GPTBot: 12.0 KiB", "2025-03-02 GPTBot (spoofed): 512.0 KiB", "2025-03-02 ClaudeBot: 8.0 KiB"},
		"chart-robots": {"https://example.com disallow_all (status 503) 2025-03-02 10:00:00 – latest [example.com@20250302T100000Z-cd34]",
			"https://news.example.org allow_all (status 404) 2025-02-27 00:00:00 – latest [news.example.org@20250227T000000Z-ef56]"},
	}
	for id, titles := range wantRects {
		for _, want := range titles {
			found := false
			for _, got := range f.rects[id] {
				found = found || got == want
			}
			if !found {
				t.Errorf("chart %s: no bar titled %q (have %q)", id, want, f.rects[id])
			}
		}
	}
	if n := len(f.rects["chart-robots"]); n != 3 {
		t.Errorf("robots timeline: got %d bars, want 3", n)
	}
	if n := len(f.rects["chart-traffic"]); n != 3 {
		t.Errorf("traffic chart: got %d bars (%q), want 3", n, f.rects["chart-traffic"])
	}
}

// checkDOMRows checks table rows of the fixture's numbers, by section.
func checkDOMRows(t *testing.T, cells map[string][][]string) {
	t.Helper()
	row := func(section, first string) []string {
		for _, r := range cells[section] {
			if len(r) > 0 && r[0] == first {
				return r
			}
		}
		t.Errorf("section %s: no row starting %q", section, first)
		return nil
	}
	if r := row("crawlers", "GPTBot"); r != nil && strings.Join(r[:9], "|") != "GPTBot|OpenAI|ai-training|crawler|2|1|1|1|1" {
		t.Errorf("crawlers GPTBot row: got %q", r)
	}
	if r := row("spoofed", "GPTBot"); r != nil && r[3] != "2" {
		t.Errorf("spoofed GPTBot findings: got %q", r)
	}
	if r := row("traffic_by_bot", "spoofed"); r != nil && (r[1] != "GPTBot" || r[2] != "") {
		t.Errorf("traffic_by_bot spoofed row: got %q, want GPTBot without operator", r)
	}
	if r := row("retention_due", "delete"); r != nil && r[2] != "due" {
		t.Errorf("retention delete row: got %q", r)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return strings.TrimSpace(b.String())
}

func TestHTML(t *testing.T) {
	t.Parallel()
	page := buildHTML(t)
	checkDOM(t, string(page))
	if bytes.Contains(page, []byte("ZgotmplZ")) {
		t.Error("html/template rejected a value (ZgotmplZ in output)")
	}
	if bytes.Contains(page, []byte("<script>")) {
		t.Error("raw <script> in output")
	}
}

// TestHTMLChromium renders the page in headless Chromium: the DOM it builds
// must hold the charts and numbers, and a screenshot must not be blank.
// It skips when Chromium is missing unless REPAUDIT_REQUIRE_CHROMIUM=1,
// and is a slow test (CI runs it with both set).
func TestHTMLChromium(t *testing.T) {
	t.Parallel()
	slowtest.Skip(t, "starts headless Chromium twice")
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("REPAUDIT_REQUIRE_CHROMIUM") == "1" {
			t.Fatal("chromium not found and REPAUDIT_REQUIRE_CHROMIUM=1")
		}
		t.Skip("chromium not installed")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, buildHTML(t), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	chrome := func(extra ...string) []byte {
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--disable-dev-shm-usage", "--user-data-dir=" + filepath.Join(dir, "profile")}, extra...)
		args = append(args, "file://"+page)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %v: %v\n%s", bin, extra, err, stderr.Bytes())
		}
		return stdout.Bytes()
	}
	dom := chrome("--dump-dom")
	if !regexp.MustCompile(`<rect class="bar`).Match(dom) {
		t.Fatalf("dumped DOM has no chart bars:\n%.2000s", dom)
	}
	checkDOM(t, string(dom))
	chrome("--screenshot="+shot, "--window-size=1200,2000", "--hide-scrollbars")
	if dst := os.Getenv("REPAUDIT_SCREENSHOT"); dst != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(dst, data, 0o644)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 1000 || b.Dy() < 1000 {
		t.Errorf("screenshot is %v, want about 1200x2000", b)
	}
	if n := distinctColours(img); n < 8 {
		t.Errorf("screenshot has %d distinct colours: blank or unstyled", n)
	}
	// The chart colours must be on screen.
	for _, hex := range []string{"#4e79a7", "#f28e2b", "#e15759", "#59a14f"} {
		if !hasColour(img, hex) {
			t.Errorf("screenshot lacks chart colour %s", hex)
		}
	}
}

func distinctColours(img image.Image) int {
	seen := make(map[uint32]bool)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
		}
	}
	return len(seen)
}

func hasColour(img image.Image, hex string) bool {
	var want [3]uint32
	for i := range 3 {
		var v uint32
		for _, c := range hex[1+2*i : 3+2*i] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= uint32(c - '0')
			default:
				v |= uint32(c-'a') + 10
			}
		}
		want[i] = v
	}
	near := func(a, b uint32) bool { return a+3 >= b && b+3 >= a }
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, want[0]) && near(g>>8, want[1]) && near(bl>>8, want[2]) {
				return true
			}
		}
	}
	return false
}
