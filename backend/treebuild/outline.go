package treebuild

import (
	"strings"

	"github.com/papertree/papertree/backend/pdf"
)

// normKey lowercases and keeps letters and digits (the evaluator's
// normalisation, used here to compare bookmarks with printed lines).
func normKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127 && isLetterOrDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// usableOutline reports whether the bookmarks describe the paper's sections
// (several entries) rather than, say, a single entry for the whole file.
func usableOutline(items []pdf.OutlineItem) bool {
	n := 0
	for _, it := range items {
		if strings.TrimSpace(it.Title) != "" {
			n++
		}
	}
	return n >= 3
}

// fromOutline verifies each bookmark against the text: it looks for the
// printed heading line on or near the bookmark's page and takes the printed
// text (with its number). Bookmarks that cannot be found in the text are
// dropped (they are often artefacts such as a "Biographies" entry that is
// not printed). Typography candidates the outline lacks are added back when
// they are confident: a conventional name or a number that fits the
// numbered bookmarks around them.
func fromOutline(items []pdf.OutlineItem, lines []*line, cands []*heading, st stats, title string) []*heading {
	// Drop a lone top-level bookmark that is the paper title: its children
	// are the real top-level sections.
	tops := 0
	for _, it := range items {
		if it.Level == 1 {
			tops++
		}
	}
	shift := 0
	// (A paper with a single top-level section is not plausible.)
	if tops == 1 && len(items) > 1 && items[0].Level == 1 {
		items = items[1:]
		shift = 1
	}
	byFirst := map[int]*heading{}
	for _, c := range cands {
		byFirst[c.first] = c
	}
	var out []*heading
	used := map[int]bool{}
	cursor := 0
	for _, it := range items {
		key := normKey(it.Title)
		if key == "" || (title != "" && similar(key, normKey(title))) {
			continue // the paper title is the root, not a section
		}
		best := -1
		bestScore := 0.0
		for i := cursor; i < len(lines); i++ {
			l := lines[i]
			if it.Page > 0 && l.page > it.Page+1 {
				break
			}
			if it.Page > 0 && l.page < it.Page-1 {
				continue
			}
			if used[i] {
				continue
			}
			text := l.text
			if c := byFirst[i]; c != nil {
				text = c.text
			} else if i+1 < len(lines) && lines[i+1].page == l.page {
				// a heading wrapped over two lines
				if s := matchScore(key, normKey(l.text)); s < 0.85 {
					two := joinLines([]string{l.text, lines[i+1].text})
					if matchScore(key, normKey(two)) >= 0.85 {
						text = two
					}
				}
			}
			s := matchScore(key, normKey(text))
			if byFirst[i] != nil {
				s += 0.05
			}
			if it.Page > 0 && l.page == it.Page {
				s += 0.02
			}
			if s > bestScore {
				best, bestScore = i, s
			}
			if s >= 1.07 {
				break
			}
		}
		if best < 0 || bestScore < 0.85 {
			continue
		}
		l := lines[best]
		h := byFirst[best]
		if h == nil {
			h = &heading{text: l.text, page: l.page, first: best, last: best, style: lineStyle(l, st), strong: true}
			if i := best + 1; i < len(lines) && matchScore(key, normKey(l.text)) < 0.85 {
				h.text = joinLines([]string{l.text, lines[i].text})
				h.last = i
			}
			h.num, h.hasNum = ParseNumbering(h.text)
			h.role = roleFor(h.text)
			_, h.conv = ConventionalName(h.text)
		}
		h.outline = it.Level - shift
		if h.outline < 1 {
			h.outline = 1
		}
		h.level = h.outline
		h.fixed = true
		for k := h.first; k <= h.last; k++ {
			used[k] = true
		}
		cursor = h.first
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil
	}
	// Add confident typography candidates the outline lacks.
	merged := make([]*heading, 0, len(out)+len(cands))
	oi := 0
	for _, c := range cands {
		for oi < len(out) && out[oi].first < c.first {
			merged = append(merged, out[oi])
			oi++
		}
		if used[c.first] {
			continue
		}
		if c.conv && c.strong || (c.hasNum && c.strong) {
			merged = append(merged, c)
		}
	}
	merged = append(merged, out[oi:]...)
	return merged
}

// matchScore compares a bookmark key with a line key: equality, the line
// ending with the bookmark (the printed number precedes it), or difflib
// similarity.
func matchScore(key, text string) float64 {
	if text == "" {
		return 0
	}
	if key == text {
		return 1
	}
	if strings.HasSuffix(text, key) && len(text)-len(key) <= 8 {
		return 0.99
	}
	if strings.HasPrefix(text, key) && len(key) >= 4 && len(text)-len(key) <= 3 {
		return 0.95
	}
	if len(text) > 3*len(key)+10 {
		return 0
	}
	return ratio(key, text)
}

func similar(a, b string) bool { return a != "" && (a == b || ratio(a, b) >= 0.85) }
