package treebuild

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
)

// para is a paragraph (or caption, or reference entry): consecutive lines
// of one section read as one unit of text.
type para struct {
	lines   []*line
	caption bool
}

// text joins the paragraph's lines (de-hyphenated) and returns the start
// offset of each line in the joined text, so that a segment cut at sentence
// boundaries can be mapped back onto the lines it covers.
func (p *para) text() (string, []int) {
	texts := make([]string, len(p.lines))
	for i, l := range p.lines {
		texts[i] = l.text
	}
	return joinWithOffsets(texts)
}

// captionStartRe is a caption's opening: "Figure 3:", "Fig. 2.", "Table IV —".
// Unlike captionRe (used to reject heading candidates) it needs the
// separator, so that "Table 2 shows ..." in running text is not a caption.
var captionStartRe = regexp.MustCompile(`^(?i:figure|fig\.|table|algorithm|listing)\s*[\dIVX]+[a-z]?(?:\.\d+)?\s*[:.|—–]`)

var referenceStartRe = regexp.MustCompile(`^(\[\d{1,3}\]|\d{1,3}\.\s|\[[A-Z][A-Za-z+]*\d{2,4}[a-z]?\])`)

// splitParagraphs groups a section's body lines into paragraphs, captions
// and (in a references section) entries.
func (b *builder) splitParagraphs(ls []*line, refs bool) []*para {
	var out []*para
	var cur *para
	st := b.st
	// hanging indent detection for reference lists
	hanging := false
	if refs && len(ls) > 3 {
		minX := map[[2]int]float64{}
		for _, l := range ls {
			k := [2]int{l.page, l.col}
			if v, ok := minX[k]; !ok || l.x0 < v {
				minX[k] = l.x0
			}
		}
		indented := 0
		for _, l := range ls {
			if l.x0 > minX[[2]int{l.page, l.col}]+3 {
				indented++
			}
		}
		hanging = indented > len(ls)/4
	}
	colLeft := map[[2]int]float64{}
	for _, l := range ls {
		k := [2]int{l.page, l.col}
		if v, ok := colLeft[k]; !ok || l.x0 < v {
			colLeft[k] = l.x0
		}
	}
	for i, l := range ls {
		t := strings.TrimSpace(l.text)
		start := false
		isCap := captionStartRe.MatchString(t)
		if cur == nil {
			start = true
		} else {
			prev := ls[i-1]
			pt := strings.TrimSpace(prev.text)
			ended := strings.HasSuffix(pt, ".") || strings.HasSuffix(pt, "?") || strings.HasSuffix(pt, "!") || strings.HasSuffix(pt, ":")
			samePlace := prev.page == l.page && prev.col == l.col
			if isCap && samePlace && !ended && !cur.caption && math.Abs(l.size-prev.size) <= 0.3 &&
				l.y > prev.y && l.y-prev.y <= 1.25*st.lineSpacing {
				// "Fig. 1." that wraps onto a new line in running text
				// ("... and is depicted in" / "Fig. 1. It is difficult")
				// continues the sentence above it at the paragraph's line
				// spacing: a reference, not a caption.
				isCap = false
			}
			switch {
			case isCap:
				start = true
			case cur.caption && (!samePlace || l.y-prev.y > 1.6*math.Max(l.size, prev.size) || math.Abs(l.size-prev.size) > 0.6):
				start = true
			case cur.caption:
				start = false
			case refs && referenceStartRe.MatchString(t):
				start = true
			case refs && hanging:
				start = l.x0 <= colLeft[[2]int{l.page, l.col}]+1.5 && (prev.x0 > l.x0+2 || ended)
			case refs:
				start = ended && samePlace && l.y-prev.y > 1.15*st.lineSpacing
			case !samePlace:
				start = ended
			case l.y-prev.y > 1.55*st.lineSpacing || l.y < prev.y:
				start = true
			case math.Abs(l.size-prev.size) > 0.8:
				start = true
			case listRe.MatchString(t):
				start = true
			case ended && l.x0 > colLeft[[2]int{l.page, l.col}]+0.8*l.size && l.x0 < colLeft[[2]int{l.page, l.col}]+4*l.size:
				start = true // first-line indent
			case ended && prev.x1 < prev.x0+0.75*math.Max(st.colWidth[prev.col], 1):
				start = true // short last line of the previous paragraph
			}
		}
		if start {
			cur = &para{caption: isCap}
			out = append(out, cur)
		}
		cur.lines = append(cur.lines, l)
	}
	return out
}

