package robots

import "time"

// ACAP holds the ACAP 1.0 records of a robots.txt file.
type ACAP struct {
	Version               string // from "##ACAP version=" ("" if absent)
	IgnoreConventional    bool   // ACAP-ignore-conventional-records present (ACAP §2.9)
	Records               []ACAPRecord
	TakeDowns             []ACAPRequest // ACAP-request-take-down
	ReCrawls              []ACAPRequest // ACAP-request-re-crawl
	PermissionsReferences []string      // ACAP-permissions-reference values; never fetched
}

// ACAPRecord is one ACAP permission record (ACAP-allow-*/ACAP-disallow-*).
type ACAPRecord struct {
	Crawler    string // crawler name of its block ("*" or the name)
	Allow      bool
	Usage      string // usage type, lower case, e.g. "present-snippet"; "(name)" for local usages
	Resource   string // resource path pattern or resource set reference as written
	Qualifiers []Qualifier
	TimeLimit  *TimeLimit
	Line       int
	Text       string // the record as written
}

// ACAPRequest is an ACAP-request-take-down or ACAP-request-re-crawl record.
type ACAPRequest struct {
	Crawler  string
	Resource string
	Line     int
	Text     string
}

// Qualifier is a usage qualifier such as max-length=200.
type Qualifier struct {
	Name  string
	Value string
}

// TimeLimit is the time-limit qualifier of a preserve or present permission.
type TimeLimit struct {
	Kind  string    // "until-recrawled", "until-date" or "days"
	Until time.Time // UTC, for "until-date"
	Days  int       // for "days"
	Text  string    // as written
}

// ACAPVerdict is the answer of File.ACAPCheck with its evidence.
type ACAPVerdict struct {
	Applies    bool // false when no ACAP record speaks to this crawler and usage
	Allowed    bool
	Crawler    string // crawler name of the record block used ("*" or the name)
	Usage      string // usage asked about, lower case
	Record     string // deciding record as written
	Line       int
	TimeLimit  *TimeLimit
	Qualifiers []Qualifier
	Reason     string
}

// ACAPCheck answers "may crawler agent do usage on target" under ACAP 1.0.
func (f *File) ACAPCheck(agent, usage, target string) ACAPVerdict {
	return f.acapCheck(agent, usage, target)
}

// TakeDownFor returns the take-down requests addressed to agent (or to all
// crawlers) that cover target.
func (f *File) TakeDownFor(agent, target string) []ACAPRequest {
	return f.takeDownFor(agent, target)
}
