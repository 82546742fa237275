// Package linecap reads input one line at a time with a cap on the length
// of a line, for the commands that take JSON lines or User-Agents on
// standard input: a longer line is consumed and reported, never held in
// memory whole, and the lines after it are still read.
//
// Each runs the loop those commands share: lines in order with their
// 1-based numbers, a flush before any read that would wait (so a
// co-process gets each answer before it writes the next question), and a
// stop when the context is done.
package linecap

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// Read reads one line without its line ending (LF or CRLF). A line longer
// than max bytes is consumed and reported with tooLong and no bytes. At
// the end of the input it returns io.EOF and no line; an unterminated
// last line is a line.
func Read(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(line)+len(chunk) > max {
			tooLong = true
		} else {
			line = append(line, chunk...)
		}
		if err != nil {
			if tooLong {
				return nil, true, nil
			}
			if len(line) > 0 {
				// An unterminated last line that filled the buffer:
				// bufio says EOF only on the call after its last piece.
				return line, false, nil
			}
			return nil, false, err
		}
		if !isPrefix {
			if tooLong {
				return nil, true, nil
			}
			return line, false, nil
		}
	}
}

// ReadError is a failure to read the input, after Line-1 whole lines.
type ReadError struct {
	Line int64
	Err  error
}

func (e *ReadError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *ReadError) Unwrap() error { return e.Err }

// Each calls fn for every line of br, in order, with its 1-based number
// (a line over max comes with tooLong and no bytes). Before a read that
// would wait for input it calls flush, when not nil. It returns nil at
// the end of the input, ctx.Err() when ctx is done, a *ReadError when
// the input fails, and the error of flush or fn as it is.
func Each(ctx context.Context, br *bufio.Reader, max int, flush func() error, fn func(n int64, line []byte, tooLong bool) error) error {
	for n := int64(1); ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if flush != nil && br.Buffered() == 0 {
			if err := flush(); err != nil {
				return err
			}
		}
		line, tooLong, err := Read(br, max)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &ReadError{Line: n, Err: err}
		}
		if err := fn(n, line, tooLong); err != nil {
			return err
		}
	}
}

// Out is where Serve's fn writes its answers: text through the embedded
// writer, or one JSON value a line with JSON (HTML characters kept as
// they are).
type Out struct {
	*bufio.Writer
	enc *json.Encoder
}

// JSON writes v as one JSON line.
func (o *Out) JSON(v any) error { return o.enc.Encode(v) }

// Serve is the question-and-answer loop of the stdin commands: it reads
// r a line at a time (Each, lines over max come with tooLong), hands
// each to fn with the Out its answers go to, flushes the answers before
// any read that would wait and once more at the end. Its errors are
// Each's, or the final flush's.
func Serve(ctx context.Context, r io.Reader, w io.Writer, max int, fn func(n int64, line []byte, tooLong bool, out *Out) error) error {
	bw := bufio.NewWriter(w)
	out := &Out{Writer: bw, enc: json.NewEncoder(bw)}
	out.enc.SetEscapeHTML(false)
	err := Each(ctx, bufio.NewReaderSize(r, 64<<10), max, bw.Flush, func(n int64, line []byte, tooLong bool) error {
		return fn(n, line, tooLong, out)
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}
