package main

import (
	"context"
	"fmt"
)

// runCards is being written; this placeholder is replaced by the real command.
func runCards(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit cards: not built yet")
	return exitUsage
}
