package input

import (
	"errors"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
)

// loadDNSDirs reads every --dns-dir: each regular, non-hidden file
// directly in it is a reverse-DNS snapshot as 'repaudit dns verify'
// writes it (identity.ParseDNSSnapshot). A file that is not one, or a bad
// line in one, is a problem and the run goes on; a directory that cannot
// be read, or holds no file, is an error. Nothing here touches the
// network: the lookups were made when the snapshot was written.
func loadDNSDirs(dirs []string, ids *identity.Store, problems *[]event.Problem) error {
	keep := func(p event.Problem) { *problems = append(*problems, p) }
	for _, dir := range dirs {
		if err := eachDirFile("--dns-dir", dir, errNoDNSSnapshots, func(p string) { loadDNSFile(p, ids, keep) }); err != nil {
			return err
		}
	}
	return nil
}

var errNoDNSSnapshots = errors.New("no files (run 'repaudit dns verify INPUT... --out DIR' first)")

// loadDNSFile adds one snapshot file to ids, reporting its problems to
// keep: a file in a --dns-dir and a snapshot among the inputs
// (ingest.KindDNS, see LoadDocument) are read alike.
func loadDNSFile(p string, ids *identity.Store, keep func(event.Problem)) {
	src := event.Source{File: p, Offset: -1}
	data, err := readDoc(p)
	if err == nil {
		var s *identity.DNSSnapshot
		var ps []identity.Problem
		s, ps, err = identity.ParseDNSSnapshot(data, p)
		if err == nil {
			for _, q := range ps {
				keep(identityProblem(q, q.Where)) // the file and line of the entry
			}
			ids.AddDNSSnapshot(s)
			return
		}
	}
	keep(event.Problem{Source: src, Code: problem.DNSUnreadable, Severity: event.SevError, Message: err.Error() + "; not used"})
}
