// Package retention turns an audit's retention table into rules a replay
// tool applies: pywb access-control lists (.aclj), OpenWayback exclusion
// lists, and the CDX lines of the captures to remove from an index.
//
// The retention table says, per archived capture, what an archive should
// do as of the audit's --as-of: keep, delete, embargo or review. Build
// reads every capture twice from a Scan (once to find the captures to
// hide, once to find the kept captures that share a key with them) and
// returns a Plan: rules precise to each capture, the conflicts where a
// replay tool cannot hide one capture of a URL without hiding a kept one,
// and the deadlines still to come. Memory grows with the number of
// captures to hide, not with the table.
//
//	plan, err := retention.Build(retention.ReadDir(dir), asOf, retention.FormatPywbACL)
//	...
//	err = plan.Write(w)
//
// Captures are keyed by their SURT (package surt), as pywb and OpenWayback
// key their indexes and lists, so two URLs with one key (http and https,
// www. or not, arguments in another order) are one resource to them and
// to this package.
//
// What each format can say, and the choices made where it cannot say
// what the table asks, are in docs/semantics.md ("Retention export").
package retention
