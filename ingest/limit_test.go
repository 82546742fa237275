package ingest

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// TestReadOrder: Stats count adjacent times going forward and backward,
// and Digest covers every stored byte.
func TestReadOrder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.log")
	first := combinedLine // 10:00:00, then 10:00:05
	later := `192.0.2.1 - - [12/Mar/2025:09:00:00 +0000] "GET /b HTTP/1.1" 200 10 "-" "x"` + "\n"
	os.WriteFile(p, []byte(first+later), 0o644)
	f := File{Path: p, Kind: KindLog, Format: "combined"}
	h := sha256.New()
	st, err := Read(context.Background(), f, Options{Digest: h}, Handler{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Fetches != 3 || st.Ascending != 1 || st.Descending != 1 {
		t.Errorf("whole: %d fetches, ascending %d descending %d; want 3, 1, 1", st.Fetches, st.Ascending, st.Descending)
	}
	if want := sha256.Sum256([]byte(first + later)); string(h.Sum(nil)) != string(want[:]) {
		t.Errorf("digest does not cover the file")
	}
}

// TestReadSpool: a File with Spool reads the copy and names records and
// problems after Path.
func TestReadSpool(t *testing.T) {
	dir := t.TempDir()
	spool := filepath.Join(dir, "copy")
	os.WriteFile(spool, []byte(combinedLine), 0o644)
	f := File{Path: "-", Spool: spool, Kind: KindLog, Format: "combined"}
	var files []string
	st, err := Read(context.Background(), f, Options{}, Handler{Fetch: func(ft *event.Fetch) error {
		files = append(files, ft.Source.File)
		return nil
	}})
	if err != nil || st.Fetches != 2 || len(files) != 2 || files[0] != "-" {
		t.Errorf("fetches %d from %v (err %v), want 2 named -", st.Fetches, files, err)
	}
}
