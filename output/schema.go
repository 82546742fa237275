package output

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/repaudit/repaudit/table"
)

// kind is the Go type of one row field, which fixes its Arrow type.
type kind uint8

const (
	kString kind = iota
	kDict        // string column with few distinct values: Arrow dictionary
	kBool
	kInt32
	kInt64
	kFloat64
	kTime    // time.Time: timestamp, null when zero
	kTimePtr // *time.Time: timestamp, null when nil
)

var (
	timeType    = reflect.TypeFor[time.Time]()
	timePtrType = reflect.TypeFor[*time.Time]()
)

// dictType is the Arrow type of low-cardinality string columns. The
// writer builds each row group's dictionary itself (Arrow dictionary
// builders hash without allocating), and pqarrow writes it as the Parquet
// dictionary page directly; readers see plain strings (DuckDB: VARCHAR).
var dictType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// dictColumns are the string columns written dictionary-encoded: values
// from small sets (enumerations, bot names, hosts, files, rules). Other
// string columns (URLs, evidence, client IPs, messages) are mostly distinct
// and written plain; zstd compresses them.
var dictColumns = map[string]bool{
	"agent": true, "operator": true, "category": true, "identified_by": true, "identity": true,
	"method": true, "url_host_name": true, "user_agent": true, "robots_view": true,
	"robots_verdict": true, "robots_version_id": true, "matched_group": true, "matched_rule": true,
	"acap_crawl": true, "usage_prefs": true, "usage": true, "signature": true, "signature_reasons": true, "signature_agent": true,
	"ip_check": true, "ip_list_url": true, "source_format": true, "source_file": true, "kind": true, "severity": true,
	"robots_warc_filename": true, "signature_reason": true, "effect": true, "status_rule": true,
	"authority": true, "warc_filename": true, "group": true, "token": true, "rule": true, "via": true,
	"action": true, "reason": true, "record_type": true, "code": true,
	"card_url": true, "card_rfc9309_compliance": true, "card_purpose": true,
}

// timestampType is the Arrow type of every time column: microseconds since
// the Unix epoch, UTC. Parquet stores it as INT64 TIMESTAMP(MICROS,
// isAdjustedToUTC=true), which DuckDB reads as TIMESTAMP WITH TIME ZONE.
var timestampType = arrow.FixedWidthTypes.Timestamp_us

// column is one output column derived from one struct field.
type column struct {
	Name     string  // from the `parquet` tag
	Doc      string  // from the `doc` tag
	Field    int     // index of the struct field
	off      uintptr // byte offset of the struct field, for the row reader
	GoType   string  // Go type as written in table/table.go
	kind     kind
	Nullable bool
}

// arrowType returns the Arrow type of the column.
func (c column) arrowType() arrow.DataType {
	switch c.kind {
	case kString:
		return arrow.BinaryTypes.String
	case kDict:
		return dictType
	case kBool:
		return arrow.FixedWidthTypes.Boolean
	case kInt32:
		return arrow.PrimitiveTypes.Int32
	case kInt64:
		return arrow.PrimitiveTypes.Int64
	case kFloat64:
		return arrow.PrimitiveTypes.Float64
	default:
		return timestampType
	}
}

// parquetType describes the column's physical and logical Parquet type, for
// docs/schema.md.
func (c column) parquetType() string {
	switch c.kind {
	case kString:
		return "BYTE_ARRAY (STRING, UTF-8)"
	case kDict:
		return "BYTE_ARRAY (STRING, UTF-8), dictionary"
	case kBool:
		return "BOOLEAN"
	case kInt32:
		return "INT32"
	case kInt64:
		return "INT64"
	case kFloat64:
		return "DOUBLE"
	default:
		return "INT64 (TIMESTAMP(MICROS, UTC))"
	}
}

