package main

import (
	"context"
	"fmt"
)

// runReport is being written; this placeholder is replaced by the real command.
func runReport(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit report: not built yet")
	return exitUsage
}
