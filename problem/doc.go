// Package problem is the one registry of the codes repaudit reports: problem
// codes (the `code` column of problems.parquet), notice codes
// (manifest.json "notices") and not-judged reasons
// (fetches.not_judged_reason). Each code has one constant here and one
// registry entry with its severity and meaning; docs/problems.md is rendered
// from the registry.
//
// Producers use the constants, never string literals:
//
//	r.addProblem(event.Problem{Source: src, Code: problem.WARCTruncated, Severity: problem.Error, Message: msg})
//
// The package's tests hold the registry to the code base: every constant
// is in the registry, every registered code is used by some producer, no
// producer writes a registered code as a string literal, every code the
// documentation names in backquotes exists, and docs/problems.md is in
// step with the registry ('go test ./problem -update' rewrites it).
//
// The package imports nothing of repaudit's, so every layer can use it;
// event.Problem carries a Code.
package problem
