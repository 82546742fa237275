package input

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
)

// countingHash is a SHA-256 that counts the bytes written to it.
type countingHash struct {
	hash.Hash
	n int64
}

func newCountingHash() *countingHash { return &countingHash{Hash: sha256.New()} }

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.Hash.Write(p)
}

func (c *countingHash) hex() string { return hex.EncodeToString(c.Sum(nil)) }

// hashBehind returns a writer that hands copies of what it is given to
// w, in order, on a goroutine of its own; end returns once w has had
// every byte. Writes never fail (w is a hash).
func hashBehind(w io.Writer) (io.Writer, func()) {
	full := make(chan []byte, 4)
	free := make(chan []byte, 6)
	for range cap(free) {
		free <- nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range full {
			w.Write(b)
			free <- b[:0]
		}
	}()
	return behindWriter{full, free}, func() {
		close(full)
		<-done
	}
}

type behindWriter struct{ full, free chan []byte }

func (b behindWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		b.full <- append(<-b.free, p...) // the caller reuses p
	}
	return len(p), nil
}
