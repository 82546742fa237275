package signature

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/identity"
)

// replayFixture signs one request and returns a function producing copies
// of it with another time, path and IP, as a replaying third party would
// send them.
func replayFixture(t *testing.T, nonce string, life time.Duration) (*Verifier, func(at time.Time, path, ip string) *Request) {
	k := newEd25519Key(t, 7)
	in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}}, wbaParams(k, t0, t0.Add(life), nonce))
	s := newMemSource()
	s.trusted = []identity.Key{k.key}
	mk := func(at time.Time, path, ip string) *Request {
		r := req(hdr("Signature-Input", in, "Signature", sig))
		r.Time, r.Target, r.IP, r.Where = at, path, netip.MustParseAddr(ip), "access.log:"+path
		return r
	}
	return NewVerifier(s, Options{}), mk
}

func TestReplayDetector(t *testing.T) {
	for _, c := range []struct {
		name   string
		second func(mk func(time.Time, string, string) *Request) *Request
		replay bool
		want   []string // substrings of the reason
	}{
		{"same path and IP inside the window (retry)", func(mk func(time.Time, string, string) *Request) *Request {
			return mk(t0.Add(5*time.Second), "/a", "192.0.2.1")
		}, false, nil},
		{"different path", func(mk func(time.Time, string, string) *Request) *Request {
			return mk(t0.Add(5*time.Second), "/b", "192.0.2.1")
		}, true, []string{"same signature first seen at 2025-06-01T12:00:01Z on /a from 192.0.2.1 (access.log:/a)", "different path /b"}},
		{"different IP", func(mk func(time.Time, string, string) *Request) *Request {
			return mk(t0.Add(5*time.Second), "/a", "198.51.100.7")
		}, true, []string{"different IP 198.51.100.7"}},
		{"after expires", func(mk func(time.Time, string, string) *Request) *Request {
			return mk(t0.Add(10*time.Minute), "/a", "192.0.2.1")
		}, true, []string{"after expires 2025-06-01T12:01:00Z"}},
		{"query differs only (same path)", func(mk func(time.Time, string, string) *Request) *Request {
			return mk(t0.Add(5*time.Second), "/a?x=1", "192.0.2.1")
		}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, mk := replayFixture(t, "", time.Minute)
			d := NewReplayDetector(0)
			first := mk(t0.Add(time.Second), "/a", "192.0.2.1")
			if replay, why := d.Observe(first, v.Verify(first)); replay {
				t.Fatalf("first sighting reported as replay: %s", why)
			}
			second := c.second(mk)
			replay, why := d.Observe(second, v.Verify(second))
			if replay != c.replay {
				t.Fatalf("got replay %v (%q), want %v", replay, why, c.replay)
			}
			for _, w := range c.want {
				if !strings.Contains(why, w) {
					t.Errorf("reason %q does not contain %q", why, w)
				}
			}
		})
	}
}

// TestReplayNonce: a signer reusing (keyid, nonce) in a new signature on
// another path is reported even though the signature bytes differ.
func TestReplayNonce(t *testing.T) {
	k := newEd25519Key(t, 8)
	s := newMemSource()
	s.trusted = []identity.Key{k.key}
	v := NewVerifier(s, Options{})
	d := NewReplayDetector(0)
	for i, c := range []struct {
		path    string
		created time.Time
		replay  bool
	}{
		{"/a", t0, false},
		{"/b", t0.Add(time.Second), true},
	} {
		in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}, {`"@path"`, c.path}, {`"signature-agent"`, `"` + botURL + `"`}}, wbaParams(k, c.created, c.created.Add(time.Minute), "same-nonce"))
		r := req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig))
		r.Target, r.Time = c.path, c.created
		res := v.Verify(r)
		if res.Verdict != Verified {
			t.Fatalf("request %d: got %s %v", i, res.Verdict, res.Reasons)
		}
		replay, why := d.Observe(r, res)
		if replay != c.replay {
			t.Fatalf("request %d: got replay %v (%q), want %v", i, replay, why, c.replay)
		}
		if replay && !strings.Contains(why, "same keyid and nonce") {
			t.Errorf("reason %q does not name the nonce", why)
		}
	}
}

