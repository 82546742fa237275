package bots

import "strings"

// Shapes of User-Agents that tell a browser, an app or a device from a
// bot whatever the names in them (docs/semantics.md, "Bot
// identification"). User-Agent syntax is RFC 9110 §10.1.5.

// uaShape is what the shape rules need to know of a whole User-Agent,
// read once from its words.
type uaShape struct {
	handset  bool // a Java ME handset: MIDP or CLDC ("Profile/MIDP-2.0 Configuration/CLDC-1.1")
	app      bool // a desktop app built on Electron ("Notion/2.0 Chrome/... Electron/25.0")
	ie       bool // an Internet Explorer shape: MSIE or Trident
	desktop  bool // Mozilla/x whose first comment is a desktop platform's (Windows, X11, Macintosh)
	pc       bool // the same, in the old grammar with a security token too ("Windows; U; ...")
	mozillaN int  // index of the first top-level Mozilla/x word after the first word; 0 if none
	platform int  // index of the first word of the first comment; 0 if none
	// platformFirst: the header opens with a platform in a comment
	// ("(Android)(15)(...)"), as apps report their platform.
	platformFirst bool
}

// firstInComment returns the index of the first word of the first
// comment when only the first product and its version come before it.
func firstInComment(ws []word) int {
	for i := 1; i < len(ws) && i <= 2; i++ {
		if ws[i].comment == 1 {
			return i
		}
		if !ws[i].verPart {
			return 0
		}
	}
	return 0
}

func readShape(ws []word) uaShape {
	var s uaShape
	s.platformFirst = len(ws) > 0 && ws[0].comment == 1 && ws[0].start > 0 && isPlatformWord(ws[0].name) && hasLetter(ws[0].name)
	for i := range ws {
		w := &ws[i]
		n := w.name
		if n == "" {
			continue
		}
		switch c := n[0] | 0x20; {
		case c != 'm' && c != 'c' && c != 'e' && c != 't':
			// None of the words below.
		case hasPrefixFold(n, "MIDP") || hasPrefixFold(n, "CLDC"):
			s.handset = true
		case w.version && equalFoldASCII(n, "Electron"):
			s.app = true
		case equalFoldASCII(n, "MSIE") || equalFoldASCII(n, "Trident"):
			s.ie = true
		case i > 0 && s.mozillaN == 0 && w.comment == 0 && w.version && equalFoldASCII(n, "Mozilla"):
			s.mozillaN = i
		}
	}
	if len(ws) > 0 && ws[0].version && equalFoldASCII(ws[0].name, "Mozilla") {
		s.platform = firstInComment(ws)
		if s.platform > 0 {
			n := ws[s.platform].name
			s.desktop = equalFoldASCII(n, "Windows") || equalFoldASCII(n, "X11") || equalFoldASCII(n, "Macintosh")
		}
		// Phones ("Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia
		// 640") and the old grammar with a security token ("Windows; U;
		// Win9x; en; Stable", RFC 1945 era) put other words there.
		s.pc = s.desktop
		for i := s.platform; s.desktop && i < len(ws) && ws[i].comment == 1; i++ {
			n := ws[i].name
			if equalFoldASCII(n, "Phone") || equalFoldASCII(n, "Android") || equalFoldASCII(n, "Mobile") {
				s.desktop, s.pc = false, false
			}
			if ws[i].elemFirst && len(n) == 1 && strings.IndexByte("UIN", n[0]) >= 0 {
				s.desktop = false
			}
		}
	}
	return s
}

// linuxDistributions name the system in a Linux desktop's platform
// comment ("(X11; Fedora; Linux x86_64)"), lower-cased, and the desktop
// environments browsers append ("... Firefox/23.0 Xfce").
var linuxDistributions = map[string]bool{
	"fedora": true, "debian": true, "gentoo": true, "mint": true, "arch": true,
	"centos": true, "suse": true, "opensuse": true, "mandriva": true, "slackware": true,
	"redhat": true, "kubuntu": true, "xubuntu": true, "manjaro": true, "raspbian": true,
	"xfce": true, "gnome": true, "kde": true, "lxde": true, "lxqt": true, "mate": true,
	"cinnamon": true, "unity": true, "mageia": true, "archlinux": true,
}

