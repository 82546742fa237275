// Package synth makes deterministic text that compresses like real pages
// (about 3 to 4 times, not like random or repeated bytes), for the
// generated benchmark inputs of bench/gen and the warc benchmarks.
package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Vocabulary returns n pseudo-words of one to four syllables drawn from rng.
func Vocabulary(rng *rand.Rand, n int) []string {
	syl := []string{"ka", "to", "ri", "men", "sa", "lo", "ver", "in", "da", "por", "ex", "tion", "al", "be", "que", "ne", "mi", "str", "u", "on"}
	ws := make([]string, n)
	for i := range ws {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(syl[rng.IntN(len(syl))])
		}
		ws[i] = b.String()
	}
	return ws
}

// HTMLPage writes to b an HTML page of words from vocab until b holds at
// least size bytes; one page in ten has a meta robots noindex tag.
func HTMLPage(b *strings.Builder, rng *rand.Rand, vocab []string, size int) {
	pick := func() string { return vocab[rng.IntN(len(vocab))] }
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s %s</title>\n", pick(), pick())
	if rng.IntN(10) == 0 {
		b.WriteString("<meta name=\"robots\" content=\"noindex, nofollow\">\n")
	}
	b.WriteString("<link rel=\"stylesheet\" href=\"/static/site.css?v=3\"><script src=\"/static/app.js\" defer></script></head>\n<body><div class=\"wrap\">\n")
	for b.Len() < size {
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(b, "<h2 id=\"s%d\">%s</h2>\n", rng.IntN(1000), pick())
		case 1:
			fmt.Fprintf(b, "<a href=\"/%s/%s-%d.html\" class=\"nav\">%s</a>\n", pick(), pick(), rng.IntN(100000), pick())
		default:
			b.WriteString("<p>")
			for range 20 + rng.IntN(60) {
				b.WriteString(pick())
				b.WriteByte(' ')
			}
			b.WriteString("</p>\n")
		}
	}
	b.WriteString("</div></body></html>\n")
}
