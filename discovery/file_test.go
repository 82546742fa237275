package discovery

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/warc"
)

func TestFileRunWriteFile(t *testing.T) {
	srv := registry04Server(t)
	client := netfetch.New(netfetch.Options{AllowPrivate: true, TLSConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig})
	entries, probs := identity.ParseRegistry(strings.NewReader(srv.URL+"/heron\n"+srv.URL+"/other\n"), "reg")
	run := FileRun{Client: client, MaxBytes: 1 << 20, Now: func() time.Time { return fetchTime }, UserAgent: "ua/1", Software: "sw/1"}
	dir := t.TempDir()
	path := filepath.Join(dir, "cards.warc.gz")
	var got []Entry
	failed, records, err := run.WriteFile(context.Background(), path, "reg", entries, probs, func(e Entry) { got = append(got, e) })
	if err != nil || failed != 1 || len(got) != 2 {
		t.Fatalf("failed %d, %d entries, err %v; want 1, 2, nil", failed, len(got), err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := warc.NewReader(f, path, warc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		if _, err := r.Next(); err != nil {
			break
		}
		n++
	}
	if n != records || records < 4 {
		t.Errorf("read %d records, WriteFile said %d (want the warcinfo and the exchanges)", n, records)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path2 := filepath.Join(dir, "none.warc.gz")
	if _, _, err := run.WriteFile(ctx, path2, "reg", entries, probs, func(Entry) {}); err == nil {
		t.Error("cancelled: no error")
	}
	if _, err := os.Stat(path2); !os.IsNotExist(err) {
		t.Errorf("cancelled: output exists (%v)", err)
	}
}