// parquetNode is the column's node in the Parquet schema, exactly as
// arrow-go's pqarrow.ToParquet makes it of the column's Arrow type
// (parquet/pqarrow/schema.go, fieldToNode and getParquetType, v18.4.1):
// a dictionary is an encoding, not a type, so it is the string it holds;
// an Arrow timestamp with a time zone is TIMESTAMP(isAdjustedToUTC=true)
// with the legacy converted type forced, as pqarrow forces it; no field
// IDs. The writer builds the schema itself because pqarrow, which it needs
// for nothing else, imports Arrow Flight (gRPC, protobuf) and the compute
// kernels: a third of what a cold build of the module compiles.
func (c column) parquetNode() (schema.Node, error) {
	rep := parquet.Repetitions.Required
	if c.Nullable {
		rep = parquet.Repetitions.Optional
	}
	var typ parquet.Type
	var logical schema.LogicalType
	switch c.kind {
	case kString, kDict:
		typ, logical = parquet.Types.ByteArray, schema.StringLogicalType{}
	case kBool:
		typ, logical = parquet.Types.Boolean, schema.NoLogicalType{}
	case kInt32:
		typ, logical = parquet.Types.Int32, schema.NewIntLogicalType(32, true)
	case kInt64:
		typ, logical = parquet.Types.Int64, schema.NewIntLogicalType(64, true)
	case kFloat64:
		typ, logical = parquet.Types.Double, schema.NoLogicalType{}
	default:
		typ, logical = parquet.Types.Int64, schema.NewTimestampLogicalTypeForce(true, schema.TimeUnitMicros)
	}
	return schema.NewPrimitiveNodeLogical(c.Name, rep, logical, typ, -1, -1)
}

// parquetSchema is the table's Parquet schema, under the root group the
// writer properties name (what pqarrow.ToParquet gives for s.schema).
func (s *tableSpec) parquetSchema(props *parquet.WriterProperties) (*schema.GroupNode, error) {
	nodes := make(schema.FieldList, 0, len(s.Cols))
	for _, c := range s.Cols {
		n, err := c.parquetNode()
		if err != nil {
			return nil, fmt.Errorf("output: table %s: column %s: %w", s.Name, c.Name, err)
		}
		nodes = append(nodes, n)
	}
	return schema.NewGroupNode(props.RootName(), props.RootRepetition(), nodes, -1)
}

// arrowSchemaIPC is the table's Arrow schema serialized as Arrow IPC
// stream bytes (a schema message and the end of stream), which pqarrow
// stores base64-encoded under ARROW:schema in the footer so that Arrow
// readers get the Arrow types back (timestamps' time zone, dictionaries).
// It is what arrow-go's flight.SerializeSchema writes.
func (s *tableSpec) arrowSchemaIPC() ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s.schema), ipc.WithAllocator(memory.DefaultAllocator))
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("output: table %s: serialize Arrow schema: %w", s.Name, err)
	}
	return buf.Bytes(), nil
}

// duckdbType is what DuckDB's read_parquet makes of the column.
func (c column) duckdbType() string {
	switch c.kind {
	case kString, kDict:
		return "VARCHAR"
	case kBool:
		return "BOOLEAN"
	case kInt32:
		return "INTEGER"
	case kInt64:
		return "BIGINT"
	case kFloat64:
		return "DOUBLE"
	default:
		return "TIMESTAMP WITH TIME ZONE"
	}
}

// tableSpec is one output table: its name, row type and columns, computed
// once by reflection so that appending a row needs no tag lookups.
type tableSpec struct {
	Name   string
	Doc    string
	typ    reflect.Type
	Cols   []column
	schema *arrow.Schema
}

