package extract

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// notRobotsNames are meta names that have product token syntax but never
// carry robots rules, even when their content happens to be a rule word
// (<meta name="author" content="none">).
var notRobotsNames = map[string]bool{
	"description": true, "keywords": true, "author": true, "generator": true,
	"viewport": true, "theme-color": true, "referrer": true, "rating": true,
	"google-site-verification": true, "yandex-verification": true,
	"msvalidate.01": true, "facebook-domain-verification": true,
	"norton-safeweb-site-verification": true, "format-detection": true,
	"application-name": true, "color-scheme": true, "copyright": true,
	"language": true, "revisit-after": true, "distribution": true,
	"subject": true, "abstract": true, "topic": true, "summary": true,
	"classification": true, "designer": true, "owner": true, "url": true,
	"identifier-url": true, "category": true, "coverage": true,
	"reply-to": true, "handheldfriendly": true, "mobileoptimized": true,
	"csrf-token": true, "csrf-param": true, "news_keywords": true,
	"apple-mobile-web-app-capable": true, "apple-mobile-web-app-title": true,
	"apple-mobile-web-app-status-bar-style": true, "mobile-web-app-capable": true,
	"msapplication-tilecolor": true, "msapplication-config": true,
	"twitter": true, "title": true, "date": true, "version": true,
}

// headAllowed are the start tags the HTML parser puts in the head ("in
// head" insertion mode, HTML Living Standard §13.2.6.4.4). Any other start
// tag, or text that is not white space, starts the body.
var headAllowed = map[string]bool{
	"html": true, "head": true, "base": true, "basefont": true, "bgsound": true,
	"link": true, "meta": true, "title": true, "noscript": true,
	"noframes": true, "style": true, "script": true, "template": true,
}

// rawText are the head elements whose content the tokenizer returns as one
// text token.
var rawText = map[string]bool{
	"title": true, "noscript": true, "noframes": true, "style": true,
	"script": true,
}

// ParseMeta reads the robots meta tags of an HTML document's head
// (repext §3.1.2, §4): <meta name="robots" content="..."> carries global
// rules and <meta name="TOKEN" content="..."> rules for one product token.
// A name other than robots counts when it has product token syntax, is not
// a well-known non-robots name (description, viewport, ...) and its
// content consists of robots rules only. Names compare case-insensitively.
//
// The head ends as an HTML parser ends it: at <body>, at any start tag
// that cannot be in a head, or at text that is not white space. Meta tags
// between </head> and the body still count (the parser puts them in the
// head). Robots meta tags in the body are ignored and reported as
// DiagMetaInBody. Meta tags in a <noscript> in the head count: a crawler
// that does not run scripts sees them.
//
// At most opts.MaxHTMLBytes of body are read. When the scan stops before
// the head has ended — the body reached that limit, or the caller says it
// was cut (opts.BodyTruncated) — DiagHTMLTruncated says so: a noindex
// further on is not seen, and the diagnostic keeps that from passing in
// silence. A body exactly as long as the limit whose <head> is still open
// at its end counts as cut, since readers cap bodies at that same limit
// (warc.HTMLBodyLimit).
func ParseMeta(body []byte, opts Options) ([]Rule, []Diagnostic) {
	return parseMeta(body, opts, true)
}

// parseMeta is ParseMeta; quick allows the shortcuts for documents, and
// bodies, without a meta tag (tests compare it with the tokenizer's answer).
func parseMeta(body []byte, opts Options, quick bool) ([]Rule, []Diagnostic) {
	return scanMeta(body, opts, quick, nil)
}

