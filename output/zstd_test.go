package output

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// TestZstdSlotsSameBytes compresses pages on many goroutines at once
// through a codec with several slots per level and checks that every
// page comes out as one codec compressing them one at a time writes it,
// and decodes back.
func TestZstdSlotsSameBytes(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	if got := zstdSlots(); got != 2 {
		t.Fatalf("zstdSlots at GOMAXPROCS 8: %d, want 2", got)
	}
	pages := make([][]byte, 32)
	for i := range pages {
		var b bytes.Buffer
		for j := range 2000 + 500*i {
			fmt.Fprintf(&b, "https://host-%03d.example/page/%d?q=%d\n", j%17, j*i%911, j%5)
		}
		pages[i] = b.Bytes()
	}
	levels := []int{compress.DefaultCompressionLevel, zstdFast}
	serial := new(zstdCodec)
	want := make([][]byte, len(pages)*len(levels))
	for i := range want {
		want[i] = serial.EncodeLevel(nil, pages[i/len(levels)], levels[i%len(levels)])
	}
	parallel := new(zstdCodec)
	got := make([][]byte, len(want))
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = parallel.EncodeLevel(nil, pages[i/len(levels)], levels[i%len(levels)])
		}()
	}
	wg.Wait()
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("page %d at level %d: %d bytes, want %d", i/len(levels), levels[i%len(levels)], len(got[i]), len(want[i]))
		}
		if back := parallel.Decode(nil, got[i]); !bytes.Equal(back, pages[i/len(levels)]) {
			t.Errorf("page %d does not decode back", i/len(levels))
		}
	}
}
