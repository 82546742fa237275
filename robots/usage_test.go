package robots

import (
	"slices"
	"strings"
	"testing"
)

// diagCodes returns the codes of f's diagnostics on line n, in order.
func diagCodes(f *File, n int) []string {
	var out []string
	for _, d := range f.Diagnostics {
		if d.Line == n {
			out = append(out, d.Code)
		}
	}
	return out
}

func TestParseContentUsage(t *testing.T) {
	tests := []struct {
		name    string
		line    string // the second line, after "User-agent: *"
		path    string
		trainAI Pref
		search  Pref
		diags   []string
	}{
		{"no path", "Content-Usage: train-ai=n", "", PrefNo, PrefUnknown, nil},
		{"both labels", "Content-Usage: train-ai=y, search=n", "", PrefYes, PrefNo, nil},
		{"path", "Content-Usage: /news/ train-ai=n", "/news/", PrefNo, PrefUnknown, nil},
		{"path with tab", "Content-Usage: /a\ttrain-ai=y", "/a", PrefYes, PrefUnknown, nil},
		{"wildcard path", "Content-Usage: /*.pdf$ search=n", "/*.pdf$", PrefUnknown, PrefNo, nil},
		{"comment ends value", "Content-Usage: train-ai=n # search=n", "", PrefNo, PrefUnknown, nil},
		{"comment without space", "Content-Usage: train-ai=n#, search=n", "", PrefNo, PrefUnknown, nil},
		{"lower-case key", "content-usage: search=y", "", PrefUnknown, PrefYes, nil},
		{"parameters ignored", "Content-Usage: train-ai=n;x=1;y=?0", "", PrefNo, PrefUnknown, nil},
		{"repeated key: last wins", "Content-Usage: train-ai=n, train-ai=y", "", PrefYes, PrefUnknown, nil},
		{"wrong case reserves nothing", "Content-Usage: Train-AI=n", "", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"wrong case value", "Content-Usage: train-ai=N", "", PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"string value", `Content-Usage: train-ai="n"`, "", PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"boolean value", "Content-Usage: train-ai", "", PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"other token", "Content-Usage: search=no", "", PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"older draft train-genai", "Content-Usage: train-genai=n", "", PrefUnknown, PrefUnknown, []string{DiagUsageOutdated}},
		{"older draft bots", "Content-Usage: bots=n, train-ai=n", "", PrefNo, PrefUnknown, []string{DiagUsageOutdated}},
		{"older draft ai-output", "Content-Usage: ai-output=n", "", PrefUnknown, PrefUnknown, []string{DiagUsageOutdated}},
		{"unknown label", "Content-Usage: ai-input=n, search=y", "", PrefUnknown, PrefYes, []string{DiagUsageLabel}},
		{"not a dictionary", "Content-Usage: train-ai=n;;", "", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"content-signal syntax", "Content-Usage: train-ai=no, search=yes", "", PrefUnknown, PrefUnknown, []string{DiagUsageValue, DiagUsageValue}},
		{"empty", "Content-Usage:", "", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"path only", "Content-Usage: /a/", "/a/", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"typo key", "Content Usage: train-ai=n", "", PrefNo, PrefUnknown, []string{DiagKeyTypo}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse([]byte("User-agent: *\n"+tt.line+"\n"), Options{})
			if len(f.Groups) != 1 || len(f.Groups[0].Usage) != 1 {
				t.Fatalf("groups = %+v, want one group with one Content-Usage rule", f.Groups)
			}
			got := f.Groups[0].Usage[0]
			if got.Path != tt.path || got.TrainAI != tt.trainAI || got.Search != tt.search || got.Line != 2 {
				t.Errorf("rule = %+v, want path %q train-ai %v search %v line 2", got, tt.path, tt.trainAI, tt.search)
			}
			if codes := diagCodes(f, 2); !slices.Equal(codes, tt.diags) {
				t.Errorf("diagnostics = %v, want %v (%+v)", codes, tt.diags, f.Diagnostics)
			}
			if l := f.Lines[1]; l.Kind != KindContentUsage || l.Group != 0 {
				t.Errorf("line = %+v, want kind %q in group 0", l, KindContentUsage)
			}
		})
	}
}

func TestWrongCaseMessage(t *testing.T) {
	f := Parse([]byte("User-agent: *\nContent-Usage: Train-AI=n\n"), Options{})
	if len(f.Diagnostics) != 1 || !strings.Contains(f.Diagnostics[0].Message, "reserves nothing") {
		t.Errorf("diagnostics = %+v, want one saying the line reserves nothing", f.Diagnostics)
	}
}

