package problem_test

import (
	"fmt"

	"github.com/repaudit/repaudit/problem"
)

func ExampleLookup() {
	e, ok := problem.Lookup(problem.KindProblem, problem.WARCTruncated)
	fmt.Println(ok, e.Code, e.Severity)
	fmt.Println(e.Meaning)
	// Output:
	// true warc-truncated error
	// input ends inside a record or compressed member; every record complete before the cut was read, the one the cut falls in is skipped
}

func ExampleDirective() {
	c := problem.Directive("bad-date") // extract.DiagBadDate
	_, ok := problem.Lookup(problem.KindProblem, c)
	fmt.Println(c, ok)
	// Output: directive-bad-date true
}
