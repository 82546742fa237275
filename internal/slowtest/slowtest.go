// Package slowtest gates the repository's slow integration tests: the
// ones that build a second binary, start a browser, or run large generated
// corpora and real archives through whole code paths. Plain `go test ./...`
// skips them (or runs a smaller input) so that it stays quick on a small
// machine; with REPAUDIT_SLOW=1 in the environment they run in full, and
// CI (.ci/run) always sets it, so every gated test still runs there.
//
// A test opts in at its top:
//
//	func TestWholeCorpus(t *testing.T) {
//		slowtest.Skip(t, "audits a generated corpus of 200000 lines")
//		...
//	}
//
// or, where a small input already proves the point and a large one only
// adds confidence, picks its size:
//
//	n := slowtest.Size(20_000, 200_000)
//
// -short still wins: with -short, Enabled is false whatever the
// environment says.
package slowtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the slow tests on when set
// to "1".
const Env = "REPAUDIT_SLOW"

// Enabled reports whether the slow tests run: Env is "1" and the test
// binary was not given -short. Call it from a test, after flag parsing.
func Enabled() bool {
	return os.Getenv(Env) == "1" && !testing.Short()
}

// Skip skips tb unless the slow tests run; why says what makes it slow
// and appears in the skip message with how to run it.
func Skip(tb testing.TB, why string) {
	tb.Helper()
	if !Enabled() {
		tb.Skip(skipMessage(why))
	}
}

func skipMessage(why string) string {
	return "slow (" + why + "): run with " + Env + "=1"
}

// Size returns big when the slow tests run and small otherwise.
func Size(small, big int) int {
	if Enabled() {
		return big
	}
	return small
}
