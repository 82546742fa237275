package pipeline

import (
	"hash/crc32"
	"reflect"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Side inputs and the runner's readiness (beam/README.md, "Side inputs").
//
// A stage that reads a side input must not run before that side input is
// complete: a routeFn that saw only part of the shared facts settles no
// site and keys host-less fetches apart from their site's robots.txt
// captures, and a judgeFn builds its world (site, crawlers, identity)
// once, from whatever it saw. The Beam model holds a main input back until
// its side inputs are ready, but Prism (the Go SDK's local runner) lets a
// stage run as soon as the side input's producer is not behind the main
// input's watermark; in a batch run every element is at the minimum
// timestamp, so a stage fed by an early bundle of the read stage may run
// while the shared facts are still being combined. That happened in CI:
// the own-site test's log fetches were judged in a partition of their own,
// with no robots.txt version.
//
// So every main input that reads a side input built from the inputs is
// held behind a GroupByKey whose input also takes a gate: an empty
// collection made from each side input, which a runner can only finish
// after the side input itself. A GroupByKey fires once all of its input is
// done, so the stage after it sees complete side inputs on any runner.
//   - Host-less events wait for the shared facts before routeFn settles
//     their site (the log lines of one site, spread over a few keys).
//   - The judging stage's partitions already sit behind a GroupByKey: it
//     takes the gates of the shared facts, the identity documents and the
//     line offsets, and the output of worldFn, which writes them to the
//     file the judging stage loads them from (world.go).
//   - Hot partitions (hot.go): scanFn reads the routed batches grouped by
//     partition and counts their fetches itself (no side input); splitFn
//     reads the plans, so the batches of hot partitions alone wait for
//     them behind a GroupByKey of their own. That moves a run's events
//     through the runner once more; --hot-fetches=-1 (no hot partitions)
//     leaves it out.
//   - finalizeFn reads no side input: its inputs (parts, files, shared
//     facts) are grouped under one key, which fires once all are done.
//   - worldFn's main input is an impulse, whose watermark is at the end
//     of time at once: it waits for its side inputs on Prism too.

// testStageHook, when set (by a test, before the pipeline runs: the
// runner is in-process), is called as a side input's producer starts on
// an element: "settle" (the shared facts), "files" (split files' line
// offsets) and "plan" (the hot partitions' plans). A test slows them down to find a stage that reads them early.
var testStageHook func(stage string)

// stageHook calls testStageHook, if set.
func stageHook(stage string) {
	if testStageHook != nil {
		testStageHook(stage)
	}
}

// gateOn returns an empty collection of KV<string, []byte> that is done
// only once each of pcols (of []byte or of string) is.
func gateOn(s beam.Scope, pcols ...beam.PCollection) beam.PCollection {
	s = s.Scope("gate")
	gates := make([]beam.PCollection, len(pcols))
	for i, p := range pcols {
		var drop any = dropAll
		if p.Type().Type() == reflect.TypeFor[string]() {
			drop = dropAllStrings
		}
		gates[i] = beam.ParDo(s, drop, p)
	}
	return beam.Flatten(s, gates...)
}

// dropAll and dropAllStrings emit nothing: their output is done when
// their input is.
func dropAll(_ []byte, _ func(string, []byte))        {}
func dropAllStrings(_ string, _ func(string, []byte)) {}

// hold returns the batches of pcol (KV<string, []byte>) again, from behind
// a GroupByKey that also waits for gates (gateOn).
func hold(s beam.Scope, pcol beam.PCollection, gates ...beam.PCollection) beam.PCollection {
	g := beam.GroupByKey(s, beam.Flatten(s, append([]beam.PCollection{pcol}, gates...)...))
	return beam.ParDo(s, ungroup, g)
}

// ungroup emits each batch of a key.
func ungroup(key string, batches func(*[]byte) bool, emit func(string, []byte)) {
	var b []byte
	for batches(&b) {
		emit(key, b)
		b = nil // the batch is the emitted element's
	}
}

// splitHostless sends the events of a known partition on, and those
// without one (key "") to the stage that settles their site. A large log
// of one site is all host-less: its batches are spread over hostlessKeys
// keys (a NUL byte and a number, which no host[:port] is) by a checksum of
// their last bytes, so that more than one worker moves them on.
func splitHostless(key string, batch []byte, keyed, hostless func(string, []byte)) {
	if key == "" {
		tail := batch[max(0, len(batch)-64):]
		hostless("\x00"+strconv.Itoa(int(crc32.ChecksumIEEE(tail)%hostlessKeys)), batch)
		return
	}
	keyed(key, batch)
}

// hostlessKeys is how many keys host-less batches are spread over.
const hostlessKeys = 16
