package main

import (
	"strconv"
	"strings"
)

// sizeUnits are the units size flags (--max-bytes, --memory-limit)
// accept: B, KiB, MiB, GiB, TiB and K, M, G are powers of 1024; kB (or
// KB), MB, GB, TB powers of 1000; no unit is bytes.
var sizeUnits = map[string]float64{
	"": 1, "B": 1,
	"K": 1 << 10, "KiB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20, "G": 1 << 30, "GiB": 1 << 30, "TiB": 1 << 40,
	"KB": 1e3, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
}

// parseSize reads a positive number with an optional unit of
// sizeUnits ("512KiB", "1.5GB", "100000"), in bytes; ok is false for
// anything else.
func parseSize(s string) (bytes float64, ok bool) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	mult := sizeUnits[unit]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f <= 0 {
		return 0, false
	}
	return f * mult, true
}
