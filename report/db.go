//go:build cgo

// This file holds everything that needs DuckDB, which is linked through
// cgo; a build with CGO_ENABLED=0 leaves it out (see doc.go).

package report

import (
	"context"
	"crypto/sha256"
	dbsql "database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/queries"
	"github.com/repaudit/repaudit/table"
)

// DB is an audit directory opened in an in-memory DuckDB, with one view per
// table. It holds one database connection, so session state (SET, the
// as_of variable, temporary tables) carries from one query to the next. It
// is safe for use by one goroutine at a time.
type DB struct {
	dir       string
	manifest  *output.Manifest
	connector *duckdb.Connector
	db        *dbsql.DB
	conn      *dbsql.Conn
	width     int // terminal table width for Export; 0 is the default
	// locked is set without OpenOptions.AllowExternal: each statement of
	// a query is checked before it runs (runChecked).
	locked bool
	// tmp is DuckDB's temp_directory, a private directory Close removes.
	tmp string
}

// OpenOptions configure OpenWith.
type OpenOptions struct {
	// AllowExternal leaves DuckDB free to read and write any file, attach
	// databases and install or load extensions (repaudit query
	// --allow-external). By default the session can read the audit's own
	// tables and nothing else: no other file, no COPY or EXPORT, no
	// ATTACH, no INSTALL or LOAD, no network, and the configuration is
	// locked so a query cannot turn that back on.
	//
	// DuckDB's allowed_paths, which lets the views read the table files,
	// lets a COPY write them too: the setting knows no read-only access.
	// So a locked-down DB also runs a query one statement at a time and
	// refuses every statement that could write a file or reach outside
	// the session (see allowStatement) before it runs.
	AllowExternal bool
	// Verify also compares each table file's SHA-256 with the one
	// manifest.json records (repaudit report/query --verify). Without
	// it Open checks what costs no reading of the data: each file's size
	// against the manifest and each table's row count, from the Parquet
	// footers, against its counts.
	Verify bool
}

// ErrChanged reports a table file that differs from what manifest.json
// records: it was edited or replaced after the audit.
var ErrChanged = errors.New("report: table differs from manifest.json (changed after the audit)")

