// Package extract finds what an HTTP response forbids its readers: the
// Robots-Tag and legacy X-Robots-Tag response header fields and the meta
// robots tags of an HTML head (draft-illyes-repext-03).
package extract
