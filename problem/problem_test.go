package problem_test

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/problem"
)

var update = flag.Bool("update", false, "rewrite docs/problems.md from the registry")

// root is the module root, where docs/ and every producer are.
const root = ".."

// parseRegistry returns the names of the Code constants declared in
// registry.go and the names the registry's entries use.
func parseRegistry(t *testing.T) (consts, entries map[string]bool) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "registry.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts, entries = map[string]bool{}, map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if id, ok := vs.Type.(*ast.Ident); g.Tok == token.CONST && ok && id.Name == "Code" {
				for _, n := range vs.Names {
					consts[n.Name] = true
				}
			}
			if g.Tok == token.VAR && len(vs.Names) == 1 && vs.Names[0].Name == "registry" {
				for _, el := range vs.Values[0].(*ast.CompositeLit).Elts {
					if id, ok := el.(*ast.CompositeLit).Elts[1].(*ast.Ident); ok {
						entries[id.Name] = true
					}
				}
			}
		}
	}
	return consts, entries
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range problem.Entries() {
		key := string(e.Kind) + " " + string(e.Code)
		if seen[key] {
			t.Errorf("%s %q registered twice", e.Kind, e.Code)
		}
		seen[key] = true
		if e.Code == "" || e.Meaning == "" {
			t.Errorf("%s %q: empty code or meaning", e.Kind, e.Code)
		}
		if !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(string(e.Code)) {
			t.Errorf("%s %q: a code is lower-case words joined by '-'", e.Kind, e.Code)
		}
		switch e.Kind {
		case problem.KindProblem:
			if e.Severity != problem.Error && e.Severity != problem.Warning && e.Severity != problem.Info {
				t.Errorf("problem %q: severity %q", e.Code, e.Severity)
			}
			if e.Group == "" {
				t.Errorf("problem %q: no group", e.Code)
			}
		case problem.KindNotice, problem.KindReason:
			if e.Severity != "" {
				t.Errorf("%s %q: has severity %q", e.Kind, e.Code, e.Severity)
			}
		default:
			t.Errorf("%q: kind %q", e.Code, e.Kind)
		}
		if _, ok := problem.Lookup(e.Kind, e.Code); !ok {
			t.Errorf("Lookup(%s, %q) fails", e.Kind, e.Code)
		}
	}
	if _, ok := problem.Lookup(problem.KindProblem, "no-such-code"); ok {
		t.Error("Lookup of an unknown code succeeds")
	}
}

// TestDocsInStep keeps docs/problems.md rendered from the registry.
func TestDocsInStep(t *testing.T) {
	path := filepath.Join(root, "docs", "problems.md")
	want := problem.Markdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not in step with the registry; run 'go test ./problem -update'", path)
	}
}

// goFiles calls fn for every non-test Go file of the module (and of the
// nested beam module), outside package problem and testdata.
func goFiles(t *testing.T, fn func(path string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", ".git", "problem":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		fn(path, f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// problemImport returns the name package problem is imported under in f,
// or "".
func problemImport(f *ast.File) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "github.com/repaudit/repaudit/problem" {
			if im.Name != nil {
				return im.Name.Name
			}
			return "problem"
		}
	}
	return ""
}

