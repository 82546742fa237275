package signature

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReasonsDocumented keeps the one documented list of reasons
// (docs/semantics.md, "Signature reasons") in step with reasons.go: the
// same reasons, in the same order, each with its class.
func TestReasonsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/semantics.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "\n### Signature reasons\n")
	if i < 0 {
		t.Fatal(`docs/semantics.md has no "### Signature reasons" section`)
	}
	sec := doc[i+1:]
	if j := strings.Index(sec[4:], "\n### "); j >= 0 {
		sec = sec[:j+4]
	}
	className := map[int]string{classFailure: "failure", classGap: "gap", classNote: "note"}
	var got []string
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		class := strings.TrimSpace(cells[2])
		got = append(got, name)
		if !slices.Contains(reasonOrder, name) {
			t.Errorf("documented reason %q is not a reason constant", name)
			continue
		}
		if want := className[classOf(name)]; class != want {
			t.Errorf("reason %q documented as %s, is a %s", name, class, want)
		}
	}
	if !slices.Equal(got, Reasons()) {
		t.Errorf("documented reasons, in order:\n%v\nreasons.go:\n%v", got, Reasons())
	}
}

// TestReasonsAreSorted checks that every reason the verifier can give is
// in reasonOrder (sorted() drops any that is not) and appears once.
func TestReasonsAreSorted(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range reasonOrder {
		if seen[r] {
			t.Errorf("reason %q listed twice", r)
		}
		seen[r] = true
	}
	for r := range reasonClass {
		if !seen[r] {
			t.Errorf("classified reason %q missing from reasonOrder", r)
		}
	}
}

// TestEveryReasonConstantListed parses reasons.go so that a Reason
// constant added without a place in reasonOrder (and so in the documented
// list) fails.
func TestEveryReasonConstantListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "reasons.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if !strings.HasPrefix(id.Name, "Reason") || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				n++
				if !slices.Contains(reasonOrder, v) {
					t.Errorf("%s = %q is not in reasonOrder", id.Name, v)
				}
			}
		}
	}
	if n != len(reasonOrder) {
		t.Errorf("reasons.go defines %d Reason constants, reasonOrder lists %d", n, len(reasonOrder))
	}
}
