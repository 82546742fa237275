package bots

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// ErrFormat is wrapped by Load errors for input that is not a catalog.
var ErrFormat = errors.New("bots: bad catalog")

// MaxCatalogBytes bounds the size of a catalog file Load reads.
const MaxCatalogBytes = 16 << 20

// AIRobotsJSONURL is where the ai.robots.txt project keeps robots.json,
// the file its README names as the one every update is made to (the
// robots.txt it publishes is generated from it): the raw file of the main
// branch of https://github.com/ai-robots-txt/ai.robots.txt. Load reads
// its shape; "repaudit bots fetch" downloads it.
const AIRobotsJSONURL = "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json"

// Bounds on one entry.
const (
	maxTokenLen    = 256
	maxPatterns    = 64
	maxTextLen     = 4096
	maxNotesLength = 4096
)

// LoadError is a problem in a catalog file, with its position.
type LoadError struct {
	File   string
	Line   int // 1-based; 0 when unknown
	Column int // 1-based byte column; 0 when unknown
	Offset int64
	Err    error
}

func (e *LoadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// jsonBot is one entry of this package's own shape (see doc.go).
type jsonBot struct {
	Token          string    `json:"token"`
	Patterns       *[]string `json:"patterns"`
	RobotsToken    string    `json:"robots_token"`
	Operator       string    `json:"operator"`
	Category       string    `json:"category"`
	UserTriggered  *bool     `json:"user_triggered"`
	Framework      *bool     `json:"framework"`
	URL            string    `json:"url"`
	IPRangesURL    string    `json:"ip_ranges_url"` // one list; kept for older files
	IPRangesURLs   *[]string `json:"ip_ranges_urls"`
	IPRangesFormer *[]string `json:"ip_ranges_former_urls"`
	RDNSSuffixes   []string  `json:"rdns_suffixes"`
	RDNSDocURL     string    `json:"rdns_doc_url"`
	WebBotAuth     string    `json:"web_bot_auth"`
	RobotsTxtOnly  *bool     `json:"robots_txt_only"`
	Notes          string    `json:"notes"`
}

// aiRobotsBot is one entry of the ai.robots.txt robots.json shape.
type aiRobotsBot struct {
	Operator    string `json:"operator"`
	Respect     string `json:"respect"`
	Function    string `json:"function"`
	Frequency   string `json:"frequency"`
	Description string `json:"description"`
}

// Load reads a catalog. Two shapes are accepted:
//
//   - this package's own: {"bots": [{"token": "GPTBot", "operator": ...},
//     ...]} (fields in doc.go; unknown fields are errors, so that a typo
//     does not pass silently);
//   - the ai.robots.txt robots.json shape: {"GPTBot": {"operator": ...,
//     "respect": ..., "function": ..., "frequency": ..., "description":
//     ...}, ...}, where the category is inferred from "function" (see
//     docs/semantics.md) and left "" when it cannot be.
//
// name names the input in errors, which are *LoadError values with the
// line and column of the problem. A token given twice is an error.
func Load(r io.Reader, name string) (*Catalog, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxCatalogBytes+1))
	if err != nil {
		return nil, &LoadError{File: name, Err: fmt.Errorf("read: %w", err)}
	}
	if len(data) > MaxCatalogBytes {
		return nil, &LoadError{File: name, Err: fmt.Errorf("%w: larger than %d bytes", ErrFormat, MaxCatalogBytes)}
	}
	l := loader{name: name, data: data}
	list, err := l.load()
	if err != nil {
		return nil, err
	}
	return newCatalog(list), nil
}

// LoadWith returns the default catalog with the catalog files at paths
// merged over it, in order (each as Load reads it). Errors are those of
// os.Open, naming the path, or *LoadError.
func LoadWith(paths ...string) (*Catalog, error) {
	c := Default()
	for _, p := range paths {
		o, err := loadFile(p)
		if err != nil {
			return nil, err
		}
		c = c.Merge(o)
	}
	return c, nil
}

func loadFile(path string) (*Catalog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Load(f, path)
}

type loader struct {
	name string
	data []byte
	dec  *json.Decoder
}

// errAt makes a LoadError at a byte offset of the input.
func (l *loader) errAt(off int64, err error) error {
	e := &LoadError{File: l.name, Offset: off, Err: err}
	e.Line, e.Column = position(l.data, off)
	return e
}

// wrap turns an error of l.dec.Token into a LoadError at its position.
func (l *loader) wrap(err error) error { return l.wrapAt(err, 0) }

