package slowtest

import (
	"strings"
	"testing"
)

func TestEnabled(t *testing.T) {
	short := testing.Short()
	for _, tc := range []struct {
		env  string
		want bool
	}{
		{"", false},
		{"0", false},
		{"yes", false},
		{"1", !short},
	} {
		t.Setenv(Env, tc.env)
		if got := Enabled(); got != tc.want {
			t.Errorf("%s=%q (short %v): Enabled() = %v, want %v", Env, tc.env, short, got, tc.want)
		}
		want := 1
		if tc.want {
			want = 2
		}
		if got := Size(1, 2); got != want {
			t.Errorf("%s=%q: Size(1, 2) = %d, want %d", Env, tc.env, got, want)
		}
	}
}

// TestSkip runs Skip in a subtest and checks that it skipped exactly when
// the slow tests are off.
func TestSkip(t *testing.T) {
	for _, env := range []string{"", "1"} {
		t.Setenv(Env, env)
		var ran, skipped bool
		t.Run("env="+env, func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			Skip(t, "test")
			ran = true
		})
		if want := Enabled(); ran != want || skipped == want {
			t.Errorf("%s=%q: body ran %v, skipped %v; want ran %v", Env, env, ran, skipped, want)
		}
	}
}

func TestSkipMessage(t *testing.T) {
	if msg := skipMessage("builds a binary"); !strings.Contains(msg, "builds a binary") || !strings.Contains(msg, Env+"=1") {
		t.Errorf("skip message %q does not say why or how to run the test", msg)
	}
}
