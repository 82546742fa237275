// Package listing reads index and snippet listings: what a service shows
// publicly, one URL per entry, so repaudit can check it against the
// directives that were in force (noindex_indexed, nosnippet_snippeted).
//
// Four shapes are detected from the content of the first data line:
//
//   - plain: one URL per line;
//   - CDX: space-separated, with an optional " CDX N b a m s k r M S V g"
//     legend line naming the fields (the 11-field order is assumed
//     without one); the time is the 14-digit timestamp (field b);
//   - CDXJ: "urlkey timestamp {json}" with the URL in the JSON "url" key;
//   - CSV: url[,time][,agent], with an optional header row.
//
// Blank lines and lines starting with '#' are skipped. A line that cannot be
// used is reported as an event.Problem with its line number, and reading
// goes on. Usage:
//
//	r := listing.NewReader(f, "index.csv")
//	for {
//		e, err := r.Next()
//		if err == io.EOF {
//			break
//		}
//		...
//	}
//	problems := r.Problems()
//
// The Reader reads text: a compressed listing (index.csv.gz, .bz2, .zst)
// is decompressed by the caller through the one opener of every input,
// ingest.OpenDecompressed, as the audit does for --index and --snippets.
package listing
