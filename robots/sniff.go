package robots

import "bytes"

// Sniff reports whether data (a file's start) looks like a robots.txt
// file: at least one User-agent, Allow, Disallow, Crawl-delay, Sitemap or
// ACAP record, and most lines that are not blank or comments are records
// this package knows (typos included). An HTML page, a log or a JSON
// document is not robots.txt, even when it mentions "Disallow:".
func Sniff(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] == '<' || trimmed[0] == '{' || trimmed[0] == '[') {
		return false
	}
	known, unknown, records := 0, 0, 0
	for len(data) > 0 && known+unknown < 200 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || colon > 32 {
			unknown++
			continue
		}
		kw, _, _ := lookupKey(string(bytes.TrimSpace(line[:colon])))
		switch kw {
		case kwUnknown:
			unknown++
		case kwOther:
			known++
		default:
			known++
			records++
		}
	}
	return records > 0 && known >= 2*unknown
}
