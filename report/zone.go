package report

import (
	"fmt"
	"time"
)

// LoadZone reads a time zone for Options.Location: an IANA zone name
// such as Europe/Berlin or UTC, from the system's zone database or the
// copy built into the binary (time/tzdata). "Local" is refused: a report
// should say which zone it shows.
func LoadZone(name string) (*time.Location, error) {
	if name == "Local" {
		return nil, fmt.Errorf("want a zone name like Europe/Berlin, not %q", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q (want an IANA name like Europe/Berlin or UTC)", name)
	}
	return loc, nil
}
