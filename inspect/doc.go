// Package inspect summarizes what repaudit reads from one input file:
// its detected kind and format, records by type, fetches and captures,
// statuses, robots.txt captures and fetches, the time range covered and
// the problems found, each with its location. It also turns fetch and
// capture events into a flat JSON form for "repaudit inspect --events".
//
// Read never prints: a malformed record is a problem in the File, and a
// file that cannot be read says why in File.Error.
package inspect
