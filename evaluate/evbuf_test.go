package evaluate

import (
	"math"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/robots"
)

// TestEvBufAsStrings checks evBuf's appends against the string
// functions evidence used before: strconv.Quote of a rule's text,
// fmtTime, itoa and event.Source.String.
func TestEvBufAsStrings(t *testing.T) {
	var e evBuf
	for _, p := range []string{"", "/", "/a\"b", "/\xff\xfe", "/é?x=\\", "\x00/\t", "/日本"} {
		for _, allow := range []bool{true, false} {
			r := &robots.Rule{Pattern: p, Allow: allow}
			e.reset()
			e.WriteString("x")
			e.quoteRule(r)
			if want := "x" + strconv.Quote(r.String()); e.String() != want {
				t.Errorf("quoteRule(%q, %v) = %s, want %s", p, allow, e.String(), want)
			}
		}
	}
	for _, tm := range []time.Time{time.Unix(0, 0), time.Unix(1717171717, 123456789).In(time.FixedZone("x", 3600)), {}} {
		e.reset()
		e.time(tm)
		if e.String() != fmtTime(tm) {
			t.Errorf("time(%v) = %s, want %s", tm, e.String(), fmtTime(tm))
		}
	}
	for _, n := range []int{0, -7, 1 << 40} {
		e.reset()
		e.int(n)
		if e.String() != itoa(n) {
			t.Errorf("int(%d) = %s", n, e.String())
		}
	}
	for _, src := range []event.Source{{File: "a.log", Line: 3, Offset: -1}, {File: "b.warc.gz", Offset: 0}, {File: "c", Offset: -1}} {
		e.reset()
		e.source(src)
		if e.String() != src.String() {
			t.Errorf("source(%+v) = %s, want %s", src, e.String(), src.String())
		}
	}
}

// fmtDur is how evidence rendered a duration before evBuf.dur, the
// reference dur is held to: whole hours as "24h", else rounded to the
// second.
func fmtDur(d time.Duration) string {
	if d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return d.Round(time.Second).String()
}

// TestEvBufDur checks evBuf.dur against fmtDur: whole hours, durations
// rounded to the second (Duration.String's forms), negative ones and
// the ends of Duration's range, where rounding saturates.
func TestEvBufDur(t *testing.T) {
	for _, d := range []time.Duration{
		0, time.Hour, 24 * time.Hour, -time.Hour, 499 * time.Millisecond, 500 * time.Millisecond,
		-500 * time.Millisecond, time.Second, 59 * time.Second, time.Minute, 61 * time.Second,
		time.Hour + time.Second, 26*time.Hour + 3*time.Minute + 4*time.Second + 600*time.Millisecond,
		-(90 * time.Minute), math.MaxInt64, math.MinInt64, math.MaxInt64 - time.Hour, math.MinInt64 + 1,
	} {
		checkDur(t, d)
	}
}

func checkDur(t *testing.T, d time.Duration) {
	t.Helper()
	var e evBuf
	e.WriteString("x")
	e.dur(d)
	if want := "x" + fmtDur(d); e.String() != want {
		t.Errorf("dur(%d) = %s, want %s", int64(d), e.String(), want)
	}
}

// FuzzEvBufDur checks evBuf.dur against fmtDur for any duration.
func FuzzEvBufDur(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(90 * time.Minute))
	f.Add(int64(-3601500 * time.Millisecond))
	f.Fuzz(func(t *testing.T, n int64) { checkDur(t, time.Duration(n)) })
}

// TestJudgerScopeWho checks a Judger's table of scopeWho's texts against
// scopeWho: tokens and scopes that share slots, many spoofed clients in
// turn, the crawl's scope and an empty token.
func TestJudgerScopeWho(t *testing.T) {
	var c judgeCache
	tokens := []string{"GPTBot", "CCBot", strings.Clone("GPTBot"), "Googlebot", ""}
	scopes := []viewScope{{}, {kind: scopeVerified}, {kind: scopeClient}, {kind: scopeCrawl, crawl: "c"}}
	for i := range 3 * whoSlots {
		scopes = append(scopes, viewScope{kind: scopeClient, ip: netip.AddrFrom4([4]byte{192, 0, 2, byte(i)})})
	}
	scopes = append(scopes, viewScope{kind: scopeClient, ip: netip.MustParseAddr("2001:db8::1")})
	for range 2 {
		for _, tok := range tokens {
			for _, sc := range scopes {
				if got, want := c.scopeWho(tok, sc), scopeWho(tok, sc); got != want {
					t.Fatalf("scopeWho(%q, %+v) = %q, want %q", tok, sc, got, want)
				}
			}
		}
	}
	if got := c.scopeWho("GPTBot", viewScope{kind: scopeVerified}); addrOf(got) != addrOf(c.scopeWho("GPTBot", viewScope{kind: scopeVerified})) {
		t.Error("a repeated scope's text was made again: the table does not keep it")
	}
	var nilCache *judgeCache
	if got := nilCache.scopeWho("CCBot", viewScope{kind: scopeVerified}); got != "CCBot's verified clients" {
		t.Errorf("nil cache: %q", got)
	}
}