// Open opens the audit directory dir with an in-memory DuckDB and registers
// each table as a view of the same name:
//
//	CREATE VIEW fetches AS SELECT * FROM read_parquet('DIR/fetches.parquet')
//
// DIR is the absolute path with DuckDB's glob characters (* ? [) escaped,
// so a directory named out/q* or r[1] reads exactly its own tables, never
// another directory's; Open checks that each view's pattern matches its
// one file. A table may also be a directory of part files,
// DIR/fetches/*.parquet, as the Beam pipeline (beam/) writes them; the
// view then reads each part, each named exactly.
//
// It refuses a directory without manifest.json (an incomplete run) or with
// a newer schema version. The database never loads extensions from the
// network, the session uses the UTC time zone, and the DuckDB variable
// as_of holds the manifest's as-of time (NULL when it has none), so the
// files of package queries run unchanged. External access is off (see
// OpenOptions.AllowExternal).
func Open(ctx context.Context, dir string) (*DB, error) {
	return OpenWith(ctx, dir, OpenOptions{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dir string, opts OpenOptions) (*DB, error) {
	m, paths, err := readAudit(dir, opts.Verify)
	if err != nil {
		return nil, err
	}
	d, err := newDB(ctx, dir, m, opts)
	if err != nil {
		return nil, err
	}
	allowed, err := d.createViews(ctx, paths)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	if err := d.operatorReferrers(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	if !opts.AllowExternal {
		if err := d.restrictExternal(ctx, allowed); err != nil {
			d.Close()
			return nil, fmt.Errorf("open audit %s: restrict external access: %w", dir, err)
		}
	}
	if err := d.setAsOf(ctx, m.AsOf); err != nil {
		d.Close()
		return nil, fmt.Errorf("open audit %s: set as_of: %w", dir, err)
	}
	return d, nil
}

// readAudit reads the manifest of the audit directory dir and finds each
// table's files, by absolute path, refusing an incomplete run, a newer
// schema and files that differ from the manifest (comparing their
// SHA-256 too when verify is set).
func readAudit(dir string, verify bool) (*output.Manifest, map[string][]string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, nil, fmt.Errorf("open audit %s: not a directory", dir)
	}
	m, err := output.ReadManifest(dir)
	if errors.Is(err, output.ErrNoManifest) {
		return nil, nil, fmt.Errorf("open audit %s: %w", dir, ErrIncomplete)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	if m.SchemaVersion > table.SchemaVersion {
		return nil, nil, fmt.Errorf("open audit %s: schema %d, this repaudit reads up to %d: %w",
			dir, m.SchemaVersion, table.SchemaVersion, ErrNewerSchema)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	paths := make(map[string][]string, len(table.Tables))
	for _, t := range table.Tables {
		p, err := tableFiles(abs, t.Name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil, fmt.Errorf("open audit %s: table %s missing: %w", dir, t.Name, err)
			}
			return nil, nil, fmt.Errorf("open audit %s: table %s: %w", dir, t.Name, err)
		}
		paths[t.Name] = p
	}
	if err := checkFiles(m, abs, paths, verify); err != nil {
		return nil, nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	return m, paths, nil
}

// newDB opens an in-memory DuckDB session for the audit in dir with
// manifest m: no extension auto-install, the UTC time zone, and a spill
// directory of its own.
func newDB(ctx context.Context, dir string, m *output.Manifest, opts OpenOptions) (*DB, error) {
	// Extension auto-install would reach the network; parquet, json and
	// icu are linked in.
	conn, err := duckdb.NewConnector("?autoinstall_known_extensions=false&autoload_known_extensions=false",
		func(ex driver.ExecerContext) error {
			_, err := ex.ExecContext(context.Background(), "SET TimeZone = 'UTC'", nil)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("open duckdb: %w", err)
	}
	d := &DB{dir: dir, manifest: m, connector: conn, db: dbsql.OpenDB(conn), locked: !opts.AllowExternal}
	d.conn, err = d.db.Conn(ctx)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("open duckdb: %w", err)
	}
	// An in-memory DuckDB spills to ./.tmp, in whatever directory repaudit
	// runs in, and lets the session read and write there even with
	// external access off: spill to a directory of our own instead.
	d.tmp, err = os.MkdirTemp("", "repaudit-duckdb-")
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("open duckdb: temp directory: %w", err)
	}
	if _, err := d.conn.ExecContext(ctx, "SET temp_directory = "+quote(d.tmp)); err != nil {
		d.Close()
		return nil, fmt.Errorf("open duckdb: %w", err)
	}
	return d, nil
}

// createViews creates a view of each table over its files (paths, by
// table name), each named by a glob-escaped pattern checked to match
// exactly that file, and checks each table's row count. It returns the
// quoted files and patterns the views need to stay readable once
// external access is off.
func (d *DB) createViews(ctx context.Context, paths map[string][]string) (allowed []string, err error) {
	for _, t := range table.Tables {
		var patterns []string
		for _, p := range paths[t.Name] {
			pattern := globEscape(p)
			if err := d.oneFile(ctx, pattern, p); err != nil {
				return nil, fmt.Errorf("table %s: %w", t.Name, err)
			}
			patterns = append(patterns, quote(pattern))
			allowed = append(allowed, quote(p), quote(pattern))
		}
		if err := d.checkRows(ctx, t.Name, patterns); err != nil {
			return nil, err
		}
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet([%s])", t.Name, strings.Join(patterns, ", "))
		if _, err := d.conn.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.Name, err)
		}
	}
	return allowed, nil
}

// restrictExternal turns the session's external access off, allowing only
// the files and patterns in allowed (quoted), and locks the configuration.
func (d *DB) restrictExternal(ctx context.Context, allowed []string) error {
	// The views bind their files when queried, so the table files
	// (and the escaped patterns that name them) stay allowed; the
	// lock comes last so no query can SET external access back on.
	for _, q := range []string{
		"SET allowed_paths = [" + strings.Join(allowed, ", ") + "]",
		"SET allow_persistent_secrets = false",
		"SET allow_community_extensions = false",
		"SET enable_external_access = false",
		"SET lock_configuration = true",
	} {
		if _, err := d.conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// setAsOf sets the DuckDB variable as_of to the manifest's as-of time
// asOf (RFC 3339), or to NULL when it has none.
func (d *DB) setAsOf(ctx context.Context, asOf string) error {
	v := "CAST(NULL AS TIMESTAMPTZ)"
	if t, err := time.Parse(time.RFC3339Nano, asOf); err == nil {
		v = "TIMESTAMPTZ " + quote(t.UTC().Format("2006-01-02 15:04:05.999999")+"+00")
	}
	_, err := d.conn.ExecContext(ctx, "SET VARIABLE as_of = "+v)
	return err
}

// operatorReferrers creates the table operator_referrers(operator, host)
// from the bot catalog (bots.Referrers): the hosts of each operator's
// products, which crawl_to_refer.sql counts referrals from. It is a helper
// table, not one of the audit's: it comes from this binary's catalog.
func (db *DB) operatorReferrers(ctx context.Context) error {
	var b strings.Builder
	b.WriteString("CREATE TABLE operator_referrers (operator VARCHAR NOT NULL, host VARCHAR NOT NULL)")
	if _, err := db.conn.ExecContext(ctx, b.String()); err != nil {
		return fmt.Errorf("create operator_referrers: %w", err)
	}
	refs := bots.Referrers()
	if len(refs) == 0 {
		return nil
	}
	b.Reset()
	b.WriteString("INSERT INTO operator_referrers VALUES ")
	for i, r := range refs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%s, %s)", quote(r.Operator), quote(r.Host))
	}
	if _, err := db.conn.ExecContext(ctx, b.String()); err != nil {
		return fmt.Errorf("fill operator_referrers: %w", err)
	}
	return nil
}

// globEscape makes a path a DuckDB glob pattern that matches only itself:
// each of DuckDB's glob characters *, ? and [ becomes a one-character
// class ([*], [?], [[]).
func globEscape(p string) string {
	if !strings.ContainsAny(p, "*?[") {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// oneFile checks that DuckDB's glob of pattern finds exactly the file p,
// so that a change in DuckDB's glob rules fails loudly instead of reading
// some other audit's tables.
func (db *DB) oneFile(ctx context.Context, pattern, p string) error {
	if pattern == p {
		return nil // no glob characters: DuckDB opens the path as it is
	}
	rows, err := db.conn.QueryContext(ctx, "SELECT file FROM glob("+quote(pattern)+")")
	if err != nil {
		return err
	}
	defer rows.Close()
	var files []string
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			return err
		}
		files = append(files, f)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(files) != 1 || filepath.Clean(files[0]) != p {
		return fmt.Errorf("DuckDB pattern %s matches %q, not just %s", pattern, files, p)
	}
	return nil
}

// quote makes s a SQL string literal.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// Dir returns the audit directory.
func (db *DB) Dir() string { return db.dir }

// Manifest returns the directory's manifest.json.
func (db *DB) Manifest() *output.Manifest { return db.manifest }

// SetTextWidth sets the width in columns of the terminal tables Export
// writes; n <= 0 restores the default of 120.
func (db *DB) SetTextWidth(n int) { db.width = n }

// Close releases the database.
func (db *DB) Close() error {
	var err error
	if db.conn != nil {
		err = db.conn.Close()
	}
	if cerr := db.db.Close(); err == nil {
		err = cerr
	}
	if cerr := db.connector.Close(); err == nil {
		err = cerr
	}
	if db.tmp != "" {
		if cerr := os.RemoveAll(db.tmp); err == nil {
			err = cerr
		}
	}
	return err
}

// Query runs a query and returns all its rows.
func (db *DB) Query(ctx context.Context, query string) (*Result, error) {
	return db.QueryN(ctx, query, -1)
}

// QueryN runs a query and keeps at most max rows (all when max < 0); the
// rest are read and counted in Result.More, so a terminal table of a huge
// result does not fill memory.
func (db *DB) QueryN(ctx context.Context, query string, max int) (*Result, error) {
	res := &Result{}
	err := db.each(ctx, query, func(cols, types []string) error {
		res.Columns, res.Types = cols, types
		return nil
	}, func(row []any) error {
		if max >= 0 && len(res.Rows) >= max {
			res.More++
			return nil
		}
		res.Rows = append(res.Rows, append([]any(nil), row...))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// each runs query and calls head once with the columns, then row for every
// row (the slice is reused between calls).
func (db *DB) each(ctx context.Context, query string, head func(cols, types []string) error, row func([]any) error) error {
	if db.locked {
		last, err := db.runChecked(ctx, query)
		if err != nil {
			return fmt.Errorf("query: %w", err)
		}
		query = last
	}
	rows, err := db.conn.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	types := make([]string, len(cts))
	for i, ct := range cts {
		types[i] = ct.DatabaseTypeName()
	}
	if err := head(cols, types); err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("query: %w", err)
		}
		for i, v := range vals {
			vals[i] = normalize(v)
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("query: %w", err)
	}
	return nil
}

// normalize maps driver values to the small set of Go types the writers
// handle.
func normalize(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, float64, string, []byte:
		return x
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x <= 1<<63-1 {
			return int64(x)
		}
		return fmt.Sprint(x)
	case float32:
		return float64(x)
	case *big.Int:
		if x == nil {
			return nil
		}
		if x.IsInt64() {
			return x.Int64()
		}
		return x.String()
	case time.Time:
		return x.UTC()
	case duckdb.Decimal:
		f, _ := new(big.Float).SetInt(x.Value).Float64()
		for range x.Scale {
			f /= 10
		}
		return f
	case duckdb.Interval:
		return formatInterval(x)
	case duckdb.UUID:
		return x.String()
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalize(x[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	default:
		return fmt.Sprint(x)
	}
}

// maxSectionRows caps the rows Build keeps per section, so a report over a
// crawl-sized audit (a robots.txt timeline of millions of versions) stays
// small; Section.More counts the rest, which `repaudit query` can list.
const maxSectionRows = 10000

// Build runs the report queries of package queries and assembles the Report,
// with times in UTC. The as-of time for retention_due.sql is the as_of
// variable Open set from the manifest.
func (db *DB) Build(ctx context.Context) (*Report, error) {
	return db.BuildWith(ctx, Options{})
}

// BuildWith is Build with options. With a Location, the DuckDB variable
// time_zone holds its name while the queries run, so per-day queries count
// that zone's days, and every timestamp of the report is converted to it
// (DATE values are already days of the zone and stay as they are).
func (db *DB) BuildWith(ctx context.Context, opts Options) (*Report, error) {
	loc := opts.Location
	if loc == nil {
		loc = time.UTC
	}
	if err := db.setTimeZone(ctx, loc); err != nil {
		return nil, err
	}
	run := func(name string) (*Result, error) {
		q := queries.Query(name)
		if q == "" {
			return nil, fmt.Errorf("report: no query %s", name)
		}
		res, err := db.QueryN(ctx, q, maxSectionRows)
		if err != nil {
			return nil, fmt.Errorf("report %s: %s.sql: %w", db.dir, name, err)
		}
		return res, nil
	}
	r := &Report{Manifest: *db.manifest, Location: loc}
	totals, err := run("totals")
	if err != nil {
		return nil, err
	}
	r.Totals = Section{ID: "totals", Title: "Totals", Query: "totals", Columns: totals.Columns, Types: totals.Types, Rows: totals.Rows}
	for _, sp := range sectionSpecs {
		if ok, err := db.hasFetchColumns(ctx, sp.needs); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		res, err := run(sp.query)
		if err != nil {
			return nil, err
		}
		if sp.optional && len(res.Rows) == 0 {
			continue
		}
		base := Section{ID: sp.id, Title: sp.title, Note: zoneNote(sp.note, loc), Query: sp.query,
			Columns: res.Columns, Types: res.Types, TextColumns: sp.textCols, More: res.More, Lead: sp.lead}
		if sp.split == nil {
			base.Rows = res.Rows
			r.Sections = append(r.Sections, base)
			continue
		}
		col := base.Col(sp.split.column)
		if col < 0 {
			return nil, fmt.Errorf("report: %s.sql has no column %s", sp.query, sp.split.column)
		}
		first := len(r.Sections)
		for _, part := range sp.split.parts {
			s := base
			s.ID, s.Title, s.Note = part.id, part.title, zoneNote(part.note, loc)
			s.Rows = nil
			for _, row := range res.Rows {
				if v, _ := row[col].(string); v == part.value {
					s.Rows = append(s.Rows, row)
				}
			}
			if len(part.drop) > 0 {
				s.dropColumns(part.drop)
			}
			r.Sections = append(r.Sections, s)
		}
		// A split query orders its rows by the split column in part order,
		// so the rows past the cap belong to the last part that has rows or
		// to parts after it: parts before it are complete.
		parts := r.Sections[first:]
		for i := range parts {
			for _, later := range parts[i+1:] {
				if len(later.Rows) > 0 {
					parts[i].More = 0
					break
				}
			}
		}
	}
	if n := r.total("unverifiable"); n > 0 {
		if s := r.Section("signatures"); s != nil {
			s.Remarks = append(s.Remarks, fmt.Sprintf("%s came from sources that cannot show signature headers: unverifiable, not violations. "+
				"Those sources (a combined log, for one) do not record Signature, Signature-Input or Signature-Agent, "+
				"so a missing signature proves nothing there.", plural(n, "bot fetch", "bot fetches")))
		}
	}
	if loc != time.UTC {
		localize(r.Totals.Rows, r.Totals.Types, loc)
		for i := range r.Sections {
			localize(r.Sections[i].Rows, r.Sections[i].Types, loc)
		}
	}
	return r, nil
}

// hasFetchColumns reports whether the fetches view has every named
// column; an audit written by an older repaudit may lack new ones.
func (db *DB) hasFetchColumns(ctx context.Context, cols []string) (bool, error) {
	for _, c := range cols {
		var n int
		err := db.conn.QueryRowContext(ctx,
			"SELECT count(*) FROM information_schema.columns WHERE table_name = 'fetches' AND column_name = "+quote(c)).Scan(&n)
		if err != nil {
			return false, fmt.Errorf("report: columns of fetches: %w", err)
		}
		if n == 0 {
			return false, nil
		}
	}
	return true, nil
}

// setTimeZone sets the DuckDB variable time_zone that per-day queries read,
// after checking DuckDB's time zone data knows the name.
func (db *DB) setTimeZone(ctx context.Context, loc *time.Location) error {
	name := quote(loc.String())
	if _, err := db.conn.ExecContext(ctx, "SELECT timezone("+name+", TIMESTAMPTZ '2000-01-01 00:00:00+00')"); err != nil {
		return fmt.Errorf("report: time zone %s: %w", loc, err)
	}
	if _, err := db.conn.ExecContext(ctx, "SET VARIABLE time_zone = "+name); err != nil {
		return fmt.Errorf("report: set time_zone: %w", err)
	}
	return nil
}

// Export runs a query and streams its rows to w as "csv" or "json" (the
// formats of WriteResult) without holding the result in memory; "table"
// keeps at most maxQueryTableRows rows and counts the rest, fitted to the
// width SetTextWidth gave (120 columns by default).
func (db *DB) Export(ctx context.Context, w io.Writer, query, format string) error {
	return db.ExportWith(ctx, w, query, format, ExportOptions{})
}

// ExportWith is Export with options.
func (db *DB) ExportWith(ctx context.Context, w io.Writer, query, format string, opts ExportOptions) error {
	if format == "" || format == "table" {
		res, err := db.QueryN(ctx, query, maxQueryTableRows)
		if err != nil {
			return err
		}
		width := db.width
		if width <= 0 {
			width = textWidth
		}
		return writeResult(w, res, format, width)
	}
	rw, err := newRowWriter(w, format)
	if err != nil {
		return err
	}
	switch rw := rw.(type) {
	case *csvRows:
		rw.guard, rw.raw = opts.GuardFormulas, opts.Raw
	case *jsonRows:
		rw.raw = opts.Raw
	}
	if err := db.each(ctx, query, rw.head, rw.row); err != nil {
		return err
	}
	return rw.end()
}

// maxQueryTableRows caps a terminal table of `repaudit query`: aligning
// columns needs every row in memory.
const maxQueryTableRows = 10000

// tableFiles returns the files read_parquet reads for a table:
// DIR/NAME.parquet, or else the part files DIR/NAME/*.parquet of a
// directory the Beam pipeline (beam/) wrote, sorted. Each is named
// exactly (escaped, checked and allowed one by one), never by a pattern.
//
// A table file that is not a regular file (a named pipe, a device, a
// directory) is refused: DuckDB would block reading a FIFO nobody writes,
// deaf to signals, and the table's data would not be what was audited.
func tableFiles(abs, name string) ([]string, error) {
	p := filepath.Join(abs, name+".parquet")
	fi, err := os.Stat(p)
	if err == nil {
		if err := regular(p, fi); err != nil {
			return nil, err
		}
		return []string{p}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	entries, derr := os.ReadDir(filepath.Join(abs, name))
	if derr != nil {
		return nil, err
	}
	var parts []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".parquet") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		part := filepath.Join(abs, name, e.Name())
		fi, err := os.Stat(part)
		if err != nil {
			return nil, err
		}
		if err := regular(part, fi); err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return nil, err
	}
	return parts, nil
}

// ErrNotRegular reports a table file or manifest that is not a regular
// file.
var ErrNotRegular = errors.New("report: not a regular file")

// regular refuses a file that is not a regular one, naming its type.
func regular(p string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	kind := "special file"
	switch t := fi.Mode().Type(); {
	case t&fs.ModeNamedPipe != 0:
		kind = "named pipe"
	case t&fs.ModeDir != 0:
		kind = "directory"
	case t&fs.ModeSocket != 0:
		kind = "socket"
	case t&fs.ModeDevice != 0:
		kind = "device"
	}
	return fmt.Errorf("%s is a %s: %w", p, kind, ErrNotRegular)
}

// checkFiles compares each table file with the manifest's record of it:
// its size always, its SHA-256 with verify. A manifest without a record
// of a table (older versions, the Beam pipeline's part directories)
// leaves it to checkRows.
func checkFiles(m *output.Manifest, abs string, paths map[string][]string, verify bool) error {
	for _, tf := range m.Tables {
		p := filepath.Join(abs, filepath.FromSlash(tf.File))
		files, ok := paths[tf.Name]
		if !ok {
			continue // a table this version does not read
		}
		if len(files) != 1 || files[0] != p {
			return fmt.Errorf("table %s: read from %q, manifest.json records %s: %w", tf.Name, files, tf.File, ErrChanged)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("table %s: %w", tf.Name, err)
		}
		if fi.Size() != tf.Bytes {
			return fmt.Errorf("table %s: %s is %d bytes, manifest.json records %d: %w", tf.Name, tf.File, fi.Size(), tf.Bytes, ErrChanged)
		}
		if !verify {
			continue
		}
		sum, err := fileSHA256(p)
		if err != nil {
			return fmt.Errorf("table %s: %w", tf.Name, err)
		}
		if sum != tf.SHA256 {
			return fmt.Errorf("table %s: %s has SHA-256 %s, manifest.json records %s: %w", tf.Name, tf.File, sum, tf.SHA256, ErrChanged)
		}
	}
	return nil
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkRows compares the rows the Parquet footers of a table's files
// count with manifest.json's counts, reading no data.
func (db *DB) checkRows(ctx context.Context, name string, patterns []string) error {
	want, ok := db.manifest.Counts[name]
	if !ok {
		return nil
	}
	var got int64
	q := "SELECT CAST(coalesce(sum(num_rows), 0) AS BIGINT) FROM parquet_file_metadata([" + strings.Join(patterns, ", ") + "])"
	if err := db.conn.QueryRowContext(ctx, q).Scan(&got); err != nil {
		return fmt.Errorf("table %s: read row count: %w", name, err)
	}
	if got != want {
		return fmt.Errorf("table %s: %d rows, manifest.json counts %d: %w", name, got, want, ErrChanged)
	}
	return nil
}
