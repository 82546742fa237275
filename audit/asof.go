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
// silently, so the default ignores outliers: times of days more than
// asOfSlack after the day by which all but the latest 0.1% of the
// events lie (at least one event ignored once there are minOutlierBase
// events). Each ignored day is a time-outlier warning naming its line,
// and a notice says which line set the as-of and what was ignored.
const (
	asOfSlack      = 7 * 24 * time.Hour
	minOutlierBase = 20
	maxOutlierRows = 100 // time-outlier rows a run writes; the rest are counted
)

// asOfChoice is what the events of the streamed inputs say of the
// default as-of.
type asOfChoice struct {
	at      time.Time    // the latest time not an outlier
	src     event.Source // the event with that time
	bulk    time.Time    // the end of the day by which 99.9% of the events lie
	ignored []timeOutlier
	nIgn    int64 // events ignored
	first   time.Time
}

// timeOutlier is one day of events after the bulk of the data.
type timeOutlier struct {
	day ingest.Day
	n   int64
}

// chooseAsOf finds the default as-of in the inputs' day counts.
func chooseAsOf(files []*fileState) asOfChoice {
	days := map[int64]*ingest.Day{}
	var total int64
	var c asOfChoice
	for _, fs := range files {
		if f := fs.stats.First; !f.IsZero() && (c.first.IsZero() || f.Before(c.first)) {
			c.first = f
		}
		for k, d := range fs.stats.Days.All() {
			total += d.N
			src := d.Src
			if fs.f.Spool != "" && src.File == fs.f.Spool {
				src.File = fs.f.Path
			}
			e, ok := days[k]
			if !ok {
				days[k] = &ingest.Day{N: d.N, Latest: d.Latest, Src: src}
				continue
			}
			e.N += d.N
			if d.Latest.After(e.Latest) {
				e.Latest, e.Src = d.Latest, src
			}
		}
	}
	keys := make([]int64, 0, len(days))
	for k := range days {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var skip int64 // events that may be outliers
	if total >= minOutlierBase {
		skip = max(1, total/1000)
	}
	cut := len(keys)
	var seen int64
	for i, k := range keys {
		seen += days[k].N
		if seen >= total-skip {
			end := time.Unix((k+1)*86400, 0).UTC()
			c.bulk = end
			limit := end.Add(asOfSlack)
			for j := i + 1; j < len(keys); j++ {
				if !time.Unix(keys[j]*86400, 0).Before(limit) {
					cut = j
					break
				}
			}
			break
		}
	}
	for i, k := range keys {
		d := days[k]
		if i >= cut {
			c.ignored = append(c.ignored, timeOutlier{day: *d, n: d.N})
			c.nIgn += d.N
			continue
		}
		if d.Latest.After(c.at) {
			c.at, c.src = d.Latest, d.Src
		}
	}
	return c
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
		if o.n > 1 {
			more = fmt.Sprintf(" (and %d more events that day)", o.n-1)
		}
		out = append(out, event.Problem{Source: o.day.Src, Code: problem.TimeOutlier, Severity: event.SevWarning,
			Message: fmt.Sprintf("time %s%s is %s after the day by which 99.9%% of the events lie (%s): a garbled line? %s",
				fmtTime(o.day.Latest), more, fmtDays(o.day.Latest.Sub(c.bulk)), fmtTime(c.bulk), what)})
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
			Message: fmt.Sprintf("--as-of defaults to %s, the time of %s: %d events dated more than %s after the bulk of the data (by %s; the first at %s, %s) were ignored as outliers (problems time-outlier); give --as-of to choose",
				fmtTime(asOf), c.src, c.nIgn, fmtDays(asOfSlack), fmtTime(c.bulk), c.ignored[0].day.Src, fmtTime(c.ignored[0].day.Latest))})
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