// platformTool names a tool that writes its name, without a version,
// into the platform comment of a desktop browser's User-Agent
// ("Mozilla/5.0 (X11; Linux x86_64; Quokka Probe) AppleWebKit/..."):
// an element after the first that is one or two capitalised words of
// letters, none of them a platform's, a locale or a distribution's, and
// not in parentheses of its own: "(X11; Linux i686; Fedora release 18
// (Spherical Cow))" names the release, not a tool.
// Internet Explorer's comments carry OEM and .NET tokens and are left
// alone. On phones and tablets, where device models stand, only a name
// and an acronym ("Quokka WPM") after the device's words count.
func platformTool(ua string, ws []word, sh uaShape) guess {
	if sh.ie || !sh.desktop && sh.platform == 0 {
		return guess{}
	}
	for i := range ws {
		w := &ws[i]
		if w.comment != 1 || !w.elemFirst || w.elem == ws[sh.platform].elem || w.link || w.mentioned || w.start > 0 && ua[w.start-1] == '(' {
			continue
		}
		end := i + 1
		for end < len(ws) && ws[end].elem == w.elem {
			end++
		}
		if end-i > 2 || !sh.desktop && (end-i != 2 || !acronym(ua, &ws[i+1]) || !pastDevice(ws, sh.platform, i)) {
			continue
		}
		ok := true
		for k := i; k < end && ok; k++ {
			// The second word may be an acronym ("Quokka WPM").
			ok = toolWord(ua, &ws[k]) || k > i && acronym(ua, &ws[k])
		}
		if ok && !namesBrowser(ws) {
			return guess{name: ua[w.nameStart:ws[end-1].end], start: w.nameStart, end: ws[end-1].end, rule: RuleCommentSlot}
		}
	}
	return guess{}
}

// rvTool names a tool that writes its name as the last element of a
// Gecko browser's platform comment, right after the "rv:" revision
// ("Mozilla/5.0 (Windows; U; Windows NT 5.1; en; rv:1.9.2; Quokka-Lens)
// Gecko/20100101 Firefox/3.6"): Gecko ends that comment with rv:, and
// what phones and Internet Explorer put after it (IEMobile, WPDesktop,
// a handset's brand and model) is left alone by asking for a desktop
// platform, no MSIE or Trident, and one word with a lower-case letter
// that is no platform's, locale's or browser's. The header must end
// with Firefox's product: browsers built on Firefox append their own
// ("... Firefox/1.5 Quokka/0.7"), and their partner builds write the
// partner's name after rv:.
func rvTool(ua string, ws []word, sh uaShape) guess {
	k := len(ws) - 1
	if k > 0 && ws[k].verPart {
		k--
	}
	if sh.ie || !sh.pc || k < 1 || !ws[k].version || ws[k].comment != 0 || !equalFoldASCII(ws[k].name, "Firefox") {
		return guess{}
	}
	for i := 1; i < len(ws); i++ {
		w, p := &ws[i], &ws[i-1]
		if w.comment != 1 || !w.elemFirst || p.comment != 1 || !p.elemFirst || p.name != "rv" || ua[p.nameStart+2] != ':' {
			continue
		}
		if i+1 < len(ws) && ws[i+1].comment == 1 || w.link || w.version || w.name != ua[w.start:w.end] || len(w.name) < 4 || !lowerIn(w.name) ||
			namesOther(w.name) || locale(w.name) || namesBrowser(ws) {
			return guess{}
		}
		return guess{name: w.name, start: w.nameStart, rule: RuleCommentSlot}
	}
	return guess{}
}

// pastDevice reports whether the element at ws[i] of a phone's or
// tablet's platform comment comes after the device's own words: the
// comment is an iOS device's, which names no model ("(iPad; CPU OS 17_0
// like Mac OS X; Quokka WPM)"), or an earlier element holds Android's
// "Build/" ("(Linux; Android 13; QK716 Build/TP1A; Quokka WPM)"). Only
// there may a tool's two-word name stand; before, it is a model's.
func pastDevice(ws []word, platform, i int) bool {
	n := ws[platform].name
	if equalFoldASCII(n, "iPad") || equalFoldASCII(n, "iPhone") || equalFoldASCII(n, "iPod") {
		return true
	}
	for k := platform; k < i; k++ {
		if ws[k].version && equalFoldASCII(ws[k].name, "Build") {
			return true
		}
	}
	return false
}

// namesBrowser reports whether a product of the header names a browser:
// "(X11; Quest) ... QuokkaBrowser/2".
func namesBrowser(ws []word) bool {
	for i := range ws {
		if hasBrowse(ws[i].name) || browserWord(ws, i) {
			return true
		}
	}
	return false
}

