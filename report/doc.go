// Package report summarizes an audit directory with the embedded DuckDB:
// the `repaudit report` and `repaudit query` commands.
//
// Open reads manifest.json (refusing a directory without one: a run that
// did not finish) and registers every Parquet table as a view of the same
// name, so SQL reads as if the tables were in the database:
//
//	db, err := report.Open(ctx, dir)
//	if err != nil { ... }
//	defer db.Close()
//	res, err := db.Query(ctx, "SELECT agent, count(*) FROM violations GROUP BY agent")
//	err = report.WriteResult(os.Stdout, res, "table") // or csv, json
//
//	r, err := db.Build(ctx)  // runs the queries of package queries
//	err = r.WriteText(os.Stdout) // or WriteMarkdown, WriteJSON, WriteHTML
//
//	berlin, _ := time.LoadLocation("Europe/Berlin")
//	r, err = db.BuildWith(ctx, report.Options{Location: berlin})
//	r.Width = 100 // terminal columns for WriteText
//
// The report's content lives in the .sql files of package queries, one query
// per section, so a researcher can rerun any number of the report by hand.
// Build only assembles them: the header from the manifest, the totals, then
// the lead section, findings by bot (what each bot did, worst first),
// findings by kind, per-bot tables (crawlers and user-triggered fetchers
// apart), spoofed traffic (kept apart: never attributed to the operator
// whose bot was impersonated), traffic by bot (requests and response bytes
// per bot, over the whole range and per day, spoofed clients and clients
// that are not bots apart), identity checks, signature outcomes (with the
// count of fetches whose source cannot show a signature), unverifiable
// fetches, top offending paths, findings per day, the robots.txt timeline,
// retention actions due as of the manifest's as_of, and input problems.
//
// Times are UTC unless Options.Location names a zone: then the DuckDB
// variable time_zone holds it while the queries run (per-day queries count
// that zone's days) and every timestamp in the report is shown in it. The
// tables themselves never change.
//
// Every session runs with TimeZone UTC and with extension auto-install and
// auto-load off, so no query reaches the network; the parquet, json and
// icu extensions are linked into the binary. Output is deterministic: the
// queries order their rows completely, JSON keys keep a fixed order, and
// wall-clock timings from the manifest are not part of any format.
//
// The text, Markdown and HTML reports lead with the answer: the headline
// numbers and the lead sections (Section.Lead), then the manifest's
// notices of what was judged less than it could be, grouped under one
// heading, then the other sections, and the inputs last. A new section is
// one entry in sectionSpecs (report.go) and one query file.
//
// WriteHTML makes one self-contained page: inline CSS, inline SVG charts
// drawn in Go (findings by kind, findings per bot over time, traffic per
// bot over time, robots.txt versions per authority coloured by effect, with
// a tick at each version change; a bot has one colour in every chart),
// tables in containers that scroll sideways, headers that wrap after an
// underscore, no script, every value escaped by html/template.
//
// DuckDB is linked through cgo; this package and package output are the
// only ones that depend on Arrow or DuckDB. Everything that needs DuckDB
// (DB, Open, Build, Export) is in files built only with cgo: a
// CGO_ENABLED=0 build keeps the Report and Result types and their writers
// but has no way to open an audit directory, and `repaudit report` and
// `repaudit query` in such a binary say how to get a build that has them.
package report
