package pipeline

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/output"
)

// Record kinds: what one element of the partition stage holds.
const (
	kindCapture = 'c' // a capture (of this partition, or a redirect target of another)
	kindFetch   = 'f' // a fetch, judged in the partition
	kindIndex   = 'i' // an index listing entry
	kindSnippet = 's' // a snippet listing entry
	kindSite    = 'v' // a version of the site's own robots.txt (--robots, --robots-git, --robots-dir, a robots.txt input)
)

// record is one event crossing from the read stage to a partition. The
// events keep every field the evaluation reads; capture bodies travel
// only where the Builder reads them (evaluate.NeedsBody).
type record struct {
	Kind  byte  `json:"k"`
	Model bool  `json:"m,omitempty"` // fetch also given to Builder.AddFetch (pass 1)
	File  int   `json:"i,omitempty"` // input index, for the fetch order
	Split int   `json:"p,omitempty"` // byte range of a split file (split.go)
	Seq   int64 `json:"q,omitempty"` // position among the fetches of the file (or of its range)
	// Replica marks a fetch of a hot partition's shard that another shard
	// judges (hot.go): a robots.txt fetch or WARC request record given to
	// every shard's model and view tracker, judged by one.
	Replica bool                   `json:"r,omitempty"`
	Fetch   *event.Fetch           `json:"f,omitempty"`
	Capture *event.Capture         `json:"c,omitempty"`
	Entry   *evaluate.ListingEntry `json:"e,omitempty"`
	Site    *evaluate.SiteVersion  `json:"v,omitempty"`
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Every type encoded here is plain data: this cannot happen.
		panic(fmt.Sprintf("pipeline: encode %T: %v", v, err))
	}
	return b
}

// Events travel in batches: one element holds many records of one
// partition, each preceded by its length (uvarint), so that the runner
// moves thousands of elements instead of millions. A batch is sealed with
// zstd (sealBatch): records of one host repeat the same JSON field names,
// hosts and User-Agents, and the runner copies every byte of a batch
// several times (gRPC data channel, GroupByKey, the judging stage), so
// the runner's share of the work shrinks with the bytes.
const (
	batchRecords = 512     // records per batch and partition
	batchPending = 1 << 16 // records a reader holds before it sends every batch
)

func appendRecord(batch, rec []byte) []byte {
	batch = binary.AppendUvarint(batch, uint64(len(rec)))
	return append(batch, rec...)
}

var (
	zenc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	zdec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<30))
)

// sealBatch compresses a batch of records for the runner. The sealed
// batch starts with the number of fetch records in it (uvarint), so that
// the fetches of a partition are counted without unsealing (hot.go).
func sealBatch(batch []byte, fetches int) []byte {
	dst := binary.AppendUvarint(make([]byte, 0, len(batch)/4+binary.MaxVarintLen64), uint64(fetches))
	return zenc.EncodeAll(batch, dst)
}

// batchFetches returns the number of fetch records in a sealed batch.
func batchFetches(sealed []byte) int64 {
	n, k := binary.Uvarint(sealed)
	if k <= 0 {
		return 0
	}
	return int64(n)
}

// eachRecord calls fn with every record of a sealed batch. A record is
// valid only during the call (decodeRecord copies what it keeps).
func eachRecord(sealed []byte, fn func(rec []byte) error) error {
	_, k := binary.Uvarint(sealed)
	if k <= 0 {
		return errors.New("decode event batch: bad header")
	}
	bp := batchBufs.Get().(*[]byte)
	defer batchBufs.Put(bp)
	batch, err := zdec.DecodeAll(sealed[k:], (*bp)[:0])
	if err != nil {
		return fmt.Errorf("decode event batch: %w", err)
	}
	*bp = batch
	for len(batch) > 0 {
		n, k := binary.Uvarint(batch)
		if k <= 0 || n > uint64(len(batch)-k) {
			return errors.New("decode event batch: bad record length")
		}
		if err := fn(batch[k : k+int(n)]); err != nil {
			return err
		}
		batch = batch[k+int(n):]
	}
	return nil
}

