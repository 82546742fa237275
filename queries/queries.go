package queries

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// Files holds every query file of this directory.
//
//go:embed *.sql
var Files embed.FS

// Query returns the text of the named query file; name may omit the ".sql"
// suffix. It returns "" when there is no such file.
func Query(name string) string {
	if !strings.HasSuffix(name, ".sql") {
		name += ".sql"
	}
	data, err := Files.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(data)
}

// Names lists the query names (file names without ".sql"), sorted.
func Names() []string {
	entries, _ := fs.ReadDir(Files, ".")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".sql"))
	}
	sort.Strings(names)
	return names
}
