package accesslog

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"testing"
)

// TestFormatTable checks the table every per-format decision reads: each
// Format constant has exactly one row, with a parser, and every name and
// alias parses back to its row.
func TestFormatTable(t *testing.T) {
	f, err := parser.ParseFile(gotoken.NewFileSet(), "format.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []Format
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Format" {
				for _, v := range vs.Values {
					consts = append(consts, Format(v.(*ast.BasicLit).Value[1:len(v.(*ast.BasicLit).Value)-1]))
				}
			}
		}
		return true
	})
	if len(consts) != len(formatTable) {
		t.Errorf("format.go declares %d formats, the table has %d rows", len(consts), len(formatTable))
	}
	names := map[string]Format{}
	for _, c := range consts {
		r := rowOf(c)
		if r == nil {
			t.Errorf("format %q has no row", c)
			continue
		}
		if r.parse == nil {
			t.Errorf("format %q has no parser", c)
		}
		for _, n := range append([]string{string(c)}, r.aliases...) {
			if prev, ok := names[n]; ok {
				t.Errorf("name %q names both %s and %s", n, prev, c)
			}
			names[n] = c
			if got, err := ParseFormat(n); err != nil || got != c {
				t.Errorf("ParseFormat(%q) = %q, %v; want %q", n, got, err, c)
			}
		}
		if want := c != W3C && c != CloudFront; c.Splittable() != want {
			t.Errorf("%s.Splittable() = %v, want %v", c, !want, want)
		}
	}
	if Format("no-such-format").hasFields() {
		t.Error("an unknown format has fields")
	}
}
