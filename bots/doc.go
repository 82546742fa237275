// Package bots identifies crawlers from their User-Agent header with a
// catalog of well-known bots.
package bots