// wrapAt turns a decoding error into a LoadError at its position.
// json.Decoder.Decode reports offsets from the start of the value it
// decodes, which is base.
func (l *loader) wrapAt(err error, base int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, including the offending one.
		return l.errAt(base+max(se.Offset-1, 0), fmt.Errorf("%w: %v", ErrFormat, err))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return l.errAt(base+te.Offset, fmt.Errorf("%w: %v", ErrFormat, err))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return l.errAt(int64(len(l.data)), fmt.Errorf("%w: unexpected end of input", ErrFormat))
	}
	return l.errAt(l.dec.InputOffset(), fmt.Errorf("%w: %v", ErrFormat, err))
}

// position converts a byte offset to a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// valueStart returns the offset of the next JSON value after off, skipping
// white space, commas and colons, so that errors point at the entry.
func (l *loader) valueStart(off int64) int64 {
	for off < int64(len(l.data)) {
		switch l.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (l *loader) load() ([]*Bot, error) {
	// Check the syntax of the whole input first: json.Unmarshal reports
	// syntax errors at offsets from the start of its input, which a
	// Decoder does not.
	var whole json.RawMessage
	if err := json.Unmarshal(l.data, &whole); err != nil {
		var se *json.SyntaxError
		// Offset counts the bytes read including the offending one; at an
		// unexpected end, point past the last byte.
		off := int64(len(l.data))
		if errors.As(err, &se) && !strings.Contains(se.Error(), "unexpected end") {
			off = min(max(se.Offset-1, 0), int64(len(l.data))-1)
		}
		return nil, l.errAt(off, fmt.Errorf("%w: %v", ErrFormat, err))
	}
	l.dec = json.NewDecoder(bytes.NewReader(l.data))
	tok, err := l.dec.Token()
	if err != nil {
		return nil, l.wrap(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, l.errAt(l.valueStart(0), fmt.Errorf("%w: want a JSON object at the top level", ErrFormat))
	}
	// Decide the shape from the first key whose value is an array named
	// "bots" (ours) or an object (robots.json).
	var list []*Bot
	seen := map[string]int64{}
	theirIdx := map[string]int{}
	ours, theirs := false, false
	for l.dec.More() {
		keyOff := l.valueStart(l.dec.InputOffset())
		tok, err := l.dec.Token()
		if err != nil {
			return nil, l.wrap(err)
		}
		key, _ := tok.(string)
		valOff := l.valueStart(l.dec.InputOffset())
		if valOff >= int64(len(l.data)) {
			return nil, l.wrap(io.ErrUnexpectedEOF)
		}
		switch c := l.data[valOff]; {
		case key == "bots" && c == '[' && !theirs:
			ours = true
			bots, err := l.ourBots(seen)
			if err != nil {
				return nil, err
			}
			list = append(list, bots...)
		case c == '{' && !ours:
			theirs = true
			var e aiRobotsBot
			if err := l.dec.Decode(&e); err != nil {
				return nil, l.wrapAt(err, valOff)
			}
			b, err := fromAIRobots(key, e)
			if err != nil {
				return nil, l.errAt(keyOff, err)
			}
			b.Sources = []string{l.name}
			// robots.json has held names that differ only in case
			// ("meta-externalagent", "Meta-ExternalAgent") or by a version
			// ("MistralAI-User/1.0") since 2025: one bot, merged.
			if i, dup := theirIdx[strings.ToLower(b.Token)]; dup {
				list[i] = mergeDup(list[i], b)
				continue
			}
			theirIdx[strings.ToLower(b.Token)] = len(list)
			list = append(list, b)
		case c != '{' && !theirs:
			// Other top-level members of our shape ("comment", "version").
			var skip json.RawMessage
			if err := l.dec.Decode(&skip); err != nil {
				return nil, l.wrapAt(err, valOff)
			}
		default:
			return nil, l.errAt(valOff, fmt.Errorf("%w: member %q: want {\"bots\": [...]} or a robots.json object of bot objects", ErrFormat, key))
		}
	}
	if _, err := l.dec.Token(); err != nil { // closing '}'
		return nil, l.wrap(err)
	}
	if off := l.valueStart(l.dec.InputOffset()); off < int64(len(l.data)) {
		return nil, l.errAt(off, fmt.Errorf("%w: data after the top-level object", ErrFormat))
	}
	return list, nil
}

func checkDup(seen map[string]int64, token string, off int64) error {
	k := strings.ToLower(token)
	if _, dup := seen[k]; dup {
		return fmt.Errorf("%w: token %q given twice", ErrFormat, token)
	}
	seen[k] = off
	return nil
}

// ourBots reads the "bots" array.
func (l *loader) ourBots(seen map[string]int64) ([]*Bot, error) {
	if _, err := l.dec.Token(); err != nil { // '['
		return nil, l.wrap(err)
	}
	var list []*Bot
	for l.dec.More() {
		off := l.valueStart(l.dec.InputOffset())
		raw := json.RawMessage{}
		if err := l.dec.Decode(&raw); err != nil {
			return nil, l.wrapAt(err, off)
		}
		var e jsonBot
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&e); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, l.errAt(off+te.Offset, fmt.Errorf("%w: %v", ErrFormat, err))
			}
			return nil, l.errAt(off, fmt.Errorf("%w: %v", ErrFormat, err))
		}
		b, err := fromOurs(e)
		if err != nil {
			return nil, l.errAt(off, err)
		}
		b.Sources = []string{l.name}
		if err := checkDup(seen, b.Token, off); err != nil {
			return nil, l.errAt(off, err)
		}
		list = append(list, b)
	}
	if _, err := l.dec.Token(); err != nil { // ']'
		return nil, l.wrap(err)
	}
	return list, nil
}