func TestParseContentSignal(t *testing.T) {
	tests := []struct {
		name                     string
		line                     string
		search, aiInput, aiTrain Pref
		use                      string
		diags                    []string
	}{
		{"cloudflare default", "Content-Signal: search=yes,ai-train=no", PrefYes, PrefUnknown, PrefNo, "", nil},
		{"spaces", "Content-Signal: search=yes, ai-input=no , ai-train = no", PrefYes, PrefNo, PrefNo, "", nil},
		{"use", "Content-Signal: use=reference, ai-train=no", PrefUnknown, PrefUnknown, PrefNo, "reference", nil},
		{"case-insensitive", "content-signal: Search=YES", PrefYes, PrefUnknown, PrefUnknown, "", nil},
		{"comment", "Content-Signal: ai-train=no # ai-input=no", PrefUnknown, PrefUnknown, PrefNo, "", nil},
		{"aipref values", "Content-Signal: search=y, ai-train=n", PrefUnknown, PrefUnknown, PrefUnknown, "", []string{DiagSignalValue, DiagSignalValue}},
		{"aipref label", "Content-Signal: train-ai=no", PrefUnknown, PrefUnknown, PrefUnknown, "", []string{DiagSignalKey}},
		{"bad use", "Content-Signal: use=all", PrefUnknown, PrefUnknown, PrefUnknown, "", []string{DiagSignalValue}},
		{"no equals", "Content-Signal: search, ai-train=no", PrefUnknown, PrefUnknown, PrefNo, "", []string{DiagSignalSyntax}},
		{"empty", "Content-Signal:", PrefUnknown, PrefUnknown, PrefUnknown, "", []string{DiagSignalSyntax}},
		{"last wins", "Content-Signal: ai-train=no, ai-train=yes", PrefUnknown, PrefUnknown, PrefYes, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse([]byte("User-agent: *\n"+tt.line+"\n"), Options{})
			if len(f.Groups) != 1 || len(f.Groups[0].Signals) != 1 {
				t.Fatalf("groups = %+v, want one group with one Content-Signal", f.Groups)
			}
			got := f.Groups[0].Signals[0]
			if got.Search != tt.search || got.AIInput != tt.aiInput || got.AITrain != tt.aiTrain || got.Use != tt.use || got.Line != 2 {
				t.Errorf("signal = %+v, want search %v ai-input %v ai-train %v use %q line 2", got, tt.search, tt.aiInput, tt.aiTrain, tt.use)
			}
			if codes := diagCodes(f, 2); !slices.Equal(codes, tt.diags) {
				t.Errorf("diagnostics = %v, want %v (%+v)", codes, tt.diags, f.Diagnostics)
			}
		})
	}
}

// cloudflareManaged has the shape of Cloudflare's managed robots.txt: a
// comment block, then the "*" group with its signal (text our own).
const cloudflareManaged = `# As a condition of accessing this website, you agree to abide by the
# following content signals:
#
# (a) If a content-signal = yes, you may collect content for the
# corresponding use.
# (b) If a content-signal = no, you may not collect content for the
# corresponding use.
#
# search: building a search index and providing search results.
# ai-input: inputting content into one or more AI models.
# ai-train: training or fine-tuning AI models.

User-agent: *
Content-Signal: search=yes,ai-train=no
Allow: /
`

func TestCloudflareManaged(t *testing.T) {
	f := Parse([]byte(cloudflareManaged), Options{})
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v, want none", f.Diagnostics)
	}
	v := f.UsagePrefs("ClaudeBot", "/any/page")
	if v.SignalSearch.Value != PrefYes || v.SignalAITrain.Value != PrefNo || v.SignalAIInput.Value != PrefUnknown {
		t.Errorf("signals = %+v %+v %+v, want yes, no, unknown", v.SignalSearch, v.SignalAITrain, v.SignalAIInput)
	}
	if v.SignalAITrain.Line != 14 || v.SignalAITrain.Text != "Content-Signal: search=yes,ai-train=no" {
		t.Errorf("ai-train evidence = %+v, want line 14", v.SignalAITrain)
	}
	if !v.Access.Allowed || v.Access.Rule == nil || v.Access.Rule.Line != 15 {
		t.Errorf("access = %+v, want allowed by line 15", v.Access)
	}
	if v.TrainAI.Value != PrefUnknown || v.TrainAI.Line != 0 {
		t.Errorf("train-ai = %+v, want unknown with no line", v.TrainAI)
	}
}

