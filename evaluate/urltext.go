package evaluate

import "hash/maphash"

// urlSlot is one request URL and its SURT key, as a Judger keeps them.
// The URL is scheme + "://" + host + target, and the slot's key is those
// three parts, read back out of the URL by their lengths: the slot holds
// no string of the fetch (whose bytes belong to the fetch's reader).
type urlSlot struct {
	url    string
	surt   string // surtKey(url)
	sl, hl int32  // lengths of the scheme and the host in url
}

// is reports whether s holds the URL of scheme, host and target.
func (s *urlSlot) is(scheme, host, target string) bool {
	sl, hl := int(s.sl), int(s.hl)
	return len(s.url) == sl+3+hl+len(target) && sl == len(scheme) && hl == len(host) &&
		s.url[sl+3+hl:] == target && s.url[sl+3:sl+3+hl] == host && s.url[:sl] == scheme
}

// urlSets is the number of sets of a Judger's URL table, of two slots
// each: a log's hosts times its paths are often a few thousand URLs,
// which a direct-mapped table of as many slots would lose a third of to
// collisions.
const (
	urlSetBits = 11
	urlSets    = 1 << urlSetBits
)

// urlKeepMax bounds the URLs the table keeps, so that it holds at most
// some 2 MiB of strings (a URL and its key for each of its 4,096
// slots); longer ones, seldom repeated, are built each time.
const urlKeepMax = 256

// urlText is scheme + "://" + host + target and its SURT key (surtKey),
// through c (which may be nil): a site's fetches repeat its URLs, and a
// repeated URL then costs a hash and a compare instead of building the
// URL, parsing it for its key and two allocations. The strings are the
// same; the writers, given the same string for the same URL, find it by
// its address. Like the client addresses (hitRun), the table turns
// itself off for a while in a log whose URLs seldom repeat.
func (c *judgeCache) urlText(scheme, host, target string) (url, key string) {
	if c == nil || len(scheme)+len(host)+len(target) > urlKeepMax || c.urlRun.skip() {
		url = scheme + "://" + host + target
		return url, surtKey(url)
	}
	if c.urls == nil {
		c.urls = new([urlSets][2]urlSlot)
		c.urlSeed = maphash.MakeSeed()
	}
	h := maphash.String(c.urlSeed, target) ^ maphash.String(c.urlSeed, host)*0x9E3779B97F4A7C15 ^ uint64(len(scheme))
	set := &c.urls[(h^h>>32)&(urlSets-1)]
	switch {
	case set[0].is(scheme, host, target):
		c.urlRun.note(true, 2*urlSets)
		return set[0].url, set[0].surt
	case set[1].is(scheme, host, target):
		c.urlRun.note(true, 2*urlSets)
		return set[1].url, set[1].surt
	}
	c.urlRun.note(false, 2*urlSets)
	url = scheme + "://" + host + target
	set[1] = set[0]
	set[0] = urlSlot{url: url, surt: surtKey(url), sl: int32(len(scheme)), hl: int32(len(host))}
	return url, set[0].surt
}