// browserWord reports whether ws[i] is a word of a browser's name
// other than "...browse...": Mosaic, in NCSA Mosaic's name and the
// names of the browsers built on its licensed code ("Quokka_Mosaic",
// "WombatMosaic"), and Explorer after Internet, Web or Mobile, in one
// word or two ("Internet Explorer", "QK WebExplorer", "MobileExplorer").
// Explorer alone is not one: tools call themselves "Site Explorer" or
// "Content Explorer".
func browserWord(ws []word, i int) bool {
	n := ws[i].name
	if ws[i].link || len(n) < 6 {
		return false
	}
	if indexFold(n, "mosaic") >= 0 {
		return true
	}
	k := indexFold(n, "explorer")
	if k < 0 {
		return false
	}
	pre := strings.TrimRight(n[:k], "-_")
	if k == 0 && i > 0 && ws[i-1].elem == ws[i].elem {
		pre = ws[i-1].name
	}
	return hasSuffixFold(pre, "internet") || hasSuffixFold(pre, "web") || hasSuffixFold(pre, "mobile")
}

// toolWord reports whether a word of a platform comment can be part of a
// tool's name: a capital letter, then letters, at least one lower-case.
func toolWord(ua string, w *word) bool {
	n := w.name
	if len(n) < 3 || n != ua[w.start:w.end] || !('A' <= n[0] && n[0] <= 'Z') || isPlatformWord(n) || familyOf(n) {
		return false
	}
	lower := false
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
		default:
			return false
		}
	}
	var buf [32]byte
	return lower && len(n) <= len(buf) && !linuxDistributions[string(lowerInto(buf[:0], n))]
}

// acronym reports whether a word is two to five capital letters that
// are no platform's ("WPM", not "NT" or "XP" after Windows).
func acronym(ua string, w *word) bool {
	n := w.name
	if len(n) < 2 || len(n) > 5 || n != ua[w.start:w.end] || isPlatformWord(n) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < 'A' || n[i] > 'Z' {
			return false
		}
	}
	return true
}

// featurePhone reports whether a User-Agent is a handset's brand and
// model with nothing else ("Quokka X116", "Quokka 245"): a first word
// without a version, then a model of digits and capitals.
func featurePhone(ua string, ws []word) bool {
	if len(ws) > 0 && modelName(ws[0].name) && strings.IndexByte(ua, '(') < 0 {
		n := 0
		for i := range ws {
			if !ws[i].verPart {
				n++
			}
		}
		if n <= 2 {
			return true
		}
	}
	if len(ws) < 2 || ws[0].comment != 0 || !lettersOnly(ws[0].name) {
		return false
	}
	if ws[0].version && (!ws[1].verPart || len(ws) > 4 || ws[1].name == "" || ws[1].name[0] < 'A' || ws[1].name[0] > 'Z') {
		return false // "Brand/Model" ("QK/U8100", "QK/KE990c/v10a") only, not "Name/2024"
	}
	m := ua[ws[1].start:ws[1].end]
	if ws[1].version {
		m = ws[1].name
	}
	if len(m) < 3 || len(m) > 12 || !strings.ContainsAny(m, "0123456789") || strings.IndexByte(m, '.') >= 0 {
		return false
	}
	// Capitals and digits; a model may end in lower-case letters
	// ("KS360v").
	m = strings.TrimRight(m, "abcdefghijklmnopqrstuvwxyz")
	for i := 0; i < len(m); i++ {
		if c := m[i]; 'a' <= c && c <= 'z' {
			return false
		}
	}
	return true
}

func lettersOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// modelName reports whether a name is a handset's brand and model in one
// word: a brand, '-' or '.', and a model of capitals and digits that
// starts with a capital ("Quokka-X716", "QUOKKA.G11"), or a brand in
// capitals run into a model of digits ("QK716").
func modelName(n string) bool {
	i := 0
	caps := true
	for i < len(n) && (n[i]|0x20 >= 'a' && n[i]|0x20 <= 'z') {
		caps = caps && n[i] <= 'Z'
		i++
	}
	if i < 2 || i+1 >= len(n) {
		return false
	}
	if n[i] != '-' && n[i] != '.' {
		return caps && digitsOnly(n[i:])
	}
	m := n[i+1:]
	if m[0] < 'A' || m[0] > 'Z' || !strings.ContainsAny(m, "0123456789") {
		return false
	}
	for j := 0; j < len(m); j++ {
		if c := m[j]; !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// appOnPlatform reports whether a product's name says the platform it
// runs on ("Quokka-Android", "QuokkaAndroid", "Quokka-iOS"): an app's,
// not a bot's.
func appOnPlatform(n string) bool {
	l := len(n)
	return indexFold(n, "android") >= 0 || l > 4 && (n[l-4] == '-' || n[l-4] == '_') && equalFoldASCII(n[l-3:], "ios") ||
		hasPrefixFold(n, "WindowsPhone") || devicePart(n)
}

// devicePart reports whether a part of a name after the first, parted
// by '-', '_' or '.', names a device or a system: a handset brand's or
// TV's prefix or Win32 ("Quokka-AppleTV", "Wombat-win32-2v4",
// "QuokkaClient-samsung-QK-716", "Quokka7.http.HTC-7"). Parts of two
// letters are no brand ("LG" starts words too often).
func devicePart(n string) bool {
	for i := 0; i < len(n); i++ {
		if c := n[i]; c != '-' && c != '_' && c != '.' {
			continue
		}
		p := n[i+1:]
		if k := strings.IndexAny(p, "-_."); k >= 0 {
			p = p[:k]
		}
		if len(p) > 2 && devicePrefix(p) || equalFoldASCII(p, "win32") {
			return true
		}
	}
	return false
}

// platformFollows reports whether an element after ws[i]'s in the same
// comment names a platform or a device's connection: "(compatible;
// Quokka/2.1; BeOS)" and "(compatible; QK20; Cellphone; ...)" are a
// browser's; a bot's comment holds its name and a link.
func platformFollows(ws []word, i int) bool {
	for k := i + 1; k < len(ws) && ws[k].comment == ws[i].comment; k++ {
		if ws[k].elemFirst && ws[k].elem != ws[i].elem && !ws[k].link && hasLetter(ws[k].name) && (isPlatformWord(ws[k].name) || connectionWord(ws[k].name)) && !equalFoldASCII(ws[k].name, "compatible") {
			return true
		}
	}
	return false
}

// shellAfter names a client that puts its own product before a
// browser's ("Quokka/3.2 Mozilla/5.0 (Linux; Android 12) ...",
// "Quokka, Mozilla/5.0 ...", "Quokka Mozilla/5.0 ..."): the first
// product, when a Mozilla/x product follows at the top level.
func shellAfter(ua string, ws []word, sh uaShape) guess {
	if sh.mozillaN == 0 || len(ws) == 0 {
		return guess{}
	}
	w := &ws[0]
	single := w.name == ua[w.start:w.end] && w.end < len(ua) && ua[w.end] == ','
	// A bare name right before the shell ("Quokka Mozilla/5.0 ...") too,
	// unless it has a handset model's '_' ("QK_Hermes Mozilla/4.0 ...").
	single = single || w.name == ua[w.start:w.end] && sh.mozillaN == 1 && strings.IndexByte(w.name, '_') < 0
	// A handset's model comes first on Windows CE and feature phones
	// ("QK750/v0000 Mozilla/4.0 (compatible; MSIE 4.01; Windows CE)").
	if w.comment != 0 || !(w.version || single) || !goodName(w) || IsGeneric(w.name) || familyOf(w.name) || isFramework(w.name) || hasBrowse(w.name) ||
		strings.ContainsAny(w.name, "0123456789") {
		return guess{}
	}
	// The shell follows the product at once ("Quokka/3.2 Mozilla/5.0",
	// "Quokka, Mozilla/5.0"), and is no TV set's.
	if prevNamed(ws, sh.mozillaN) != 0 {
		return guess{}
	}
	for i := range ws {
		if tvWord(ws[i].name) {
			return guess{}
		}
	}
	e := w.end
	if ws[1].verPart {
		e = ws[1].end // the product's version
	}
	if devicePrefix(w.name) || bundleID(w.name) || (e >= len(ua) || ua[e] != ',') && namesBrowser(ws) {
		// "QK-Glisten/1.00 Mozilla/4.0 (...)/UC Browser7.7": a
		// handset's model before a browser that names itself. A tool
		// that copies a browser's header writes a comma after its
		// own product ("Quokka/6.7, Mozilla/5.0 ... WombatBrowser/2").
		return guess{}
	}
	return guess{name: w.name, start: w.nameStart, rule: RuleProduct}
}

// appended names a tool that appends its product to a desktop browser's
// full header ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/...
// Chrome/120.0.0.0 Safari/537.36 QuokkaPeek/1.2"): the last product,
// right after the browser's final Safari, Firefox or Chrome product, with
// a short version. Browsers built on Chromium version themselves as
// Chromium does, in four parts (Vivaldi/6.5.3206.48); apps on phones
// append their tokens to mobile headers, which this rule leaves alone.
func appended(ua string, ws []word, sh uaShape) guess {
	phone := !sh.desktop && chromePhone(ua, ws, sh)
	if !(sh.desktop || phone || bareShell(ws)) || sh.ie || sh.app || len(ws) < 3 {
		return guess{}
	}
	k := len(ws) - 1
	for k > 0 && ws[k].verPart {
		k--
	}
	w := &ws[k]
	p := &ws[prevNamed(ws, k)]
	if !p.version || p.comment != 0 || !(equalFoldASCII(p.name, "Safari") || equalFoldASCII(p.name, "Firefox") || equalFoldASCII(p.name, "Chrome")) {
		return guess{}
	}
	if k == len(ws)-1 {
		return appendedBare(ua, ws, sh, w)
	}
	if phone {
		return guess{} // an app's product: "... Mobile Safari/537.36 Quokka/2.1"
	}
	if w.comment != 0 || !w.version || !goodName(w) {
		return guess{}
	}
	if p.end+1 >= len(ua) || namesOther(w.name) || len(w.name) < 4 {
		return guess{}
	}
	// A version of at most two parts, digits and dots only, no build
	// date (Gecko forks: "Wombat/20210505"), and not the browser's own
	// major version (Gecko forks repeat Firefox's, Safari's wrappers its
	// Version: "Firefox/115.0 Wombat/115.0").
	v := ua[ws[k+1].start:ws[len(ws)-1].end]
	if strings.Count(v, ".") > 1 || strings.Trim(v, "0123456789.") != "" || v == "" || v[0] == '.' || len(major(v)) == 8 {
		return guess{}
	}
	for j := 1; j < k; j++ {
		if ws[j].version && ws[j].comment == 0 && isBrowserToken(ws[j].name) && major(ua[ws[j+1].start:]) == major(v) {
			return guess{}
		}
	}
	return guess{name: w.name, start: w.nameStart, rule: RuleProduct}
}

// namesOther reports whether a word appended to a browser's header names
// something other than a tool: a browser family or a browser, a device,
// a platform, a generic word, a framework, a TV app or a Linux
// distribution ("... Firefox/33.0 Slackware/14.1") (appended,
// appendedBare, ieAppended).
func namesOther(n string) bool {
	var buf [32]byte
	return familyOf(n) || hasBrowse(n) || devicePrefix(n) || isPlatformWord(n) || IsGeneric(n) || isFramework(n) || tvName(n) ||
		len(n) <= len(buf) && linuxDistributions[string(lowerInto(buf[:0], n))]
}

// appendedBare names a tool that appends its bare name, without a
// version, to a desktop browser's full header ("... Chrome/120.0.0.0
// Safari/537.36 QuokkaBear", or in parentheses): one word of letters (and '.' or '-'
// inside), with a lower-case letter and not only the first a capital.
// Browsers add no word there; toolbars and builds write capitals and
// digits ("GTB7.1", "QKCHROME"), desktop distributions their name
// ("Xfce"), and apps that embed a browser engine (QtWebEngine,
// Electron) or wrap a second header their own, which are left alone.
func appendedBare(ua string, ws []word, sh uaShape, w *word) guess {
	n := w.name
	// The name may stand in a comment of its own ("... Safari/537.36
	// (QuokkaLocalSearch)").
	own := w.comment != 0 && w.start > 0 && ua[w.start-1] == '(' && w.end < len(ua) && ua[w.end] == ')'
	if sh.mozillaN != 0 || w.comment != 0 && !own || w.verPart || len(n) < 4 || n != ua[w.start:w.end] || !goodName(w) {
		return guess{}
	}
	if namesOther(n) {
		return guess{}
	}
	lower, upper := false, 0
	for i := 0; i < len(n); i++ {
		switch c := n[i]; {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper++
		case (c == '.' || c == '-') && i > 0 && i < len(n)-1:
		default:
			return guess{}
		}
	}
	var buf [32]byte
	if !lower || upper < 2 || len(n) > len(buf) || linuxDistributions[string(lowerInto(buf[:0], n))] {
		return guess{}
	}
	for i := range ws {
		if equalFoldASCII(ws[i].name, "QtWebEngine") {
			return guess{}
		}
	}
	return guess{name: n, start: w.nameStart, rule: RuleProduct}
}

// ieAppended names a tool that appends its product to an Internet
// Explorer header in the "compatible" grammar ("Mozilla/4.0 (compatible;
// MSIE 8.0; Windows NT 6.1; Trident/4.0) QuokkaCmd/5.2.1"): the one word
// after the closing comment, with or without a version. Internet
// Explorer ends its header with that comment; what browsers write
// after it is a browser's name (Opera, OmniWeb, ...QQBrowser), or, on
// Pocket PCs and phones, a handset's carrier and model
// ("Vodafone/1.0/QK_v1510/1.23", "QK_E100").
func ieAppended(ua string, ws []word, sh uaShape) guess {
	if !sh.ie || len(ws) < 3 || !ws[0].version || !equalFoldASCII(ws[0].name, "Mozilla") || !ws[1].verPart || ws[2].comment != 1 || !equalFoldASCII(ws[2].name, "compatible") {
		return guess{}
	}
	k := len(ws) - 1
	if ws[k].verPart {
		k--
	}
	w := &ws[k]
	n := w.name
	if w.comment != 0 || w.verPart || ws[k-1].comment != 1 || !goodName(w) || len(n) < 4 || !w.version && n != ua[w.start:w.end] {
		return guess{}
	}
	if namesOther(n) || !lowerIn(n) || strings.ContainsAny(n, "_:") {
		return guess{} // "acer_E100", "Sprint:PPC6800": a handset's model
	}
	for i := 2; i < k; i++ {
		// Pocket PCs and phones (Windows CE, IEMobile, "Nokia7650")
		// write their model or browser there.
		if m := ws[i].name; equalFoldASCII(m, "CE") || equalFoldASCII(m, "IEMobile") || equalFoldASCII(m, "PPC") || devicePrefix(m) {
			return guess{}
		}
	}
	return guess{name: n, start: w.nameStart, rule: RuleProduct}
}

// lowerIn reports whether s holds a lower-case ASCII letter.
func lowerIn(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			return true
		}
	}
	return false
}

