// Package input is the input layer of the audit: what every driver of the
// evaluation reads, read one way. 'repaudit audit' (package audit, pass 1)
// and the Beam pipeline (beam/pipeline, its read stage) both drive it; only
// what they do with the events differs, and that is behind a Sink.
//
// A driver builds one Options from its flags, then:
//
//	catalog, err := input.LoadCatalog(opts.Bots)
//	err = input.LoadLocalIdentity(opts, catalog, ids, &problems) // --card, --jwks, --ip-ranges(-dir), --dns-dir
//	input.ReadSiteSources(opts, addVersion, &st)                  // --robots, --robots-git, --robots-dir
//	kept := input.ExistingInputs(args, &st)                       // a missing input is a failed input
//	dup := input.Duplicates(candidates, &st)                      // each content is read once
//	r := input.Reader{Options: &opts, Catalog: catalog, IDs: ids}
//	for each sniffed file f {
//		res := r.Read(ctx, input.File{File: f}, sink)
//		// res.Problems.List, then res.Closing(): the file's problem rows
//		// res.Input(): its manifest record; res.Hosts: the sites it names
//	}
//	input.SideInputs(opts, &st) // the manifest records of the flags' files
//
// Reader.Read routes a file by the kind sniffing gave it (ingest.Sniff):
// logs and archives are streamed (ingest.Read) to Sink.Fetch,
// Sink.Capture and Sink.Warcinfo, the captured cards, key sets and IP
// lists also into the identity store; a robots.txt file is one
// Sink.SiteVersion; a card, key set, IP list or DNS snapshot goes into the
// store (Sink.Document); a listing gives Sink.Entry. The sink's
// arguments are valid only during the call: the readers reuse them.
//
// Every problem is located at the file as the user named it, also when a
// copy was read (ingest.File.Spool), and at most Options.MaxProblemsPerFile
// are kept per file (Problems): a damaged log of millions of lines makes
// one summary row per code, not millions of rows. A file that cannot be
// read is a failed input with an input-unreadable problem; the run goes on.
//
// Sources may be bound to a site with URL=PATH (SplitBound, CheckSources;
// docs/semantics.md, "Many sites in one run").
package input