// TestProducersUseConstants: no producer writes a problem or notice code as
// a string literal, so every code passes through the registry.
func TestProducersUseConstants(t *testing.T) {
	codes := map[string]bool{}
	for _, e := range problem.Entries() {
		if e.Kind != problem.KindReason {
			codes[string(e.Code)] = true
		}
	}
	// Not-judged reasons are also notice codes; they are words ("no-host")
	// a flag or a message may use for something else, and their one
	// definition is checked by TestEveryConstantUsed.
	for _, e := range problem.Entries() {
		if e.Kind == problem.KindReason {
			delete(codes, string(e.Code))
		}
	}
	goFiles(t, func(path string, f *ast.File, fset *token.FileSet) {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && codes[s] {
				t.Errorf("%s: code %s as a string literal: use its constant in package problem", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	})
}

// TestEveryConstantUsed: every code constant is in the registry and used
// by some producer (directive codes through Directive, checked against
// package extract's diagnostics), so the registry lists no code that is
// never reported.
func TestEveryConstantUsed(t *testing.T) {
	consts, entries := parseRegistry(t)
	for name := range consts {
		if !entries[name] {
			t.Errorf("problem.%s is not in the registry", name)
		}
	}
	used := map[string]bool{}
	goFiles(t, func(path string, f *ast.File, fset *token.FileSet) {
		name := problemImport(f)
		if name == "" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
					used[sel.Sel.Name] = true
				}
			}
			return true
		})
	})
	var unused []string
	for name := range consts {
		if !used[name] && !strings.HasPrefix(name, "Directive") {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	for _, name := range unused {
		t.Errorf("problem.%s is never used outside package problem: drop it from the registry, or report it", name)
	}

	// Directive codes: one per diagnostic of package extract.
	diags := extractDiagnostics(t)
	registered := map[problem.Code]bool{}
	for _, e := range problem.Entries() {
		if strings.HasPrefix(string(e.Code), "directive-") {
			registered[e.Code] = true
		}
	}
	for _, d := range diags {
		c := problem.Directive(d)
		if _, ok := problem.Lookup(problem.KindProblem, c); !ok {
			t.Errorf("extract diagnostic %q: problem code %q not in the registry", d, c)
		}
		delete(registered, c)
	}
	for c := range registered {
		t.Errorf("%q is registered but package extract has no such diagnostic", c)
	}
	if len(diags) < 5 {
		t.Errorf("found %d extract diagnostics; the parse of extract/extract.go is broken", len(diags))
	}
	if len(consts) < 100 {
		t.Errorf("found %d code constants; the parse of registry.go is broken", len(consts))
	}
}

// extractDiagnostics returns the values of package extract's Diag*
// constants.
func extractDiagnostics(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "extract", "extract.go"), nil, 0)
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
				if !strings.HasPrefix(n.Name, "Diag") || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
					v, _ := strconv.Unquote(lit.Value)
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// codeLike matches a code the documentation names in backquotes, by the
// prefixes problem codes use. Words with these prefixes that are not
// problem codes (flags, file names) do not occur in backquotes alone.
var codeLike = regexp.MustCompile("`((?:warc|log|listing|input|iplist|card|jwk|registry|directive|evaluate|robots-git|robots-snapshot|robots-source|robots-revisit)-[a-z0-9-]*[a-z0-9])`")

// notCodes are backquoted words with a code's prefix that name something
// else.
var notCodes = map[string]string{
	"log-format":        "flag --log-format",
	"log-extra-headers": "flag --log-extra-headers",
	"warc-capture":      "a value of fetches.source_format",
}

// TestDocumentedCodesExist: every code the documentation names exists.
func TestDocumentedCodesExist(t *testing.T) {
	known := map[string]bool{}
	for _, e := range problem.Entries() {
		known[string(e.Code)] = true
	}
	var docs []string
	mds, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, mds...)
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "table", "table.go"))
	for _, path := range docs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if strings.HasSuffix(path, "table.go") {
			// The doc tags of table.Problem name codes without backquotes.
			text = regexp.MustCompile(`e\.g\. ([a-z0-9, -]+)\.`).ReplaceAllStringFunc(text, func(s string) string {
				var b strings.Builder
				for _, w := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, "e.g. "), "."), ", ") {
					b.WriteString("`" + w + "` ")
				}
				return b.String()
			})
		}
		for i, line := range strings.Split(text, "\n") {
			for _, m := range codeLike.FindAllStringSubmatch(line, -1) {
				if !known[m[1]] && notCodes[m[1]] == "" {
					t.Errorf("%s:%d: names code %q, which does not exist", path, i+1, m[1])
				}
			}
		}
	}
}

// alsoAs lists the codes a producer reports with another severity than
// the registry's, on purpose (the registry's meaning says when).
var alsoAs = map[problem.Code]string{
	problem.LogNewestFirst: problem.Info, // sorted in memory: nothing lost
	problem.LogOutOfOrder:  problem.Info, // runs merged in time order: nothing lost
}

// sevByName maps the names of severity constants (event's and problem's)
// to the registry's severities.
var sevByName = map[string]string{
	"SevError": problem.Error, "SevWarning": problem.Warning, "SevInfo": problem.Info,
	"Error": problem.Error, "Warning": problem.Warning, "Info": problem.Info,
}

