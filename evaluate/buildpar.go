package evaluate

import (
	"runtime"
	"slices"
	"sync"

	"github.com/repaudit/repaudit/internal/par"
)

// Build's independent steps (issue 29: Build ran on one goroutine while
// the rest of a WARC audit used every core) run on GOMAXPROCS workers:
// the per-authority timelines and views, the pairing of captures, and
// the large sorts. Each step cuts its items into consecutive chunks,
// works on them in any order, and writes only what belongs to its own
// items or chunk; whatever the model shares (the group sets, the hosts,
// the problems, the streamed entries) is then merged on the calling
// goroutine in chunk order, so that the model is exactly the one the
// serial loop builds. With GOMAXPROCS 1 every step is the serial loop,
// on the calling goroutine.

// split is how Build cuts its steps: workers goroutines, and chunks of
// at least min items.
type split struct{ workers, min int }

// minChunk is the fewest items worth handing to a goroutine of their own.
const minChunk = 512

// buildSplit is Build's split: GOMAXPROCS workers (-j sets it), or
// Options.buildSplit's.
func buildSplit(o Options) split {
	if o.buildSplit > 0 {
		return split{workers: o.buildSplit, min: 1}
	}
	return split{workers: runtime.GOMAXPROCS(0), min: minChunk}
}

// chunkCount is how many chunks forChunks cuts n items into: one with a
// single worker or few items, else a few per worker, so that a worker
// done early takes another.
func (sp split) chunkCount(n int) int {
	if sp.workers <= 1 || n < 2*sp.min {
		return 1
	}
	return min(4*sp.workers, n/sp.min)
}

// chunkBounds returns chunk c of n items cut into k chunks: [lo, hi).
func chunkBounds(n, k, c int) (lo, hi int) {
	return c * n / k, (c + 1) * n / k
}

// forChunks calls fn(c, lo, hi) for each of the k chunks of n items
// (chunkCount), on up to sp.workers goroutines; with one chunk, on the
// calling goroutine. It returns k once every call has returned.
func (sp split) forChunks(n int, fn func(c, lo, hi int)) int {
	k := sp.chunkCount(n)
	if k == 1 {
		fn(0, 0, n)
		return 1
	}
	par.Each(sp.workers, k, func(c int) {
		lo, hi := chunkBounds(n, k, c)
		fn(c, lo, hi)
	})
	return k
}

// sortChunked sorts s by cmp as slices.SortFunc does (slices.
// SortStableFunc when stable), on up to sp.workers goroutines: each sorts a
// run of s, and the runs are merged pairwise, the left one's first on
// ties, so a stable sort stays stable. cmp must be a total order unless
// stable: the unstable result then equals slices.SortFunc's.
func sortChunked[T any](sp split, s []T, cmp func(a, b T) int, stable bool) {
	runs := 1
	if sp.workers > 1 && len(s) >= 8*sp.min {
		runs = sp.workers
	}
	if runs == 1 {
		if stable {
			slices.SortStableFunc(s, cmp)
		} else {
			slices.SortFunc(s, cmp)
		}
		return
	}
	bounds := make([]int, runs+1)
	for i := range bounds {
		bounds[i] = i * len(s) / runs
	}
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		go func(r []T) {
			defer wg.Done()
			if stable {
				slices.SortStableFunc(r, cmp)
			} else {
				slices.SortFunc(r, cmp)
			}
		}(s[bounds[i]:bounds[i+1]])
	}
	wg.Wait()
	mergeRuns(s, bounds, cmp)
}

// mergeRuns merges the sorted runs s[bounds[i]:bounds[i+1]] pairwise,
// each round's merges on goroutines of their own, until s is one run.
func mergeRuns[T any](s []T, bounds []int, cmp func(a, b T) int) {
	buf := make([]T, len(s))
	src, dst := s, buf
	for len(bounds) > 2 {
		var next []int
		var wg sync.WaitGroup
		for i := 0; i+1 < len(bounds); i += 2 {
			lo := bounds[i]
			next = append(next, lo)
			if i+2 >= len(bounds) { // an odd run out: carried over
				copy(dst[lo:], src[lo:bounds[i+1]])
				continue
			}
			mid, hi := bounds[i+1], bounds[i+2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				mergeTwo(dst[lo:hi], src[lo:mid], src[mid:hi], cmp)
			}()
		}
		wg.Wait()
		bounds = append(next, len(s))
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
	clear(buf) // its pointers
}

// mergeTwo merges the sorted runs a and b into out, a's first on ties.
func mergeTwo[T any](out, a, b []T, cmp func(x, y T) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			out[k] = b[j]
			j++
		} else {
			out[k] = a[i]
			i++
		}
		k++
	}
	k += copy(out[k:], a[i:])
	copy(out[k:], b[j:])
}
