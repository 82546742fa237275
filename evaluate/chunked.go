package evaluate

// chunked is a list built by appends and read once whole: it grows by
// chunks of its own (up to maxChunk elements) and is made one slice once
// (all). Appending to one slice instead copies it at each regrowth, and
// for the Builder's long lists (a pairing key per WARC request record,
// a robots.txt fetch each) allocated about five times the final size.
type chunked[T any] struct {
	full [][]T // chunks filled, in order
	cur  []T
	n    int
}

const maxChunk = 8 << 10

// add appends v.
func (c *chunked[T]) add(v T) {
	if len(c.cur) == cap(c.cur) {
		if c.cur != nil {
			c.full = append(c.full, c.cur)
		}
		c.cur = make([]T, 0, min(max(2*cap(c.cur), 64), maxChunk))
	}
	c.cur = append(c.cur, v)
	c.n++
}

// all returns every element added, in order, as one slice (nil when
// none), and empties c.
func (c *chunked[T]) all() []T {
	if c.n == 0 {
		return nil
	}
	out := make([]T, 0, c.n)
	for _, ch := range c.full {
		out = append(out, ch...)
	}
	out = append(out, c.cur...)
	*c = chunked[T]{}
	return out
}
