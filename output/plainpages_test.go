package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// plainFile writes a Parquet file of one required string column of
// strs, plain, with page size pageSize and batch size batch, through
// writeStrings and returns its bytes: with arrow-go's encoder when
// arrowEnc, else with writePlain. It returns nil where writePlain would
// not be used.
func plainFile(t testing.TB, strs []string, pageSize, batch int, arrowEnc bool) []byte {
	t.Helper()
	old := arrowPages
	arrowPages = arrowEnc
	defer func() { arrowPages = old }()
	props := parquet.NewWriterProperties(parquet.WithCompression(testCodec),
		parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(int64(pageSize)),
		parquet.WithBatchSize(int64(batch)), parquet.WithStats(true), parquet.WithMaxStatsSize(statsTruncate))
	var buf bytes.Buffer
	fw, rgw, cw := oneColumnFile(t, &buf, schema.NewByteArrayNode("s", parquet.Repetitions.Required, -1), props)
	if !arrowEnc && plainHook(cw) == nil {
		t.Fatal("plainHook: the column writer's page writer was not found")
	}
	offs := []int32{0}
	var data []byte
	for _, s := range strs {
		data = append(data, s...)
		offs = append(offs, int32(len(data)))
	}
	var e encoder
	if err := e.writeStrings(cw.(*file.ByteArrayColumnChunkWriter), offs, data); err != nil {
		t.Fatal(err)
	}
	closeAll(t, cw, rgw, fw)
	return buf.Bytes()
}

// samePlainFile checks that writePlain writes the file arrow-go's plain
// encoder writes for strs.
func samePlainFile(t testing.TB, strs []string, pageSize, batch int) {
	t.Helper()
	theirs := plainFile(t, strs, pageSize, batch, true)
	mine := plainFile(t, strs, pageSize, batch, false)
	if !bytes.Equal(mine, theirs) {
		t.Fatalf("%d strings (page size %d, batch %d): file of %d bytes, arrow-go's encoder %d",
			len(strs), pageSize, batch, len(mine), len(theirs))
	}
}

// randomStrings returns n strings of 0 to maxLen bytes, some empty,
// some repeated, some sharing long prefixes (their statistics' bounds
// are cut to statsTruncate bytes).
func randomStrings(rng *rand.Rand, n, maxLen int) []string {
	strs := make([]string, n)
	prefix := strings.Repeat("https://example.com/a-long-shared-path/", 3)
	for i := range strs {
		switch rng.IntN(6) {
		case 0:
			strs[i] = ""
		case 1:
			if i > 0 {
				strs[i] = strs[i-1]
			}
		case 2:
			strs[i] = prefix + strings.Repeat("z", rng.IntN(maxLen+1))
		case 3:
			strs[i] = strings.Repeat("\xff", 1+rng.IntN(100)) // no upper bound when cut
		default:
			b := make([]byte, rng.IntN(maxLen+1))
			for k := range b {
				b[k] = byte('a' + rng.IntN(26))
			}
			strs[i] = string(b)
		}
	}
	return strs
}

// TestPlainPagesMatchArrow checks writePlain against arrow-go's plain
// encoder: pages ended by size after batches of 1 to 1,024 strings,
// strings longer than a page, empty strings only (where arrow-go's own
// check ends the page), statistics cut to statsTruncate bytes.
func TestPlainPagesMatchArrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, page := range []int{1, 64, 1000, 1 << 20} {
		for _, batch := range []int{1, 5, 64, 1024} {
			samePlainFile(t, randomStrings(rng, 3000, 300), page, batch)
		}
	}
	samePlainFile(t, make([]string, 5000), 4096, 1024)
	samePlainFile(t, make([]string, 5000), 4000, 7)
	samePlainFile(t, []string{strings.Repeat("x", 5000), "", "y"}, 1000, 1)
	samePlainFile(t, []string{"one"}, 1<<20, 1024)
}

// FuzzPlainPages compares writePlain with arrow-go's plain encoder on
// strings cut from the fuzzer's bytes at each 0 byte.
func FuzzPlainPages(f *testing.F) {
	testCodec = compress.Codecs.Snappy
	defer func() { testCodec = compress.Codecs.Zstd }()
	f.Add([]byte("a\x00bb\x00\x00ccc\xff\x00"), uint16(10), uint8(2))
	f.Add(bytes.Repeat([]byte("evidence text\x00"), 200), uint16(700), uint8(64))
	f.Fuzz(func(t *testing.T, data []byte, page uint16, batch uint8) {
		if len(data) > 1<<14 {
			return
		}
		strs := strings.Split(string(data), "\x00")
		samePlainFile(t, strs, 1+int(page), 1+int(batch))
	})
}

// TestOwnPagesSameBytes checks the whole writer against arrow-go's
// encoders: writeAdaptive's file, which has dictionary, plain and
// dictionary-turned-plain string chunks and dictionary-encoded numbers
// with and without nulls, is the serial writer's with writeIndices and
// writePlain, and without them.
func TestOwnPagesSameBytes(t *testing.T) {
	for _, arrowEnc := range []bool{false, true} {
		old := arrowPages
		arrowPages = arrowEnc
		got := writeAdaptive(t, 2, 0)
		arrowPages = old
		sum := sha256.Sum256(got)
		if hex.EncodeToString(sum[:]) != serialFetchesSHA256 {
			t.Errorf("arrow-go's encoders %v: SHA-256 %x, want %s", arrowEnc, sum, serialFetchesSHA256)
		}
	}
}
