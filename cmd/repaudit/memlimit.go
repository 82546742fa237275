package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/repaudit/repaudit/internal/memlimit"
)

// defaultMemoryLimit is the soft memory limit of `repaudit audit` when
// neither --memory-limit nor GOMEMLIMIT gives one (memlimit.Default).
const defaultMemoryLimit = memlimit.Default

// memLimitFlag is --memory-limit: a size (1GiB, 300MiB, 500MB, a number
// of bytes), or off. Unset, GOMEMLIMIT decides when the environment sets
// it, else defaultMemoryLimit.
type memLimitFlag struct {
	set   bool
	bytes int64 // 0: off
}

func (m *memLimitFlag) String() string {
	switch {
	case !m.set:
		return ""
	case m.bytes == 0:
		return "off"
	}
	return strconv.FormatInt(m.bytes, 10)
}

func (m *memLimitFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		m.set, m.bytes = true, 0
		return nil
	}
	n, ok := parseSize(s)
	if !ok || n >= math.MaxInt64 {
		return fmt.Errorf("%q is not a size such as 300MiB, 1GiB or off", s)
	}
	if n < 32<<20 {
		return fmt.Errorf("%q is below 32MiB, less than the program itself needs", s)
	}
	m.set, m.bytes = true, int64(n)
	return nil
}

// applyMemoryLimit sets the soft memory limit an audit runs under (see
// memlimit.Apply); stop puts back the one before.
func applyMemoryLimit(m memLimitFlag, getenv func(string) string) (stop func()) {
	return memlimit.Apply(m.set, m.bytes, getenv)
}
