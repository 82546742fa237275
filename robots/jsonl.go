package robots

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// answererCacheSize is how many distinct robots.txt bodies an Answerer
// keeps parsed.
const answererCacheSize = 16

// Answerer answers questions in the JSON form of "repaudit robots check
// --jsonl", one object a line:
//
//	{"robots": "<body>", "agent": "<token>", "url": "<url or path>"}
//
// ("robots_b64" may replace "robots" for bodies that are not UTF-8; an
// optional "usage" asks an ACAP 1.0 question). It keeps the last few
// parsed bodies: question streams usually ask many URLs of one file.
type Answerer struct {
	maxBytes int
	files    map[string]*File
}

// NewAnswerer returns an Answerer that parses each body with a limit of
// maxBytes (RFC 9309 §2.5).
func NewAnswerer(maxBytes int) *Answerer {
	return &Answerer{maxBytes: maxBytes, files: make(map[string]*File)}
}

// robotsQuestion is one question. Its name shows in the errors of
// encoding/json ("Go struct field robotsQuestion.robots"), which callers
// pass on: it is kept for them.
type robotsQuestion struct {
	Robots    *string `json:"robots"`
	RobotsB64 *string `json:"robots_b64"`
	Agent     *string `json:"agent"`
	URL       *string `json:"url"`
	Usage     string  `json:"usage"`
}

// Answer is the JSON form of a Verdict or an ACAPVerdict.
type Answer struct {
	Allowed   bool   `json:"allowed"`
	Group     string `json:"group"`
	Rule      string `json:"rule"`
	Line      int    `json:"line"`
	GroupLine int    `json:"group_line,omitempty"`
	Reason    string `json:"reason"`
	Usage     string `json:"usage,omitempty"`
	Applies   *bool  `json:"applies,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	Evidence  string `json:"evidence"`
}

func (a *Answerer) file(body string) *File {
	if f, ok := a.files[body]; ok {
		return f
	}
	if len(a.files) >= answererCacheSize {
		clear(a.files)
	}
	f := Parse([]byte(body), Options{MaxBytes: a.maxBytes})
	a.files[body] = f
	return f
}

// Answer answers one question, a JSON object. The error says why the
// question cannot be used.
func (a *Answerer) Answer(line []byte) (Answer, error) {
	var q robotsQuestion
	if err := json.Unmarshal(line, &q); err != nil {
		return Answer{}, fmt.Errorf("not a JSON object: %v", err)
	}
	var body string
	switch {
	case q.Robots != nil && q.RobotsB64 != nil:
		return Answer{}, errors.New(`give "robots" or "robots_b64", not both`)
	case q.Robots != nil:
		body = *q.Robots
	case q.RobotsB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*q.RobotsB64)
		if err != nil {
			return Answer{}, fmt.Errorf("robots_b64: %v", err)
		}
		body = string(b)
	default:
		return Answer{}, errors.New(`missing "robots"`)
	}
	if q.Agent == nil {
		return Answer{}, errors.New(`missing "agent"`)
	}
	if q.URL == nil {
		return Answer{}, errors.New(`missing "url"`)
	}
	f := a.file(body)
	if q.Usage != "" {
		v := f.ACAPCheck(*q.Agent, q.Usage, *q.URL)
		applies := v.Applies
		return Answer{Allowed: v.Allowed, Group: v.Crawler, Rule: v.Record, Line: v.Line, Reason: v.Reason,
			Usage: v.Usage, Applies: &applies, Truncated: f.Truncated, Evidence: v.Evidence()}, nil
	}
	v := f.Check(*q.Agent, *q.URL)
	ans := Answer{Allowed: v.Allowed, Group: v.Group, GroupLine: v.GroupLine, Reason: v.Reason,
		Truncated: f.Truncated, Evidence: v.Evidence()}
	if v.Rule != nil {
		ans.Rule, ans.Line = v.Rule.String(), v.Rule.Line
	}
	return ans, nil
}
