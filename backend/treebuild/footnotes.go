package treebuild

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Footnotes: the block of small lines at the foot of a page column that
// opens with a note marker ("1 https://...", "∗Equal contribution", a
// superscript digit). They are taken out of the running text, so that a
// paragraph broken by a page turn reads on, and kept as leaves of their
// own with RoleFootnote.

// markFootnotes returns the indexes of footnote lines.
func markFootnotes(lines []*line, st stats) map[int]bool {
	out := map[int]bool{}
	type pc struct{ page, col int }
	groups := map[pc][]int{}
	var order []pc
	for i, l := range lines {
		k := pc{l.page, l.col}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		idx := groups[k]
		// the bottom run of small lines, in reading order
		j := len(idx)
		for j > 0 && smallLine(lines[idx[j-1]], st) {
			j--
		}
		if j == len(idx) || j == 0 {
			continue // no small lines at the foot, or the whole column is small (a table or a reference page)
		}
		block := idx[j:]
		if 5*len(block) > 2*len(idx) {
			continue // more than 40% of the column: not a footnote area
		}
		top := -1
		for n, i := range block {
			l := lines[i]
			if l.y < 0.55*l.pageH {
				continue
			}
			if noteStart(l) {
				top = n
				break
			}
		}
		if top < 0 {
			continue
		}
		tabular := 0
		for _, i := range block[top:] {
			l := lines[i]
			if l.maxGap > 3*l.size || numericShare(l.text) > 0.5 || monoFontRe.MatchString(l.font) {
				tabular++ // table rows, figure labels or code set small at the foot
			}
		}
		if tabular >= 2 || monoFontRe.MatchString(lines[block[top]].font) {
			continue
		}
		for _, i := range block[top:] {
			if captionStartRe.MatchString(strings.TrimSpace(lines[i].text)) {
				break
			}
			out[i] = true
		}
	}
	return out
}

var monoFontRe = regexp.MustCompile(`(?i)mono|courier|consol|typewriter|^cmtt|^sfmono|menlo|inconsolata|code`)

// smallLine is a line set clearly smaller than the body text.
func smallLine(l *line, st stats) bool {
	return l.size <= st.bodySize-0.7 || l.size < 0.9*st.bodySize
}

// noteStart reports a line that opens a footnote: a leading superscript
// run, or a digit or note symbol right before the text.
func noteStart(l *line) bool {
	if len(l.runs) == 0 {
		return false
	}
	r0 := l.runs[0]
	t := strings.TrimSpace(r0.Text)
	if t == "" {
		return false
	}
	if len(l.runs) > 1 && r0.Size < 0.85*l.size && len([]rune(t)) <= 3 {
		return true
	}
	first := []rune(strings.TrimSpace(l.text))[0]
	if strings.ContainsRune("*∗†‡§¶#", first) {
		return true
	}
	if unicode.IsDigit(first) {
		// "1 https://...", "2Code at ..." but not "2019. Some title" (a reference)
		s := strings.TrimSpace(l.text)
		k := 0
		for k < len(s) && k < 3 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		return k > 0 && k <= 2 && k < len(s) && s[k] != '.' && s[k] != ','
	}
	return false
}

// footnoteLeaves turns footnote lines into one leaf per note.
func footnoteLeaves(ls []*line, level int) []*papertree.Node {
	var out []*papertree.Node
	var cur []*line
	flush := func() {
		if len(cur) == 0 {
			return
		}
		texts := make([]string, len(cur))
		for i, l := range cur {
			texts[i] = l.text
		}
		n := leaf(papertree.KindSegment, joinLines(texts), cur)
		n.Level, n.Role = level, papertree.RoleFootnote
		out = append(out, n)
		cur = nil
	}
	for i, l := range ls {
		if i > 0 && (noteStart(l) || l.page != ls[i-1].page) {
			flush()
		}
		cur = append(cur, l)
	}
	flush()
	return out
}
