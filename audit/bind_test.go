package audit

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/audit/input"
)

func TestFlagsSeveralSites(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f Flags
	f.Register(fs)
	if err := fs.Parse([]string{"--site", "https://www.example.org", "--site", "https://Blog.example.org:443/", "--site", "https://www.example.org/"}); err != nil {
		t.Fatal(err)
	}
	s, err := f.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(input.Sites(s.Eval), " ") != "https://www.example.org https://blog.example.org" || s.Eval.DefaultAuthority != "" || len(s.Eval.Sites) != 2 {
		t.Errorf("sites %v, default %q, eval sites %v", input.Sites(s.Eval), s.Eval.DefaultAuthority, s.Eval.Sites)
	}
}

// TestNoVersionNoticeMany: hundreds of sites without a robots.txt source
// are named most fetches first, twenty of them, then how many more.
func TestNoVersionNoticeMany(t *testing.T) {
	nf := &NoticeFacts{NotJudged: map[string]int64{"no-robots-version": 0}, NoVersion: map[string]int64{}}
	for i := range 300 {
		n := int64(i + 1)
		nf.NoVersion[fmt.Sprintf("https://h%03d.example.net", i)] = n
		nf.NotJudged["no-robots-version"] += n
	}
	var msg string
	for _, n := range Notices(nf, nil) {
		if n.Code == "no-robots-version" {
			msg = n.Message
		}
	}
	if !strings.Contains(msg, "on 300 sites") || !strings.HasPrefix(msg[strings.Index(msg, ": ")+2:], "https://h299.example.net (300), https://h298.example.net (299)") ||
		!strings.Contains(msg, "https://h280.example.net (281) and 280 more") || strings.Contains(msg, "h279") || strings.Contains(msg, "--robots-dir DIR,") {
		t.Errorf("notice: %s", msg)
	}
}
