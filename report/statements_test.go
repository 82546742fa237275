package report

import (
	"slices"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"select 1", []string{"select 1"}},
		{"select 1;", []string{"select 1"}},
		{" select 1 ; select 2 ;; ", []string{"select 1", "select 2"}},
		{"select ';'; select 2", []string{"select ';'", "select 2"}},
		{"select 'it''s;'; select 2", []string{"select 'it''s;'", "select 2"}},
		{`select "a;b" from t; select 2`, []string{`select "a;b" from t`, "select 2"}},
		{"select E'\\';'; select 2", []string{"select E'\\';'", "select 2"}},
		{"select 1 -- x; y\n; select 2", []string{"select 1 -- x; y", "select 2"}},
		{"select /* a /* b; */ c; */ 1; select 2", []string{"select /* a /* b; */ c; */ 1", "select 2"}},
		{"select $$a;b$$; select $t$x;$$;$t$", []string{"select $$a;b$$", "select $t$x;$$;$t$"}},
		{"select $1; select 2", []string{"select $1", "select 2"}},
		{"select 1; -- the end\n", []string{"select 1"}},
		{"/* only */ ; -- a comment", nil},
		{"select 'unterminated; select 2", []string{"select 'unterminated; select 2"}},
	} {
		if got := splitStatements(c.in); !slices.Equal(got, c.want) {
			t.Errorf("splitStatements(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
