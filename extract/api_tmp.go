package extract

import "github.com/repaudit/repaudit/event"

// FromResponse extracts every rule from an HTTP response: the Robots-Tag
// and X-Robots-Tag header fields, and meta robots tags in the HTML head
// when contentType is HTML (or the body sniffs as HTML).
func FromResponse(h event.Header, body []byte, contentType string, opts Options) *Directives {
	return &Directives{}
}

// ParseRobotsTag parses Robots-Tag field values (repext §3.1.1).
func ParseRobotsTag(values []string, opts Options) ([]Rule, []Diagnostic) { return nil, nil }

// ParseXRobotsTag parses legacy X-Robots-Tag field values.
func ParseXRobotsTag(values []string, opts Options) ([]Rule, []Diagnostic) { return nil, nil }

// ParseMeta parses meta robots tags in the head of an HTML document.
func ParseMeta(body []byte, opts Options) ([]Rule, []Diagnostic) { return nil, nil }