// assemble builds the node tree from the headings and the lines between them.
func (b *builder) assemble(heads []*heading, title string, titleLast int) *papertree.Node {
	lastPage := 1
	for _, l := range b.lines {
		lastPage = max(lastPage, l.page)
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Level: 0, PageStart: 1, PageEnd: lastPage}
	stack := []*papertree.Node{root}
	headAt := map[int]*heading{}
	for _, h := range heads {
		headAt[h.first] = h
	}
	var body, notes []*line
	foot := markFootnotes(b.lines, b.st)
	flush := func() {
		sec := stack[len(stack)-1]
		if len(body) > 0 {
			b.addLeaves(sec, body)
		}
		if len(notes) > 0 {
			sec.Children = append(sec.Children, footnoteLeaves(notes, sec.Level+1)...)
		}
		body, notes = nil, nil
	}
	// The title lines are the root's title; author and affiliation lines
	// after them stay in the front matter.
	for i := 0; i < len(b.lines); i++ {
		if i <= titleLast {
			continue
		}
		if h, ok := headAt[i]; ok {
			flush()
			for len(stack) > 1 && stack[len(stack)-1].Level >= h.level {
				stack = stack[:len(stack)-1]
			}
			parent := stack[len(stack)-1]
			n := &papertree.Node{Kind: papertree.KindSection, Title: h.text, Level: parent.Level + 1,
				Role: h.role, PageStart: h.page, PageEnd: h.page}
			if h.hasNum {
				n.Number = h.num.Number
			}
			if n.Role == "" && inAppendix(stack) {
				n.Role = papertree.RoleAppendix
			}
			if n.Role == "" && h.runIn {
				n.Role = papertree.RoleRunIn
			}
			parent.Children = append(parent.Children, n)
			stack = append(stack, n)
			if h.inline {
				body = append(body, b.lines[i]) // the label's paragraph
				continue
			}
			i = h.last
			continue
		}
		if foot[i] {
			notes = append(notes, b.lines[i])
			continue
		}
		body = append(body, b.lines[i])
	}
	flush()
	splitProseAfterReferences(root)
	fixPages(root)
	return root
}

func inAppendix(stack []*papertree.Node) bool {
	for _, n := range stack {
		if n.Role == papertree.RoleAppendix {
			return true
		}
	}
	return false
}

// fixPages extends each section's page span over its descendants.
func fixPages(n *papertree.Node) (int, int) {
	lo, hi := n.PageStart, n.PageEnd
	for _, c := range n.Children {
		a, z := fixPages(c)
		if a > 0 && (lo == 0 || a < lo) {
			lo = a
		}
		hi = max(hi, z)
	}
	if n.Kind != papertree.KindRoot {
		n.PageStart, n.PageEnd = lo, hi
	}
	return lo, hi
}

// addLeaves appends the segments and captions of a run of body lines to sec.
func (b *builder) addLeaves(sec *papertree.Node, ls []*line) {
	refs := sec.Role == papertree.RoleReferences
	// A table may float into the bibliography: there only a table with a
	// "Table N" caption is taken (entries are set in aligned columns too).
	if b.splitTables(sec, ls, refs) || !refs && b.splitMath(sec, ls) {
		return // tables.go, formula.go: the lines around each come back here
	}
	paras := b.splitParagraphs(ls, refs)
	leafLevel := sec.Level + 1
	role := papertree.RoleNone
	if sec.Kind == papertree.KindRoot {
		role = papertree.RoleFrontMatter
	}
	max := b.opts.MaxSegmentTokens
	var pending []*papertree.Node // text pieces waiting to be packed
	emit := func() {
		if len(pending) == 0 {
			return
		}
		seg := mergePieces(pending)
		seg.Level = leafLevel
		seg.Role = role
		sec.Children = append(sec.Children, seg)
		pending = nil
	}
	pendingTokens := 0
	for _, p := range paras {
		text, offs := p.text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		if p.caption {
			emit()
			pendingTokens = 0
			n := leaf(papertree.KindCaption, text, p.lines)
			n.Level = leafLevel
			if n.Tokens > max {
				n.Text = truncateTokens(n.Text, max)
				n.Tokens = papertree.CountTokens(n.Text)
			}
			sec.Children = append(sec.Children, n)
			continue
		}
		if refs {
			// one reference entry per segment keeps citations addressable
			emit()
			pendingTokens = 0
			for _, piece := range splitToFit(text, offs, p.lines, max) {
				piece.Level = leafLevel
				sec.Children = append(sec.Children, piece)
			}
			continue
		}
		pieces := splitToFit(text, offs, p.lines, max)
		for _, piece := range pieces {
			if pendingTokens+piece.Tokens+1 > max && len(pending) > 0 {
				emit()
				pendingTokens = 0
			}
			pending = append(pending, piece)
			pendingTokens += piece.Tokens + 1
		}
		if len(pieces) > 1 {
			// a long paragraph: do not glue the next paragraph to its tail
			emit()
			pendingTokens = 0
		}
	}
	emit()
}

