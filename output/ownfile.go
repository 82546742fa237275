package output

import (
	"os"
	"path/filepath"

	"github.com/repaudit/repaudit/table"
)

// OwnFile says whether path is one of the files of the audit directory
// dir (a table or the manifest), by name or through a link, and which:
// a command writing to path would replace the data it was made from. A
// path that does not exist is none of them.
func OwnFile(dir, path string) (name string, ok bool) {
	pst, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	names := []string{ManifestName}
	for _, t := range table.Tables {
		names = append(names, t.Name+".parquet")
	}
	for _, n := range names {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && os.SameFile(st, pst) {
			return n, true
		}
	}
	return "", false
}