func checkToken(t string) error {
	if strings.TrimSpace(t) == "" {
		return fmt.Errorf("%w: empty token", ErrFormat)
	}
	if len(t) > maxTokenLen {
		return fmt.Errorf("%w: token longer than %d bytes", ErrFormat, maxTokenLen)
	}
	for _, r := range t {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%w: token %q has a control character", ErrFormat, t)
		}
	}
	return nil
}

func capText(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > maxTextLen {
		s = s[:maxTextLen]
	}
	return s
}

func fromOurs(e jsonBot) (*Bot, error) {
	e.Token = strings.TrimSpace(e.Token)
	if err := checkToken(e.Token); err != nil {
		return nil, err
	}
	if e.Category != "" && !categories[e.Category] {
		return nil, fmt.Errorf("%w: bot %q: unknown category %q", ErrFormat, e.Token, e.Category)
	}
	b := &Bot{
		Token:       e.Token,
		RobotsToken: strings.TrimSpace(e.RobotsToken),
		Operator:    capText(e.Operator),
		Category:    e.Category,
		URL:         capText(e.URL),
		WebBotAuth:  capText(e.WebBotAuth),
		RDNSDocURL:  capText(e.RDNSDocURL),
		Notes:       capText(e.Notes),
	}
	if b.RobotsToken != "" {
		if err := checkToken(b.RobotsToken); err != nil {
			return nil, fmt.Errorf("bot %q: robots_token: %w", e.Token, err)
		}
	}
	var urls []string
	if u := capText(e.IPRangesURL); u != "" {
		urls = append(urls, u)
	}
	if e.IPRangesURLs != nil {
		if len(*e.IPRangesURLs) > maxPatterns {
			return nil, fmt.Errorf("%w: bot %q: more than %d IP range lists", ErrFormat, e.Token, maxPatterns)
		}
		for _, u := range *e.IPRangesURLs {
			urls = appendNew(urls, capText(u))
		}
	}
	if e.IPRangesURLs != nil || e.IPRangesURL != "" {
		b.set |= setIPRanges
	}
	for _, u := range urls {
		if u == "" {
			return nil, fmt.Errorf("%w: bot %q: empty IP range list URL", ErrFormat, e.Token)
		}
	}
	if len(urls) > 0 {
		b.IPRangesURLs, b.IPRangesURL = urls, urls[0]
	}
	if e.IPRangesFormer != nil {
		if len(*e.IPRangesFormer) > maxPatterns {
			return nil, fmt.Errorf("%w: bot %q: more than %d former IP range lists", ErrFormat, e.Token, maxPatterns)
		}
		for _, u := range *e.IPRangesFormer {
			if u = capText(u); u == "" {
				return nil, fmt.Errorf("%w: bot %q: empty former IP range list URL", ErrFormat, e.Token)
			}
			b.IPRangesFormerURLs = appendNew(b.IPRangesFormerURLs, u)
		}
		b.set |= setIPRangesFormer
	}
	if len(e.RDNSSuffixes) > maxPatterns {
		return nil, fmt.Errorf("%w: bot %q: more than %d reverse-DNS suffixes", ErrFormat, e.Token, maxPatterns)
	}
	for _, s := range e.RDNSSuffixes {
		if s = capText(s); s != "" {
			b.RDNSSuffixes = append(b.RDNSSuffixes, strings.ToLower(s))
		}
	}
	if e.Framework != nil {
		b.Framework, b.set = *e.Framework, b.set|setFramework
		if b.Framework {
			b.Operator = ""
		}
	}
	if e.UserTriggered != nil {
		b.UserTriggered, b.set = *e.UserTriggered, b.set|setUserTriggered
	}
	if e.RobotsTxtOnly != nil {
		b.RobotsTxtOnly, b.set = *e.RobotsTxtOnly, b.set|setRobotsTxtOnly
	}
	if e.Patterns != nil {
		if len(*e.Patterns) > maxPatterns {
			return nil, fmt.Errorf("%w: bot %q: more than %d patterns", ErrFormat, e.Token, maxPatterns)
		}
		for _, p := range *e.Patterns {
			if err := checkToken(p); err != nil {
				return nil, fmt.Errorf("bot %q: pattern: %w", e.Token, err)
			}
		}
		b.Patterns, b.set = append([]string{}, *e.Patterns...), b.set|setPatterns
		if b.RobotsTxtOnly && len(b.Patterns) > 0 {
			return nil, fmt.Errorf("%w: bot %q is robots_txt_only but has patterns", ErrFormat, e.Token)
		}
	} else if !b.RobotsTxtOnly {
		b.Patterns = []string{b.Token}
	}
	return b, nil
}

