package wayback

// Selection is what Select kept of a CDX answer and why the rest went.
type Selection struct {
	Keep []Capture
	// Repeats counts captures left out because they repeat the content
	// and status of the capture before (the CDX server's collapse=digest
	// does this too, when it honours it): nothing is lost.
	Repeats int
	// Seen counts captures left out, over the cap, because an earlier
	// capture had the same content and the status did not change (a
	// site that went back to an older robots.txt loses that return).
	Seen int
	// Older counts captures left out, over the cap, because they are
	// older than the max kept.
	Older int
}

// Select chooses the captures to fetch, at most max (max <= 0: no cap),
// in time order. Captures that repeat the one before (same digest and
// status) always go. Over the cap, a capture is kept when its content is
// new (its digest not seen before) or its status differs from the one
// before; if those are still over the cap, the latest max of them.
func Select(caps []Capture, max int) Selection {
	var s Selection
	for i, c := range caps {
		if i > 0 && c.Digest == caps[i-1].Digest && c.Status == caps[i-1].Status {
			s.Repeats++
			continue
		}
		s.Keep = append(s.Keep, c)
	}
	if max <= 0 || len(s.Keep) <= max {
		return s
	}
	seen := map[string]bool{}
	kept := s.Keep[:0:0]
	for i, c := range s.Keep {
		changed := i == 0 || c.Status != s.Keep[i-1].Status
		if !seen[c.Digest] || changed {
			kept = append(kept, c)
		} else {
			s.Seen++
		}
		seen[c.Digest] = true
	}
	if len(kept) > max {
		s.Older = len(kept) - max
		kept = kept[len(kept)-max:]
	}
	s.Keep = kept
	return s
}
