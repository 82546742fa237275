// Package typo finds what a mistyped name (a command, a flag, a bot
// token) was probably meant to be, by the optimal string alignment
// distance (Damerau-Levenshtein restricted to one edit per substring).
package typo

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Distance is the optimal string alignment distance between a and b: the
// fewest insertions, deletions, substitutions and swaps of two adjacent
// runes that turn one into the other, so "audti" is one edit from "audit".
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// Nearest returns the candidate nearest to s (ignoring case) when it is
// close enough to be a typo of it: one edit for words of up to four runes,
// two for longer ones, and fewer edits than the candidate has runes. Ties
// go to the candidate first in sorted order; "" when none is close.
func Nearest(s string, candidates []string) string {
	if len(s) > 64 { // not a typo of a command or flag name
		return ""
	}
	limit := 1
	if utf8.RuneCountInString(s) > 4 {
		limit = 2
	}
	sorted := slices.Clone(candidates)
	slices.Sort(sorted)
	best, bestD := "", limit+1
	for _, c := range sorted {
		d := Distance(strings.ToLower(s), strings.ToLower(c))
		if d < bestD && d < utf8.RuneCountInString(c) {
			best, bestD = c, d
		}
	}
	return best
}

// Near returns the candidates close to s, ignoring case: within two
// edits, or (for s of three bytes or more) a prefix of s or s a prefix
// of them, ranked after every two-edit one. Closest first, ties in
// sorted order, at most max (all when max ≤ 0).
func Near(s string, candidates []string, max int) []string {
	type cand struct {
		name string
		dist int
	}
	ls := strings.ToLower(s)
	var cs []cand
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := Distance(ls, lc)
		switch {
		case d <= 2:
		case len(ls) >= 3 && (strings.HasPrefix(lc, ls) || strings.HasPrefix(ls, lc)):
			d = 3
		default:
			continue
		}
		cs = append(cs, cand{c, d})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].dist != cs[j].dist {
			return cs[i].dist < cs[j].dist
		}
		return cs[i].name < cs[j].name
	})
	var names []string
	for i, c := range cs {
		if max > 0 && i == max {
			break
		}
		names = append(names, c.name)
	}
	return names
}