// bareShell reports whether a header is a browser's shell without the
// platform comment every browser sends ("Mozilla/5.0 AppleWebKit/537.36
// (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 ..."): a bot's.
func bareShell(ws []word) bool {
	return len(ws) > 3 && ws[0].version && equalFoldASCII(ws[0].name, "Mozilla") && ws[1].verPart &&
		ws[2].comment == 0 && ws[2].version && equalFoldASCII(ws[2].name, "AppleWebKit")
}

// major returns the leading digits of a version.
func major(v string) string {
	i := 0
	for i < len(v) && isDigit(v[i]) {
		i++
	}
	return v[:i]
}

// qtAppName names a command-line tool built on QtWebKit, which writes
// the application's name where browsers put their product, between the
// engine comment and the closing Safari product ("Mozilla/5.0 (X11;
// Linux x86_64) AppleWebKit/534.34 (KHTML, like Gecko) quokkashot
// Safari/534.34"). Only a bare lower-case name counts, as programs run
// from a shell are named; desktop apps there give a capitalised name
// and a version ("QuokkaRSS/0.18 Safari/..."), and browsers a version or
// a family's name.
func qtAppName(ua string, ws []word, sh uaShape) guess {
	n := len(ws)
	if sh.ie || sh.app || n < 4 || !ws[n-1].verPart || !ws[n-2].version || ws[n-2].comment != 0 || !equalFoldASCII(ws[n-2].name, "Safari") {
		return guess{}
	}
	w, p := &ws[n-3], &ws[n-4]
	if w.comment != 0 || w.version || w.verPart || !p.mentioned || p.comment == 0 || !equalFoldASCII(p.name, "Gecko") || strings.TrimSpace(ua[p.end:w.start]) != ")" {
		return guess{}
	}
	name := w.name
	if len(name) < 3 || name != ua[w.start:w.end] || !hasLetter(name) || isBrowserToken(name) || familyOf(name) || isPlatformWord(name) || IsGeneric(name) {
		return guess{}
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || isDigit(c) || c == '.' || c == '-') {
			return guess{}
		}
	}
	return guess{name: name, start: w.nameStart, rule: RuleProduct}
}

