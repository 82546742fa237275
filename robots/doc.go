// Package robots parses robots.txt files and judges URLs against them as
// RFC 9309, the Robots Exclusion Protocol, says, together with the ACAP 1.0
// extensions ("Communicating access and usage policies to crawlers using
// extensions to the Robots Exclusion Protocol, Part 1").
//
// # Usage
//
// Parse once, check many times:
//
//	f := robots.Parse(body, robots.Options{})   // never fails
//	for _, d := range f.Diagnostics {           // what was odd, by line
//		log.Printf("robots.txt:%d: %s: %s", d.Line, d.Code, d.Message)
//	}
//	v := f.Check("GPTBot", "https://example.com/private/a?b=c")
//	if !v.Allowed {
//		fmt.Println(v.Evidence()) // group "gptbot" (line 3): line 5 "Disallow: /private/" matched
//	}
//
// A File is immutable after Parse and safe for concurrent use. Check does
// not allocate for URLs of up to 512 canonical bytes: rule patterns are
// normalized and sorted by specificity at parse time, product tokens map
// to their merged group through a map built at parse time, and the URL is
// normalized once per call into a stack buffer.
//
// The work of one check is bounded: each rule is a greedy left-to-right
// scan, and a group whose wildcard rules × URL length is large is matched
// in one Aho–Corasick pass over the URL for all its rules (wild.go), so a
// 500 KiB file of wildcard rules against a 100 KB URL costs milliseconds,
// not rules × URL length.
//
// # What is implemented
//
//   - RFC 9309 §2.1 and §2.2.1: groups, merged duplicate groups,
//     case-insensitive exact product-token match, the "*" group only when
//     no group names the crawler, no group means no rules.
//   - §2.2.2: allow and disallow, most specific (longest) match, allow on
//     a tie, /robots.txt always allowed, rules outside groups ignored,
//     percent-encoding normalized on both sides (see canon.go).
//   - §2.2.3: '*' and a final '$'; "%2A" and "%24" match literal '*'/'$'.
//   - Google's reading where RFC 9309 is silent: a cut UTF-8 byte order
//     mark is skipped, "User-agent: Googlebot*" names Googlebot. Where it
//     differs from Google's parser on purpose, docs/semantics.md lists it
//     ("Conformance with Google's robots.txt tests").
//   - §2.2.4: sitemap, crawl-delay and known non-standard records; common
//     misspellings of keys, as diagnostics.
//   - §2.5: a parsing limit (Options.MaxBytes, default 500 KiB); content
//     past it, including a partial line, is ignored and File.Truncated set.
//   - ACAP 1.0 §2.2–§2.9: records and sub-records, every usage type,
//     qualifiers, local usage and resource set definitions, action
//     requests, conflict resolution by narrowest scope (§2.4.5), named
//     crawlers overriding "*", and the combination with conventional
//     records (§2.9), through File.ACAPCheck and File.TakeDownFor.
//   - AI usage preferences: Content-Usage rules (draft-ietf-aipref-attach
//     §3, vocabulary draft-ietf-aipref-vocab), Cloudflare's Content-Signal
//     lines and RSL License lines, through File.UsagePrefs (see below).
//
// Fetching robots.txt and the status-code rules of RFC 9309 §2.3 are not
// here: the caller decides what body, if any, applies.
//
// Every choice the specifications leave open is listed in docs/semantics.md.
//
// # AI usage preferences
//
// Content-Usage and Content-Signal lines are rules of their group, kept in
// Group.Usage and Group.Signals; License lines are global, in
// File.Licenses. UsagePrefs answers for one product token and path after
// the group selection of Check (a group naming the crawler replaces "*"):
//
//	v := f.UsagePrefs("GPTBot", "/blog/post")
//	if v.TrainAI.Value == robots.PrefNo {
//		fmt.Println(v.TrainAI.Line, v.TrainAI.Text) // 4 Content-Usage: /blog/ train-ai=n
//	}
//
// For Content-Usage the rule with the longest matching path decides, with
// the matching of Allow and Disallow; rules as long as it apply together
// and the most restrictive value wins ("n" over "y" over unknown, aipref
// vocab §5.1). Every Content-Signal line applies to its whole group.
// Labels are case-sensitive: "Train-AI=n" is not a Dictionary the
// vocabulary accepts and reserves nothing. Each label names the line that
// decided it. Preferences attach only to crawlable paths; the verdict's
// Access field says whether the path is one.
//
// # Diagnostics
//
// Parse never fails. Every line it could not take exactly as written gets a
// Diagnostic with its line number and a stable code (the Diag* constants);
// File.Lines classifies every line, so a report can show the file as the
// parser saw it.
//
// Answerer answers questions given as JSON lines (a body, a product token
// and a URL, or an ACAP usage) with an Answer that carries the verdict's
// evidence, parsing each distinct body once.
package robots