// mdLink matches a Markdown link "[text](url)", as robots.json writes
// operators.
var mdLink = regexp.MustCompile(`^\[([^\]]*)\]\(([^)]*)\)$`)

func fromAIRobots(token string, e aiRobotsBot) (*Bot, error) {
	token = normalName(strings.TrimSpace(token))
	if err := checkToken(token); err != nil {
		return nil, err
	}
	b := &Bot{Token: token, Patterns: []string{token}}
	op := capText(e.Operator)
	if m := mdLink.FindStringSubmatch(op); m != nil {
		op = strings.TrimSpace(m[1])
	}
	// Only a plain name is an operator: robots.json also holds sentences
	// and URLs there.
	if isUnknown(op) || len(op) > 60 || strings.Contains(op, "://") || strings.ContainsAny(op, "[]()") {
		op = ""
	}
	b.Operator = op
	b.Category, b.UserTriggered = inferCategory(e.Function, e.Description)
	if b.UserTriggered {
		b.set |= setUserTriggered
	}
	desc := capText(e.Description)
	if isUnknown(desc) {
		desc = ""
	}
	b.Notes = desc
	return b, nil
}

// isUnknown reports whether a robots.json text says nothing
// ("Unclear at this time.", "No information.").
func isUnknown(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	return l == "" || strings.HasPrefix(l, "unclear") || strings.HasPrefix(l, "no information") || l == "unknown"
}

// inferCategory maps robots.json's free text "function" (and, for the
// user-triggered flag, "description") to a category. It answers "" when
// the text does not say clearly.
func inferCategory(function, description string) (category string, userTriggered bool) {
	f := strings.ToLower(function)
	d := strings.ToLower(description)
	for _, s := range []string{"on behalf of", "user prompt", "user request", "user-initiated", "user initiated", "when a user", "user's request", "users ask"} {
		if strings.Contains(f, s) || strings.Contains(d, s) {
			userTriggered = true
			break
		}
	}
	switch {
	case strings.Contains(f, "search"):
		category = CategoryAISearch
	case strings.Contains(f, "assistant"), strings.Contains(f, "agent"):
		category = CategoryAIAssistant
	case strings.Contains(f, "train"), strings.Contains(f, "scrap"), strings.Contains(f, "data"):
		category = CategoryAITraining
	case userTriggered:
		category = CategoryAIAssistant
	}
	return category, userTriggered
}

// normalName strips a version from a robots.json name: "iaskspider/2.0" is
// "iaskspider", "Brightbot 1.0" is "Brightbot".
func normalName(name string) string {
	if i := strings.IndexByte(name, '/'); i > 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, ' '); i > 0 && !hasLetter(name[i+1:]) {
		name = strings.TrimSpace(name[:i])
	}
	return name
}

// mergeDup merges two robots.json entries for one bot: the first entry's
// fields win, the second fills the ones it left empty.
func mergeDup(a, b *Bot) *Bot {
	m := *a
	if m.Operator == "" {
		m.Operator = b.Operator
	}
	if m.Category == "" {
		m.Category = b.Category
	}
	if b.UserTriggered {
		m.UserTriggered, m.set = true, m.set|setUserTriggered
	}
	if m.Notes == "" {
		m.Notes = b.Notes
	}
	return &m
}