// impliedSev lists helpers that imply the severity, by package.
var impliedSev = map[string]map[string]string{
	"accesslog": {"fail": problem.Error, "warn": problem.Warning},
	"history":   {"warn": problem.Warning},
	"listing":   {"problem": problem.Error},
}

// TestSeveritiesMatch: where a producer names a code and a severity in
// one call or literal, the severity is the registry's. Codes passed as
// variables, and helpers that imply a severity other than those listed
// here, are not followed.
func TestSeveritiesMatch(t *testing.T) {
	aliases := codeAliases(t)
	checked := 0
	goFiles(t, func(path string, f *ast.File, fset *token.FileSet) {
		pname := problemImport(f)
		pkg := filepath.Base(filepath.Dir(path))
		code := func(e ast.Expr) (problem.Code, bool) {
			switch x := e.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Name == pname && pname != "" {
					c, ok := aliases["problem."+x.Sel.Name]
					return c, ok
				}
			case *ast.Ident:
				c, ok := aliases[pkg+"."+x.Name]
				return c, ok
			}
			return "", false
		}
		sev := func(e ast.Expr) (string, bool) {
			switch x := e.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && (id.Name == "event" || id.Name == pname) {
					s, ok := sevByName[x.Sel.Name]
					return s, ok
				}
			case *ast.Ident:
				if strings.HasPrefix(x.Name, "Sev") {
					s, ok := sevByName[x.Name]
					return s, ok
				}
			}
			return "", false
		}
		check := func(at token.Pos, c problem.Code, s string) {
			e, ok := problem.Lookup(problem.KindProblem, c)
			if !ok {
				t.Errorf("%s: code %q not in the registry", fset.Position(at), c)
				return
			}
			checked++
			if s != e.Severity && alsoAs[c] != s {
				t.Errorf("%s: %s reported as %s; the registry says %s", fset.Position(at), c, s, e.Severity)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var args []ast.Expr
			helper := ""
			switch x := n.(type) {
			case *ast.CompositeLit:
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						args = append(args, kv.Value)
					}
				}
			case *ast.CallExpr:
				args = x.Args
				switch fn := x.Fun.(type) {
				case *ast.SelectorExpr:
					helper = fn.Sel.Name
				case *ast.Ident:
					helper = fn.Name
				}
			default:
				return true
			}
			var codes []problem.Code
			var sevs []string
			for _, a := range args {
				if c, ok := code(a); ok {
					codes = append(codes, c)
				}
				if s, ok := sev(a); ok {
					sevs = append(sevs, s)
				}
			}
			if len(codes) != 1 {
				return true
			}
			switch {
			case len(sevs) == 1:
				check(n.Pos(), codes[0], sevs[0])
			case len(sevs) == 0 && impliedSev[pkg][helper] != "":
				check(n.Pos(), codes[0], impliedSev[pkg][helper])
			}
			return true
		})
	})
	// 122 when written; far fewer means the scan no longer sees the
	// producers.
	if checked < 100 {
		t.Errorf("checked %d call sites; the scan is broken", checked)
	}
}

// codeAliases maps "problem.Name" and "pkg.Name" (a package's own name
// for a code, such as warc.CodeTruncated) to the code.
func codeAliases(t *testing.T) map[string]problem.Code {
	t.Helper()
	byName := map[string]problem.Code{}
	// problem.Name: the registry's entries in order, named by the
	// constants its source uses.
	f, err := parser.ParseFile(token.NewFileSet(), "registry.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		vs := g.Specs[0].(*ast.ValueSpec)
		if vs.Names[0].Name != "registry" {
			continue
		}
		entries := problem.Entries()
		for i, el := range vs.Values[0].(*ast.CompositeLit).Elts {
			id := el.(*ast.CompositeLit).Elts[1].(*ast.Ident)
			if entries[i].Kind == problem.KindProblem {
				byName["problem."+id.Name] = entries[i].Code
			}
		}
	}
	// Packages that name codes for their call sites: Name = problem.X.
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		pkg := filepath.Base(filepath.Dir(path))
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					if sel, ok := vs.Values[i].(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && id.Name == "problem" {
							if c, ok := byName["problem."+sel.Sel.Name]; ok {
								byName[pkg+"."+n.Name] = c
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return byName
}
