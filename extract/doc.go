// Package extract finds what an HTTP response forbids its readers: the
// rules of the Robots-Tag response header, of its legacy spelling
// X-Robots-Tag, and of the robots meta tags in an HTML head, as
// draft-illyes-repext-03 describes them.
//
// # Usage
//
// One call per captured response; the result says, for any product token,
// which rules apply and where each came from:
//
//	d := extract.FromResponse(capture.Header, capture.Body, capture.ContentType, extract.Options{})
//	for _, p := range d.Diagnostics {
//		report(capture.Source, p.Code, p.Message, p.Evidence)
//	}
//	e := d.For("GPTBot") // global rules ∪ GPTBot's rules (repext §3.1.1, §3.1.2)
//	if r, ok := e.Noindex(); ok {
//		// r.Evidence is the header line or the meta tag, as written:
//		// "X-Robots-Tag: gptbot: noindex" or `<meta name="robots" content="none">`.
//	}
//
// Nothing is retained from the inputs: rules hold copies of the text they
// need, so a reader may reuse its body buffer after FromResponse returns.
//
// # What is read
//
//   - Robots-Tag (repext §3.1.1): a Structured Field List (RFC 8941 §3.1),
//     parsed with github.com/dunglas/httpsfv. Each member is a product
//     token or "*"; its parameters are the rules ("*;nosnippet,
//     ExampleBot;noindex"). Header lines are joined with ", " (RFC 9110
//     §5.3). The joined value is parsed up to Options.MaxHeaderBytes
//     (8 KiB by default, the least the draft allows): members complete
//     before the limit count, the one cut by it and all after it do not.
//   - X-Robots-Tag (repext §3.1.1, §5.3): the legacy forms sites really
//     send, "noindex, nofollow", "googlebot: noindex", "unavailable_after:
//     25 Jun 2010 15:00:00 PST", "max-snippet:20", one header line at a
//     time; lines in the Robots-Tag shape are read as Robots-Tag.
//   - <meta name="robots" content="..."> and <meta name="TOKEN"
//     content="..."> in the HTML head only (repext §3.1.2, §4), with the
//     tokenizer of golang.org/x/net/html, the head ending where an HTML
//     parser ends it. At most Options.MaxHTMLBytes (64 KiB) are scanned.
//
// Rule names are compared case-insensitively and kept lower-cased.
// noindex, nosnippet, none, nofollow, noarchive, noimageindex,
// max-snippet, unavailable_after and all are interpreted; any other rule is
// kept as written (lower-cased) with its value. All rules are restrictive
// and combine by union (repext §3.1.1): a positive rule such as "all" or
// "index" never cancels a restriction. unavailable_after dates are read in
// the many formats sites use (see ParseDate) and kept in UTC.
//
// Every lenient reading and every limit hit is a Diagnostic with a stable
// code (the Diag* constants) and the evidence it concerns. The choices the
// draft leaves open are listed in docs/semantics.md.
//
// # Archive-Embargo
//
// ParseArchiveEmbargo reads the Archive-Embargo response header
// (draft-nottingham-archive-embargo): "w", "m" or "q", an embargo of 7,
// 31 or 90 days during which an archive shows only a tombstone. It is
// separate from FromResponse, since it says nothing to crawlers; a value
// it cannot read as written comes back with an EmbargoError giving the
// byte offset in the value.
package extract
