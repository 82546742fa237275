package evaluate

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/signature"
	"github.com/repaudit/repaudit/table"
)

// usageLabel is one usage preference of a bot's view: its label as
// written in its mechanism, the categories a "no" reserves the URL from,
// and the line that decided it.
type usageLabel struct {
	name   string // ai-train, ai-input, search (Content-Signal); train-ai, search (Content-Usage)
	value  string // as written: yes/no (Content-Signal), y/n (Content-Usage)
	no     bool
	line   int
	text   string
	serves []string // bot categories a "no" reserves
	header bool     // from the response's Content-Usage header, not robots.txt
}

// respUsage is the Content-Usage response header (aipref attach §2) of a
// capture judged as its archive crawler's fetch, and where it was seen.
type respUsage struct {
	h    robots.UsageHeader
	text string // evidence: the field and the capture it came from
}

// captureUsage reads c's Content-Usage header; nil when it has none.
func captureUsage(c *capRec) *respUsage {
	if c.usage() == "" {
		return nil
	}
	h, _ := robots.ParseUsageHeader(c.usage())
	text := h.String() + " (response header of " + c.rawURL() + " captured " + fmtTime(c.time()) + ", " + c.src().String()
	if c.usageCut() {
		text += "; cut to its first " + strconv.Itoa(len(c.usage())) + " bytes, the rest unread"
	}
	return &respUsage{h: h, text: text + ")"}
}

// labels lists the header's labels that state a preference.
func (u *respUsage) labels() []usageLabel {
	var out []usageLabel
	add := func(name string, p robots.Pref, serves []string) {
		switch p {
		case robots.PrefYes:
			out = append(out, usageLabel{name: name, value: "y", text: u.text, serves: serves, header: true})
		case robots.PrefNo:
			out = append(out, usageLabel{name: name, value: "n", no: true, text: u.text, serves: serves, header: true})
		}
	}
	add("train-ai", u.h.TrainAI, reserveTrain)
	add("search", u.h.Search, reserveSearch)
	return out
}

// Categories each label reserves (docs/semantics.md, "Usage
// preferences"): ai-input covers the model input of assistants and AI
// search engines; search covers both kinds of search engine.
var (
	reserveTrain  = []string{bots.CategoryAITraining}
	reserveInput  = []string{bots.CategoryAIAssistant, bots.CategoryAISearch}
	reserveSearch = []string{bots.CategorySearch, bots.CategoryAISearch}
)

// usageLabels lists the labels of uv that state a preference, in a fixed
// order: Content-Usage first, then Content-Signal.
func usageLabels(uv *robots.UsageVerdict) []usageLabel {
	var out []usageLabel
	add := func(name string, l robots.UsageLabel, yes, no string, serves []string) {
		switch l.Value {
		case robots.PrefYes:
			out = append(out, usageLabel{name: name, value: yes, line: l.Line, text: l.Text, serves: serves})
		case robots.PrefNo:
			out = append(out, usageLabel{name: name, value: no, no: true, line: l.Line, text: l.Text, serves: serves})
		}
	}
	add("train-ai", uv.TrainAI, "y", "n", reserveTrain)
	add("search", uv.Search, "y", "n", reserveSearch)
	add("ai-train", uv.SignalAITrain, "yes", "no", reserveTrain)
	add("ai-input", uv.SignalAIInput, "yes", "no", reserveInput)
	add("search", uv.SignalSearch, "yes", "no", reserveSearch)
	return out
}

// usagePrefsColumn renders labels for fetches.usage_prefs: label=value,
// sorted, comma-joined ("ai-train=no,search=yes,train-ai=n"); a label
// that robots.txt and the response header both state appears once per
// value.
func usagePrefsColumn(ls []usageLabel) string {
	if len(ls) == 0 {
		return ""
	}
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = l.name + "=" + l.value
	}
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}

// usageCategory is the bot's purpose for usage preferences and where it
// comes from: a verified client's Signature Agent Card purpose when it
// names a catalog category, else the catalog's (or card's) category.
func usageCategory(id *ident, signatureVerdict string) (cat, from string) {
	if id.card != nil && signatureVerdict == string(signature.Verified) && isUsageCategory(id.card.Purpose) {
		return id.card.Purpose, "purpose of its verified Signature Agent Card " + id.card.ClientID
	}
	from = "catalog category"
	if id.bot == nil {
		from = "category"
	}
	return id.category, from
}