// connectionWord reports whether a word says how a device is connected
// or what kind of device it is ("wired", "wireless", "Cellphone"), as
// TV sets, media players and phones write in their comments ("(Quokka,
// QK100, wired)", "(QK; like Gecko; wireless) NetFront/3.4"): never a
// bot's name. A word list, because such a word has no shape of its own.
func connectionWord(n string) bool {
	return equalFoldASCII(n, "wired") || equalFoldASCII(n, "wireless") || equalFoldASCII(n, "cellphone") || equalFoldASCII(n, "mobilephone")
}

// familyProduct reports whether a top-level product of the header is a
// browser family's with a version ("... like Gecko; QK) NetFront/4.1"):
// the header is that browser's, whatever its comments hold.
func familyProduct(ws []word) bool {
	for i := range ws {
		if ws[i].version && ws[i].comment == 0 && familyOf(ws[i].name) {
			return true
		}
	}
	return false
}

// tvWord reports whether a word names a TV set's or set-top box's
// browser platform: the HbbTV, CE-HTML (CEA-2014), Hybridcast and
// NETTV standards, the SmartTV and Espial middleware, Chromecast's
// CrKey. TV sets put their platform and model anywhere in the header
// ("UID(...)+CE-HTML", "(CE-HTML/1.0 NETTV/3.3.0 ...) QK-AVM/2.19"), so
// with one of them no shape rule reads a name.
func tvWord(n string) bool {
	if len(n) < 5 || len(n) > 10 {
		return false
	}
	switch n[0] | 0x20 {
	case 'h':
		return equalFoldASCII(n, "HbbTV") || equalFoldASCII(n, "Hybridcast")
	case 's':
		return equalFoldASCII(n, "SmartTV")
	case 'c':
		return equalFoldASCII(n, "CE-HTML") || equalFoldASCII(n, "CrKey")
	case 'n':
		return equalFoldASCII(n, "NETTV")
	case 'e':
		return equalFoldASCII(n, "Espial")
	}
	return false
}