func TestUsageOutsideGroupAndLicense(t *testing.T) {
	body := "License: https://example.com/license.xml\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n" +
		"User-agent: *\nLicense: https://example.com/other.xml\nDisallow: /x\nLicense:\nLicense: /relative.xml\n"
	f := Parse([]byte(body), Options{})
	want := []License{{"https://example.com/license.xml", 1}, {"https://example.com/other.xml", 5}, {"/relative.xml", 8}}
	if !slices.Equal(f.Licenses, want) {
		t.Errorf("licenses = %+v, want %+v", f.Licenses, want)
	}
	for line, code := range map[int]string{2: DiagUsageOutsideGroup, 3: DiagUsageOutsideGroup, 7: DiagLicenseInvalid, 8: DiagLicenseInvalid} {
		if got := diagCodes(f, line); !slices.Equal(got, []string{code}) {
			t.Errorf("line %d diagnostics = %v, want [%s]", line, got, code)
		}
	}
	if v := f.UsagePrefs("bot", "/"); v.TrainAI.Value != PrefUnknown || v.SignalAITrain.Value != PrefUnknown {
		t.Errorf("prefs = %+v, want unknown: the lines before any group are ignored", v)
	}
	// A License line is global: it does not end the group.
	if len(f.Groups) != 1 || len(f.Groups[0].Rules) != 1 {
		t.Errorf("groups = %+v, want one with one rule", f.Groups)
	}
}

func TestUsageGroupSelection(t *testing.T) {
	body := `User-agent: *
Content-Usage: train-ai=n, search=y
Content-Signal: ai-train=no

User-agent: GPTBot
Disallow: /private/

User-agent: Bingbot
User-agent: Googlebot
Content-Usage: search=n

User-agent: googlebot
Content-Signal: search=yes

User-agent: a
Content-Usage: search=y
User-agent: b
Content-Signal: ai-input=no
`
	f := Parse([]byte(body), Options{})
	tests := []struct {
		agent             string
		trainAI, search   Pref
		sigTrain, sigSrch Pref
		sigInput          Pref
		group             string
	}{
		{"CCBot", PrefNo, PrefYes, PrefNo, PrefUnknown, PrefUnknown, "*"},
		// A group naming the bot replaces "*" even without usage lines.
		{"GPTBot", PrefUnknown, PrefUnknown, PrefUnknown, PrefUnknown, PrefUnknown, "GPTBot"},
		{"bingbot", PrefUnknown, PrefNo, PrefUnknown, PrefUnknown, PrefUnknown, "Bingbot"},
		// Duplicate groups merge (RFC 9309 §2.2.1).
		{"Googlebot", PrefUnknown, PrefNo, PrefUnknown, PrefYes, PrefUnknown, "Googlebot,googlebot"},
		// A usage line ends the run of user-agent lines, as a rule does.
		{"a", PrefUnknown, PrefYes, PrefUnknown, PrefUnknown, PrefUnknown, "a"},
		{"b", PrefUnknown, PrefUnknown, PrefUnknown, PrefUnknown, PrefNo, "b"},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			v := f.UsagePrefs(tt.agent, "/page")
			if v.Group != tt.group || v.TrainAI.Value != tt.trainAI || v.Search.Value != tt.search ||
				v.SignalAITrain.Value != tt.sigTrain || v.SignalSearch.Value != tt.sigSrch || v.SignalAIInput.Value != tt.sigInput {
				t.Errorf("got %+v", v)
			}
		})
	}
	if v := Parse([]byte("User-agent: x\nContent-Usage: train-ai=n\n"), Options{}).UsagePrefs("y", "/"); v.Group != "" || v.TrainAI.Value != PrefUnknown {
		t.Errorf("no group: got %+v, want nothing", v)
	}
}

