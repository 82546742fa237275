// Package bots says who a crawler is: it identifies the bot behind a
// User-Agent header with a catalog built from maintained public data
// (crawler-user-agents, ai.robots.txt) and a small overlay of our own, and
// names the bots the catalog does not know by their own product token.
//
// # Usage
//
// Build the catalog once, then identify every fetch:
//
//	cat := bots.Default()
//	if path != "" { // --bots FILE
//		f, err := os.Open(path)
//		...
//		extra, err := bots.Load(f, path) // errors say path:line:column
//		...
//		cat = cat.Merge(extra)
//	}
//	for fetch := range fetches {
//		id := cat.IdentifyUA(fetch.UserAgent)
//		switch {
//		case id.Bot != nil: // a catalog bot: id.Bot.Token, .Operator, .Category, .GroupToken()
//		case id.Agent != "": // a bot the catalog does not know: no operator
//		default: // a browser: not judged against robots.txt
//		}
//	}
//
// A Catalog is immutable and safe for concurrent use; Default builds the
// embedded one once and Merge returns a new one. IdentifyUA reads the
// header once into words on the stack and looks each word up in a map; it
// does not allocate for ordinary headers. Callers that see the same
// headers again and again (a log) cache the result per header, as package
// evaluate does.
//
// # Identification rules
//
// docs/semantics.md, "Bot catalog and User-Agent tokens", states them in
// full; in short: names stand as whole words; a word after "like", "treat
// like", "compatible with" or "similar to" is a mention and names nothing;
// words of links and mail addresses name nothing; a generic word (bot,
// spider, crawler, robot, agent, fetcher, ...) is never a name, the words
// before it make the full name ("Kangaroo Bot", "Sogou News Spider");
// a browser's platform comment names a device, not a bot; catalog names
// come first, then the rules of BotToken for bots the catalog does not
// know; frameworks (heritrix, Nutch, Scrapy, python-requests, curl, wget,
// Go-http-client, ...) name the agent only when nothing else does and never
// have an operator. Product tokens follow RFC 9309 §2.2.1 and User-Agent
// syntax RFC 9110 §10.1.5 (see ProductTokens); GroupToken gives the token
// a bot's robots.txt group is selected by.
//
// # Where the default catalog comes from
//
// Three embedded files, merged in this order (later ones override field by
// field, see Merge):
//
//   - data/crawler-user-agents.json: the crawler-user-agents npm package
//     (https://github.com/monperrus/crawler-user-agents), MIT licence in
//     data/crawler-user-agents.LICENSE. About 1,500 crawlers, each a
//     regular-expression pattern (read as names, see literals in data.go),
//     example User-Agents ("instances", which the tests measure), a URL and
//     tags (read as categories and frameworks). It names no operators.
//   - overlay.json: ours. What those lack: operators and categories from
//     the operators' own documentation, the product token robots.txt
//     groups use, published IP range lists, reverse-DNS suffixes, Web Bot
//     Auth hints, and which entries are frameworks.
//
// data/versions.json records the npm version of crawler-user-agents (with
// its name@version and the tarball's sha512 integrity). The binary embeds it: DataVersions
// returns it, "repaudit bots list" prints it and manifest.json records it
// under "catalog".
//
// # Refreshing the data
//
// "go generate ./bots/" runs internal/gencatalog, which downloads
// crawler-user-agents with the registry's own client ("npm pack
// crawler-user-agents@VERSION --json", from whatever registry npm is
// configured with; the tarball's sha512 integrity is checked). Run the
// package tests after a refresh: TestRates asserts the identification
// rates on real headers.
//
// ai.robots.txt's robots.json (https://github.com/ai-robots-txt/ai.robots.txt)
// is not embedded: a file copied from another repository is not kept in
// this one. Users merge it with --bots (Load reads its shape), and
// TestAIRobotsNames checks, with the copy in ../shared/fixtures, that every
// one of its names is then known.
//
// # Catalog file shape (overlay.json and --bots FILE)
//
//	{
//	  "comment": "any other top-level member is ignored",
//	  "bots": [
//	    {
//	      "token": "GPTBot",                 // required; the bot's name as the operator documents it
//	      "patterns": ["GPTBot"],            // optional; names that identify it in a User-Agent; default [token]; "^" anchors at the start
//	      "robots_token": "GPTBot",          // optional; the product token robots.txt groups use (default: token up to a space)
//	      "operator": "OpenAI",
//	      "category": "ai-training",         // ai-training, ai-search, ai-assistant, search, archiver, seo, monitor, feed, other
//	      "user_triggered": false,           // fetches on a user's request
//	      "framework": false,                // crawler software or HTTP library: never an operator
//	      "url": "https://...",              // the operator's documentation
//	      "ip_ranges_urls": ["https://..."], // published IP range lists (JAFAR / Google JSON shape); "ip_ranges_url" (one) is read too
//	      "ip_ranges_former_urls": ["https://..."], // URLs its lists were published under before a move: not fetched, still recognised
//	      "rdns_suffixes": [".googlebot.com"], // host name suffixes its addresses reverse-resolve to
//	      "rdns_doc_url": "https://...",     // the operator's page documenting reverse-DNS verification
//	      "web_bot_auth": "https://chatgpt.com", // the Signature-Agent it signs with, when documented
//	      "robots_txt_only": false,          // a robots.txt token no client sends (Google-Extended)
//	      "notes": "free text"
//	    }
//	  ],
//	  "operators": [                         // optional; read from the embedded overlay only (Referrers)
//	    {
//	      "operator": "OpenAI",              // as the bots' "operator" spells it
//	      "referrer_hosts": ["chatgpt.com"], // hosts of its products whose links send readers to sites
//	      "url": "https://chatgpt.com",      // required; where the host is the product's own
//	      "notes": "free text"
//	    }
//	  ]
//	}
//
// (JSON has no comments; they are explanations here.) Unknown fields are
// errors. The "operators" member feeds the report's crawl-to-refer ratio
// (Referrers); Load skips it, and a --bots file's is not read. The ai.robots.txt robots.json shape ({"GPTBot": {"operator":
// ..., "respect": ..., "function": ..., "frequency": ..., "description":
// ...}}) is accepted too; names differing only in case or by a version are
// merged, and the category is inferred from "function".
//
// # IP range lists
//
// IPRangeLists returns every published list the catalog knows and the bots
// it vouches for; "repaudit ranges fetch" downloads them. The overlay's
// lists are the URLs the operators document (checked against their
// documentation as of 2026-11, the pages each bot's "url" names):
//
//   - Google, https://developers.google.com/crawling/ipranges/:
//     common-crawlers.json (Googlebot and the other common crawlers),
//     special-crawlers.json (AdsBot-Google, Mediapartners-Google,
//     APIs-Google, Google-Safety), user-triggered-fetchers.json and
//     user-triggered-fetchers-google.json (FeedFetcher-Google,
//     Google-Read-Aloud, Google-Site-Verification, ...) and
//     user-triggered-agents.json (Google-Agent). Google-Extended and
//     Googlebot-News are robots.txt tokens only and have none.
//   - Anthropic: one list, https://claude.com/crawling/bots.json, for
//     ClaudeBot, Claude-User and Claude-SearchBot.
//   - OpenAI: one per bot, https://openai.com/gptbot.json,
//     searchbot.json and chatgpt-user.json.
//
// Operators move their lists: Google moved them from
// /static/search/apis/ipranges/ to /crawling/ipranges/ in 2026 and
// googlebot.json became common-crawlers.json (the old URL redirects).
// The old URLs are the bots' "ip_ranges_former_urls": "repaudit ranges
// fetch" does not fetch them (it follows no redirects), but files named
// for them, by "ranges fetch" or as published (googlebot.json), still
// verify the bots. Bot.IPRangesURL is the first of a bot's current lists.
package bots