// tvName reports whether a product's name ends in a capitalised "TV"
// after a lower-case letter ("QuokkaTV", "wombat-AppleTV"): a TV app's
// or set's, as appended to a browser's header.
func tvName(n string) bool {
	l := len(n)
	return l > 3 && n[l-2:] == "TV" && ('a' <= n[l-3] && n[l-3] <= 'z' || n[l-3] == '-')
}

// deviceApp reports whether the first product's comment opens with a
// device's or system's name ("Quokka/1.5 (QuokkaTV 4; tvOS16.2)
// libcurl/7.58"): an app on that device, whose HTTP library names no
// agent. It runs only when a framework was found.
func deviceApp(ws []word) bool {
	if len(ws) < 2 || !ws[0].version || isBrowserToken(ws[0].name) {
		return false
	}
	k := 1
	for k < len(ws) && ws[k].verPart && ws[k].comment == 0 {
		k++
	}
	return k < len(ws) && ws[k].comment == 1 && ws[k].elemFirst && systemOrDevice(ws[k].name)
}

// systemOrDevice reports whether a word starts with a handset brand's
// or TV's prefix or is a system of systemWords other than X11 (a
// desktop browser's platform, which headless browsers copy).
func systemOrDevice(n string) bool {
	var buf [16]byte
	return devicePrefix(n) || len(n) <= len(buf) && systemWords[string(lowerInto(buf[:0], n))] && !equalFoldASCII(n, "X11")
}