// batchBufs holds the buffers batches are unsealed into.
var batchBufs = sync.Pool{New: func() any { return new([]byte) }}

// batcher groups a reader's records by partition. The buffers of sent
// batches are used again (free), so that a batch is not grown anew from
// nothing each time.
type batcher struct {
	emit      func(string, []byte)
	pending   map[string][]byte
	counts    map[string]int
	fetches   map[string]int // fetch records among counts
	total     int
	free      [][]byte
	freeBytes int // capacity of free
}

// maxFreeBytes bounds the capacity of the buffers a batcher keeps for
// reuse. A flush sends a batch of every pending partition at once (120 on
// the 1M-line benchmark corpus), so a bound on their number (it was 64)
// dropped the rest, and growing their successors from nothing was half
// of the batcher's time; the buffers of one flush hold batchPending
// records, about 12 MB on that corpus.
const maxFreeBytes = 32 << 20

func newBatcher(emit func(string, []byte)) *batcher {
	return &batcher{emit: emit, pending: map[string][]byte{}, counts: map[string]int{}, fetches: map[string]int{}}
}

func (b *batcher) add(key string, rec []byte) {
	buf, ok := b.pending[key]
	if !ok && len(b.free) > 0 {
		buf = b.free[len(b.free)-1]
		b.free = b.free[:len(b.free)-1]
		b.freeBytes -= cap(buf)
	}
	b.pending[key] = appendRecord(buf, rec)
	b.counts[key]++
	if len(rec) > 0 && rec[0] == fetchTag {
		b.fetches[key]++
	}
	b.total++
	if b.counts[key] >= batchRecords {
		b.send(key, b.pending[key])
		delete(b.pending, key)
		b.total -= b.counts[key]
		delete(b.counts, key)
		delete(b.fetches, key)
	}
	if b.total >= batchPending {
		b.flush()
	}
}

// send seals a batch and keeps its buffer for another.
func (b *batcher) send(key string, batch []byte) {
	b.emit(key, sealBatch(batch, b.fetches[key]))
	if b.freeBytes+cap(batch) <= maxFreeBytes {
		b.free = append(b.free, batch[:0])
		b.freeBytes += cap(batch)
	}
}

func (b *batcher) flush() {
	for key, batch := range b.pending {
		b.send(key, batch)
	}
	clear(b.pending)
	clear(b.counts)
	clear(b.fetches)
	b.total = 0
}

func decodeRecord(b []byte) (*record, error) {
	if len(b) > 0 && b[0] == fetchTag {
		return decodeFetchRecord(b)
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decode event: %w", err)
	}
	return &r, nil
}

// identityDoc is a card, key set or IP list every partition loads: one
// captured in a WARC (URL, Body, Time, Where), or an input file that holds
// one (Path, Kind).
type identityDoc struct {
	URL   string    `json:"url,omitempty"`
	Body  []byte    `json:"body,omitempty"`
	Time  time.Time `json:"time"`
	Where string    `json:"where,omitempty"`
	Path  string    `json:"path,omitempty"`
	Kind  string    `json:"kind,omitempty"`
}

// fileInfo is what the read stage tells the finalize step about one input.
type fileInfo struct {
	Idx    int          `json:"idx"`
	Input  output.Input `json:"input"`
	First  time.Time    `json:"first"`
	Last   time.Time    `json:"last"`
	Failed bool         `json:"failed,omitempty"`
	Listed bool         `json:"listed"` // appears in the manifest's inputs (not a --index/--snippets file)
	// Referrers counts the referrer sites of the file's host-less log
	// lines (input.HostSet.Referrers), for the notices' --site hint.
	Referrers map[string]int64 `json:"referrers,omitempty"`
}

// partInfo names one part file a finished bundle wrote, or (Table "")
// carries what the bundle's rows and models tell the notices.
type partInfo struct {
	Table   string             `json:"table"`
	Path    string             `json:"path"`
	Rows    int64              `json:"rows"`
	Notices *audit.NoticeFacts `json:"notices,omitempty"`
}
