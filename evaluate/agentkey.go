package evaluate

import "slices"

// AgentTokens returns the product tokens (lower case, as the Tracker keys
// crawl-delay) that a fetch with User-Agent ua can be judged as on the
// authorities of m, whatever its time and scheme: the catalog's token when
// the catalog identifies ua (it comes first, everywhere); else the token
// of a robots.txt group one of its names selects on any of m's
// authorities, and its own bot token. byCard reports that a Signature
// Agent Card may name the fetch instead (a card's expected User-Agent
// matches ua): its token is then a card's product token in force at the
// fetch's time, which the caller must add. A signed request may also take
// its card's token from the signature (checkSignature); the caller adds
// those too. No tokens and byCard false: the fetch has no agent (a
// browser), and no crawl-delay or robots.txt view concerns it.
//
// A partitioned run splits a hot host's fetches by agent with it: fetches
// whose token sets are connected must be judged by one Tracker, in time
// order (docs/semantics.md, "Partitioned runs"). The tokens of a
// partition's model (BuildPartition) cover the fetches of that
// partition.
func (m *Model) AgentTokens(ua string) (tokens []string, byCard bool) {
	info := m.uaInfo(ua)
	if info.catalog.token != "" {
		return []string{info.catalog.lower}, false
	}
	add := func(l string) {
		if l != "" && !slices.Contains(tokens, l) {
			tokens = append(tokens, l)
		}
	}
	for _, a := range m.authList {
		for i, l := range info.lowers {
			if a.groups[l] {
				add(info.groupIDs[i].lower)
				break
			}
		}
	}
	add(info.uaToken.lower)
	return tokens, info.cardMaybe
}
