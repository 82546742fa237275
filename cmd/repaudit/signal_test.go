//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAuditSignalCleansUp: every signal that ends a run (SIGINT, SIGTERM,
// SIGHUP) leaves neither the spool directory nor the partial output
// behind. The run reads a pipe that stays open, so it is still in pass 1
// when the signal comes, with its spool on disk.
func TestAuditSignalCleansUp(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out")
			cmd := exec.Command(os.Args[0], "audit", "-", "--site", "https://www.example.com", "--out", out, "-q", "-j", "1")
			cmd.Env = append(os.Environ(), "REPAUDIT_TEST_MAIN=1")
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Lines as long as the run lives: enough for the spool to move
			// to a file (more than spoolMemPerFile coded), and then more,
			// so the run is never blocked in a read of the pipe, which
			// the signal could not interrupt (os.Stdin is not pollable).
			go func() {
				bw := bufio.NewWriter(in)
				start := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
				for i := 0; ; i++ {
					fmt.Fprintf(bw, "192.0.2.7 - - [%s] \"GET /p/%016x HTTP/1.1\" 200 512 \"-\" \"GPTBot/1.2\"\n",
						start.Add(time.Duration(i)*time.Second).Format("02/Jan/2006:15:04:05 -0700"), uint64(i)*0x9E3779B97F4A7C15)
					if i%1000 == 999 {
						if bw.Flush() != nil {
							return // the run ended
						}
						if i > 40000 {
							time.Sleep(time.Millisecond)
						}
					}
				}
			}()
			deadline := time.After(2 * time.Minute)
			for {
				spools, _ := filepath.Glob(filepath.Join(tmp, ".repaudit-spool-*", "fetches-*"))
				partial, _ := filepath.Glob(out + ".partial-*")
				if len(spools) > 0 && len(partial) > 0 {
					break
				}
				select {
				case err := <-done:
					t.Fatalf("the run ended (%v) before its spool was on disk", err)
				case <-deadline:
					cmd.Process.Kill()
					t.Fatal("no spool file within 2 minutes")
				case <-time.After(5 * time.Millisecond):
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
				in.Close()
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				t.Fatalf("the run did not end within a minute of %v", sig)
			}
			left, _ := filepath.Glob(filepath.Join(tmp, "*")) // hidden names too
			if len(left) > 0 {
				t.Errorf("after %v the run left %v", sig, left)
			}
		})
	}
}