// TestReplayBounded checks eviction by time and by size.
func TestReplayBounded(t *testing.T) {
	t.Run("time", func(t *testing.T) {
		v, mk := replayFixture(t, "n1", time.Minute)
		d := NewReplayDetector(0)
		r := mk(t0, "/a", "192.0.2.1")
		d.Observe(r, v.Verify(r))
		if got, want := d.Len(), 2; got != want { // signature + nonce
			t.Fatalf("got %d entries, want %d", got, want)
		}
		// expires (t0+1m) + skew (1m) + retention (1h) has passed.
		late := mk(t0.Add(2*time.Hour), "/b", "192.0.2.1")
		replay, why := d.Observe(late, v.Verify(late))
		if replay {
			t.Errorf("evicted sighting still reported: %s", why)
		}
	})
	t.Run("size", func(t *testing.T) {
		d := NewReplayDetector(3)
		s := newMemSource()
		var first *Request
		var firstRes Result
		for i := range 5 {
			k := newEd25519Key(t, byte(30+i))
			s.trusted = append(s.trusted, k.key)
			in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}}, wbaParams(k, t0, t0.Add(time.Minute), ""))
			r := req(hdr("Signature-Input", in, "Signature", sig))
			res := NewVerifier(s, Options{}).Verify(r)
			if i == 0 {
				first, firstRes = r, res
			}
			d.Observe(r, res)
			if d.Len() > 3 {
				t.Fatalf("got %d entries, cap 3", d.Len())
			}
		}
		again := *first
		again.Target = "/elsewhere"
		if replay, why := d.Observe(&again, firstRes); replay {
			t.Errorf("evicted (oldest) sighting still reported: %s", why)
		}
	})
	t.Run("unsigned ignored", func(t *testing.T) {
		d := NewReplayDetector(0)
		r := req(hdr("User-Agent", "x"))
		if replay, _ := d.Observe(r, Result{Verdict: Unsigned}); replay || d.Len() != 0 {
			t.Errorf("unsigned request recorded")
		}
	})
}

// TestReplayWindowIsValidity: the window lasts as long as the signature is
// valid. A signature valid for ten years, replayed on another path 25 h
// after its first sighting, is a replay (it used to be forgotten after
// 24 h); one without expires is kept until the size cap.
func TestReplayWindowIsValidity(t *testing.T) {
	for _, c := range []struct {
		name  string
		after time.Duration
	}{
		{"25h", 25 * time.Hour},
		{"400 days", 400 * 24 * time.Hour},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, mk := replayFixture(t, "n-long", 10*365*24*time.Hour)
			d := NewReplayDetector(0)
			first := mk(t0.Add(time.Second), "/a", "192.0.2.1")
			if replay, why := d.Observe(first, v.Verify(first)); replay {
				t.Fatalf("first sighting reported as replay: %s", why)
			}
			late := mk(t0.Add(c.after), "/b", "192.0.2.1")
			replay, why := d.Observe(late, v.Verify(late))
			if !replay {
				t.Fatalf("reuse after %s on another path not reported as a replay", c.after)
			}
			if !strings.Contains(why, "different path /b") {
				t.Errorf("reason %q does not name the path", why)
			}
		})
	}
	t.Run("no expires", func(t *testing.T) {
		if got := evictAt(time.Time{}, time.Hour); !got.Equal(never) {
			t.Errorf("evictAt without expires = %v, want never (%v)", got, never)
		}
		far := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
		if got := evictAt(far, 24*365*time.Hour); !got.Equal(never) {
			t.Errorf("evictAt past year 9999 = %v, want clamped to %v", got, never)
		}
	})
}
