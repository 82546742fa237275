package main

import (
	"context"
	"fmt"
)

// runSignature is being written; this placeholder is replaced by the real command.
func runSignature(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit signature: not built yet")
	return exitUsage
}
