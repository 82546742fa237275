//go:build !cgo

package main

import (
	"context"
	"fmt"
	"io"
)

// A build with CGO_ENABLED=0 has no DuckDB, which report and query run on
// (package report keeps its DuckDB code in cgo-only files). Everything
// else, the audit included, is the same program and writes the same bytes.

// withoutDuckDB is appended to the summaries of report and query.
const withoutDuckDB = " (not in this build: needs cgo)"

func runReport(_ context.Context, args []string, std stdio) int {
	return needsDuckDB("report", args, std)
}

func runQuery(_ context.Context, args []string, std stdio) int {
	return needsDuckDB("query", args, std)
}

// needsDuckDB explains how to get the command name: on standard output
// with exit 0 when help was asked for, else on standard error with exit 2.
func needsDuckDB(name string, args []string, std stdio) int {
	w, code := std.Stderr, exitUsage
	for _, a := range args {
		if isHelp(a) {
			w, code = std.Stdout, exitOK
			break
		}
	}
	writeNeedsDuckDB(w, name)
	return code
}

func writeNeedsDuckDB(w io.Writer, name string) {
	fmt.Fprintf(w, "repaudit %s: this repaudit was built without cgo (CGO_ENABLED=0), so it has\n", name)
	usageText("needs-duckdb")(w)
}
