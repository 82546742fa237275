package queries_test

import (
	"fmt"
	"strings"

	"github.com/repaudit/repaudit/queries"
)

func ExampleQuery() {
	q := queries.Query("totals")
	first, _, _ := strings.Cut(q, "\n")
	fmt.Println(first)
	// Output: -- totals.sql — one row of overall numbers for the report header.
}