func TestUsagePathMatching(t *testing.T) {
	body := `User-agent: *
Content-Usage: train-ai=n, search=y
Content-Usage: /blog/ train-ai=y
Content-Usage: /blog/drafts/ train-ai=n
Content-Usage: /*.pdf$ search=n
Content-Usage: /shop train-ai=y
Content-Usage: /shop train-ai=n
Content-Usage: /same search=y
Content-Usage: /same search=n
Content-Usage: /free train-ai=y
Content-Usage: /free Train-AI=n
Content-Usage: /%7Euser/ train-ai=y
Content-Usage: / search=n
Disallow: /blog/drafts/
`
	f := Parse([]byte(body), Options{})
	tests := []struct {
		path             string
		trainAI, search  Pref
		trainLine, sLine int
	}{
		{"/blog/drafts/x", PrefNo, PrefUnknown, 4, 4},
		{"/blog/post", PrefYes, PrefUnknown, 3, 3},
		// "/" (one byte) beats the rule without a path.
		{"/about", PrefUnknown, PrefNo, 13, 13},
		// "/*.pdf$" is 7 bytes, longer than "/blog/" (6).
		{"/blog/a.pdf", PrefUnknown, PrefNo, 5, 5},
		{"/blog/a.pdf?x", PrefYes, PrefUnknown, 3, 3},
		// Same path, conflicting values: both apply, "n" wins.
		{"/shop/cart", PrefNo, PrefUnknown, 7, 6},
		{"/same", PrefUnknown, PrefNo, 8, 9},
		// A wrong-case statement reserves nothing.
		{"/free", PrefYes, PrefUnknown, 10, 10},
		// Percent-encoding is normalized on both sides.
		{"/~user/a", PrefYes, PrefUnknown, 12, 12},
		{"https://example.com/blog/post?q=1", PrefYes, PrefUnknown, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			v := f.UsagePrefs("bot", tt.path)
			if v.TrainAI.Value != tt.trainAI || v.Search.Value != tt.search || v.TrainAI.Line != tt.trainLine || v.Search.Line != tt.sLine {
				t.Errorf("train-ai %+v, search %+v; want %v (line %d), %v (line %d)", v.TrainAI, v.Search, tt.trainAI, tt.trainLine, tt.search, tt.sLine)
			}
			if v.TrainAI.Line > 0 && v.TrainAI.Text != f.Groups[0].Usage[v.TrainAI.Line-2].String() {
				t.Errorf("train-ai text %q does not match line %d", v.TrainAI.Text, v.TrainAI.Line)
			}
		})
	}
	if v := f.UsagePrefs("bot", "/blog/drafts/x"); v.Access.Allowed {
		t.Errorf("access = %+v, want disallowed (preferences do not attach to it)", v.Access)
	}
}

func TestUsageNoLinesUnchanged(t *testing.T) {
	// Files without usage lines parse exactly as before: no usage state.
	f := Parse([]byte(realisticRobots), Options{})
	if f.m.usage != nil || f.Licenses != nil {
		t.Errorf("usage state on a file without usage lines")
	}
	for _, g := range f.Groups {
		if g.Usage != nil || g.Signals != nil {
			t.Errorf("group %d has usage state", g.Line)
		}
	}
}

// FuzzUsagePrefs checks that any body parses, that UsagePrefs never
// panics, and that every line it names is a usage line of the file.
func FuzzUsagePrefs(f *testing.F) {
	for _, s := range []string{
		cloudflareManaged,
		"User-agent: *\nContent-Usage: /a/ train-ai=n, search=y\nContent-Usage: train-ai=y\n",
		"User-agent: *\nContent-Usage: Train-AI=n\nContent-Usage: /x train-genai=n;q, bots\n",
		"User-agent: b\nContent-Usage: /*.pdf$ search=n#c\r\nContent-Signal: use=full, ai-input=no\rLicense: https://e/l\n",
		"Content-Usage: /\nUser-agent: *\nContent-Usage: /a\t\nContent-Usage: (\"x\" y)=\nContent-Signal: ,=,\n",
		"User-agent: *\nContent-Usage: train-ai=?1, search=:AAA=:, x=@1\nContent-Usage: /%ZZ*$ search=y\n",
	} {
		f.Add([]byte(s), "bot", "/a/b.pdf")
	}
	f.Fuzz(func(t *testing.T, body []byte, agent, target string) {
		p := Parse(body, Options{})
		usageLine := make(map[int]string)
		for _, l := range p.Lines {
			if l.Kind == KindContentUsage || l.Kind == KindContentSignal {
				usageLine[l.Number] = l.Kind
			}
		}
		for _, d := range p.Diagnostics {
			if d.Line < 1 || d.Line > len(p.Lines)+1 {
				t.Fatalf("diagnostic line %d out of range 1..%d", d.Line, len(p.Lines)+1)
			}
		}
		for _, g := range p.Groups {
			for _, r := range g.Usage {
				if usageLine[r.Line] != KindContentUsage {
					t.Fatalf("Content-Usage rule on line %d, which is not one", r.Line)
				}
			}
			for _, s := range g.Signals {
				if usageLine[s.Line] != KindContentSignal {
					t.Fatalf("Content-Signal on line %d, which is not one", s.Line)
				}
			}
		}
		for _, l := range p.Licenses {
			if l.Line < 1 || l.Line > len(p.Lines) {
				t.Fatalf("license line %d out of range", l.Line)
			}
		}
		v := p.UsagePrefs(agent, target)
		for _, l := range []UsageLabel{v.TrainAI, v.Search, v.SignalSearch, v.SignalAIInput, v.SignalAITrain} {
			if l.Line == 0 {
				if l.Value != PrefUnknown || l.Text != "" {
					t.Fatalf("label %+v has a value but no line", l)
				}
				continue
			}
			if _, ok := usageLine[l.Line]; !ok {
				t.Fatalf("label %+v names line %d, not a usage line", l, l.Line)
			}
		}
	})
}

