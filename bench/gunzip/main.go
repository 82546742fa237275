// Command gunzip decompresses files with github.com/klauspost/compress/gzip
// (the decoder repaudit reads .warc.gz with) and discards the bytes: the
// floor bench/inspect compares `repaudit inspect` with. Files are read
// concurrently, GOMAXPROCS at a time, like inspect reads them.
//
//	go run ./bench/gunzip FILE...
//
// It prints the compressed and decompressed bytes and the gzip members
// read to standard error.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gunzip FILE...")
		os.Exit(2)
	}
	var in, out atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	failed := atomic.Bool{}
	for _, p := range os.Args[1:] {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			n, u, err := gunzip(p)
			in.Add(n)
			out.Add(u)
			if err != nil {
				fmt.Fprintf(os.Stderr, "gunzip: %s: %v\n", p, err)
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	fmt.Fprintf(os.Stderr, "gunzip: %d files, %d bytes stored, %d decompressed\n", len(os.Args)-1, in.Load(), out.Load())
	if failed.Load() {
		os.Exit(1)
	}
}

func gunzip(path string) (stored, decompressed int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 256<<10))
	if err != nil {
		return 0, 0, err
	}
	u, err := io.Copy(io.Discard, zr)
	st, _ := f.Seek(0, io.SeekCurrent)
	return st, u, err
}
