package signature

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/repaudit/repaudit/internal/linecap"
	"github.com/repaudit/repaudit/internal/safetext"
)

// MaxCheckLine caps one input line of CheckAll; a longer line is a
// result with an error and is skipped.
const MaxCheckLine = 1 << 20

// CheckAll judges the request lines of r (CheckLine) in order and writes
// one result a line to w: as JSON lines when jsonl, else as WriteText
// does. Blank lines are skipped. It returns how many lines had an error;
// err is a failure to read r (a *linecap.ReadError), to write w, or
// ctx.Err(), after writing what was judged.
func (c *Checker) CheckAll(ctx context.Context, r io.Reader, w io.Writer, jsonl bool) (bad int, err error) {
	err = linecap.Serve(ctx, r, w, MaxCheckLine, func(n int64, line []byte, tooLong bool, out *linecap.Out) error {
		res, ok := CheckResult{Line: n, Error: fmt.Sprintf("line longer than %d bytes", MaxCheckLine)}, true
		if !tooLong {
			res, ok = c.CheckLine(n, line)
		}
		if !ok {
			return nil
		}
		if res.Error != "" {
			bad++
		}
		if jsonl {
			return out.JSON(res)
		}
		return res.WriteText(out)
	})
	return bad, err
}

// WriteText writes r as one line for people, with the request's own text
// (reasons, evidence) escaped for the terminal.
func (r CheckResult) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.Error != "" {
		fmt.Fprintf(&b, "line %d: error: %s\n", r.Line, r.Error)
	} else {
		fmt.Fprintf(&b, "line %d: %s", r.Line, r.Verdict)
		if len(r.Reasons) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(r.Reasons, ", "))
		}
		if r.Claimed != "" {
			fmt.Fprintf(&b, " claims %s", r.Claimed)
		}
		if r.Evidence != "" {
			fmt.Fprintf(&b, ": %s", r.Evidence)
		}
		if r.Replay != "" {
			fmt.Fprintf(&b, " | %s", r.Replay)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(safetext.NewWriter(w), b.String())
	return err
}