func TestParseUsageHeader(t *testing.T) {
	tests := []struct {
		name          string
		value         string
		train, search Pref
		wantDiagCodes []string
	}{
		{"both", "train-ai=n, search=y", PrefNo, PrefYes, nil},
		{"one", "train-ai=y", PrefYes, PrefUnknown, nil},
		{"parameters ignored", "train-ai=n;q=1", PrefNo, PrefUnknown, nil},
		{"last member wins", "train-ai=n, train-ai=y", PrefYes, PrefUnknown, nil},
		{"empty", "", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"blank", " \t", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"wrong case label", "Train-AI=n", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
		{"wrong case value", "train-ai=N", PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"string value", `search="n"`, PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"boolean value", "train-ai", PrefUnknown, PrefUnknown, []string{DiagUsageValue}},
		{"older draft", "train-genai=n, search=n", PrefUnknown, PrefNo, []string{DiagUsageOutdated}},
		{"unknown label", "x-foo=n", PrefUnknown, PrefUnknown, []string{DiagUsageLabel}},
		{"not a dictionary", "train-ai=n,,", PrefUnknown, PrefUnknown, []string{DiagUsageInvalid}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ds := ParseUsageHeader(tt.value)
			if h.TrainAI != tt.train || h.Search != tt.search {
				t.Errorf("got train-ai=%v search=%v, want %v %v", h.TrainAI, h.Search, tt.train, tt.search)
			}
			if h.Value != tt.value || h.String() != "Content-Usage: "+tt.value {
				t.Errorf("got value %q, string %q", h.Value, h.String())
			}
			var codes []string
			for _, d := range ds {
				codes = append(codes, d.Code)
				if d.Line != 0 {
					t.Errorf("diagnostic %s has line %d, want 0", d.Code, d.Line)
				}
			}
			if !slices.Equal(codes, tt.wantDiagCodes) {
				t.Errorf("got diagnostics %v, want %v", codes, tt.wantDiagCodes)
			}
		})
	}
}

// FuzzUsageHeader checks that any header value parses without panicking
// and that it agrees with the same statement as a robots.txt rule.
func FuzzUsageHeader(f *testing.F) {
	for _, s := range []string{
		"train-ai=n, search=y", "train-ai=y;x=1", "Train-AI=n", "train-genai=n, bots", "",
		`search="n", train-ai=?1`, "train-ai=:AAA=:, x=@1", "(a b)=n", "train-ai=n,", "\x00\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		h, ds := ParseUsageHeader(value)
		if h.Value != value {
			t.Fatalf("got value %q, want %q", h.Value, value)
		}
		if len(ds) > MaxDiagnostics {
			t.Fatalf("got %d diagnostics, want at most %d", len(ds), MaxDiagnostics)
		}
		for _, d := range ds {
			if !strings.HasPrefix(d.Code, "content-usage-") {
				t.Fatalf("diagnostic code %q is not a content-usage one", d.Code)
			}
		}
		if strings.ContainsAny(value, "\r\n#") || trimWS(value) != value || value == "" {
			return
		}
		p := Parse([]byte("User-agent: *\nContent-Usage: "+value+"\n"), Options{})
		if value[0] == '/' || len(p.Groups) != 1 || len(p.Groups[0].Usage) != 1 {
			return
		}
		r := p.Groups[0].Usage[0]
		if r.TrainAI != h.TrainAI || r.Search != h.Search {
			t.Fatalf("header %q: got train-ai=%v search=%v, the robots.txt rule reads %v %v", value, h.TrainAI, h.Search, r.TrainAI, r.Search)
		}
	})
}
