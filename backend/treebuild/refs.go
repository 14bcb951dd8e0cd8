package treebuild

import (
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// ensureReferences adds the reference list as a section when no heading
// carries the references role but a line in the second half of the paper
// reads exactly "References" (or "Bibliography", "Literature cited", ...)
// and is followed by reference-shaped lines. Reviews and Word exports often
// set that line in the body font, so typography alone misses it and the
// list would merge into the last section, where retrieval cannot tell it
// from prose.
func ensureReferences(heads []*heading, lines []*line) []*heading {
	for _, h := range heads {
		if h.role == papertree.RoleReferences {
			return heads
		}
	}
	if len(lines) == 0 {
		return heads
	}
	lastPage := lines[len(lines)-1].page
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if 2*l.page < lastPage {
			break
		}
		t := strings.TrimSpace(l.text)
		if wordCount(t) > 3 || roleFor(t) != papertree.RoleReferences {
			continue
		}
		if !refsFollow(lines, i) {
			continue
		}
		h := &heading{text: t, role: papertree.RoleReferences, level: 1, page: l.page, first: i, last: i,
			conv: true, y: l.y, fixed: true}
		h.num, h.hasNum = ParseNumbering(t)
		// keep document order
		out := make([]*heading, 0, len(heads)+1)
		placed := false
		for _, o := range heads {
			if !placed && o.first > i {
				out = append(out, h)
				placed = true
			}
			if o.first == i {
				return heads // already a heading (of another role)
			}
			out = append(out, o)
		}
		if !placed {
			out = append(out, h)
		}
		return out
	}
	return heads
}

// refsFollow reports whether most of the next lines look like reference
// entries: a year, and an entry opening ("[3]", "12.") or author initials.
func refsFollow(lines []*line, i int) bool {
	n, hits := 0, 0
	for j := i + 1; j < len(lines) && n < 8; j++ {
		n++
		t := lines[j].text
		if yearRe.MatchString(t) || referenceStartRe.MatchString(strings.TrimSpace(t)) {
			hits++
		}
	}
	return n >= 3 && 2*hits >= n
}
