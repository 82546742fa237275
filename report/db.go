package report

import (
	"context"
	dbsql "database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/marcboeker/go-duckdb/v2"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// Sentinel errors.
var (
	// ErrIncomplete reports a directory without manifest.json: a run that
	// did not finish (or not an audit directory). It wraps
	// output.ErrNoManifest.
	ErrIncomplete = fmt.Errorf("report: incomplete audit directory: %w", output.ErrNoManifest)
	// ErrNewerSchema reports tables written by a newer repaudit whose
	// schema this version does not know.
	ErrNewerSchema = errors.New("report: audit directory has a newer schema version")
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
}

// Open opens the audit directory dir with an in-memory DuckDB and registers
// each table as a view of the same name:
//
//	CREATE VIEW fetches AS SELECT * FROM read_parquet('DIR/fetches.parquet')
//
// A table may also be a directory of part files, DIR/fetches/*.parquet,
// as the Beam pipeline (beam/) writes them; the view then reads them all.
//
// It refuses a directory without manifest.json (an incomplete run) or with
// a newer schema version. The database never loads extensions from the
// network, the session uses the UTC time zone, and the DuckDB variable
// as_of holds the manifest's as-of time (NULL when it has none), so the
// files of package sql run unchanged.
func Open(ctx context.Context, dir string) (*DB, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("open audit %s: not a directory", dir)
	}
	m, err := output.ReadManifest(dir)
	if errors.Is(err, output.ErrNoManifest) {
		return nil, fmt.Errorf("open audit %s: %w", dir, ErrIncomplete)
	}
	if err != nil {
		return nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	if m.SchemaVersion > table.SchemaVersion {
		return nil, fmt.Errorf("open audit %s: schema %d, this repaudit reads up to %d: %w",
			dir, m.SchemaVersion, table.SchemaVersion, ErrNewerSchema)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open audit %s: %w", dir, err)
	}
	paths := make(map[string]string, len(table.Tables))
	for _, t := range table.Tables {
		p, err := tableFiles(abs, t.Name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("open audit %s: table %s missing: %w", dir, t.Name, err)
			}
			return nil, fmt.Errorf("open audit %s: %w", dir, err)
		}
		paths[t.Name] = p
	}
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
	d := &DB{dir: dir, manifest: m, connector: conn, db: dbsql.OpenDB(conn)}
	d.conn, err = d.db.Conn(ctx)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("open duckdb: %w", err)
	}
	for _, t := range table.Tables {
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet(%s)", t.Name, quote(paths[t.Name]))
		if _, err := d.conn.ExecContext(ctx, q); err != nil {
			d.Close()
			return nil, fmt.Errorf("open audit %s: table %s: %w", dir, t.Name, err)
		}
	}
	asOf := "CAST(NULL AS TIMESTAMPTZ)"
	if t, err := time.Parse(time.RFC3339Nano, m.AsOf); err == nil {
		asOf = "TIMESTAMPTZ " + quote(t.UTC().Format("2006-01-02 15:04:05.999999")+"+00")
	}
	if _, err := d.conn.ExecContext(ctx, "SET VARIABLE as_of = "+asOf); err != nil {
		d.Close()
		return nil, fmt.Errorf("open audit %s: set as_of: %w", dir, err)
	}
	return d, nil
}

// quote makes s a SQL string literal.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// Dir returns the audit directory.
func (db *DB) Dir() string { return db.dir }

// Manifest returns the directory's manifest.json.
func (db *DB) Manifest() *output.Manifest { return db.manifest }

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
	return err
}

// Result is the outcome of a query: column names and DuckDB type names,
// and the rows. Values are normalized to nil, bool, int64, float64, string,
// time.Time (timestamps in UTC; DATE columns at midnight UTC), []byte, or
// for nested types []any and map[string]any.
type Result struct {
	Columns []string
	Types   []string
	Rows    [][]any
	// More counts rows left out by a row limit (QueryN); 0 otherwise.
	More int64
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
		return fmt.Sprintf("%d months %d days %dus", x.Months, x.Days, x.Micros)
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

// tableFiles returns what read_parquet reads for a table: DIR/NAME.parquet,
// or else the pattern DIR/NAME/*.parquet of a directory of part files.
func tableFiles(abs, name string) (string, error) {
	p := filepath.Join(abs, name+".parquet")
	_, err := os.Stat(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return p, err
	}
	parts, gerr := filepath.Glob(filepath.Join(abs, name, "*.parquet"))
	if gerr != nil || len(parts) == 0 {
		return "", err
	}
	return filepath.Join(abs, name, "*.parquet"), nil
}
