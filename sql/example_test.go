package sql_test

import (
	"fmt"
	"strings"

	"github.com/repaudit/repaudit/sql"
)

func ExampleQuery() {
	q := sql.Query("totals")
	first, _, _ := strings.Cut(q, "\n")
	fmt.Println(first)
	// Output: -- totals.sql — one row of overall numbers for the report header.
}