// scanMeta is parseMeta with the state to scan with: nil takes one from
// metaStatePool (and only for a document that needs a tokenizer); tests
// pass their own, or one that makes a new tokenizer for each scan
// (metaState.fresh), as the package did before it reused them.
func scanMeta(body []byte, opts Options, quick bool, st *metaState) ([]Rule, []Diagnostic) {
	limit := opts.maxHTML()
	data := body
	if len(data) > limit {
		data = data[:limit]
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	truncated := len(body) > limit || opts.BodyTruncated
	maybeCut := len(body) == limit
	if quick && !truncated && !maybeCut && !hasMetaTag(data) {
		// Without a "<meta" the tokenizer finds no meta tag and, the
		// document being whole, has nothing to report: most pages of a
		// crawl end here, without a tokenizer.
		return nil, nil
	}
	if st == nil {
		st = metaStatePool.Get().(*metaState)
		defer metaStatePool.Put(st)
		defer st.reset()
	}
	st.p = headerParser{via: ViaMeta}
	m := metaScanner{p: &st.p, seen: min(len(body), limit), maybeCut: maybeCut, full: !quick, st: st}
	m.scan(data, 0, limit, truncated, false)
	return st.p.rules, st.p.diags
}

// hasMetaTag reports whether data contains "<meta" in any case: the start
// of every meta tag the tokenizer can return (it lower-cases tag names).
// One pass: each '<' (a vectorized search) is followed by a compare of the
// next four bytes without regard to ASCII case. This beat searching for
// "<m" and "<M" in turn, and three case variants of "<meta", by 2-3x on
// pages of ordinary markup (one '<' every few dozen bytes).
func hasMetaTag(data []byte) bool {
	for {
		i := bytes.IndexByte(data, '<')
		if i < 0 || len(data)-i < 5 {
			return false
		}
		if data[i+1]|0x20 == 'm' && data[i+2]|0x20 == 'e' && data[i+3]|0x20 == 't' && data[i+4]|0x20 == 'a' {
			return true
		}
		data = data[i+1:]
	}
}

// Where the scanner is in the document.
const (
	stateHead      = iota // before html, before head or in head
	stateAfterHead        // after </head>, before the body
	stateBody
)

type metaScanner struct {
	p     *headerParser
	state int
	seen  int // bytes of the document scanned, for the truncation message
	// maybeCut: the body is exactly as long as the limit, as a reader's
	// cap leaves it. An open <head> at its end is then reported as cut
	// (a complete document rarely ends inside its head).
	maybeCut bool
	full     bool       // tokenize the body even without a "<meta" in it (tests)
	st       *metaState // the tokenizers to scan with
}

// scan tokenizes data, which starts at byte base of the document. nested is true for the content of a <noscript>,
// which holds no further structure of interest.
func (m *metaScanner) scan(data []byte, base, limit int, truncated, nested bool) {
	z := m.tokenizer(data, nested)
	z.SetMaxBuf(limit)
	offset := base   // byte offset of the current token
	var raw string   // raw text element whose content comes next
	var template int // depth of <template>: its content is inert
	for {
		tt := z.Next()
		tokLen := len(z.Raw())
		switch tt {
		case html.ErrorToken:
			err := z.Err()
			if errors.Is(err, html.ErrBufferExceeded) && offset-base >= len(data) {
				// The tokenizer says so when a token as long as the
				// buffer limit (the whole document) ends where the
				// data does: no token was left unread.
				err = io.EOF
			}
			switch {
			case errors.Is(err, html.ErrBufferExceeded):
				// Cannot happen while data is no longer than the buffer
				// limit; reported as a cut if it ever does.
				m.p.diag(DiagHTMLTruncated, "an HTML token at byte "+strconv.Itoa(offset)+" exceeds the buffer limit; meta scanning stopped", "")
			case err == io.EOF && (truncated && m.state != stateBody || m.maybeCut && m.state == stateHead):
				m.p.diag(DiagHTMLTruncated, "the HTML head did not end within the first "+strconv.Itoa(m.seen)+" bytes scanned; meta tags after them (a noindex, say) are not seen", "")
			}
			return
		case html.TextToken:
			if raw != "" {
				if raw == "noscript" && m.state != stateBody && !nested {
					m.scan(z.Text(), base+offset+len(z.Raw())-len(z.Text()), limit, false, true)
				}
				break
			}
			if !nested && m.state != stateBody && !isHTMLSpace(z.Text()) {
				m.state = stateBody
				if !m.bodyHasMeta(data[offset-base:]) {
					return
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if tag == "meta" {
				if template == 0 && hasAttr {
					m.meta(z, offset)
				}
				break
			}
			if nested {
				break
			}
			if tag == "template" && tt == html.StartTagToken {
				template++
			}
			if rawText[tag] && tt == html.StartTagToken {
				raw = tag
			}
			if m.state != stateBody && !headAllowed[tag] {
				m.state = stateBody
				if !m.bodyHasMeta(data[offset-base:]) {
					return
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if tag == raw {
				raw = ""
			}
			if nested {
				break
			}
			switch tag {
			case "template":
				if template > 0 {
					template--
				}
			case "head":
				if m.state == stateHead {
					m.state = stateAfterHead
				}
			case "body", "html", "br":
				if m.state != stateBody {
					m.state = stateBody
					if !m.bodyHasMeta(data[offset-base:]) {
						return
					}
				}
			}
		}
		offset += tokLen
	}
}

// tokenizer returns a fresh tokenizer reading data: the reused one of
// the document, or of a noscript's content, or a new one.
func (m *metaScanner) tokenizer(data []byte, nested bool) *html.Tokenizer {
	if m.st.fresh {
		return html.NewTokenizer(bytes.NewReader(data))
	}
	if nested {
		return m.st.slots[1].start(data)
	}
	return m.st.slots[0].start(data)
}

// bodyHasMeta reports whether the rest of the document may contain a meta
// tag, so that scanning the body for misplaced robots tags is worth it
// (hasMetaTag: every case of "<meta", so the shortcut loses nothing). Without
// the shortcut (m.full) it always says yes: tests compare both.
func (m *metaScanner) bodyHasMeta(rest []byte) bool {
	return m.full || hasMetaTag(rest)
}

// meta handles one <meta> tag.
func (m *metaScanner) meta(z *html.Tokenizer, offset int) {
	ev := capEvidence(string(z.Raw()))
	var name, content string
	hasName, hasContent := false, false
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "name":
			if !hasName {
				name, hasName = strings.TrimSpace(string(v)), true
			}
		case "content":
			if !hasContent {
				content, hasContent = string(v), true
			}
		}
		if !more {
			break
		}
	}
	if !hasName {
		return
	}
	token, ok := metaToken(name, content, hasContent)
	if !ok {
		return
	}
	at := " at byte " + strconv.Itoa(offset)
	if m.state == stateBody {
		m.p.diag(DiagMetaInBody, "meta tag for "+strconv.Quote(name)+at+" is in the body, not the head: ignored (repext §4)", ev)
		return
	}
	if !hasContent {
		m.p.diag(DiagMetaNoContent, "robots meta tag"+at+" has no content attribute", ev)
		return
	}
	m.p.ruleList(content, token, ev, false)
}

// metaToken decides whether a meta tag carries robots rules and for which
// token: "*" for name="robots".
func metaToken(name, content string, hasContent bool) (string, bool) {
	lower := strings.ToLower(name)
	if lower == "robots" {
		return "*", true
	}
	if notRobotsNames[lower] || !isProductToken(name) || !hasContent {
		return "", false
	}
	return lower, allRules(content)
}

// allRules reports whether every element of a meta content is a robots
// rule, possibly with a value ("max-snippet:20").
func allRules(content string) bool {
	n := 0
	for _, el := range splitTopLevel(content) {
		el = strings.TrimSpace(el)
		if el == "" {
			continue
		}
		if i := strings.IndexAny(el, ":="); i > 0 {
			el = strings.TrimSpace(el[:i])
		}
		if !knownRules[strings.ToLower(el)] {
			// A date's own comma: "unavailable_after: Friday, 25-Jun-10".
			if n > 0 && startsWithDigit(el) {
				continue
			}
			return false
		}
		n++
	}
	return n > 0
}

func isHTMLSpace(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\f', '\r':
		default:
			return false
		}
	}
	return true
}
