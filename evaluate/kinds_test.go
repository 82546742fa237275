package evaluate

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/table"
)

var update = flag.Bool("update", false, "rewrite the index of docs/findings.md from the kind registry")

// kindConsts returns the values of the Kind* constants declared in
// kinds.go.
func kindConsts(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "kinds.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(n.Name, "Kind") {
					out = append(out, strings.Trim(lit.Value, `"`))
				}
			}
		}
	}
	return out
}

// violationColumns returns the parquet names of table.Violation's
// columns.
func violationColumns() map[string]bool {
	m := map[string]bool{}
	typ := reflect.TypeFor[table.Violation]()
	for i := range typ.NumField() {
		m[typ.Field(i).Tag.Get("parquet")] = true
	}
	return m
}

func TestKindRegistry(t *testing.T) {
	consts := kindConsts(t)
	if len(consts) == 0 {
		t.Fatal("no Kind constants found in kinds.go")
	}
	for _, c := range consts {
		if _, ok := LookupKind(c); !ok {
			t.Errorf("kind %q is declared as a constant but missing from the registry", c)
		}
	}
	if !slices.Equal(Kinds, kindNames()) {
		t.Errorf("Kinds = %v, want the registry's order", Kinds)
	}
	columns := violationColumns()
	common := []string{"kind", "severity", "fetch_time", "agent", "operator", "category", "identity", "user_triggered",
		"url", "url_host_name", "url_path", "client_ip", "evidence", "source_file", "source_line", "warc_record_offset", "warc_record_length"}
	name := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	seen := map[string]bool{}
	for _, k := range KindEntries() {
		if seen[k.Name] {
			t.Errorf("kind %q registered twice", k.Name)
		}
		seen[k.Name] = true
		if !slices.Contains(consts, k.Name) {
			t.Errorf("kind %q has no constant in kinds.go", k.Name)
		}
		if !name.MatchString(k.Name) {
			t.Errorf("kind %q: a kind is lower-case words joined by '_'", k.Name)
		}
		switch k.Severity {
		case SeverityHigh, SeverityMedium, SeverityLow, SeverityInfo:
		default:
			t.Errorf("kind %q: severity %q", k.Name, k.Severity)
		}
		if got := Severity(k.Name); got != k.Severity {
			t.Errorf("Severity(%q) = %q, want %q", k.Name, got, k.Severity)
		}
		if k.Meaning == "" || !strings.HasSuffix(k.Meaning, ".") || strings.Contains(k.Meaning, "|") {
			t.Errorf("kind %q: meaning %q is not one sentence fit for a table cell", k.Name, k.Meaning)
		}
		for _, c := range k.Columns {
			if !columns[c] || slices.Contains(common, c) {
				t.Errorf("kind %q: column %q is not a kind-specific violations column", k.Name, c)
			}
		}
	}
	if got := Severity("no_such_kind"); got != SeverityInfo {
		t.Errorf("Severity of an unknown kind = %q, want %q", got, SeverityInfo)
	}
}

// TestKindColumnDoc keeps violations.kind's doc string (docs/schema.md
// is rendered from it) listing the registry's kinds.
func TestKindColumnDoc(t *testing.T) {
	f, _ := reflect.TypeFor[table.Violation]().FieldByName("Kind")
	if got, want := f.Tag.Get("doc"), KindDoc(); got != want {
		t.Errorf("table.Violation.Kind doc tag:\n got %s\nwant %s", got, want)
	}
}

const (
	indexStart = "'go test ./evaluate -run TestFindingsDoc -update'. -->\n"
	indexEnd   = "<!-- index end -->\n"
)

// TestFindingsDoc keeps docs/findings.md's index rendered from the
// registry, and checks that the page has a section for every kind, with
// the kind's severity, and for no other.
func TestFindingsDoc(t *testing.T) {
	const path = "../docs/findings.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, indexStart), strings.Index(doc, indexEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no index markers", path)
	}
	i += len(indexStart)
	if want := KindIndex(); doc[i:j] != want {
		if !*update {
			t.Errorf("%s: the index is not in step with the registry; run 'go test ./evaluate -run TestFindingsDoc -update'", path)
		} else if err := os.WriteFile(path, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	headed := map[string]string{}
	heading := regexp.MustCompile("`([a-z_]+)` \\(([a-z]+)\\)")
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "### ") {
			continue
		}
		for _, m := range heading.FindAllStringSubmatch(line, -1) {
			headed[m[1]] = m[2]
		}
	}
	for _, k := range KindEntries() {
		sev, ok := headed[k.Name]
		switch {
		case !ok:
			t.Errorf("%s: no section \"### `%s` (%s)\"", path, k.Name, k.Severity)
		case sev != k.Severity:
			t.Errorf("%s: section of %s says severity %s, the registry %s", path, k.Name, sev, k.Severity)
		}
		delete(headed, k.Name)
	}
	for k := range headed {
		t.Errorf("%s: section for %q, which the registry does not know", path, k)
	}
}

// TestKindsByConstant keeps producers on the constants: no file of the
// package but kinds.go spells a kind as a string literal, so every kind
// reported is one the registry declares (and Severity's "info" for an
// unknown kind is never reached).
func TestKindsByConstant(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if path == "kinds.go" || strings.HasSuffix(path, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil {
				if _, known := LookupKind(s); known {
					t.Errorf("%s: the kind %q as a literal; use its Kind constant", fset.Position(lit.Pos()), s)
				}
			}
			return true
		})
	}
}
