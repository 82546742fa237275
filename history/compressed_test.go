package history

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadFileCompressed: a gzipped robots.txt (as sniffing sees it,
// decompressed) is read decompressed, not refused as "not robots.txt".
func TestReadFileCompressed(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\n"
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(body))
	zw.Close()
	p := filepath.Join(t.TempDir(), "robots.txt.gz")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := ReadFile(p, time.Time{})
	if err != nil || string(v.Body) != body {
		t.Errorf("ReadFile = %q, %v; want the decompressed body", v.Body, err)
	}
}
