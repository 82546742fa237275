//go:build !unix

package warc

import "time"

func cpuTime() time.Duration { return 0 }
