package problem

// severityRank orders the severities from least to most serious.
var severityRank = map[string]int{Info: 0, Warning: 1, Error: 2}

// CountAtOrAbove counts the problems of severity level or worse in
// bySeverity (counts by severity, as audit.Summary.ProblemsBySeverity
// holds them). A severity it does not know counts: a problem is never let
// pass unseen.
func CountAtOrAbove(bySeverity map[string]int64, level string) int64 {
	var n int64
	for sev, c := range bySeverity {
		if r, ok := severityRank[sev]; !ok || r >= severityRank[level] {
			n += c
		}
	}
	return n
}
