package extract

import (
	"strconv"
	"strings"
)

// Archive-Embargo (draft-nottingham-archive-embargo): a response header
// asking archives not to show a capture's body for a period, "w", "m" or
// "q" (7, 31 or 90 days from the earlier of the response's Last-Modified
// and when the archive first saw the URL). During the embargo an archive
// may show only a tombstone: the URL, the headers and the digest.

// MaxEmbargoBytes bounds the Archive-Embargo field value read; the rest
// is ignored and reported.
const MaxEmbargoBytes = 256

// Embargo is a parsed Archive-Embargo field.
type Embargo struct {
	Period string // "w", "m" or "q"; "" when no member was understood
	Days   int    // 7, 31 or 90; 0 when Period is ""
	Value  string // the field value as read (field lines joined with ", "), at most MaxEmbargoBytes
}

// EmbargoError says why an Archive-Embargo value was not read as written.
// Offset is the byte offset in Value where the trouble starts.
type EmbargoError struct {
	Offset int
	Reason string
}

func (e *EmbargoError) Error() string {
	return "Archive-Embargo: byte " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

// embargoDays are the periods of the draft.
var embargoDays = map[string]int{"w": 7, "m": 31, "q": 90}

// ParseArchiveEmbargo reads the Archive-Embargo field lines of a
// response, joined as one list (RFC 9110 §5.3). Each member is a token
// "w", "m" or "q", optionally followed by ";" parameters, which are
// ignored (RFC 8941 §3.1.2 items carry them). Several members that
// differ ask for the longest period, the most restrictive reading; that
// and any member that is not one of the three tokens is reported in the
// error, which comes with whatever could be read. ok is false when the
// response has no such field.
func ParseArchiveEmbargo(values []string) (e Embargo, ok bool, err *EmbargoError) {
	if len(values) == 0 {
		return Embargo{}, false, nil
	}
	v := strings.Join(values, ", ")
	if len(v) > MaxEmbargoBytes {
		v = v[:MaxEmbargoBytes]
		err = &EmbargoError{Offset: MaxEmbargoBytes, Reason: "value longer than " + strconv.Itoa(MaxEmbargoBytes) + " bytes: the rest ignored"}
	}
	e.Value = v
	start := 0
	for start <= len(v) {
		end := strings.IndexByte(v[start:], ',')
		if end < 0 {
			end = len(v)
		} else {
			end += start
		}
		m, off := trimOWS(v[start:end], start)
		if p := strings.IndexByte(m, ';'); p >= 0 {
			m, _ = trimOWS(m[:p], off)
		}
		switch d, known := embargoDays[m]; {
		case known && e.Period != "" && e.Period != m:
			if d > e.Days {
				e.Period, e.Days = m, d
			}
			err = firstErr(err, off, "members ask for different periods: the longest is used")
		case known:
			if d > e.Days {
				e.Period, e.Days = m, d
			}
		case m == "" && strings.Trim(v, " \t") == "":
			err = firstErr(err, off, "empty value")
		case m == "":
			err = firstErr(err, off, "empty list member")
		default:
			err = firstErr(err, off, "member "+strconv.Quote(m)+" is not w, m or q")
		}
		start = end + 1
	}
	return e, true, err
}

// trimOWS trims spaces and tabs (RFC 9110 §5.6.3) from s, which starts
// at byte off of the value, and returns the offset of what is left.
func trimOWS(s string, off int) (string, int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return strings.TrimRight(s[i:], " \t"), off + i
}

// firstErr keeps the first error found.
func firstErr(err *EmbargoError, off int, reason string) *EmbargoError {
	if err != nil {
		return err
	}
	return &EmbargoError{Offset: off, Reason: reason}
}
