package audit

import (
	"fmt"
	"slices"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/problem"
)

// The default --as-of is the latest time in the data. One garbled line
// dated 2099 (or 9999) would move it there and add retention findings
// silently, so the default ignores outliers. They are looked for in each
// log on its own (a server writes a line per request, so its times are
// dense; an archive's captures, a robots history's above all, may be
// years apart and are taken as they are): the day by which all but the
// latest 0.1% of the log's lines lie (at least one line left out) ends
// its bulk; days that start after the bulk by more than asOfSlack, or by
// more than the bulk's own span if that is longer, are outliers. A log of
// fewer than minOutlierBase lines says little about its own density: its
// slack is a year (smallLogSlack), which a garbled 2099 still exceeds. Each is a time-outlier warning naming its line,
// and a notice says which line set the as-of and what was ignored.
const (
	asOfSlack      = 7 * 24 * time.Hour
	smallLogSlack  = 366 * 24 * time.Hour
	minOutlierBase = 20
	maxOutlierRows = 100 // time-outlier rows a run writes; the rest are counted
)

// asOfChoice is what the events of the streamed inputs say of the
// default as-of.
type asOfChoice struct {
	at      time.Time    // the latest time not an outlier
	src     event.Source // the event with that time
	ignored []timeOutlier
	nIgn    int64 // events ignored
	first   time.Time
}

// timeOutlier is one day of a log's lines after the bulk of the log.
type timeOutlier struct {
	day  ingest.Day
	bulk time.Time // the end of the day by which 99.9% of the log's lines lie
}

// chooseAsOf finds the default as-of in the inputs' day counts.
func chooseAsOf(files []*fileState) asOfChoice {
	var c asOfChoice
	for _, fs := range files {
		if f := fs.stats.First; !f.IsZero() && (c.first.IsZero() || f.Before(c.first)) {
			c.first = f
		}
		days := fs.stats.Days.All()
		keys := make([]int64, 0, len(days))
		var total int64
		for k, d := range days {
			keys = append(keys, k)
			total += d.N
		}
		slices.Sort(keys)
		cut, bulk := len(keys), time.Time{}
		if fs.f.Kind == ingest.KindLog && total >= 2 {
			cut, bulk = outliers(keys, days, total)
		}
		for i, k := range keys {
			d := *days[k]
			if fs.f.Spool != "" && d.Src.File == fs.f.Spool {
				d.Src.File = fs.f.Path
			}
			if i >= cut {
				c.ignored = append(c.ignored, timeOutlier{day: d, bulk: bulk})
				c.nIgn += d.N
				continue
			}
			if d.Latest.After(c.at) {
				c.at, c.src = d.Latest, d.Src
			}
		}
	}
	return c
}

// outliers returns the index in keys (sorted days) of the first outlier
// day, len(keys) when there is none, and the end of the bulk.
func outliers(keys []int64, days map[int64]*ingest.Day, total int64) (int, time.Time) {
	skip := max(1, total/1000)
	var seen int64
	for i, k := range keys {
		seen += days[k].N
		if seen < total-skip {
			continue
		}
		end := time.Unix((k+1)*86400, 0).UTC()
		base := asOfSlack
		if total < minOutlierBase {
			base = smallLogSlack
		}
		slack := max(base, end.Sub(time.Unix(keys[0]*86400, 0)))
		for j := i + 1; j < len(keys); j++ {
			if time.Unix(keys[j]*86400, 0).Sub(end) > slack {
				return j, end
			}
		}
		return len(keys), end
	}
	return len(keys), time.Time{}
}

// asOfProblems reports the outliers and an --as-of given before the
// data; asOf is the as-of the run uses, given says whether --as-of set it.
func (c *asOfChoice) problems(asOf time.Time, given bool) []event.Problem {
	var out []event.Problem
	for i, o := range c.ignored {
		if i == maxOutlierRows {
			out = append(out, event.Problem{Source: event.Source{Offset: -1}, Code: problem.TimeOutlier, Severity: event.SevWarning,
				Message: fmt.Sprintf("%d more days of times after the bulk of the data not listed", len(c.ignored)-i)})
			break
		}
		what := "ignored for the default --as-of"
		if given {
			what = "--as-of was given"
		}
		more := ""
		if o.day.N > 1 {
			more = fmt.Sprintf(" (and %d more lines that day)", o.day.N-1)
		}
		out = append(out, event.Problem{Source: o.day.Src, Code: problem.TimeOutlier, Severity: event.SevWarning,
			Message: fmt.Sprintf("time %s%s is %s after the day by which 99.9%% of the log's lines lie (ending %s): a garbled line? %s",
				fmtTime(o.day.Latest), more, fmtDays(o.day.Latest.Sub(o.bulk)), fmtTime(o.bulk), what)})
	}
	if given && !c.first.IsZero() && asOf.Before(c.first) {
		out = append(out, event.Problem{Source: event.Source{Offset: -1}, Code: problem.AsOfBeforeData, Severity: event.SevWarning,
			Message: c.beforeData(asOf)})
	}
	return out
}

func (c *asOfChoice) beforeData(asOf time.Time) string {
	return fmt.Sprintf("--as-of %s is %s before the earliest time in the data (%s): retention and take-downs are judged before any capture was made",
		fmtTime(asOf), fmtDays(c.first.Sub(asOf)), fmtTime(c.first))
}

// notices says where the as-of came from when that is not plain.
func (c *asOfChoice) notices(asOf time.Time, given bool) []Notice {
	var out []Notice
	if !given && len(c.ignored) > 0 {
		out = append(out, Notice{Code: NoticeAsOfOutliers, Count: c.nIgn,
			Message: fmt.Sprintf("--as-of defaults to %s, the time of %s: %d log lines dated long after the bulk of their log (the first at %s, %s) were ignored as outliers (problems time-outlier); give --as-of to choose",
				fmtTime(asOf), c.src, c.nIgn, c.ignored[0].day.Src, fmtTime(c.ignored[0].day.Latest))})
	}
	if given && !c.first.IsZero() && asOf.Before(c.first) {
		out = append(out, Notice{Code: NoticeAsOfBeforeData, Message: c.beforeData(asOf)})
	}
	return out
}

func fmtTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// fmtDays writes a long duration in days, a short one as it is.
func fmtDays(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.Round(time.Second).String()
}
