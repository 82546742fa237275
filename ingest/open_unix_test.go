//go:build unix

package ingest

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "input.log")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	return p
}

// TestOpenFIFOCancel: opening a named pipe nobody writes to returns when
// the context is cancelled (Ctrl-C), instead of hanging in open(2), and
// the goroutine left in open ends.
func TestOpenFIFOCancel(t *testing.T) {
	fifo := mkfifo(t)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	f, err := Open(ctx, fifo)
	if err == nil {
		f.Close()
		t.Fatal("Open of a FIFO without a writer succeeded")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Open took %v after cancel", d)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left after a cancelled open (had %d)", n, before)
	}
	// Already cancelled: no open at all.
	if _, err := Open(ctx, fifo); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a done context: got %v", err)
	}
}

// TestOpenFIFOReads: with a writer, the pipe opens and reads normally; a
// read waiting on a stalled writer returns once the context is done.
func TestOpenFIFOReads(t *testing.T) {
	fifo := mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writerOpen := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			writerOpen <- nil
			return
		}
		w.Write([]byte("first line\n"))
		writerOpen <- w // keep it open and silent: a stalled writer
	}()
	f, err := Open(ctx, fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := <-writerOpen
	if w == nil {
		t.Fatal("writer could not open the FIFO")
	}
	defer w.Close()
	stop := WatchReads(ctx, f)
	defer stop()
	buf := make([]byte, 64)
	n, err := f.Read(buf)
	if err != nil || string(buf[:n]) != "first line\n" {
		t.Fatalf("first read: %q, %v", buf[:n], err)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err = f.Read(buf)
	if err == nil || err == io.EOF {
		t.Errorf("read on a stalled pipe after cancel: got %v, want an error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("read returned %v after cancel", d)
	}
}

// TestOpenRegular: a regular file opens as with os.Open, and WatchReads
// leaves its reads alone after cancel.
func TestOpenRegular(t *testing.T) {
	p := write(t, t.TempDir(), "a.log", []byte(combinedLine))
	ctx, cancel := context.WithCancel(context.Background())
	f, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stop := WatchReads(ctx, f)
	defer stop()
	cancel()
	time.Sleep(10 * time.Millisecond)
	if data, err := io.ReadAll(f); err != nil || string(data) != combinedLine {
		t.Errorf("read after cancel: %q, %v", data, err)
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
}
