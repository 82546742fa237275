package robots

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/repaudit/repaudit/internal/linecap"
)

// MaxQuestionLine caps one question line of AnswerAll; a longer line is
// answered with an error and skipped.
const MaxQuestionLine = 64 << 20

// lineError is the answer to a line that could not be used.
type lineError struct {
	Error string `json:"error"`
}

// AnswerAll answers the question lines of r (Answer) in order and writes
// one JSON line to w per input line: the Answer, or {"error": "line N:
// ..."} for a line that could not be used, whose text onError also gets
// (nil: not told). It returns how many lines could not be used and
// whether any answer disallowed; err is a failure to read r (a
// *linecap.ReadError), to write w, or ctx.Err(), after writing the
// answers so far.
func (a *Answerer) AnswerAll(ctx context.Context, r io.Reader, w io.Writer, onError func(string)) (bad int, disallowed bool, err error) {
	err = linecap.Serve(ctx, r, w, MaxQuestionLine, func(n int64, line []byte, tooLong bool, out *linecap.Out) error {
		var aerr error
		ans := Answer{}
		if !tooLong {
			ans, aerr = a.Answer(line)
		}
		if tooLong || aerr != nil {
			e := lineError{Error: "line " + strconv.FormatInt(n, 10) + ": longer than " + strconv.Itoa(MaxQuestionLine) + " bytes"}
			if aerr != nil {
				e.Error = "line " + strconv.FormatInt(n, 10) + ": " + aerr.Error()
			}
			bad++
			if onError != nil {
				onError(e.Error)
			}
			return out.JSON(e)
		}
		disallowed = disallowed || !ans.Allowed
		return out.JSON(ans)
	})
	return bad, disallowed, err
}

// Judge says whether agent may fetch u, with the evidence: by RFC 9309
// (Check), or, when usage is not "", by ACAP 1.0 for that usage
// (ACAPCheck).
func (f *File) Judge(agent, usage, u string) (allowed bool, evidence string) {
	if usage != "" {
		v := f.ACAPCheck(agent, usage, u)
		return v.Allowed, v.Evidence()
	}
	v := f.Check(agent, u)
	return v.Allowed, v.Evidence()
}

// MaxFileBytes caps how much of a robots.txt file ReadFile reads: far
// more than any parsing limit, so the file's size can still be told.
const MaxFileBytes = 64 << 20

// ReadFile reads a robots.txt file, or stdin for the name "-", up to
// MaxFileBytes.
func ReadFile(name string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("read robots.txt: %w", err)
		}
		defer fh.Close()
		r = fh
	}
	body, err := io.ReadAll(io.LimitReader(r, MaxFileBytes))
	if err != nil {
		return nil, fmt.Errorf("read robots.txt %s: %w", name, err)
	}
	return body, nil
}
