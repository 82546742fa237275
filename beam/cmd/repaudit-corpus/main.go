// Command repaudit-corpus writes the generated corpora the Beam pipeline
// is compared and measured on:
//
//	repaudit-corpus -out DIR [-hosts 120] [-lines 1000000] [-logs 8] [-warcs 4]
//	repaudit-corpus -cc -out DIR      # a tiny Common Crawl-shaped segment
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/repaudit/repaudit/beam/internal/corpus"
)

func main() {
	out := flag.String("out", "", "output `DIR` (required)")
	cc := flag.Bool("cc", false, "write a tiny Common Crawl-shaped segment (robotstxt/ and warc/) instead")
	hosts := flag.Int("hosts", 120, "sites")
	lines := flag.Int("lines", 1000000, "access log lines")
	logs := flag.Int("logs", 8, "vhost_combined log files (plus one host-less combined log)")
	warcs := flag.Int("warcs", 4, "WARC files")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "repaudit-corpus: -out DIR is required")
		os.Exit(2)
	}
	var err error
	if *cc {
		err = corpus.GenerateCC(*out, *hosts)
	} else {
		err = corpus.Generate(*out, corpus.Options{Hosts: *hosts, Lines: *lines, LogFiles: *logs, WARCs: *warcs, Seed: *seed})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "repaudit-corpus:", err)
		os.Exit(1)
	}
}
