// Package inorder puts back in order values that workers finish out of
// order: pass 2's judged tasks (package audit) and the archive's judged
// batches (package evaluate) are written in the order they were cut in.
package inorder

// Drain receives from in until it is closed and calls fn on each value in
// the order of seq, which numbers the values 0, 1, 2, … without gaps; a
// value ahead of the next one waits until that one has come. It returns
// fn's first error at once, leaving the rest of in unread.
func Drain[T any](in <-chan T, seq func(T) int, fn func(T) error) error {
	waiting := map[int]T{}
	next := 0
	for v := range in {
		waiting[seq(v)] = v
		for {
			w, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			if err := fn(w); err != nil {
				return err
			}
		}
	}
	return nil
}
