package output_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

func Example() {
	parent, _ := os.MkdirTemp("", "repaudit-example")
	defer os.RemoveAll(parent)
	dir := filepath.Join(parent, "audit")

	w, err := output.Create(dir, output.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Abort() // does nothing once Commit succeeded
	w.Fetch(&table.Fetch{FetchTime: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC), Agent: "GPTBot",
		URL: "https://example.com/private/a", RobotsVerdict: "disallowed"})
	if err := w.Commit(&output.Manifest{Version: "example", AsOf: "2025-03-02T00:00:00Z"}); err != nil {
		fmt.Println(err)
		return
	}
	m, _ := output.ReadManifest(dir)
	fmt.Println(m.Counts["fetches"], m.Counts["violations"], m.SchemaVersion)
	// Output: 1 0 3
}