// leaf makes a leaf node over lines.
func leaf(kind papertree.Kind, text string, ls []*line) *papertree.Node {
	n := &papertree.Node{Kind: kind, Text: text, Tokens: papertree.CountTokens(text)}
	n.Boxes = boxes(ls)
	n.PageStart, n.PageEnd = ls[0].page, ls[0].page
	for _, l := range ls {
		n.PageStart = min(n.PageStart, l.page)
		n.PageEnd = max(n.PageEnd, l.page)
	}
	return n
}

// boxes unions consecutive lines of one page and column into rectangles.
func boxes(ls []*line) []papertree.Box {
	var out []papertree.Box
	for i, l := range ls {
		top, bot := l.top(), l.bottom()
		if i > 0 && len(out) > 0 {
			p := ls[i-1]
			last := &out[len(out)-1]
			if p.page == l.page && p.col == l.col && l.y >= p.y && l.y-p.y < 3*math.Max(l.size, p.size) {
				last.X0 = math.Min(last.X0, l.x0)
				last.X1 = math.Max(last.X1, l.x1)
				last.Y0 = math.Min(last.Y0, top)
				last.Y1 = math.Max(last.Y1, bot)
				continue
			}
		}
		out = append(out, papertree.Box{Page: l.page, X0: l.x0, Y0: top, X1: l.x1, Y1: bot})
	}
	return out
}

// mergePieces joins packed pieces (whole paragraphs or sentence runs) into
// one segment.
func mergePieces(ps []*papertree.Node) *papertree.Node {
	if len(ps) == 1 {
		return ps[0]
	}
	n := &papertree.Node{Kind: papertree.KindSegment, PageStart: ps[0].PageStart, PageEnd: ps[0].PageEnd}
	var texts []string
	for _, p := range ps {
		texts = append(texts, p.Text)
		n.Boxes = append(n.Boxes, p.Boxes...)
		n.PageStart = min(n.PageStart, p.PageStart)
		n.PageEnd = max(n.PageEnd, p.PageEnd)
	}
	n.Text = strings.Join(texts, "\n\n")
	n.Tokens = papertree.CountTokens(n.Text)
	n.Boxes = mergeBoxes(n.Boxes)
	return n
}

