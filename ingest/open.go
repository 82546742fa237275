package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"time"
)

// Open opens the input name for reading, giving up when ctx is done.
//
// Opening a named pipe blocks until a writer opens its other end, which
// may be never; a plain os.Open would then hang deaf to Ctrl-C and
// SIGTERM. Open waits for the open in a goroutine and returns ctx's error
// as soon as ctx is done; on Unix it then opens the pipe's write end
// without blocking and closes it, which completes the abandoned open so
// that goroutine can close the file and end.
//
// Reads from the file can block too (a pipe whose writer stalls): pair
// Open with WatchReads.
func Open(ctx context.Context, name string) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		done <- opened{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
		go func() {
			releaseOpen(name)
			if r := <-done; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, fmt.Errorf("open %s: %w", name, ctx.Err())
	}
}

// WatchReads makes a read of f that is blocked waiting for data (a pipe,
// a terminal) return an error once ctx is done, by setting a read
// deadline; reads of regular files never wait and are not affected. Call
// the returned stop when done with f.
func WatchReads(ctx context.Context, f *os.File) (stop func() bool) {
	return context.AfterFunc(ctx, func() {
		f.SetReadDeadline(time.Now()) // ErrNoDeadline for regular files: nothing to unblock
	})
}

// FileSHA256 returns the hex SHA-256 of the file's stored bytes, for the
// manifest of an input read whole elsewhere (documents, listings).
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
