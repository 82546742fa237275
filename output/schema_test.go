package output

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/table"
)

var update = flag.Bool("update", false, "rewrite docs/schema.md from the table structs")

const schemaDoc = "../docs/schema.md"

// TestSchemaMarkdown fails when the committed docs/schema.md differs from
// what the table structs say. Regenerate with -update.
func TestSchemaMarkdown(t *testing.T) {
	got := SchemaMarkdown()
	if *update {
		if err := os.WriteFile(schemaDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaDoc)
	if err != nil {
		t.Fatalf("%v (run go test ./output -run TestSchemaMarkdown -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s is out of date; run go test ./output -run TestSchemaMarkdown -update", filepath.Clean(schemaDoc))
	}
	if SchemaMarkdown() != got {
		t.Error("SchemaMarkdown is not deterministic")
	}
}

// TestSchemaCoversEveryField checks every table and every struct field
// appear in the schema document and in the Arrow schema, with the required
// column names docs/schema.md documents.
func TestSchemaCoversEveryField(t *testing.T) {
	md := SchemaMarkdown()
	for _, info := range table.Tables {
		if !strings.Contains(md, "\n## "+info.Name+"\n") {
			t.Errorf("schema.md has no section for %s", info.Name)
		}
		sc := ArrowSchema(info.Name)
		if sc == nil {
			t.Fatalf("no Arrow schema for %s", info.Name)
		}
		typ := reflect.TypeOf(info.Row)
		if sc.NumFields() != typ.NumField() {
			t.Errorf("%s: got %d Arrow fields, want %d", info.Name, sc.NumFields(), typ.NumField())
		}
		for i := range typ.NumField() {
			name := typ.Field(i).Tag.Get("parquet")
			if !strings.Contains(md, "| `"+name+"` |") {
				t.Errorf("%s.%s missing from schema.md", info.Name, name)
			}
			if sc.Field(i).Name != name {
				t.Errorf("%s field %d: got %s, want %s", info.Name, i, sc.Field(i).Name, name)
			}
		}
	}
	required := map[string][]string{
		"violations": {"kind", "severity", "fetch_time", "agent", "operator", "identity", "url",
			"url_host_name", "evidence", "source_file", "source_line", "warc_record_offset"},
		"fetches": {"fetch_time", "agent", "identity", "client_ip", "method", "url", "url_host_name",
			"fetch_status", "user_agent", "robots_view", "robots_verdict", "robots_version_id",
			"matched_rule", "matched_line", "signature", "source_file"},
	}
	for name, cols := range required {
		sc := ArrowSchema(name)
		for _, c := range cols {
			if len(sc.FieldIndices(c)) != 1 {
				t.Errorf("%s: required column %s missing", name, c)
			}
		}
	}
	if ArrowSchema("nope") != nil {
		t.Error("ArrowSchema(nope): got a schema, want nil")
	}
}

func TestSpecForRejects(t *testing.T) {
	type noTag struct{ A string }
	type dup struct {
		A string `parquet:"a"`
		B string `parquet:"a"`
	}
	type badType struct {
		A []byte `parquet:"a"`
	}
	for _, row := range []any{noTag{}, dup{}, badType{}, 3} {
		if _, err := specFor(table.Info{Name: "x", Row: row}); err == nil {
			t.Errorf("specFor(%T): got nil error", row)
		}
	}
}
