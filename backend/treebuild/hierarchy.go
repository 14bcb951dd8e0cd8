package treebuild

import (
	"sort"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// numParts splits an arabic section number ("3.2.1") into integers; letters
// ("A.1") map the letter to its alphabet position so that sequences of
// appendices compare like numbers.
func numParts(n Numbering) []int {
	var out []int
	for i, p := range strings.Split(n.Number, ".") {
		if v, err := strconv.Atoi(p); err == nil {
			out = append(out, v)
			continue
		}
		if i == 0 && n.Kind == "roman" {
			out = append(out, romanValue(p))
			continue
		}
		if len(p) == 1 && p[0] >= 'A' && p[0] <= 'Z' {
			out = append(out, int(p[0]-'A')+1)
			continue
		}
		out = append(out, 0)
	}
	return out
}

func romanValue(s string) int {
	vals := map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100}
	total := 0
	for i := 0; i < len(s); i++ {
		v := vals[s[i]]
		if i+1 < len(s) && vals[s[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	return total
}

// plausibleNext reports whether number next can follow number prev in a
// paper's outline: the next sibling (3.2 -> 3.3), a first child (3.2 ->
// 3.2.1), or a later ancestor's sibling (3.2.1 -> 3.3 or 4). slack allows
// that many skipped numbers (a missed heading).
func plausibleNext(prev, next []int, slack int) bool {
	if len(next) == 0 {
		return false
	}
	if len(prev) == 0 {
		// the first number of a paper is 1 (or 0 in some theses), or a deep
		// first child such as 1.1
		for _, v := range next {
			if v > 1+slack {
				return false
			}
		}
		return true
	}
	// a first child chain: 3.2 -> 3.2.1 (or 3.2.1.1)
	if len(next) > len(prev) && equalInts(next[:len(prev)], prev) && onesUpTo(next[len(prev):], 1+slack) {
		return true
	}
	// a later sibling at depth d, possibly followed by first children:
	// 3.2 -> 3.3, 3.2.1 -> 4, 2.3 -> 3.1 (chapters numbered in words)
	for d := min(len(prev), len(next)); d >= 1; d-- {
		if equalInts(next[:d-1], prev[:d-1]) && next[d-1] > prev[d-1] && next[d-1] <= prev[d-1]+1+slack && onesUpTo(next[d:], 1) {
			return true
		}
	}
	return false
}

// onesUpTo reports whether every value is at least 0 and at most limit (a
// section's first children are numbered 1, or 0 in a few styles).
func onesUpTo(xs []int, limit int) bool {
	for _, v := range xs {
		if v > limit {
			return false
		}
	}
	return true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// filterSequence drops numbered candidates whose number cannot follow the
// numbered headings accepted before them. Typographically strong headings
// are given slack (a heading the detector missed); weak ones (body-font
// numbered lines, which may be list items) must follow exactly. Numbering
// systems are tracked separately for arabic, roman, letter and appendix
// numbers so that "A.1" after "7" is judged against earlier letters.
func filterSequence(hs []*heading) []*heading {
	// A weak (body-font) numbered line whose number a typographically
	// strong heading also carries is a list item: "3. A set of decision
	// rules" in the body before "3 Quantitative Analysis".
	strongNums := map[string]bool{}
	for _, h := range hs {
		if h.hasNum && h.strong {
			strongNums[h.num.Kind+" "+h.num.Number] = true
		}
	}
	// The same holds by style: when the numbered headings of one depth
	// share a style, a candidate of another style whose number a candidate
	// of that style also carries is a list item ("4. Decide if ..." in an
	// algorithm before "4. Hardness results").
	type kd struct {
		kind  string
		depth int
	}
	styleCount := map[kd]map[styleKey]int{}
	for _, h := range hs {
		if h.hasNum && h.strong {
			k := kd{h.num.Kind, h.num.Depth}
			if styleCount[k] == nil {
				styleCount[k] = map[styleKey]int{}
			}
			styleCount[k][h.style]++
		}
	}
	dominant := map[kd]styleKey{}
	for k, m := range styleCount {
		best := 1
		for st, n := range m {
			if n > best {
				best, dominant[k] = n, st
			}
		}
	}
	domNums := map[string]bool{}
	for _, h := range hs {
		if d, ok := dominant[kd{h.num.Kind, h.num.Depth}]; h.hasNum && ok && h.style == d {
			domNums[h.num.Kind+" "+h.num.Number] = true
		}
	}
	last := map[string][]int{}
	out := hs[:0]
	for _, h := range hs {
		if !h.hasNum {
			out = append(out, h)
			continue
		}
		if !h.strong && !h.fixed && strongNums[h.num.Kind+" "+h.num.Number] {
			continue
		}
		if d, ok := dominant[kd{h.num.Kind, h.num.Depth}]; ok && !h.fixed && h.style.prominence() < d.prominence() && domNums[h.num.Kind+" "+h.num.Number] {
			continue
		}
		kind := h.num.Kind
		switch kind {
		case "appendix":
			kind = "letter"
			if _, err := strconv.Atoi(h.num.Number); err == nil {
				kind = "arabic"
			}
		case "chapter":
			// "Chapter 3" continues the arabic sequence: 1.4 -> Chapter 2 -> 2.1
			if _, err := strconv.Atoi(h.num.Number); err == nil {
				kind = "arabic"
			}
		}
		parts := numParts(h.num)
		slack := 0
		if h.strong {
			slack = 2
		}
		prev := last[kind]
		if h.fixed {
			// a verified bookmark: always kept, and it sets the context
			// that typography candidates around it must fit
			last[kind] = parts
			if kind == "roman" {
				delete(last, "letter")
			}
			out = append(out, h)
			continue
		}
		ok := plausibleNext(prev, parts, slack)
		if !ok && h.strong && kind == "letter" && len(prev) == 0 {
			ok = parts[0] == 1
		}
		if !ok && h.strong && h.conv {
			ok = true
		}
		if !ok {
			if h.strong && h.conv {
				out = append(out, h)
			}
			continue
		}
		last[kind] = parts
		if kind == "roman" {
			delete(last, "letter") // IEEE: A., B., ... restart in each section
		}
		out = append(out, h)
	}
	return out
}

// topLevelRoles are conventional sections that are always top-level.
func topLevelName(h *heading) bool {
	switch h.role {
	case papertree.RoleAbstract, papertree.RoleReferences, papertree.RoleAcks:
		return true
	}
	k := lettersOnly(stripNumber(h.text))
	switch k {
	case "appendix", "appendices", "supplementarymaterial", "contents", "tableofcontents", "listoffigures", "listoftables", "keywords", "indexterms":
		return true
	}
	return false
}

// assignLevels infers the hierarchy: numbering depth first, then the style
// ladder learnt from numbered (or outline) headings, then conventional
// names, and finally a reconciliation pass that makes the level sequence a
// valid rooted tree (no heading more than one level below its predecessor).
func assignLevels(hs []*heading) {
	hasRoman := false
	var romanStyle styleKey
	for _, h := range hs {
		if h.hasNum && h.num.Kind == "roman" {
			hasRoman = true
			romanStyle = h.style
		}
	}
	// 1. numbering depth
	for _, h := range hs {
		if h.fixed {
			continue
		}
		h.level = 0
		if !h.hasNum {
			continue
		}
		switch h.num.Kind {
		case "roman", "chapter":
			h.level = 1
		case "letter":
			h.level = h.num.Depth
			if hasRoman && h.num.Depth == 1 && h.style.prominence() < romanStyle.prominence() {
				h.level = 2 // IEEE: "II. RELATED WORK" > "A. Object Detection"
			}
		default:
			h.level = h.num.Depth
		}
	}
	liftChapterExcerpt(hs)
	acronymStyles(hs)
	// 2. style votes from headings with known levels
	votes := map[styleKey]map[int]int{}
	for _, h := range hs {
		if h.level > 0 && !topLevelName(h) && !h.inline {
			if votes[h.style] == nil {
				votes[h.style] = map[int]int{}
			}
			votes[h.style][h.level]++
		}
	}
	styleLevel := map[styleKey]int{}
	for s, v := range votes {
		best, bl := -1, 0
		for l, n := range v {
			if n > best || (n == best && l < bl) {
				best, bl = n, l
			}
		}
		styleLevel[s] = bl
	}
	// unknown styles: place on the ladder of known ones by prominence
	var unknown []styleKey
	seen := map[styleKey]bool{}
	for _, h := range hs {
		if h.level == 0 && !topLevelName(h) && !h.inline {
			if _, ok := styleLevel[h.style]; !ok && !seen[h.style] {
				seen[h.style] = true
				unknown = append(unknown, h.style)
			}
		}
	}
	sort.Slice(unknown, func(i, j int) bool { return unknown[i].prominence() > unknown[j].prominence() })
	if len(styleLevel) == 0 {
		for i, s := range unknown {
			styleLevel[s] = min(i+1, 4)
		}
	} else {
		type kl struct {
			p float64
			l int
		}
		var known []kl
		maxL := 0
		for s, l := range styleLevel {
			known = append(known, kl{s.prominence(), l})
			maxL = max(maxL, l)
		}
		for _, s := range unknown {
			p := s.prominence()
			// the least prominent known style at least as prominent as s
			best := -1.0
			lvl := 0
			for _, k := range known {
				if k.p >= p-0.05 && (best < 0 || k.p < best) {
					best, lvl = k.p, k.l
				}
			}
			if lvl == 0 {
				lvl = maxL + 1
			} else if best > p+0.05 {
				// strictly less prominent than that style: one level deeper
				// unless a less prominent known style exists
				deeper := false
				for _, k := range known {
					if k.p < p-0.05 {
						deeper = true
					}
				}
				if !deeper {
					lvl++
				}
			}
			styleLevel[s] = min(lvl, 5)
		}
	}
	for _, h := range hs {
		if h.fixed || h.level > 0 {
			continue
		}
		if topLevelName(h) {
			h.level = 1
			continue
		}
		h.level = styleLevel[h.style]
		if h.level == 0 {
			h.level = 1
		}
	}
	for _, h := range hs {
		if !h.fixed && topLevelName(h) && !(h.hasNum && h.num.Depth > 1) {
			h.level = 1
		}
	}
	// Run-in labels sit one level below the heading they follow.
	parent := 0
	for _, h := range hs {
		if h.inline {
			h.level = parent + 1
			continue
		}
		parent = h.level
	}
	reconcile(hs)
}

// reconcile clamps levels so that each heading is at most one level below
// the previous one and never below 1: the sequence then defines a valid
// rooted tree.
func reconcile(hs []*heading) {
	prev := 0
	for _, h := range hs {
		if h.level < 1 {
			h.level = 1
		}
		if h.level > prev+1 {
			h.level = prev + 1
		}
		prev = h.level
	}
}

// liftChapterExcerpt: a chapter printed on its own (a book chapter, one
// chapter of a thesis) numbers its sections 1.1, 1.2, ... under a chapter
// title that is the document's title, not a heading. When every arabic
// numbered heading is at depth two or more, all share one first number and
// none carries that number alone, the chapter number is not a level: they
// move up one.
func liftChapterExcerpt(hs []*heading) {
	first, n := "", 0
	for _, h := range hs {
		if !h.hasNum || h.fixed || h.num.Kind == "letter" || h.num.Kind == "appendix" {
			continue
		}
		if h.num.Kind != "arabic" || h.num.Depth < 2 {
			return
		}
		f, _, _ := strings.Cut(h.num.Number, ".")
		if first != "" && f != first {
			return
		}
		first = f
		n++
	}
	if n < 3 {
		return
	}
	for _, h := range hs {
		if h.hasNum && !h.fixed && h.num.Kind == "arabic" {
			h.level--
		}
	}
}

// acronymStyles: a one-word heading in capitals ("ORCID", "FAQ") may be an
// acronym set in the style of the mixed-case headings, not a capitals
// style of its own. A capitals style that no heading of two or more words
// confirms is merged into the same style without capitals when the paper
// has one, so that an acronym does not become the most prominent level.
func acronymStyles(hs []*heading) {
	multi := map[styleKey]bool{}
	present := map[styleKey]bool{}
	for _, h := range hs {
		if h.inline {
			continue
		}
		present[h.style] = true
		if h.style.caps && wordCount(stripNumber(h.text)) >= 2 {
			multi[h.style] = true
		}
	}
	for _, h := range hs {
		if h.inline || !h.style.caps || multi[h.style] {
			continue
		}
		plain := h.style
		plain.caps = false
		if present[plain] {
			h.style = plain
		}
	}
}
