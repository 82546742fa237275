package main

import (
	"context"
	"fmt"
)

// runRobots is being written; this placeholder is replaced by the real command.
func runRobots(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stderr, "repaudit robots: not built yet")
	return exitUsage
}
