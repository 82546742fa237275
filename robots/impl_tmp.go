package robots

import "fmt"

// Temporary minimal bodies so dependents compile while the engine is built.

type matcher struct{}

func parse(body []byte, _ Options) *File { return &File{Size: len(body)} }

func (f *File) check(agent, _ string) Verdict {
	return Verdict{Allowed: true, Agent: agent, Reason: ReasonNoGroup}
}

func (f *File) crawlDelay(string) (CrawlDelay, bool) { return CrawlDelay{}, false }

func (f *File) acapCheck(_, usage, _ string) ACAPVerdict { return ACAPVerdict{Usage: usage} }

func (f *File) takeDownFor(_, _ string) []ACAPRequest { return nil }

// Evidence returns the verdict as human-readable evidence, e.g.
// `group "gptbot" (line 3): line 5 "Disallow: /private/" matched`.
func (v Verdict) Evidence() string {
	if v.Rule == nil {
		return fmt.Sprintf("group %q (line %d): %s", v.Group, v.GroupLine, v.Reason)
	}
	return fmt.Sprintf("group %q (line %d): line %d %q matched", v.Group, v.GroupLine, v.Rule.Line, v.Rule.String())
}

// Evidence returns the ACAP verdict as human-readable evidence.
func (v ACAPVerdict) Evidence() string {
	return fmt.Sprintf("ACAP crawler %q: line %d %q (%s)", v.Crawler, v.Line, v.Record, v.Reason)
}
