//go:build cgo

package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// formatInterval writes an interval as DuckDB's own text form does:
// years, months and days, each when not zero, then the time part as
// [-]hh:mm:ss with the microseconds when there are any ("7 days
// 01:46:36", "1 year 2 months", "-00:00:01.5"). A zero interval is
// "00:00:00".
func formatInterval(iv duckdb.Interval) string {
	var parts []string
	unit := func(n int64, one string) {
		switch {
		case n == 1 || n == -1:
			parts = append(parts, strconv.FormatInt(n, 10)+" "+one)
		case n != 0:
			parts = append(parts, strconv.FormatInt(n, 10)+" "+one+"s")
		}
	}
	unit(int64(iv.Months/12), "year")
	unit(int64(iv.Months%12), "month")
	unit(int64(iv.Days), "day")
	if us := iv.Micros; us != 0 || len(parts) == 0 {
		sign := ""
		if us < 0 {
			sign, us = "-", -us
		}
		sec := us / 1e6
		t := fmt.Sprintf("%s%02d:%02d:%02d", sign, sec/3600, sec/60%60, sec%60)
		if frac := us % 1e6; frac != 0 {
			t += strings.TrimRight(fmt.Sprintf(".%06d", frac), "0")
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}