// mergeBoxes unions boxes that touch vertically on the same page and column span.
func mergeBoxes(bs []papertree.Box) []papertree.Box {
	var out []papertree.Box
	for _, b := range bs {
		if len(out) > 0 {
			l := &out[len(out)-1]
			if l.Page == b.Page && b.Y0 >= l.Y0 && b.Y0-l.Y1 < 20 && math.Abs(b.X0-l.X0) < 30 {
				l.X0, l.X1 = math.Min(l.X0, b.X0), math.Max(l.X1, b.X1)
				l.Y1 = math.Max(l.Y1, b.Y1)
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// splitToFit returns one segment for a paragraph that fits the budget, or
// several, cut at sentence boundaries (and, for a single overlong sentence,
// at word boundaries). Each piece keeps the lines its text came from.
func splitToFit(text string, offs []int, ls []*line, max int) []*papertree.Node {
	if papertree.CountTokens(text) <= max {
		return []*papertree.Node{leaf(papertree.KindSegment, text, ls)}
	}
	sents := papertree.SplitSentences(text)
	// locate sentences in text to map them to lines
	type span struct{ a, z int }
	var spans []span
	pos := 0
	for _, s := range sents {
		k := strings.Index(text[pos:], s)
		if k < 0 {
			k = 0
		}
		a := pos + k
		z := a + len(s)
		pos = z
		// An overlong sentence is cut at the last space that fits, in
		// one pass (see cutOverlong).
		for _, c := range cutOverlong(text[a:z], max) {
			spans = append(spans, span{a + c[0], a + c[1]})
		}
	}
	var out []*papertree.Node
	var cur span
	curTok := 0
	have := false
	// Pieces come in text order, so the lines of each are found with a
	// cursor that only moves forward (linesFor from the first line for
	// every piece was quadratic: 50,000 lines x 4,000 pieces for 1,000
	// pages without punctuation).
	first := 0
	lineEnd := func(i int) int {
		if i+1 < len(offs) {
			return offs[i+1]
		}
		return offs[i] + len(strings.TrimSpace(ls[i].text))
	}
	piecelines := func(a, z int) []*line {
		for first < len(ls) && lineEnd(first) <= a {
			first++
		}
		var got []*line
		for i := first; i < len(ls) && offs[i] < z; i++ {
			if lineEnd(i) > a {
				got = append(got, ls[i])
			}
		}
		if len(got) == 0 && len(ls) > 0 {
			got = append(got, ls[0])
		}
		return got
	}
	emit := func() {
		if !have {
			return
		}
		t := strings.TrimSpace(text[cur.a:cur.z])
		if t != "" {
			out = append(out, leaf(papertree.KindSegment, t, piecelines(cur.a, cur.z)))
		}
		have = false
		curTok = 0
	}
	for _, sp := range spans {
		tk := papertree.CountTokens(text[sp.a:sp.z])
		if have && curTok+tk+1 > max {
			emit()
		}
		if !have {
			cur = sp
			have = true
			curTok = tk
			continue
		}
		cur.z = sp.z
		curTok = papertree.CountTokens(text[cur.a:cur.z])
	}
	emit()
	return out
}

// cutOverlong splits s into pieces [a, z) of at most max tokens (as
// papertree.CountTokens counts them), each cut at the last ASCII space that
// fits, inside a word only when the word alone is over max, always taking
// at least one character; spaces after a cut are dropped. It is one pass
// over s: recounting the remainder and binary-searching each piece with
// CountTokens made text without sentence punctuation (one "sentence" the
// length of a section) quadratic. A piece ends where the next rune would
// push the count over max, which is the longest prefix that fits, since
// the count of a prefix never decreases as it grows.
func cutOverlong(s string, max int) [][2]int {
	var out [][2]int
	p := 0
	for p < len(s) {
		n, run, lastSpace := 0, 0, -1
		i := p
		fits := true
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			var total int
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				total = n + (run+1+5)/6
			case unicode.IsSpace(r):
				total = n + (run+5)/6
			default:
				total = n + (run+5)/6 + 1
			}
			if total > max {
				fits = false
				break
			}
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				run++
			case unicode.IsSpace(r):
				n, run = n+(run+5)/6, 0
			default:
				n, run = n+(run+5)/6+1, 0
			}
			if r == ' ' {
				lastSpace = i
			}
			i += size
		}
		if fits {
			out = append(out, [2]int{p, len(s)})
			break
		}
		cut := i
		switch {
		case lastSpace > p:
			cut = lastSpace
		case i == p:
			_, size := utf8.DecodeRuneInString(s[p:])
			cut = p + size
		}
		out = append(out, [2]int{p, cut})
		p = cut
		for p < len(s) && s[p] == ' ' {
			p++
		}
	}
	return out
}

// cutAtTokens returns a byte offset in s, preferably at a space, such that
// s[:off] has at most max tokens and at least one character is taken. Token
// counts of prefixes grow monotonically, so a binary search finds the cut.
func cutAtTokens(s string, max int) int {
	lo, hi := 0, len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		for mid < len(s) && !utf8.RuneStart(s[mid]) {
			mid++
		}
		if mid > hi {
			mid = hi
		}
		if papertree.CountTokens(s[:mid]) <= max {
			if mid == lo {
				break
			}
			lo = mid
		} else {
			hi = mid - 1
			for hi > lo && !utf8.RuneStart(s[hi]) {
				hi--
			}
		}
	}
	if k := strings.LastIndexByte(s[:lo], ' '); k > 0 {
		return k
	}
	if lo == 0 {
		_, n := utf8.DecodeRuneInString(s)
		return n
	}
	return lo
}

func truncateTokens(s string, max int) string {
	return strings.TrimSpace(s[:cutAtTokens(s, max)])
}

// linesFor returns the lines whose text overlaps [a, z).
func linesFor(offs []int, ls []*line, a, z int) []*line {
	var out []*line
	for i, l := range ls {
		start := offs[i]
		end := start + len(strings.TrimSpace(l.text))
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		if start < z && end > a {
			out = append(out, l)
		}
	}
	if len(out) == 0 && len(ls) > 0 {
		out = append(out, ls[0])
	}
	return out
}