// specFor derives the table layout from a table.Info. It fails on a field
// without a `parquet` tag, a duplicate column name or an unsupported type,
// so a change to table/table.go that the writer cannot honour is caught by
// the first test rather than silently dropped.
func specFor(info table.Info) (*tableSpec, error) {
	typ := reflect.TypeOf(info.Row)
	if typ == nil || typ.Kind() != reflect.Struct {
		return nil, fmt.Errorf("output: table %s: row is %v, not a struct", info.Name, typ)
	}
	s := &tableSpec{Name: info.Name, Doc: info.Doc, typ: typ}
	seen := make(map[string]bool)
	fields := make([]arrow.Field, 0, typ.NumField())
	for i := range typ.NumField() {
		f := typ.Field(i)
		name := f.Tag.Get("parquet")
		if name == "" || !f.IsExported() {
			return nil, fmt.Errorf("output: table %s: field %s has no parquet tag", info.Name, f.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("output: table %s: duplicate column %s", info.Name, name)
		}
		seen[name] = true
		c := column{Name: name, Doc: f.Tag.Get("doc"), Field: i, off: f.Offset, GoType: f.Type.String()}
		switch {
		case f.Type == timeType:
			c.kind, c.Nullable = kTime, true
		case f.Type == timePtrType:
			c.kind, c.Nullable = kTimePtr, true
		case f.Type.Kind() == reflect.String:
			c.kind = kString
			if dictColumns[name] {
				c.kind = kDict
			}
		case f.Type.Kind() == reflect.Bool:
			c.kind = kBool
		case f.Type.Kind() == reflect.Int32:
			c.kind = kInt32
		case f.Type.Kind() == reflect.Int64:
			c.kind = kInt64
		case f.Type.Kind() == reflect.Float64:
			c.kind = kFloat64
		default:
			return nil, fmt.Errorf("output: table %s: field %s: unsupported type %s", info.Name, f.Name, f.Type)
		}
		s.Cols = append(s.Cols, c)
		fields = append(fields, arrow.Field{Name: name, Type: c.arrowType(), Nullable: c.Nullable})
	}
	md := arrow.NewMetadata(
		[]string{"repaudit.table", "repaudit.schema_version"},
		[]string{info.Name, fmt.Sprint(table.SchemaVersion)},
	)
	s.schema = arrow.NewSchema(fields, &md)
	return s, nil
}

// specs derives every table of table.Tables, in order.
func specs() ([]*tableSpec, error) {
	out := make([]*tableSpec, 0, len(table.Tables))
	for _, info := range table.Tables {
		s, err := specFor(info)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// ArrowSchema returns the Arrow schema of the named table (as written to
// its Parquet file), or nil when there is no such table.
func ArrowSchema(name string) *arrow.Schema {
	for _, info := range table.Tables {
		if info.Name == name {
			s, err := specFor(info)
			if err != nil {
				return nil
			}
			return s.schema
		}
	}
	return nil
}

// schemaIntro opens docs/schema.md: what an audit directory holds and
// how to query it.
const schemaIntro = `# repaudit output schema

<!-- Generated by output.SchemaMarkdown from table/table.go; do not edit.
     Regenerate with: go test ./output -run TestSchemaMarkdown -update -->

` + "`repaudit audit --out DIR`" + ` writes one Parquet file per table below, plus
` + "`manifest.json`" + ` (tool version, schema version, the bot catalog's data versions, inputs with sizes and SHA-256
digests, options, row counts, ` + "`tables`" + ` (each table file's ` + "`name`, `file`, `rows`, `bytes` and `sha256`" + `,
recorded when the file was complete; report and query refuse a table that no longer matches),
timings, ` + "`notices`" + `: what the run judged less than it
could and the fix, by code as docs/problems.md lists them, and ` + "`archive_crawlers`" + `: for each
WARC or ARC file its ` + "`file`" + `, ` + "`agent`" + ` (the crawler's product token, empty when none is
named), ` + "`derived_from`" + ` (` + "`option`" + `: --archive-agent TOKEN or FILE=TOKEN;
` + "`request-records`" + `: the file's own request records; ` + "`warcinfo-user-agent`" + `,
` + "`warcinfo-software`" + `: its warcinfo record, or an ARC file's filedesc record; ` + "`crawl-files`" + `:
taken from the other files of its crawl; empty: none) and ` + "`crawl`" + ` (the crawl key: the
agent's lower-case token, ` + "`:`" + ` and the isPartOf its warcinfo or filedesc record states, or
` + "`file:`" + ` and the file's name; docs/semantics.md, "Archive crawlers")). A directory without ` + "`manifest.json`" + `
is not a finished run. Query the tables with ` + "`repaudit query DIR 'SQL'`" + ` (each
table is a view of the same name) or any Parquet reader, e.g. in DuckDB:

` + "```sql" + `
CREATE VIEW fetches AS SELECT * FROM read_parquet('DIR/fetches.parquet');
` + "```" + `

`

// schemaVersionDoc, formatted with table.SchemaVersion, follows
// schemaIntro in docs/schema.md: the schema version, what each version
// changed, then the conventions every table follows.
const schemaVersionDoc = `Schema version: **%d**. It changes when a column is renamed, removed or
changes meaning; adding columns does not change it. The same number is stored
in each file's key-value metadata (` + "`repaudit.schema_version`" + `).

Changes:

- **2**: ` + "`fetches.ip_check`" + ` ` + "`no_list`" + ` is split into ` + "`not_given`" + ` (the bot
  publishes a list, named in the new column ` + "`ip_list_url`" + `, but none was given)
  and ` + "`not_published`" + ` (no published list is known for the bot). Queries on
  ` + "`ip_check = 'no_list'`" + ` find nothing in schema 2 output: use
  ` + "`ip_check IN ('not_given', 'not_published')`" + `.
- **3**: ` + "`fetches.identity`" + ` is also decided by forward-confirmed reverse DNS
  when ` + "`audit --dns-dir`" + ` is given (new columns ` + "`dns_check`" + `, ` + "`dns_evidence`" + `;
  new finding kind ` + "`rdns_mismatch`" + `): a fetch that schema 2 called ` + "`claimed`" + `
  may now be ` + "`verified`" + ` or ` + "`spoofed`" + `. Without ` + "`--dns-dir`" + ` nothing changes.
  Also in 3: an agent has one ` + "`category`" + ` across a run: the archive crawler of an
  input WARC that the bot catalog does not know is ` + "`archiver`" + ` on its request
  records, log lines and archive findings too (schema 2 said ` + "`other`" + ` or
  nothing there). Join columns added (` + "`warc_filename`, `url_surtkey`,\n  `content_digest`, `content_mime_type`, `authority`, `is_robots_txt`" + `): see
  "Joining with Common Crawl's index" below.
  Also in 3: ` + "`robots_versions.redirect_chain`" + ` added; a robots.txt redirect to a
  capture that is not robots.txt is followed (` + "`status_rule`" + ` redirect), so
  ` + "`redirect-target-missing`" + ` now means the target has no capture at all.

## Conventions

- **Column names** follow the Common Crawl columnar index where one applies:
  ` + "`url`, `url_host_name`, `fetch_time`, `fetch_status`, `warc_filename`,\n  `warc_record_offset`, `warc_record_length`" + `. ` + "`url_path`" + ` is the path and
  query as requested (Common Crawl's ` + "`url_path`" + ` has no query; here it keeps it,
  because robots.txt rules match against both).
- **Times** are UTC timestamps with microsecond precision (Parquet
  ` + "`TIMESTAMP(MICROS, isAdjustedToUTC=true)`" + `, DuckDB ` + "`TIMESTAMP WITH TIME ZONE`" + `).
  A time column is null when the time is unknown (and for the optional times
  documented as such); it is never a made-up value.
- **Strings** are UTF-8. Bytes that were not valid UTF-8 in the input are
  replaced by U+FFFD; the raw bytes stay in the source file at the recorded
  location. An empty string means "none" or "unknown" as each column says;
  string columns are never null.
- **Integers and booleans** are never null: 0, -1 or false have the meaning
  each column documents (` + "`warc_record_offset`" + ` is -1 for log lines).
- **Locations**: every row that comes from an input carries ` + "`source_file`" + ` and
  ` + "`source_line`" + ` (logs) or ` + "`warc_record_offset`" + ` (WARCs), enough to find the
  original bytes.
- ` + "`group`" + ` (robots_rules) and ` + "`offset`" + ` (problems) are SQL keywords: quote
  them in queries, e.g. ` + "`SELECT \"group\" FROM robots_rules`" + `.

`

// SchemaMarkdown renders docs/schema.md from table.Tables and the struct
// tags: for every table its file, description and columns with Parquet
// type, DuckDB type, nullability and documentation. The output depends only
// on table/table.go, so a test can compare it with the committed file.
func SchemaMarkdown() string {
	var b strings.Builder
	b.WriteString(schemaIntro)
	fmt.Fprintf(&b, schemaVersionDoc, table.SchemaVersion)
	sp, err := specs()
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	writeTableDocs(&b, sp)
	b.WriteString(ccJoinDoc)
	return b.String()
}

// writeTableDocs writes the "Tables" section of docs/schema.md: a list of
// the tables, then for each its file, description and a table of its
// columns.
func writeTableDocs(b *strings.Builder, sp []*tableSpec) {
	b.WriteString("## Tables\n\n")
	for _, s := range sp {
		fmt.Fprintf(b, "- [`%s`](#%s) — `%s.parquet`\n", s.Name, s.Name, s.Name)
	}
	for _, s := range sp {
		fmt.Fprintf(b, "\n## %s\n\n", s.Name)
		fmt.Fprintf(b, "File `%s.parquet`. %s\n\n", s.Name, s.Doc)
		b.WriteString("| column | Parquet type | DuckDB type | null | description |\n")
		b.WriteString("|---|---|---|---|---|\n")
		for _, c := range s.Cols {
			null := "no"
			if c.Nullable {
				null = "yes"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n",
				c.Name, c.parquetType(), c.duckdbType(), null, mdCell(c.Doc))
		}
	}
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
