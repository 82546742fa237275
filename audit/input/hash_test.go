package input

import "testing"

// TestHashBehind: the hash made behind the reader is the hash of every
// byte written, in order, although the writer reuses its buffer.
func TestHashBehind(t *testing.T) {
	want, behind := newCountingHash(), newCountingHash()
	w, end := hashBehind(behind)
	buf := make([]byte, 0, 4096)
	for i := range 3000 {
		buf = buf[:0]
		for k := range i % 4096 {
			buf = append(buf, byte(i*7+k))
		}
		want.Write(buf)
		if n, err := w.Write(buf); n != len(buf) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	end()
	if behind.hex() != want.hex() || behind.n != want.n {
		t.Errorf("hashed behind: %s (%d bytes), want %s (%d bytes)", behind.hex(), behind.n, want.hex(), want.n)
	}
}
