package pipeline

import (
	"encoding/json"
	"fmt"
	"time"

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
)

// record is one event crossing from the read stage to a partition. The
// events keep every field the evaluation reads; capture bodies travel
// only where the Builder reads them (evaluate.NeedsBody).
type record struct {
	Kind    byte                   `json:"k"`
	Model   bool                   `json:"m,omitempty"` // fetch also given to Builder.AddFetch (pass 1)
	File    int                    `json:"i,omitempty"` // input index, for the fetch order
	Seq     int64                  `json:"q,omitempty"` // position among the file's fetches
	Fetch   *event.Fetch           `json:"f,omitempty"`
	Capture *event.Capture         `json:"c,omitempty"`
	Entry   *evaluate.ListingEntry `json:"e,omitempty"`
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Every type encoded here is plain data: this cannot happen.
		panic(fmt.Sprintf("pipeline: encode %T: %v", v, err))
	}
	return b
}

func decodeRecord(b []byte) (*record, error) {
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
}

// partInfo names one part file a finished bundle wrote.
type partInfo struct {
	Table string `json:"table"`
	Path  string `json:"path"`
	Rows  int64  `json:"rows"`
}
