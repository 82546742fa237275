// Package event defines the normalized events that every input reader
// produces and every later stage consumes.
//
// A Fetch is a client request: one access log line, or one WARC request
// record. A Capture is an archived response: a WARC response, resource or
// revisit record. Both carry a Source, so that any finding derived from them
// can point back to the exact line or byte offset it came from.
//
// Times are always UTC and always come from the data (log timestamps,
// WARC-Date); nothing here reads the wall clock.
//
// FetchWriter and FetchReader (codec.go) store fetches in a compact binary
// stream and read them back, every field intact: package audit spools the
// fetches of pass 1 this way, so pass 2 never reads an input again.
// AppendFetch and DecodeFetch code one fetch on its own, in the same
// record form with no stream state, for consumers that get records in no
// fixed order (the Beam pipeline's stages). One list of fields serves
// both: TestFetchCodecCarriesEveryField fails when Fetch gains a field
// the codec does not carry.
package event
