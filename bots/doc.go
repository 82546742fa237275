// Package bots says who a crawler is: it identifies the bot behind a
// User-Agent header with a catalog of well-known crawlers (product token,
// operator, category), and for bots the catalog does not know, picks the
// likely product token out of the header.
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
//		if b, ok := cat.Identify(fetch.UserAgent); ok {
//			// b.Token, b.Operator, b.Category, b.UserTriggered
//		} else if tok := bots.BotToken(fetch.UserAgent); tok != "" {
//			// a bot the catalog does not know, named by its UA token
//		} // else a browser: not judged against robots.txt
//	}
//
// A Catalog is immutable and safe for concurrent use; Merge returns a new
// one. Identify tokenizes the header once and looks each token up in a
// map: it does not allocate.
//
// # Matching
//
// A pattern matches a User-Agent only as a whole token (ContainsToken):
// letters, digits, '-', '_' and '.' are token characters, so "Spider" does
// not match "Baiduspider", "LCC" does not match "SLCC2" and "Googlebot" does
// not match "Googlebot-Image/1.0". When several patterns match, the longest
// wins. Product tokens follow RFC 9309 §2.2.1 and User-Agent syntax RFC
// 9110 §10.1.5 (see ProductTokens). The choices are listed in docs/semantics.md.
//
// # Catalog file shape
//
// bots/catalog.json, and files given with --bots, are JSON:
//
//	{
//	  "comment": "any other top-level member is ignored",
//	  "bots": [
//	    {
//	      "token": "GPTBot",                 // required; RFC 9309 product token as documented
//	      "patterns": ["GPTBot"],            // optional; default [token]; [] for none
//	      "operator": "OpenAI",
//	      "category": "ai-training",         // ai-training, ai-search, ai-assistant, search, archiver, seo, other
//	      "user_triggered": false,           // fetches on a user's request
//	      "url": "https://...",              // the operator's documentation
//	      "ip_ranges_url": "https://...",    // published IP ranges (JAFAR / Google JSON shape)
//	      "robots_txt_only": false,          // a robots.txt token no client sends (Google-Extended)
//	      "notes": "free text"
//	    }
//	  ]
//	}
//
// (JSON has no comments; they are explanations here.) Unknown fields are
// errors. The ai.robots.txt project's robots.json ({"GPTBot": {"operator":
// ..., "respect": ..., "function": ..., "frequency": ..., "description":
// ...}}) is accepted too; its category is inferred from "function".
//
// # Provenance of the default catalog
//
// bots/catalog.json was written for this project from the operators' own
// public documentation of their crawlers (OpenAI, Anthropic, Google,
// Microsoft Bing, Apple, Perplexity, Common Crawl, Amazon, Meta,
// DuckDuckGo, Mistral AI and others), as known in 2025. Categories are this
// project's reading of what each operator says the crawler is for. IP range
// URLs are given only for operators known to publish a machine-readable list
// at that address (Google's googlebot.json, special-crawlers.json and
// user-triggered-fetchers-google.json, OpenAI's gptbot.json, searchbot.json
// and chatgpt-user.json, Bing's bingbot.json, Apple's applebot.json). Bot
// tokens and purposes change: override with --bots FILE. The catalog
// copies no other project's list.
package bots
