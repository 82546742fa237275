// Package par runs the numbered items of a job on several goroutines:
// pass 1's files (package audit) and Build's chunks (package evaluate).
package par

import (
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in 0..n-1 on up to workers goroutines,
// each taking the next item not yet taken, and returns once every call
// has returned.
func Each(workers, n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
