package bots

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// How an Identification named its agent (Identification.IdentifiedBy).
const (
	// ByCatalog: the agent is a catalog bot.
	ByCatalog = "catalog"
	// ByUAToken: a bot the catalog does not know, named by its own
	// product token.
	ByUAToken = "ua-token"
)

// Identification is what "repaudit bots identify" says about one
// User-Agent: the agent it names (docs/semantics.md, "Bot
// identification"), the rule that named it and, for a catalog bot, its
// operator and category. Error is set instead when the input line could
// not be read.
type Identification struct {
	UserAgent    string `json:"user_agent"`
	Agent        string `json:"agent"`
	Operator     string `json:"operator"`
	Category     string `json:"category"`
	IdentifiedBy string `json:"identified_by"`
	Rule         string `json:"rule"`
	Matched      string `json:"matched"`
	Error        string `json:"error,omitempty"`
}

// IdentifyAgent identifies the client of a fetch from its User-Agent
// alone, as the audit does when it has no robots.txt groups or cards:
// IdentifiedBy is ByCatalog for a catalog bot, ByUAToken for a bot named
// by its own product token (category CategoryOther, no operator), and ""
// for a browser (Agent "").
func (c *Catalog) IdentifyAgent(ua string) Identification {
	r := Identification{UserAgent: ua}
	id := c.IdentifyUA(ua)
	r.Agent, r.Matched, r.Rule = id.Agent, id.Matched, id.Rule
	switch {
	case id.Bot != nil:
		r.Operator, r.Category, r.IdentifiedBy = id.Bot.Operator, id.Bot.Category, ByCatalog
	case id.Agent != "":
		r.Category, r.IdentifiedBy = CategoryOther, ByUAToken
	}
	return r
}

// IdentifyLine reads the User-Agent of one input line (see LineUA) and
// identifies it; a line that cannot be read gives an Identification
// with only Error set, and the error.
func (c *Catalog) IdentifyLine(raw []byte) (Identification, error) {
	ua, err := LineUA(raw)
	if err != nil {
		return Identification{Error: err.Error()}, err
	}
	return c.IdentifyAgent(ua), nil
}

// LineUA reads the User-Agent of one input line: plain text (taken
// whole, untrimmed), a JSON string (RFC 8259, section 7), or a JSON
// object with a "user_agent" member (also "ua" or "userAgent", tried in
// that order). A line is JSON when its first non-space byte is '"' or
// '{'.
func LineUA(raw []byte) (string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || (t[0] != '{' && t[0] != '"') {
		return string(raw), nil
	}
	if t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return "", fmt.Errorf("bad JSON string: %w", err)
		}
		return s, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t, &obj); err != nil {
		return "", fmt.Errorf("bad JSON object: %w", err)
	}
	for _, k := range []string{"user_agent", "ua", "userAgent"} {
		if v, ok := obj[k]; ok {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return "", fmt.Errorf("member %q is not a string", k)
			}
			return s, nil
		}
	}
	return "", errors.New(`JSON object without a "user_agent" member`)
}

// Listed is one bot as "repaudit bots list --json" shows it.
type Listed struct {
	Token          string   `json:"token"`
	RobotsToken    string   `json:"robots_token"`
	Operator       string   `json:"operator"`
	Category       string   `json:"category"`
	UserTriggered  bool     `json:"user_triggered,omitempty"`
	Framework      bool     `json:"framework,omitempty"`
	RobotsTxtOnly  bool     `json:"robots_txt_only,omitempty"`
	Patterns       []string `json:"patterns,omitempty"`
	IPRangesURLs   []string `json:"ip_ranges_urls,omitempty"`
	IPRangesFormer []string `json:"ip_ranges_former_urls,omitempty"`
	RDNSSuffixes   []string `json:"rdns_suffixes,omitempty"`
	RDNSDocURL     string   `json:"rdns_doc_url,omitempty"`
	WebBotAuth     string   `json:"web_bot_auth,omitempty"`
	URL            string   `json:"url,omitempty"`
	Sources        []string `json:"sources"`
}

// Listing returns the catalog's bots in Bots order, as "bots list
// --json" shows them.
func (c *Catalog) Listing() []Listed {
	var out []Listed
	for _, b := range c.Bots() {
		out = append(out, Listed{
			Token: b.Token, RobotsToken: b.GroupToken(), Operator: b.Operator, Category: b.Category,
			UserTriggered: b.UserTriggered, Framework: b.Framework, RobotsTxtOnly: b.RobotsTxtOnly,
			Patterns: b.Patterns, IPRangesURLs: b.IPRangesURLs, IPRangesFormer: b.IPRangesFormerURLs, RDNSSuffixes: b.RDNSSuffixes,
			RDNSDocURL: b.RDNSDocURL, WebBotAuth: b.WebBotAuth, URL: b.URL, Sources: b.Sources,
		})
	}
	return out
}

// Flags names a bot's flags in a fixed order: "user-triggered",
// "framework", "robots-txt-only".
func (b *Bot) Flags() []string {
	var flags []string
	if b.UserTriggered {
		flags = append(flags, "user-triggered")
	}
	if b.Framework {
		flags = append(flags, "framework")
	}
	if b.RobotsTxtOnly {
		flags = append(flags, "robots-txt-only")
	}
	return flags
}
