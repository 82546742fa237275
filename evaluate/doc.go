// Package evaluate judges crawlers by what they were told at the time:
// the robots.txt each bot itself fetched (RFC 9309), the Robots-Tag,
// X-Robots-Tag and meta robots rules in force for a URL
// (draft-illyes-repext §3.1.4), ACAP 1.0 permissions, Signature Agent
// Cards, Web Bot Auth signatures and published IP ranges. A rule added to
// robots.txt today never turns yesterday's polite crawler into a violator.
//
// # Two passes
//
// Pass 1 reads every input once and feeds a Builder. Its Add methods are
// safe for concurrent use (expensive parsing happens outside its lock) and
// the Model it builds does not depend on the order of the calls:
//
//	b := evaluate.NewBuilder(opts, bots.Default(), ids)
//	for each WARC record:  b.AddCapture(capture)   // robots.txt versions, directives, archived records
//	for each warcinfo:     b.AddWarcinfo(src, info) // names its file's crawler
//	b.StreamViews()                                 // optional: keep no robots.txt fetch of a log (below)
//	for each fetch:        b.AddFetch(fetch)       // only /robots.txt fetches and WARC request records are kept
//	for each listing line: b.AddIndexEntry(entry)  // or AddSnippetEntry
//	model := b.Build()
//
// The Builder keeps what a verdict needs and nothing that grows with the
// logs: one version per robots.txt capture, identical consecutive
// captures collapsed into one, each distinct robots.txt body stored once
// (in memory up to a budget, else in a temporary file in
// Options.SpillDir) with its parsed rules a bounded cache rebuilt from the
// body when needed (robotsstore.go); each bot's own robots.txt fetches
// per authority, 88 bytes each until Build (with StreamViews, only those
// of WARC request records, and 16 bytes per host[:port]: its last fetch
// time, the schemes of its robots.txt fetches); a compact summary of every
// other capture (URL, time, status, record location and a pointer to a
// deduplicated directive set), and the listing entries. With a spill
// directory, Build writes the capture summaries to a temporary file of
// their own, which WriteTables reads back (capspill.go): judging does
// not need them. A caller may write the tables Build settles whole
// (robots_versions, robots_rules, directives) before pass 2 with
// WriteBuiltTables, which then spills the robots.txt captures' documents
// but for what judging reads (docspill.go); one that makes a single
// ViewTracker says so with OneViewTracker, and the tracker lets go of
// the entries pass 1 kept as it applies them. Model.Close releases the
// temporary files.
// docs/design.md ("Memory") says what is bounded and what is
// not.
//
// Pass 2 reads the fetches again, merged in time order. Judge is stateless
// and safe for concurrent use; the Tracker holds the little sequential
// state (crawl-delay intervals and signature replay) and must see the
// judgements in time order:
//
//	tr := model.NewTracker()
//	for each fetch f, in time order:
//		j := model.Judge(f)   // may run on many goroutines; f is read during the call only
//		tr.Observe(&j)        // in order: adds crawl_delay_ignored and replay findings
//		sink.Fetch(&j.Fetch); for each v in j.Violations: sink.Violation(&v)
//	model.WriteTables(sink)  // timeline, directives, retention, listing and archive findings
//	summary := model.Summary() // what pass 1 reconstructed and WriteTables wrote
//	err := model.Close()       // the robots.txt spill file; a read error is reported here
//
// A model built with StreamViews settles the bots' robots.txt views in
// pass 2 (viewtracker.go): a ViewTracker sees the fetches in time order,
// all fetches of one time at once, before they are judged, and keeps one
// entry per (authority, bot) on the hosts whose last fetch is still to
// come, instead of every robots.txt request:
//
//	vt := model.NewViewTracker()
//	for each time, its fetches fs in merged order:
//		vt.Step(fs, views)                        // in order; views[i] is immutable
//		model.JudgeIntoView(&j, fs[i], &views[i]) // then on any goroutine
//		tr.Observe(&j)                            // in order, as above
//
// A ViewTracker is keyed by (authority, product token): a caller that
// splits one authority's fetches by agent can give each part only that
// agent's robots.txt fetches (a signed request whose User-Agent names no
// bot takes its agent from the signature's card: it needs the card's
// agent's robots.txt fetches too).
//
// JudgeInto is Judge for callers that judge millions of fetches: it writes
// into a Judgement the caller reuses (its Violations array included), so
// a fetch that makes no finding allocates only its URL and client address
// strings; evidence strings are built only for a finding. A Judger
// (Model.NewJudger, one per goroutine) also keeps the client address and
// matched rule texts it made, and the URLs and SURT keys (urltext.go), so
// a clean fetch of a URL it has judged before allocates nothing, and, in
// small tables keyed by pointer or by (content, token, target),
// the robots.txt verdicts, Crawl-delays and evidence parts that repeat
// from fetch to fetch (judge.go, judgeCache): the rows are the same
// bytes with or without them.
//
// # What Judge decides
//
// For one fetch at time t, Judge identifies the client (catalog, then a
// Signature Agent Card, then a robots.txt group named by a User-Agent
// name, then the bot's own product token with no operator; all under
// package bots' rules: whole words, no "like X" mentions, no generic
// words; browsers are kept but not judged; identification is cached per
// User-Agent),
// checks its identity (published IP ranges in force at t, the Web Bot Auth
// signature against keys published at t), and reconstructs its view of
// the authority's robots.txt:
//
//   - the bot's last own fetch of /robots.txt at or before t, with the
//     status that fetch got (5xx: complete disallow; 4xx: allow all; 304:
//     the content of its previous fetch), and the content the archive shows
//     in force at that moment;
//   - a view older than Options.RobotsTTL is stale and judged by the
//     version in force at t (RFC 9309 §2.4);
//   - a bot that never fetched robots.txt is judged against every version in
//     force during [t−ttl, t]: all disallow is a violation, some is a
//     possible one.
//
// Every verdict names the robots.txt version (authority, capture time and
// WARC location), the group and rule with their line numbers, and the bot's
// own robots.txt fetch, so that a person can check it by hand.
//
// The robots.txt timeline follows RFC 9309 §2.3.1: 2xx rules, 3xx redirects
// followed inside the inputs (at most five), 4xx unavailable, 5xx or no
// response unreachable, and unreachable for longer than
// Options.UnreachableAfter treated as unavailable from that point.
//
// docs/semantics.md in this directory lists every rule and every choice the
// specifications left open.
package evaluate