func isUsageCategory(s string) bool {
	switch s {
	case bots.CategoryAITraining, bots.CategoryAISearch, bots.CategoryAIAssistant, bots.CategorySearch:
		return true
	}
	return false
}

// usageFindings fills fetches.usage_prefs from the robots.txt version ver
// of the bot's view and, for a capture judged as a fetch, from the
// response's own Content-Usage header hdr (nil otherwise; fl may then be
// nil), and adds a usage_reserved finding for each label that reserves
// the URL for the bot's purpose (vocab §5.1: any "no" wins, whichever
// mechanism states it). A fetch with a robots finding gets that finding
// alone: preferences attach only to paths the group allows (attach
// §3.1). /robots.txt is never judged for usage.
func (m *Model) usageFindings(j *Judgement, t time.Time, target string, r *robotsResult, ver *version, fl *robots.File, id *ident, c *judgeCache, hdr *respUsage) {
	fromFile := fl != nil && fl.HasUsage()
	if !fromFile && hdr == nil || robots.IsRobotsTxt(target) {
		return
	}
	row := &j.Fetch
	var uv robots.UsageVerdict
	var ls []usageLabel
	allowed := true
	switch {
	case fromFile:
		uv = fl.UsagePrefs(id.groupToken(), target)
		ls = usageLabels(&uv)
		allowed = uv.Access.Allowed
	case fl != nil:
		allowed = fl.Check(id.groupToken(), target).Allowed
	}
	if hdr != nil {
		ls = append(ls, hdr.labels()...)
	}
	row.UsagePrefs = usagePrefsColumn(ls)
	if r.verdict == VerdictNotJudged || r.kind != "" || !allowed {
		return
	}
	cat, from := usageCategory(id, row.Signature)
	seen := ""
	for _, l := range ls {
		if !l.no || !slices.Contains(l.serves, cat) || strings.Contains(seen, ","+l.name+",") {
			continue
		}
		seen += "," + l.name + ","
		v := m.baseViolation(row, KindUsageReserved)
		v.Usage = l.name
		v.MatchedRule = l.text
		v.Directive = l.text
		if !l.header {
			setRobotsVersion(&v, ver)
			v.MatchedGroup = uv.Group
			v.MatchedLine = int32(l.line)
		}
		m.usageEvidence(&v, r, ver, &uv, l, id.token, cat, from, target, t, c)
		j.Violations = append(j.Violations, v)
	}
}

// usageEvidence writes a usage_reserved finding's evidence: the version,
// the deciding line, the bot's purpose, its view and the request.
func (m *Model) usageEvidence(v *table.Violation, r *robotsResult, ver *version, uv *robots.UsageVerdict, l usageLabel, token, cat, from, target string, t time.Time, c *judgeCache) {
	var sb evBuf
	if l.header {
		sb.WriteString(l.text)
		sb.WriteString(" says ")
	} else {
		writeVersion(&sb, ver)
		sb.WriteString(": line ")
		sb.int(l.line)
		sb.WriteString(" ")
		sb.quote(l.text)
		sb.WriteString(" in group ")
		sb.quote(uv.Group)
		sb.WriteString(" says ")
	}
	sb.WriteString(l.name)
	sb.WriteString("=")
	sb.WriteString(l.value)
	sb.WriteString(" for ")
	sb.WriteString(target)
	sb.WriteString(", which reserves it from ")
	sb.WriteString(strings.Join(l.serves, " and "))
	sb.WriteString(" use; ")
	sb.WriteString(token)
	sb.WriteString(" is ")
	sb.WriteString(cat)
	sb.WriteString(" (")
	sb.WriteString(from)
	sb.WriteString(")")
	who := c.scopeWho(token, r.scope)
	switch e := r.entry; {
	case l.header:
		// The response spoke for itself: the bot's robots.txt view is
		// beside the point.
	case r.view == ViewUnchecked || e == nil:
		sb.WriteString("; ")
		sb.WriteString(who)
		sb.WriteString(" never fetched robots.txt before this request, so the version in force at it applies")
	default:
		sb.WriteString("; ")
		c.writeEntry(&sb, who, e)
		if r.view == ViewStale && !r.useOwn {
			sb.WriteString(", older than the ")
			sb.dur(m.opts.RobotsTTL)
			sb.WriteString(" cache lifetime, so judged by the version in force at the request")
		}
	}
	sb.WriteString("; fetched ")
	sb.WriteString(target)
	sb.WriteString(" at ")
	sb.time(t)
	v.Evidence = sb.String()
}
