package main

import (
	"context"
	"fmt"
)

// runQuery is being written; this placeholder is replaced by the real command.
func runQuery(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit query: not built yet")
	return exitUsage
}
