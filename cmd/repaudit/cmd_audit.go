package main

import (
	"context"
	"fmt"
)

// runAudit is being written; this placeholder is replaced by the real command.
func runAudit(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit audit: not built yet")
	return exitUsage
}
