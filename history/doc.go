// Package history reads the versions of a site's robots.txt as sites keep
// them, so that a publisher without WARC captures of their own site can
// still be audited: a plain file (in force from a given time, or for the
// whole data range), the history of the file in a git repository (each
// commit that changed it, in force from its committer time), and a
// directory of dated snapshots (2025-03-01.txt, robots-2025-03-01T12:00:00Z.txt).
// The Wayback Machine's captures come as a WARC written by `repaudit
// robots history` and are read like any other WARC.
//
// These say what the site served. A bot's view still comes from its own
// robots.txt fetches in the logs: the content it got is the version in
// force when it fetched (see package evaluate).
//
// Usage:
//
//	vs, probs, err := history.ReadGit("site-repo", "public/robots.txt")
//	for _, v := range vs {
//		// v.From, v.Body (nil and v.Absent when a commit removed the file),
//		// v.Ref = "site-repo@0123456789ab:public/robots.txt"
//	}
//
// Each Version carries a Ref a person can open to check it, and the
// evidence of every finding that relies on it quotes that Ref.
package history
