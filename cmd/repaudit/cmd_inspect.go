package main

import (
	"context"
	"fmt"
)

// runInspect is being written; this placeholder is replaced by the real command.
func runInspect(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit inspect: not built yet")
	return exitUsage
}