// desktopHost names a tool by a host name it writes into a desktop
// browser's header, where browsers write none: as an element of the
// platform comment ("(Windows NT 10.0; quokka.example)"), as the
// product between the engine's comment and Safari ("(KHTML, like Gecko)
// quokka-shot.example/0.9 Safari/537.36"), right after the final
// Safari, Firefox or Chrome product ("... Firefox/115.0 quokka.example
// audit"), or in a comment after it ("Safari/537.36 (Quokka IQ,
// quokka.example)"). Apps that embed a browser append their own name
// after the browser's last product (Edge's "Edg/..."), and phones' apps
// and carriers name hosts too, so only the desktop shapes count.
func desktopHost(ua string, ws []word, sh uaShape) guess {
	if len(ws) > 1 && ws[0].version && equalFoldASCII(ws[0].name, "Mozilla") && strings.IndexByte(ua, '(') < 0 {
		// Every browser sends a platform comment: "Mozilla/5.0
		// Firefox quokka.example" is a tool's, its host anywhere (a
		// host, not a product: "Quokka.js/5.0" is a library's).
		for i := 1; i < len(ws); i++ {
			if !ws[i].link && !ws[i].verPart && !ws[i].version && hostWord(ws[i].name) {
				return guess{name: ws[i].name, start: ws[i].nameStart, rule: RuleLinkHost}
			}
		}
	}
	if !sh.desktop || sh.ie || sh.app || namesBrowser(ws) {
		return guess{}
	}
	final := false // past the final Safari, Firefox or Chrome product
	for i := 1; i < len(ws); i++ {
		w := &ws[i]
		if w.verPart {
			continue
		}
		if w.comment == 0 && w.version {
			final = equalFoldASCII(w.name, "Safari") || equalFoldASCII(w.name, "Firefox") || equalFoldASCII(w.name, "Chrome")
			if !final && !hostWord(w.name) {
				continue
			}
		}
		if w.link || !hostWord(w.name) {
			continue
		}
		p := &ws[prevNamed(ws, i)]
		inPlatform := w.platform && w.elemFirst && elemLast(ws, i)
		slot := w.comment == 0 && p.mentioned && equalFoldASCII(p.name, "Gecko")
		if inPlatform || slot || final {
			return guess{name: w.name, start: w.nameStart, rule: RuleLinkHost}
		}
	}
	return guess{}
}

// hostWord reports whether a word is a host name: labels of letters,
// digits and '-' joined by dots, the first starting with a letter, the
// last two to 24 letters ("quokka.example", "web-shot.net").
func hostWord(n string) bool {
	dot := strings.LastIndexByte(n, '.')
	if dot <= 0 || len(n)-dot-1 < 2 || len(n)-dot-1 > 24 || !lettersOnly(n[dot+1:]) || !isLetter(n[0]) {
		return false
	}
	for i := 0; i < dot; i++ {
		c := n[i]
		if !isLetter(c) && !isDigit(c) && c != '-' && !(c == '.' && n[i-1] != '.') {
			return false
		}
	}
	return true
}

// chromePhone reports whether a header is Chrome's on an Android phone
// outside an app: an Android platform comment without the "wv" element
// that Android's WebView writes, a Chrome product and no "Version/4.0"
// product, which WebViews before "wv" wrote. Apps that show pages in a
// WebView append their name there ("...; wv) ... Mobile Safari/537.36
// QuokkaAndroid"); a page tester emulating a phone in Chrome appends
// its own.
func chromePhone(ua string, ws []word, sh uaShape) bool {
	if sh.platform == 0 || !equalFoldASCII(ws[sh.platform].name, "Linux") {
		return false
	}
	android, chrome := false, false
	for i := sh.platform; i < len(ws); i++ {
		w := &ws[i]
		switch {
		case w.comment == 1 && w.elemFirst && elemLast(ws, i) && equalFoldASCII(ua[w.start:w.end], "wv"):
			return false
		case w.comment == 1 && equalFoldASCII(w.name, "Android"):
			android = true
		case w.comment == 0 && w.version && equalFoldASCII(w.name, "Chrome"):
			chrome = true
		case w.comment == 0 && w.version && equalFoldASCII(w.name, "Version"):
			return false
		}
	}
	return android && chrome
}

// headlessName names a browser run headless that says so in words
// ("Headless Chrome 120.0 on Linux", "Headless Firefox"): the word
// Headless and a browser's name right after it, at the top level. No
// browser a person drives calls itself headless; the one-word
// "HeadlessChrome" is a catalog framework's.
func headlessName(ua string, ws []word) guess {
	for i := 0; i+1 < len(ws); i++ {
		w, n := &ws[i], &ws[i+1]
		if w.comment != 0 || w.verPart || !equalFoldASCII(ua[w.start:w.end], "Headless") || n.comment != 0 || n.elem != w.elem ||
			n.start != w.end+1 || !isBrowserToken(n.name) && !familyOf(n.name) {
			continue
		}
		return guess{name: ua[w.start : n.nameStart+len(n.name)], start: w.start, rule: RuleFullName}
	}
	return guess{}
}
