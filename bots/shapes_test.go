package bots

import "testing"

// shapeFamilies are hand-written User-Agents, one per family of headers
// the general rules once got wrong, with the agent IdentifyUA must name
// ("" for a browser) and the rule that names it. The names (Quokka,
// Wombat, ...) are made up, so no catalog entry can answer.
var shapeFamilies = []struct {
	family, ua, agent, rule string
}{
	// Bots.
	{"tool in a desktop platform comment", "Mozilla/5.0 (X11; Linux x86_64; Quokka) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Quokka", RuleCommentSlot},
	{"two-word tool in a platform comment", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Quokka Probes) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Quokka Probes", RuleCommentSlot},
	{"crawler stem in a platform comment", "Mozilla/5.0 (Windows NT 10.0; rv:115.0; WombatAgent 2.0) Gecko/20100101 Firefox/115.0", "WombatAgent", RuleCrawlerStem},
	{"perl library", "WWW::Wombat/2.14", "WWW::Wombat", RuleProduct},
	{"php library", `Wombat\Http\Client/1.0`, `Wombat\Http\Client`, RuleProduct},
	{"name:version", "quokka-sync:1.4", "quokka-sync", RuleProduct},
	{"name with a colon", "quokka:client/1.2", "quokka:client", RuleProduct},
	{"mailto is no name", "Quokka/2.1.0 ( http://quokka.example/ | mailto:crawler-info<at>quokka.example)", "Quokka", RuleContactLink},
	{"product before the browser shell", "Quokka/2.7 Mozilla/5.0 (Linux; Android 12; Pixel 6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36", "Quokka", RuleProduct},
	{"name before the browser shell", "Quokka, Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Safari/537.36", "Quokka", RuleProduct},
	{"tool appended to a desktop browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 QuokkaPeek/1.2", "QuokkaPeek", RuleProduct},
	{"tool appended to a desktop Firefox", "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0 WombatCheck/3", "WombatCheck", RuleProduct},
	{"bare crawler word", "spider", Unnamed, RuleUnnamed},
	{"crawler word as the product", "Mozilla/5.0 (compatible; Robot/1.4)", Unnamed, RuleUnnamed},
	{"crawler word before other words", "bot wombat quokka", Unnamed, RuleUnnamed},
	{"percent-encoded spaces", "Quokka%20Page%20Bot/0.3%20(%20ops%20at%20quokka%20)", "Quokka Page Bot", RuleFullName},
	{"tool appended to a shell without a platform", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 QuokkaRender/2.0", "QuokkaRender", RuleProduct},
	{"compatible slot beside a browser's name", "QK-C1500 UP.Browser/6.2.3 (GUI) MMP/1.0 (compatible;QuokkaSeeker/M1A1; http://quokka.example/crawling.html)", "QuokkaSeeker", RuleCommentSlot},
	{"header field name logged", "User-Agent: QuokkaBot/1.0", "QuokkaBot", RuleCrawlerStem},
	{"generic stem alone", "Wombat Link Checker (+https://wombat.example/)", "Wombat Link Checker", RuleFullName},
	{"compatible slot", "Mozilla/5.0 (compatible; Quokka/1.0; +https://quokka.example/)", "Quokka", RuleCommentSlot},
	{"generic word as a product", "Quokka Page Engine - Fetch/1.0", "Quokka", RuleProduct},
	{"generic word after a product", "Wombat/7.x Fetch", "Wombat", RuleProduct},
	{"full name around fetch", "Quokka Fetch/2.0", "Quokka Fetch", RuleFullName},
	{"mail address for contact", "Quokka/1.0 (ops@quokka.example)", "Quokka", RuleContactLink},
	{"monitoring tool appended to a mobile browser", "Mozilla/5.0 (Linux; Android 13; QK716) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 WombatObservatory/1.0", "WombatObservatory", RuleCrawlerStem},
	{"synthetic check appended to an iPhone browser", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 QuokkaSynthetic/2.1", "QuokkaSynthetic", RuleCrawlerStem},
	{"synthetics in a lower-case platform comment", "mozilla/5.0 (x11; linux x86_64; quokka synthetics) applewebkit/537.36 (khtml, like gecko) chrome/120.0.0.0 safari/537.36", "quokka synthetics", RuleFullName},
	{"uptime stem", "WombatUptime/3.0", "WombatUptime", RuleCrawlerStem},
	{"audit alone", "Quokka Audit/1.0", "Quokka Audit", RuleFullName},
	{"agent after a word that is no brand", "Quokka Agent", "Quokka Agent", RuleFullName},
	{"bot after a handset brand", "HTC Quokka Bot/1.0", "HTC Quokka Bot", RuleFullName},
	{"version inside a full name", "Mozilla/4.0 (compatible; MSIE 4.01; Windows NT; Quokka Search 6.0 Robot)", "Quokka Search 6.0 Robot", RuleFullName},
	{"version first in an element", "Mozilla/5.0 (compatible; 2.1 Quokka Spider)", "Quokka Spider", RuleFullName},
	{"engine comment of a shell without a platform", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; QuokkaAdsExpress) Chrome/120.0.0.0 Safari/537.36", "QuokkaAdsExpress", RuleCommentSlot},
	{"several words after like Gecko", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; Quokka Page Insights) Chrome/120.0.0.0 Safari/537.36", "Quokka Page Insights", RuleCommentSlot},
	{"several words after like Gecko on a phone", "Mozilla/5.0 (Linux; Android 13; QK716) AppleWebKit/537.36 (KHTML, like Gecko; Wombat Render Service) Chrome/120.0.0.0 Mobile Safari/537.36", "Wombat Render Service", RuleCommentSlot},
	{"QtWebKit tool's name before Safari", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/534.34 (KHTML, like Gecko) quokkashot Safari/534.34", "quokkashot", RuleProduct},
	{"QtWebKit tool named by its host", "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/538.1 (KHTML, like Gecko) shots.quokka.example Safari/538.1", "shots.quokka.example", RuleProduct},
	{"bare name before the browser shell", "Quokka-Link-Expander Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Quokka-Link-Expander", RuleProduct},
	{"tool and acronym in a platform comment", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Wombat RUM) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Wombat RUM", RuleCommentSlot},
	{"program on a language runtime", "QuokkaSync/1.4.2 Python/3.11.4 Linux/6.1.0-13-amd64", "QuokkaSync", RuleProduct},
	{"command-line client on node", "wombat-cli/7.2.0 node/v20.5.1 darwin arm64", "wombat-cli", RuleProduct},
	{"CamelCase name opening with Crawler", "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0) CrawlerTask (http://quokka.example) /3.1.2.0", "CrawlerTask", RuleCrawlerStem},
	// Browsers, apps and devices.
	{"handset model opening with Spider", "Mozilla/5.0 (Linux; Android 9; Wombat SpiderX Build/PPR1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.45 Mobile Safari/537.36", "", ""},
	{"app with its system and no runtime", "QuokkaPlayer/2.1 (Linux; U; Android 12; QK716)", "", ""},
	{"runtime without a version number", "QuokkaApp/3.0 Python/unknown Darwin/22.1.0", "", ""},
	{"handset model before the browser shell", "QK_Hermes Mozilla/4.0 (compatible; MSIE 6.0; Windows CE; IEMobile 7.11)", "", ""},
	{"two words before the browser shell", "Quokka Browser Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "", ""},
	{"system and its edition in a platform comment", "Mozilla/5.0 (Windows NT 5.1; Windows XP) Gecko/20100101 Firefox/52.0", "", ""},
	{"QtWebKit desktop app before Safari", "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/602.1 (KHTML, like Gecko) QuokkaReader/0.18.2 Safari/602.1", "", ""},
	{"QtWebKit browser family before Safari", "Mozilla/5.0 (X11; FreeBSD amd64) AppleWebKit/534.30 (KHTML, like Gecko) rekonq Safari/534.30", "", ""},
	{"engine's own word before another browser", "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.21 (KHTML, like Gecko) wombatkit Safari/537.21 Wombat/6.1.0.20000 Safari/537.21", "", ""},
	{"engine comment with a browser after like Gecko", "Mozilla/5.0 (X11; U; Linux i686; en-US) AppleWebKit/527+ (KHTML, like Gecko, Safari/419.3) Wombat/0.5", "", ""},
	{"Java ME handset", "WombatPhone T500 Java/WJ/1.0 Profile/MIDP-2.1 Configuration/CLDC-1.1", "", ""},
	{"handset's Java runtime", "Mozilla/5.0 (QK-T505 AppleWebkit/531 Browser/Wombat/V2.0 MMS/QK-MMS-V1.0/1.2 Java/QVM/1.1", "", ""},
	{"Java library after a product", "Quokka/2.0 Java/1.8.0_402", "Java", RuleFramework},
	{"feature phone model", "Wombat X716", "", ""},
	{"feature phone number", "Wombat 2451", "", ""},
	{"handset brand and model in one word", "QUOKKA-X716", "", ""},
	{"handset brand run into its model", "QK716", "", ""},
	{"handset brand/model", "Wombat/KX990c/v10a", "", ""},
	{"known handset brand with a model", "Motorola-Qk716", "", ""},
	{"known handset brand run into a model", "LGQK716V", "", ""},
	{"app on a system named in its comment", "Quokka/3.2 (AmigaOS/68k)", "", ""},
	{"app that reports its handset", "WhatsApp/2.9.4 Android/4.4.2 Device/Wombat-QK716", "", ""},
	{"catalog name as a handset model", "HTC Butterfly Q; 4.4.2; QK716; en-gb", "", ""},
	{"app's fields naming a handset", "Wombat Sync;htc;qk7;HTC;HTC Quokka X;carrier_de;JDQ39;4.2.2", "", ""},
	{"app on a handset named in its comment", "Wombat/2.14 (HTC Quokka S Q510e REL/2.3.5)", "", ""},
	{"handset model with a lower-case suffix", "Wombat KS360v", "", ""},
	{"year as a version", "Wombat/2024", "Wombat", RuleProduct},
	{"Windows CE handset before the shell", "QK750/v0000 Mozilla/4.0 (compatible; MSIE 4.01; Windows CE; PPC; 240x320)", "", ""},
	{"handset model after a bare Mozilla", "Mozilla/4.0 SonyEricssonQ510v/R1DE", "", ""},
	{"Android build", "QuokkaQ1505 Build/15.1.A.1.9 Updater/1.2", "", ""},
	{"Android build fingerprint", "Wombat/3.9.5/an QK-716(quokka/qk716:4.1.2/JZO54K/QK716XX:user/release-keys)", "", ""},
	{"handset brand's agent", "Sanyo Agent", "", ""},
	{"handset brand's update agent", "Samsung Quokka-Update Agent", "", ""},
	{"handset brand's user agent", "Mozilla Nokia 1234-USER AGENT", "", ""},
	{"handset with its carrier's product", "QK900i DoCoMo/2.0 QK900i(c100;TB;W20H10)", "", ""},
	{"browser header without punctuation", "MOZILLA40 (COMPATIBLE MSIE 50 SERIES1234 WOMBAT5678", "", ""},
	{"screen size after a bare Mozilla", "Mozilla/5.0 320x480 Wombat QK-716 NetFront/3.4", "", ""},
	{"browser that gives its link", "Quokka Web Browser/3.8.5 http://www.quokka.example", "", ""},
	{"browser family in a platform comment", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:56.0; Waterfox) Gecko/20100101 Firefox/56.2.3", "", ""},
	{"language in the first comment", "Firefox/25.0 (de); quokka 1234", "", ""},
	{"language and region in the first comment", "Mozilla/5.0 (pt-BR) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "", ""},
	{"app on CFNetwork", "Quokka/3 CFNetwork/1410.0.3 Darwin/22.6.0", "", ""},
	{"app on CFNetwork without Darwin", "Wombat/12 CFNetwork/758.1.3 AppleTV/16.0.0", "", ""},
	{"system daemon on CFNetwork", "quokkad (unknown version) CFNetwork/1128.0.1 Darwin/19.6.0", "", ""},
	{"crawler on CFNetwork", "QuokkaBot/3 CFNetwork/1410.0.3 Darwin/22.6.0", "QuokkaBot", RuleCrawlerStem},
	{"app bundle identifier", "com.quokka.reader/5.7.14 (Linux; Android 13)", "", ""},
	{"app reporting its platform first", "(Android)(14)(someone@mail.example)(Quokka QK716)(wombatapp)", "", ""},
	{"app on Android", "Quokka-Android/4.2.1 OS/13 Model/QK-716", "", ""},
	{"app on iOS", "Quokka-iOS/4.2.1", "", ""},
	{"app key/value pairs", "[QKAN/QK4A;QKAV/12.0;QKDV/QK-716]", "", ""},
	{"at sign in a build", "Mozilla/5.0 (Linux; Android 12; QK716 Build/QK@ROM_01.02.2022) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36", "", ""},
	{"app's word in the compatible slot", "Mozilla/4.0 (compatible; Gathering; Quokka) QuokkaMedia/1.50 QuokkaBrowser/3.5.0 (Android 4.4.2; QK716)", "", ""},
	{"browser in the compatible slot", "Mozilla/4.0 (compatible; Quokka/3.1; BeOS)", "", ""},
	{"name appended to a desktop browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Quokka", "", ""},
	{"short name appended to a desktop browser", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 QKX/3.1", "", ""},
	{"app's version before a colon", "Quokka-iOS-10.4.0:WombatKit-10.2.4+Quokka/13.1.2/iPad5,4", "", ""},
	{"letter appended to a desktop browser", "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/28.0.1500.74 Safari/537.36 Q", "", ""},
	{"Chromium browser appended", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Quokka/6.5.3206.48", "", ""},
	{"Gecko browser appended", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:115.0) Gecko/20100101 Firefox/115.0 Wombat/115.0", "", ""},
	{"Gecko fork with a build date", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:68.0) Gecko/20100101 Goanna/4.8 Firefox/68.0 Wombat/20210505", "", ""},
	{"Safari wrapper appended", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 Qk/17.0", "", ""},
	{"app appended to a mobile browser", "Mozilla/5.0 (Linux; Android 13; QK716) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Wombat/1.2", "", ""},
	{"browser with a build suffix appended", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.130 Safari/537.36 Quokka/2020.12.1-9a8b7c", "", ""},
	{"crawler word as a handset model", "Mozilla/5.0 (Linux; Android 7.0; Wombat Bot 52) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/65.0.3325.109 Mobile Safari/537.36", "", ""},
	{"negated crawler word", "Quokka (not a bot)", "Quokka", RuleProduct},
	{"Electron app", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/537.36 (KHTML, like Gecko) Quokka/2.3.1 Chrome/120.0.6099.56 Electron/28.0.0 Safari/537.36", "", ""},
	{"Linux distribution", "Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", "", ""},
	{"locale in a platform comment", "Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.2) Gecko/20100115 Firefox/3.6", "", ""},
	{"embedded IE with an OEM's link", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; QuokkaRadio http://quokka.example; .NET CLR 2.0.50727)", "", ""},
	{"IE-shaped bot with a crawler's link", "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; http://quokka.example/bot.html)", "quokka.example", RuleLinkHost},
	{"IE-shaped bot with a product", "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; Quokka/1.0; +http://quokka.example)", "Quokka", RuleContactLink},
	{"IE tokens", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; Touch; Quokka)", "", ""},
	// Look-alikes name themselves, never the bot they resemble.
	{"-like inside a word", "Mozilla/5.0 (compatible; wombat.example-like Googlebot)", "", ""},
	{"negation", "Quokka/1.0 (not Googlebot)", "Quokka", RuleProduct},
}

// TestShapeFamilies checks each of shapeFamilies, and that none is
// attributed to a catalog bot.
func TestShapeFamilies(t *testing.T) {
	c := Default()
	for _, tc := range shapeFamilies {
		id := c.IdentifyUA(tc.ua)
		if id.Agent != tc.agent || id.Rule != tc.rule {
			t.Errorf("%s: %q: agent %q by %q (matched %q), want %q by %q", tc.family, tc.ua, id.Agent, id.Rule, id.Matched, tc.agent, tc.rule)
		}
		if tc.agent != "" && id.Bot != nil {
			t.Errorf("%s: attributed to catalog bot %s", tc.family, id.Bot.Token)
		}
	}
}
