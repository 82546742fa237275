//go:build cgo

package report

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// ErrNotAllowed reports a statement a DB opened without
// OpenOptions.AllowExternal refuses to run: one that could write a file,
// attach a database, load an extension or change settings.
var ErrNotAllowed = errors.New("report: statement disabled: with external access off the SQL may only read the audit's tables")

// runChecked runs every statement of query but the last, after DuckDB has
// prepared each on its own and allowStatement has passed its type, and
// returns the last statement's text, checked the same way, for the caller
// to run. Nothing runs unless DuckDB parsed it as exactly one statement of
// an allowed type.
func (db *DB) runChecked(ctx context.Context, query string) (string, error) {
	stmts := splitStatements(query)
	if len(stmts) == 0 {
		return "", errors.New("no statement")
	}
	for i, q := range stmts {
		err := db.conn.Raw(func(dc any) error {
			c, ok := dc.(*duckdb.Conn)
			if !ok {
				return fmt.Errorf("driver connection is a %T", dc)
			}
			// Prepare, unlike PrepareContext, refuses text of more than
			// one statement instead of running all but the last.
			ds, err := c.Prepare(q)
			if err != nil {
				return err
			}
			defer ds.Close()
			st := ds.(*duckdb.Stmt)
			typ, err := st.StatementType()
			if err != nil {
				return err
			}
			if err := allowStatement(typ, q); err != nil {
				return err
			}
			if i < len(stmts)-1 {
				_, err = st.ExecContext(ctx, nil)
			}
			return err
		})
		if err != nil {
			return "", err
		}
	}
	return stmts[len(stmts)-1], nil
}

// allowStatement passes the statement types that read, or change only the
// in-memory session: queries, temporary tables, views and macros and their
// rows, transactions, and SET (variables; the configuration is locked, so
// DuckDB refuses a SET of a setting). It refuses COPY and EXPORT (they
// write files, the audit's own tables included: DuckDB allows writing
// wherever it allows reading), ATTACH and DETACH, INSTALL and LOAD, CALL,
// PRAGMA, PREPARE and EXECUTE (which would run a statement unseen), and
// EXPLAIN ANALYZE (which runs the statement it explains).
func allowStatement(typ duckdb.StmtType, q string) error {
	switch typ {
	case duckdb.STATEMENT_TYPE_SELECT, duckdb.STATEMENT_TYPE_INSERT, duckdb.STATEMENT_TYPE_UPDATE,
		duckdb.STATEMENT_TYPE_DELETE, duckdb.STATEMENT_TYPE_CREATE, duckdb.STATEMENT_TYPE_ALTER,
		duckdb.STATEMENT_TYPE_DROP, duckdb.STATEMENT_TYPE_TRANSACTION, duckdb.STATEMENT_TYPE_SET,
		duckdb.STATEMENT_TYPE_VARIABLE_SET:
		return nil
	case duckdb.STATEMENT_TYPE_EXPLAIN:
		// Plain EXPLAIN only plans; any mention of ANALYZE is refused
		// rather than parsed.
		l := strings.ToLower(q)
		if !strings.Contains(l, "analyze") && !strings.Contains(l, "analyse") {
			return nil
		}
		return fmt.Errorf("EXPLAIN ANALYZE: %w", ErrNotAllowed)
	}
	return fmt.Errorf("%s statement: %w", statementName(typ), ErrNotAllowed)
}

// statementName names a statement type for an error message.
func statementName(typ duckdb.StmtType) string {
	switch typ {
	case duckdb.STATEMENT_TYPE_COPY:
		return "COPY"
	case duckdb.STATEMENT_TYPE_EXPORT:
		return "EXPORT"
	case duckdb.STATEMENT_TYPE_ATTACH:
		return "ATTACH"
	case duckdb.STATEMENT_TYPE_DETACH:
		return "DETACH"
	case duckdb.STATEMENT_TYPE_LOAD:
		return "LOAD"
	case duckdb.STATEMENT_TYPE_EXTENSION:
		return "INSTALL"
	case duckdb.STATEMENT_TYPE_CALL:
		return "CALL"
	case duckdb.STATEMENT_TYPE_PRAGMA:
		return "PRAGMA"
	case duckdb.STATEMENT_TYPE_PREPARE:
		return "PREPARE"
	case duckdb.STATEMENT_TYPE_EXECUTE:
		return "EXECUTE"
	case duckdb.STATEMENT_TYPE_VACUUM:
		return "VACUUM"
	case duckdb.STATEMENT_TYPE_ANALYZE:
		return "ANALYZE"
	}
	return fmt.Sprintf("type %d", typ)
}
