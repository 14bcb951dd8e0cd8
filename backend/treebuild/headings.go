package treebuild

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// stats are document-wide typographic facts the heading rules compare to.
type stats struct {
	bodySize    float64            // most frequent font size by characters
	bodyFont    string             // most frequent font by characters
	bodyBold    bool               // the body text itself is bold (rare; disables the bold cue)
	lineSpacing float64            // median baseline distance between consecutive body lines
	flat        bool               // one font, no bold: an OCR text layer or a typewriter scan, where only layout tells headings
	fontShare   map[string]float64 // share of the document's characters set in each font
	colWidth    map[int]float64
}

func computeStats(lines []*line) stats {
	type fs struct {
		font string
		size float64
	}
	chars := map[fs]int{}
	boldChars, all := 0, 0
	for _, l := range lines {
		for _, r := range l.runs {
			n := len([]rune(r.Text))
			chars[fs{r.Font, math.Round(r.Size*2) / 2}] += n
			all += n
			if r.Bold {
				boldChars += n
			}
		}
	}
	var st stats
	best := -1
	for k, n := range chars {
		if n > best || (n == best && k.size < st.bodySize) {
			best, st.bodyFont, st.bodySize = n, k.font, k.size
		}
	}
	if st.bodySize == 0 {
		st.bodySize = 10
	}
	bodyBoldChars := 0
	for _, l := range lines {
		for _, r := range l.runs {
			if r.Font == st.bodyFont && r.Bold {
				bodyBoldChars += len([]rune(r.Text))
			}
		}
	}
	st.bodyBold = best > 0 && bodyBoldChars > best/2
	fontChars := map[string]int{}
	for k, n := range chars {
		fontChars[k.font] += n
	}
	st.fontShare = map[string]float64{}
	for f, n := range fontChars {
		st.fontShare[f] = float64(n) / float64(max(all, 1))
	}
	st.flat = all > 2000 && float64(fontChars[st.bodyFont]) >= 0.95*float64(all) && float64(boldChars) < 0.01*float64(all)
	var gaps []float64
	for i := 1; i < len(lines); i++ {
		a, b := lines[i-1], lines[i]
		if a.page != b.page || a.col != b.col || math.Abs(a.size-st.bodySize) > 0.6 || math.Abs(b.size-st.bodySize) > 0.6 {
			continue
		}
		if d := b.y - a.y; d > 0.5*st.bodySize && d < 3*st.bodySize {
			gaps = append(gaps, d)
		}
	}
	st.lineSpacing = median(gaps)
	if st.lineSpacing == 0 {
		st.lineSpacing = 1.2 * st.bodySize
	}
	// Column widths: the 90th percentile of body line widths per column kind.
	widths := map[int][]float64{}
	for _, l := range lines {
		if math.Abs(l.size-st.bodySize) <= 0.6 {
			widths[l.col] = append(widths[l.col], l.x1-l.x0)
		}
	}
	st.colWidth = map[int]float64{}
	for c, ws := range widths {
		sort.Float64s(ws)
		st.colWidth[c] = ws[int(0.9*float64(len(ws)-1))]
	}
	return st
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// styleKey is what a heading's typography looks like; headings of one level
// share a style within a paper (the "style ladder").
type styleKey struct {
	size   float64 // rounded to 0.5pt
	bold   bool
	caps   bool
	italic bool
}

// prominence orders styles: larger, then bold, then all-caps. Italics
// mark the lower of two otherwise equal styles (bold over bold italic in
// BMC, Springer and APA; upright over italic small capitals).
func (s styleKey) prominence() float64 {
	p := s.size
	if s.bold {
		p += 0.6
	}
	if s.caps {
		p += 0.3
	}
	if s.italic {
		p -= 0.1
	}
	return p
}

// heading is one heading found in the text (or an outline entry verified
// against it).
type heading struct {
	text    string
	num     Numbering
	hasNum  bool
	role    papertree.Role
	level   int
	page    int
	first   int // index of the first line of the heading
	last    int // index of the last line of the heading
	style   styleKey
	strong  bool    // typographically distinct from body text
	conv    bool    // a conventional section name
	outline int     // outline level when it came from a bookmark, else 0
	fixed   bool    // level decided (outline); hierarchy inference keeps it
	inline  bool    // a run-in label: the line stays in the body text
	runIn   bool    // an unnumbered run-in paragraph heading (RoleRunIn)
	font    string  // font of the first line
	small   bool    // set below body size in a heading typeface (see smallFaceHeading)
	y       float64 // baseline of the first line
}

var (
	captionRe = regexp.MustCompile(`(?i)^(figure|fig\.?|table|tab\.|algorithm|alg\.|listing|theorem|lemma|definition|proof|corollary|proposition|remark|example|assumption|claim|conjecture|equation|eq\.|exhibit|plate|box|scheme|chart)\s*[\dIVXivx]+[\d.]*\s*[:.|—–-]?`)
	labelRe   = regexp.MustCompile(`(?i)^(proof|theorem|lemma|definition|corollary|proposition|remark|note|step|case|input|output|require|ensure|satz|beweis|korollar|bemerkung|théorème|lemme|définition|preuve|corollaire)\b\.?\s*(\d|$|[.:(])`)
	// equationRe: a displayed equation (an "=" or an assignment between terms)
	equationRe = regexp.MustCompile(`\s(=|<-|:=|≤|≥|≈)\s|\S=\S|\s=-`)
	tocRe      = regexp.MustCompile(`(\.\s*){4,}|(·\s*){4,}|…{2,}|\s\d{1,3}$`)
	leaderRe   = regexp.MustCompile(`(\.\s*){4,}|(·\s*){4,}|…{2,}`)
	trailNumRe = regexp.MustCompile(`\s\d{1,3}$`)
	emailRe    = regexp.MustCompile(`@|https?://|www\.|\.com\b|\.edu\b|\.org\b`)
	// citationRe: volume(issue): pages, the tail of a reference ("34(2): 187–202")
	citationRe = regexp.MustCompile(`\d\s*\(\d{1,4}\)\s*:\s*\d`)
	listRe     = regexp.MustCompile(`^(\(?[a-z0-9]{1,2}\)|[•·▪◦‣∗*–—-])\s`)
)

// captionLike reports lines that start figure/table captions or theorem-like
// labels; these are never headings.
func captionLike(t string) bool {
	return captionRe.MatchString(t) || labelRe.MatchString(t)
}

func isAllCaps(t string) bool {
	up, low := 0, 0
	for _, r := range t {
		if unicode.IsUpper(r) {
			up++
		} else if unicode.IsLower(r) {
			low++
		}
	}
	return up >= 3 && low == 0
}

func letterCount(t string) int {
	n := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

func wordCount(t string) int { return len(strings.Fields(t)) }

// lineStyle is the style key of one line.
func lineStyle(l *line, st stats) styleKey {
	caps := isAllCaps(stripNumber(l.text))
	size := l.size
	if caps && l.capSize > size {
		size = l.capSize // small caps: the initials carry the real size
	}
	return styleKey{size: size, bold: l.bold >= 0.6 && !st.bodyBold, caps: caps, italic: l.italic >= 0.8}
}

// stripNumber removes a leading section number.
func stripNumber(t string) string {
	if n, ok := ParseNumbering(t); ok {
		return n.Rest
	}
	return t
}

// gapAbove is the distance from the previous line of the same page and
// column (or a large value when the line opens a page or column).
func gapAbove(lines []*line, i int) float64 {
	l := lines[i]
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		p := lines[j]
		if p.page != l.page {
			break
		}
		if p.col == l.col && p.y < l.y {
			return l.y - p.y
		}
	}
	return 1000
}

// gapBelow is the distance to the next line of the same page and column.
func gapBelow(lines []*line, i int) float64 {
	l := lines[i]
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		n := lines[j]
		if n.page != l.page {
			break
		}
		if n.col == l.col && n.y > l.y {
			return n.y - l.y
		}
	}
	return 1000
}

// headingText rules shared by all paths: what a heading's text can look like.
func plausibleHeadingText(t string) bool {
	if letterCount(t) < 2 || wordCount(t) > 22 || len([]rune(t)) > 160 {
		return false
	}
	if captionLike(t) || leaderRe.MatchString(t) || emailRe.MatchString(t) || citationRe.MatchString(t) {
		return false
	}
	first := []rune(t)[0]
	if unicode.IsLower(first) {
		return false
	}
	if strings.HasSuffix(t, ",") || strings.HasSuffix(t, ";") || strings.HasSuffix(t, "=") {
		return false
	}
	// equations and tables of numbers: too few letters
	nonSpace, letters := 0, 0
	for _, r := range t {
		if !unicode.IsSpace(r) {
			nonSpace++
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	if float64(letters) < 0.55*float64(nonSpace) {
		return false
	}
	return !mathLike(t) && !equationRe.MatchString(t)
}

// mathLike reports a line made mostly of one-letter tokens ("X W Z Λ θ X
// W X R", "2 W (yobs − o) W ZΛθ W X"): a displayed equation or a matrix,
// whatever its font.
func mathLike(t string) bool {
	ws := strings.Fields(t)
	if allShort(t) {
		return true
	}
	if len(ws) < 4 {
		return false
	}
	short := 0
	for _, w := range ws {
		if n := len([]rune(strings.Trim(w, "()[]{},.;:"))); n <= 1 {
			short++
		}
	}
	return 2*short > len(ws)
}

// allShort reports three or more tokens of one character ("B C D").
func allShort(t string) bool {
	ws := strings.Fields(t)
	if len(ws) < 3 {
		return false
	}
	for _, w := range ws {
		if len([]rune(strings.Trim(w, "()[]{},.;:"))) > 1 {
			return false
		}
	}
	return true
}

// endsLikeSentence reports text that ends like running prose.
func endsLikeSentence(t string) bool {
	t = strings.TrimSpace(t)
	if !strings.HasSuffix(t, ".") {
		return false
	}
	// "3." alone or "A." is a number, not a sentence end
	ws := strings.Fields(t)
	return len(ws) >= 2
}

// findCandidates scans lines for headings by typography, numbering and
// conventional names. skip marks pages (cover pages) that hold no headings.
func findCandidates(lines []*line, st stats, skip map[int]bool, runIn bool) []*heading {
	var out []*heading
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if skip[l.page] {
			continue
		}
		h := classifyLine(lines, i, st)
		if h == nil {
			if runIn {
				if r := classifyRunIn(lines, i, st); r != nil {
					r.y = l.y
					out = append(out, r)
				}
			}
			continue
		}
		h.y = l.y
		h.font = l.font
		out = append(out, h)
		i = h.last
	}
	return out
}

// classifyRunIn recognises a run-in paragraph heading: a short bold label
// opening a paragraph, followed by body text on the same line
// ("Implementation details. We train ...").
func classifyRunIn(lines []*line, i int, st stats) *heading {
	l := lines[i]
	if !runInLine(l) || !l.runs[0].Bold || st.bodyBold {
		return nil
	}
	label := styledPrefix(l)
	if label == "" || wordCount(label) > 10 || letterCount(label) < 3 || !titleCase(label) || captionLike(label) {
		return nil
	}
	if !(strings.HasSuffix(label, ".") || strings.HasSuffix(label, ":") || quadLabel(l, st)) {
		return nil // a label ends in a period or colon, or is set off by a quad ("Task #1: Masked LM  Intuitively, ...")
	}
	// the rest of the line is prose, not the cells of a table row
	rest := strings.TrimSpace(strings.TrimPrefix(l.text, label))
	if (wordCount(rest) < 2 && !strings.HasSuffix(rest, "-")) || numericShare(rest) > 0.25 || l.maxGap > 3*l.size || mathLike(rest) {
		return nil
	}
	if !(strings.HasSuffix(label, ".") || strings.HasSuffix(label, ":")) && !titleCase(rest) {
		return nil // after an unpunctuated label the paragraph opens a sentence
	}
	// it must open a paragraph
	above := gapAbove(lines, i)
	opens := above > 1.15*st.lineSpacing
	if !opens && i > 0 {
		p := lines[i-1]
		pt := strings.TrimSpace(p.text)
		if p.page == l.page && p.col == l.col {
			ended := strings.HasSuffix(pt, ".") || strings.HasSuffix(pt, ":") || strings.HasSuffix(pt, "?")
			opens = ended && (l.x0 > p.x0+0.8*l.size || p.x1 < l.x1-3*l.size)
		}
	}
	if !opens {
		return nil
	}
	h := &heading{text: label, page: l.page, first: i, last: i, style: lineStyle(l, st), strong: true, inline: true, runIn: true}
	h.num, h.hasNum = ParseNumbering(label)
	h.role = roleFor(label)
	_, h.conv = ConventionalName(strings.TrimRight(label, ".:"))
	return h
}

// classifyLine decides whether line i starts a heading, and if so returns
// it with any continuation lines merged.
func classifyLine(lines []*line, i int, st stats) *heading {
	l := lines[i]
	t := strings.TrimSpace(l.text)
	if t == "" {
		return nil
	}
	// Cheap exit for ordinary body lines (most lines of a paper): body
	// size, not bold, not all caps, several words, no leading number.
	first := []rune(t)[0]
	if monoShare(l) >= 0.9 && !monoFontRe.MatchString(st.bodyFont) {
		return nil // code ("R> fit <- lmer(...)"): a line all in a typewriter font is never a heading
	}
	if st.flat {
		if h := classifyFlat(lines, i, st); h != nil {
			return h
		}
	}
	if l.size < st.bodySize+0.9 && l.capSize < st.bodySize+0.9 && l.bold < 0.6 && wordCount(t) > 4 &&
		!unicode.IsDigit(first) && !isAllCaps(t) && !(first >= 'A' && first <= 'Z' && len(t) > 1 && (t[1] == '.' || t[1] == ' ')) && !strings.HasPrefix(strings.ToLower(t), "chapter") && !strings.HasPrefix(strings.ToLower(t), "appendix") {
		return nil
	}
	if h := spacedName(lines, i, st); h != nil {
		return h
	}
	if l.maxGap > 3.5*l.size && !numberOnly(firstRunText(l)) {
		return nil // a table row
	}
	if fontShare(l, mathFontRe) >= 0.5 {
		return nil // a displayed equation ("1 XT X" of a sum with its limits): most letters in math fonts
	}
	if tocEntry(l, st) {
		return nil
	}
	num, hasNum := ParseNumbering(t)
	// A number alone on its line followed by the title on the next line.
	if !hasNum && numberOnly(t) && i+1 < len(lines) {
		nx := lines[i+1]
		if nx.page == l.page && math.Abs(nx.y-l.y) < 2.5*l.size {
			if n2, ok := ParseNumbering(t + " " + nx.text); ok {
				num, hasNum = n2, true
			}
		}
	}
	if !plausibleHeadingText(t) && !(hasNum && plausibleHeadingText(num.Rest)) {
		if !(numberOnly(t) && hasNum) {
			return nil
		}
	}
	role, conv := ConventionalName(t)
	if !conv && hasNum {
		role, conv = ConventionalName(num.Rest)
	}
	style := lineStyle(l, st)
	sizeUp := style.size >= st.bodySize+0.9 || style.size >= st.bodySize*1.12
	bold := style.bold
	// A font of its own (not the body font, and rare in the document) marks
	// a numbered or conventionally named line even when neither the PDF
	// layer nor the font name reveal its weight ("SFBX1095" over "SFRM1095").
	fontChange := l.font != st.bodyFont && st.fontShare[l.font] < 0.05 && !monoFontRe.MatchString(l.font)
	strong := sizeUp || bold || (style.caps && (hasNum || conv)) || (style.italic && hasNum && wordCount(t) <= 14) || (fontChange && (hasNum || unnumberedName(t)) && wordCount(t) <= 14 && longestWord(t) >= 3)
	small := style.size < st.bodySize-0.6
	above := gapAbove(lines, i)
	sepAbove := above > st.lineSpacing*1.2
	if runInLine(l) {
		if !hasNum {
			return nil // "Training details. We train ..." (a run-in heading)
		}
		// "6.1 Training the Network. We ..." : the numbered label is the
		// heading; the rest of the line is body text.
		label := styledPrefix(l)
		n2, ok := ParseNumbering(label)
		if !ok || wordCount(label) > 16 {
			return nil
		}
		h := &heading{text: label, num: n2, hasNum: true, role: roleFor(label), page: l.page, first: i, last: i,
			style: style, strong: true, inline: true}
		_, h.conv = ConventionalName(n2.Rest)
		return h
	}
	if !hasNum && unicode.IsDigit([]rune(t)[0]) {
		return nil // "50 model": a number that is not a section number
	}
	if strings.HasSuffix(t, ":") && !hasNum {
		return nil // a label introducing a list or an equation
	}
	smallFace := small && !conv && smallFaceLine(lines, i, st, style, fontChange, hasNum)
	if small && !conv && !smallFace {
		return nil
	}
	if !(strong || hasNum || conv) {
		return nil
	}
	// Provisional heading: merge continuation lines, then judge the block.
	h := &heading{text: t, num: num, hasNum: hasNum, role: role, page: l.page, first: i, last: i,
		style: style, strong: strong, conv: conv}
	if numberOnly(t) && i+1 < len(lines) {
		h.last = i + 1
		h.text = t + " " + strings.TrimSpace(lines[i+1].text)
		h.style = lineStyle(lines[i+1], st)
	}
	mergeContinuation(lines, h, st)
	lastL := lines[h.last]
	if !hasNum && h.last+1 < len(lines) && runInLine(lines[h.last+1]) && h.style.bold && lines[h.last+1].runs[0].Bold && wrapsOn(lastL, h.text, st) &&
		!strings.HasSuffix(h.text, ".") && lines[h.last+1].y-lastL.y < 2*lastL.size && lines[h.last+1].page == lastL.page {
		// A bold label that wraps onto the next line and ends there, where
		// the paragraph starts ("Human evaluation studies of long-form sum-
		// / maries are not reproducible. We further ..."). The heading is
		// the whole label; the next line stays in the body.
		label := styledPrefix(lines[h.last+1])
		if label == "" || !h.style.bold || wordCount(h.text)+wordCount(label) > 24 {
			return nil
		}
		h.text = joinLines([]string{h.text, label})
		if sepAbove && titleCase(h.text) {
			return h
		}
		return nil
	}
	if !hasNum && !conv && h.last+1 < len(lines) && numericShare(lines[h.last+1].text) >= 0.3 && lines[h.last+1].page == l.page {
		return nil // a table header row above rows of numbers
	}
	if hasNum && nextListItem(lines, h.last, num) {
		return nil // "1 Training:" over "2 A dataset consists of ...": a numbered list or algorithm
	}
	below := gapBelow(lines, h.last)
	ownLine := below > st.lineSpacing*1.1 || (h.last+1 < len(lines) && lineStyle(lines[h.last+1], st) != h.style) ||
		(fontChange && h.last+1 < len(lines) && lines[h.last+1].font != lines[h.last].font)
	sentence := endsLikeSentence(h.text) && !(hasNum && strong && ownLine && wordCount(h.text) <= 12)
	accept := false
	switch {
	case strong && hasNum && !sentence && ownLine:
		accept = true
	case strong && conv && !sentence:
		accept = true
	case smallFace && ownLine && !sentence && titleCase(stripNumber(t)) && wordCount(t) <= 14:
		// a lower level in the paper's heading typeface, set below body
		// size; smallFaceHeading confirms the typeface at document level
		accept = true
	case strong && sepAbove && ownLine && !sentence && titleCase(stripNumber(t)):
		accept = (sizeUp || bold) && (above < 1000 || sizeUp || wordCount(t) <= 12)
	case !strong && hasNum && sepAbove && ownLine && !sentence && num.Kind != "letter":
		// body-font numbered headings (theses); the sequence check confirms them
		accept = wordCount(num.Rest) <= 16
	case !strong && conv && wordCount(t) <= 4 && sepAbove && ownLine && !sentence:
		accept = true
	}
	if !accept {
		return nil
	}
	mergeContinuation(lines, h, st)
	if h.hasNum && h.first == h.last {
		if label, ok := numberedRunInLabel(h.text); ok {
			// "3. Gradient Related Methods. The special BFGS matrices ..." set
			// in one font (OCR, Word): the label is the heading, the rest of
			// the line is the paragraph.
			h.text, h.inline = label, true
			h.num, _ = ParseNumbering(label)
		}
	}
	if h.role == "" {
		h.role = roleFor(h.text)
	}
	h.small = smallFace
	return h
}

// smallFaceLine reports a line that may be a heading although it is set
// below body size: many templates set their lower heading levels in the
// heading typeface (a sans over a serif body) a point or two smaller than
// the body (BMC and Springer "Classifier performance", IEEE Access "A.
// CONVERTING ..."). The line must be in a rare font of its own, marked by
// weight (or by capitals or italics with a section number), not much
// smaller than the body, and open a block: space above it, or directly
// under another line set in a bold display font (a heading over it).
func smallFaceLine(lines []*line, i int, st stats, style styleKey, fontChange, hasNum bool) bool {
	l := lines[i]
	if !fontChange || style.size < 0.8*st.bodySize || st.bodyBold || sameFamily(fontFamily(l.font), fontFamily(st.bodyFont)) {
		return false
	}
	if !(style.bold || ((style.caps || style.italic) && hasNum)) {
		return false
	}
	if gapAbove(lines, i) > st.lineSpacing*1.2 {
		return true
	}
	if i == 0 {
		return false
	}
	p := lines[i-1]
	return p.page == l.page && p.col == l.col && p.bold >= 0.6 && !sameFamily(fontFamily(p.font), fontFamily(st.bodyFont)) && p.size >= l.size
}

// smallFaceHeading keeps a below-body-size candidate only when its typeface
// is the paper's heading typeface: a conventionally named heading ("Methods",
// "Discussion", "IV. Conclusions") is set in the same font family. Bold table headers and figure labels in a small sans font
// have no such confirmation in papers whose headings use the body family.
func smallFaceHeading(cands []*heading, st stats) []*heading {
	var faces []string
	for _, c := range cands {
		if c.conv && !c.small && !c.inline && c.font != "" {
			faces = append(faces, fontFamily(c.font))
		}
	}
	out := cands[:0]
	for _, c := range cands {
		if c.small && !slices.ContainsFunc(faces, func(f string) bool { return sameFamily(f, fontFamily(c.font)) }) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// sameFamily: one family name extends the other ("formataotf" and
// "formataotfmdit"), with at least five letters in common.
func sameFamily(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 5 && strings.HasPrefix(b, a)
}

// fontFamily is a font name without its subset tag and style suffix
// ("ABCDEF+MyriadPro-Semibold" -> "MyriadPro"). Names that glue the style
// on ("FormataOTFMdIt") keep it; they still differ from a serif body family.
func fontFamily(f string) string {
	if i := strings.IndexByte(f, '+'); i >= 0 && i <= 7 {
		f = f[i+1:]
	}
	if i := strings.IndexAny(f, "-,"); i > 0 {
		f = f[:i]
	}
	return strings.ToLower(f)
}

// numberedRunInLabel cuts a numbered line after its title when a sentence
// follows on the same line: the first ". " after the number that is
// followed by a capitalised word, with at most 12 words before it and at
// least 3 after.
func numberedRunInLabel(t string) (string, bool) {
	n, ok := ParseNumbering(t)
	if !ok {
		return "", false
	}
	off := len(t) - len(n.Rest)
	rest := n.Rest
	for i := 0; i+2 < len(rest); i++ {
		if rest[i] != '.' || rest[i+1] != ' ' {
			continue
		}
		label := strings.TrimSpace(t[:off+i+1])
		after := strings.TrimSpace(rest[i+1:])
		if wordCount(label) > 12 {
			return "", false
		}
		if titleCase(after) && wordCount(after) >= 3 && letterCount(rest[:i]) >= 3 && !strings.HasSuffix(rest[:i], " al") && !abbrevEnd(rest[:i]) {
			return label, true
		}
	}
	return "", false
}

// abbrevEnd reports text ending in an abbreviation whose period is not a
// sentence end ("Fig", "e.g", a single initial).
func abbrevEnd(t string) bool {
	ws := strings.Fields(t)
	if len(ws) == 0 {
		return true
	}
	w := strings.ToLower(ws[len(ws)-1])
	return len([]rune(w)) <= 1 || w == "fig" || w == "eq" || w == "e.g" || w == "i.e" || w == "vs" || w == "sec" || w == "no"
}

// monoShare is the share of a line's letters set in a typewriter font.
func monoShare(l *line) float64 { return fontShare(l, monoFontRe) }

// mathFontRe matches the fonts of typeset mathematics: TeX's math italic,
// symbols and extensions (CMMI, CMSY, CMEX and their AMS and Latin Modern
// kin), the AMS symbol fonts, and fonts named for math or symbols.
var mathFontRe = regexp.MustCompile(`(?i)^(?:cmmi|cmsy|cmex|cmbsy|cmmib|lmmi|lmsy|lmex|msam|msbm|eufm|rsfs|stmary)|math|^symbol`)

// fontMatches caches re.MatchString(font): a paper has a handful of fonts
// and every line asks (safe for concurrent builds). It stops growing at
// maxFontMatches entries, so that a library of many papers (or a hostile
// file with endless font names) cannot make it grow without bound.
var (
	fontMatches     sync.Map // fontKey -> bool
	fontMatchesSize atomic.Int64
)

const maxFontMatches = 4096

type fontKey struct {
	re   *regexp.Regexp
	font string
}

func fontMatch(re *regexp.Regexp, font string) bool {
	k := fontKey{re, font}
	if v, ok := fontMatches.Load(k); ok {
		return v.(bool)
	}
	m := re.MatchString(font)
	if fontMatchesSize.Load() < maxFontMatches {
		if _, loaded := fontMatches.LoadOrStore(k, m); !loaded {
			fontMatchesSize.Add(1)
		}
	}
	return m
}

// fontShare is the share of a line's letters set in a font matching re.
func fontShare(l *line, re *regexp.Regexp) float64 {
	in, all := 0, 0
	for _, r := range l.runs {
		n := letterCount(r.Text)
		all += n
		if n > 0 && fontMatch(re, r.Font) {
			in += n
		}
	}
	if all == 0 {
		return 0
	}
	return float64(in) / float64(all)
}

// longestWord is the letter count of the longest word of t.
func longestWord(t string) int {
	best := 0
	for _, w := range strings.Fields(t) {
		best = max(best, letterCount(w))
	}
	return best
}

// tocEntry reports a table-of-contents line: dot leaders, or a trailing
// page number pushed to the column's right edge or set apart by a wide gap.
// A short heading that merely ends in a number ("2. Study 1") is not one.
func tocEntry(l *line, st stats) bool {
	if leaderRe.MatchString(l.text) {
		return true
	}
	if !trailNumRe.MatchString(l.text) {
		return false
	}
	colW := st.colWidth[l.col]
	if colW > 0 && l.x1-l.x0 > 0.85*colW {
		return true
	}
	if n := len(l.runs); n >= 2 {
		last, prev := l.runs[n-1], l.runs[n-2]
		if isDigits(strings.TrimSpace(last.Text)) && last.X-(prev.X+runWidth(prev)) > 2*last.Size {
			return true
		}
	}
	return false
}

// classifyFlat finds headings in a document whose text layer has one font
// and no weights (OCR of a scan): a short title-case line that follows a
// finished paragraph after extra space, does not end like a sentence and is
// followed by text. Only layout, case and length speak here, relative to
// the document's own line spacing and column width.
func classifyFlat(lines []*line, i int, st stats) *heading {
	l := lines[i]
	t := strings.TrimSpace(l.text)
	if wordCount(t) > 10 || !titleCase(t) || endsLikeSentence(t) || strings.HasSuffix(t, ",") || strings.HasSuffix(t, ":") ||
		connectorEnd.MatchString(t) || strings.HasSuffix(t, " that") || !plausibleHeadingText(t) {
		return nil // a heading does not lead into what follows ("Thompson (1998) states that")
	}
	colW := st.colWidth[l.col]
	if colW <= 0 || l.x1-l.x0 > 0.75*colW || gapAbove(lines, i) < 1.3*st.lineSpacing || gapBelow(lines, i) > 3*st.lineSpacing {
		return nil
	}
	if i > 0 {
		p := lines[i-1]
		pt := strings.TrimSpace(p.text)
		if p.page == l.page && p.col == l.col && !(strings.HasSuffix(pt, ".") || strings.HasSuffix(pt, ":") || strings.HasSuffix(pt, ")")) {
			return nil // the line before did not finish its paragraph
		}
	}
	h := &heading{text: t, page: l.page, first: i, last: i, style: lineStyle(l, st), strong: true}
	h.num, h.hasNum = ParseNumbering(t)
	h.role, h.conv = ConventionalName(t)
	mergeContinuation(lines, h, st)
	return h
}

func firstRunText(l *line) string {
	if len(l.runs) == 0 {
		return ""
	}
	return strings.TrimSpace(l.runs[0].Text)
}

var numberOnlyRe = regexp.MustCompile(`^(\d{1,2}(\.\d{1,2}){0,4}|[A-Z](\.\d{1,2}){0,4}|[IVX]{1,5})\.?$|^(?i:chapter|appendix|part)\s+(\d{1,2}|[A-Z]|[IVX]{1,5})\.?$`)

func numberOnly(t string) bool { return numberOnlyRe.MatchString(strings.TrimSpace(t)) }

// titleCase reports text that looks like a title rather than a sentence
// fragment: it starts with an upper-case letter or digit.
func titleCase(t string) bool {
	for _, r := range strings.TrimSpace(t) {
		return unicode.IsUpper(r) || unicode.IsDigit(r)
	}
	return false
}

// connectorEnd reports a line that cannot end a heading ("Learning of", "A
// Study on").
var connectorEnd = regexp.MustCompile(`(?i)\b(of|and|for|the|a|an|with|in|to|on|via|from|by|or|at|as|its|their|using|between|into|towards?|under|over|through|&|-|–|:)$`)

// mergeContinuation appends the following lines of a multi-line heading:
// same page and column, same size and weight, close below, and either the
// first line runs nearly to the column edge or ends with a connector word,
// or the heading so far is a bare "Chapter N"/number label.
func mergeContinuation(lines []*line, h *heading, st stats) {
	for h.last+1 < len(lines) && h.last-h.first < 3 {
		cur := lines[h.last]
		nx := lines[h.last+1]
		if nx.page != cur.page || nx.col != cur.col {
			return
		}
		if d := nx.y - cur.y; d <= 0 || d > 2.2*math.Max(cur.size, nx.size) {
			return
		}
		// A wrapped heading keeps its own leading: a line set further below
		// than the body's line spacing (scaled to the heading's size) is the
		// paragraph after the heading, however long the heading is.
		if d := nx.y - cur.y; st.bodySize > 0 && d > 1.35*st.lineSpacing*math.Max(1, cur.size/st.bodySize) {
			return
		}
		if math.Abs(nx.size-cur.size) > 0.6 {
			// a chapter label above a bigger title
			if !(chapterLabel(h.text) && nx.size > cur.size) {
				return
			}
		}
		ns := lineStyle(nx, st)
		if ns != h.style && !chapterLabel(h.text) {
			return
		}
		nt := strings.TrimSpace(nx.text)
		if _, isNum := ParseNumbering(nt); isNum || captionLike(nt) || !plausibleContinuation(nt) {
			return
		}
		colW := st.colWidth[cur.col]
		long := colW > 0 && cur.x1-cur.x0 > 0.7*colW
		lowerNext := unicode.IsLower([]rune(nt)[0])
		if !(chapterLabel(h.text) || connectorEnd.MatchString(h.text) || lowerNext || (long && !strings.HasSuffix(h.text, "."))) {
			return
		}
		if wordCount(h.text)+wordCount(nt) > 30 {
			return
		}
		h.text = joinLines([]string{h.text, nt})
		h.last++
		if n, ok := ParseNumbering(h.text); ok && h.hasNum {
			h.num = n
		}
	}
}

var chapterLabelRe = regexp.MustCompile(`(?i)^(chapter|appendix|part)\s+(\d{1,2}|[A-Z]|[IVX]{1,5})\.?$`)

func chapterLabel(t string) bool { return chapterLabelRe.MatchString(strings.TrimSpace(t)) }

// runInLine reports a line that starts with a bold (or italic) label and
// continues in the body style: a run-in paragraph heading, not a heading
// line of its own.
func runInLine(l *line) bool {
	if len(l.runs) < 2 || !(l.runs[0].Bold || l.runs[0].Italic) {
		return false
	}
	label := l.runs[0].Bold
	seenBody := false
	bodyLetters := 0
	endsStyled := false
	proseAfter := false // a non-label word outside a typewriter font
	restWords := 0
	for _, r := range l.runs {
		styled := (label && r.Bold) || (!label && r.Italic)
		if letterCount(r.Text) > 0 {
			endsStyled = styled
		}
		if !styled {
			seenBody = true
			bodyLetters += letterCount(r.Text)
			restWords += wordCount(r.Text)
			if letterCount(r.Text) > 0 && !fontMatch(monoFontRe, r.Font) {
				proseAfter = true
			}
		}
		// styled text after body text is inline emphasis, still run-in,
		// unless the line also ends in it (below)
	}
	// A line that returns to the label style and ends in it is a heading
	// with a word in another font ("1.2 Reference implementation: the
	// jsonlite package" with jsonlite in typewriter), not a run-in label.
	// A body part of two letters counts when it is a word hyphenated onto
	// the next line ("Masked LM and the Masking Procedure As-").
	hyphenTail := strings.HasSuffix(strings.TrimSpace(l.runs[len(l.runs)-1].Text), "-")
	if !proseAfter && restWords <= 3 {
		return false // "3.1. C++ to R: wrap" ending in a function name in typewriter: the heading's own words
	}
	return seenBody && (bodyLetters >= 3 || (bodyLetters >= 1 && hyphenTail)) && !endsStyled
}

// pruneCandidates applies document-level checks to typography candidates:
//
//   - on the title page, unnumbered headings that are not conventional names
//     and come before the first numbered or conventional heading are author,
//     affiliation or banner lines;
//   - in a paper whose headings are mostly numbered, an unnumbered heading
//     must be a conventional name or share its style with numbered headings
//     (otherwise it is a bold table cell or figure label);
//   - an unnumbered, unconventional text that recurs three or more times is a
//     repeated table or figure label.
func pruneCandidates(cands []*heading, bodySize float64) []*heading {
	if len(cands) == 0 {
		return cands
	}
	// On the first page with headings, unnumbered unconventional
	// candidates above the first numbered or conventional heading are
	// author, affiliation or banner lines (in a two-column title block they
	// may come later in reading order, so position decides, not order).
	firstPage := cands[0].page
	anchorY := math.Inf(1)
	for _, c := range cands {
		if c.page == firstPage && (c.hasNum || c.conv) {
			anchorY = c.y
			break
		}
	}
	var out []*heading
	for _, c := range cands {
		if c.page == firstPage && !c.hasNum && !c.conv && c.y < anchorY {
			continue
		}
		out = append(out, c)
	}
	numbered := 0
	numStyles := map[styleKey]bool{}
	for _, c := range out {
		if c.hasNum {
			numbered++
			numStyles[c.style] = true
		}
	}
	count := map[string]int{}
	samePage := map[string]int{} // stem without a trailing number, per page
	stemKey := func(c *heading) string {
		return normKey(trailNumRe.ReplaceAllString(c.text, "")) + "/" + strconv.Itoa(c.page)
	}
	for _, c := range out {
		count[normKey(c.text)]++
		if !c.hasNum {
			samePage[stemKey(c)]++
		}
	}
	// run-in labels do not count: they are optional extras under headings
	standalone := 0
	for _, c := range out {
		if !c.runIn {
			standalone++
		}
	}
	mostlyNumbered := numbered >= 3 && 2*numbered >= standalone
	// Unnumbered lower levels of a numbered paper (\subsubsection*, italic
	// paragraph headings on their own line) share one style, set at least at
	// body size and below every numbered style; bold table cells and figure
	// labels do not (smaller type, or styles of their own).
	minNumProm := math.Inf(1)
	for st := range numStyles {
		minNumProm = math.Min(minNumProm, st.prominence())
	}
	sameStyle := map[styleKey]int{}
	for _, c := range out {
		if !c.hasNum && !c.inline {
			sameStyle[c.style]++
		}
	}
	lowerLevel := func(c *heading) bool {
		return c.style.size >= bodySize-0.3 && c.style.prominence() < minNumProm && sameStyle[c.style] >= 2 && !c.conv
	}
	kept := out[:0]
	for _, c := range out {
		if !c.hasNum && !c.inline && mostlyNumbered && !numStyles[c.style] && !(c.conv && unnumberedName(c.text)) && !lowerLevel(c) {
			continue
		}
		if !c.hasNum && !c.inline && mostlyNumbered && c.conv && !unnumberedName(c.text) {
			continue // "Method" alone in a numbered paper: a table or figure label
		}
		if !c.hasNum && !c.conv && samePage[stemKey(c)] >= 2 {
			continue // "Completion 1", "Completion 4" on one page: labels of a table or figure
		}
		if !c.hasNum && !topLevelName(c) && (count[normKey(c.text)] >= 3 || (!c.conv && count[normKey(c.text)] >= 2)) {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// quadLabel reports an unpunctuated run-in label set off from its
// paragraph by a quad: one gap of about an em after the label, no other
// wide gap (a table row has several), and a line that fills the column like
// the first line of a paragraph.
func quadLabel(l *line, st stats) bool {
	g := labelGap(l)
	if g < 0.6*l.size || g > 2.5*l.size || l.maxGap > 2.5*l.size+0.01 && l.maxGap > g+0.5 {
		return false
	}
	colW := st.colWidth[l.col]
	hyphenated := strings.HasSuffix(strings.TrimSpace(l.text), "-") // a word broken at the column edge
	return colW > 0 && (l.x1-l.x0 > 0.85*colW || hyphenated)
}

// labelGap is the horizontal gap between the leading styled runs of a line
// and the first run after them (0 when there is none).
func labelGap(l *line) float64 {
	italic := len(l.runs) > 0 && !l.runs[0].Bold && l.runs[0].Italic
	for k := 1; k < len(l.runs); k++ {
		r := l.runs[k]
		if (!italic && !r.Bold) || (italic && !r.Italic) {
			prev := l.runs[k-1]
			return r.X - (prev.X + runWidth(prev))
		}
	}
	return 0
}

// styledPrefix returns the text of the leading bold (or, when the line
// starts in italics, italic) runs of a line.
func styledPrefix(l *line) string {
	var parts []string
	italic := len(l.runs) > 0 && !l.runs[0].Bold && l.runs[0].Italic
	for _, r := range l.runs {
		if (!italic && !r.Bold) || (italic && !r.Italic) {
			break
		}
		parts = append(parts, strings.TrimSpace(r.Text))
	}
	return cleanText(strings.Join(parts, " "))
}

// plausibleContinuation is plausibleHeadingText for the second and later
// lines of a heading, which may start in lower case.
func plausibleContinuation(t string) bool {
	if t == "" {
		return false
	}
	r := []rune(t)
	return plausibleHeadingText(strings.ToUpper(string(r[0])) + string(r[1:]))
}

// numericShare is the share of digits among the non-space characters.
func numericShare(t string) float64 {
	d, n := 0, 0
	for _, r := range t {
		if unicode.IsSpace(r) {
			continue
		}
		n++
		if unicode.IsDigit(r) {
			d++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(d) / float64(n)
}

// unnumberedName reports the conventional sections that stay unnumbered in
// papers whose other sections are numbered.
func unnumberedName(t string) bool {
	switch lettersOnly(stripNumber(t)) {
	case "abstract", "references", "bibliography", "referencesandnotes", "literaturecited",
		"acknowledgments", "acknowledgements", "acknowledgment", "acknowledgement",
		"appendix", "appendices", "supplementarymaterial", "limitations", "ethicsstatement",
		"ethicalconsiderations", "broaderimpact", "keywords", "indexterms", "contents",
		"tableofcontents", "listoffigures", "listoftables", "dedication", "preface", "vita",
		"summary", "conclusion", "conclusions", "discussion", "futurework",
		"literatur", "literaturverzeichnis", "bibliographie", "références", "referencias", "bibliografía",
		"inhaltsverzeichnis", "danksagung", "anhang", "remerciements", "agradecimientos", "zusammenfassung":
		return true
	}
	return false
}

// wrapsOn reports a heading line that continues on the next line: it runs
// to the column edge, or ends with a connector word or a hyphen.
func wrapsOn(l *line, text string, st stats) bool {
	colW := st.colWidth[l.col]
	return (colW > 0 && l.x1-l.x0 > 0.8*colW) || connectorEnd.MatchString(text) || strings.HasSuffix(text, "-")
}

// spacedName finds a conventional section name set letter-spaced ("a b s t
// r a c t"), a display device of front matter labels (Elsevier sets "a r t
// i c l e i n f o" and "a b s t r a c t" side by side on one line over two
// columns of the front page). The line is cut at wide gaps; a part whose
// words are all single letters (five or more) and spell a conventional name
// is the heading, whatever else shares the line.
func spacedName(lines []*line, i int, st stats) *heading {
	l := lines[i]
	if len(l.runs) < 5 || l.size < st.bodySize-0.6 {
		return nil
	}
	var parts []string
	var cur strings.Builder
	for j, r := range l.runs {
		if j > 0 {
			prev := l.runs[j-1]
			if r.X-(prev.X+runWidth(prev)) > 1.5*l.size {
				parts = append(parts, cur.String())
				cur.Reset()
			}
		}
		cur.WriteString(r.Text)
		cur.WriteByte(' ')
	}
	parts = append(parts, cur.String())
	for _, p := range parts {
		ws := strings.Fields(p)
		if len(ws) < 5 {
			continue
		}
		single := true
		for _, w := range ws {
			if len([]rune(w)) != 1 {
				single = false
				break
			}
		}
		if !single {
			continue
		}
		name := strings.Join(ws, "")
		role, ok := ConventionalName(name)
		if !ok {
			continue
		}
		name = strings.ToUpper(name[:1]) + name[1:]
		return &heading{text: name, role: role, conv: true, strong: true, page: l.page, first: i, last: i, style: lineStyle(l, st)}
	}
	return nil
}

// nextListItem reports a numbered line whose next line (same page and
// column, same left edge, body weight) carries the next number at the same
// depth: the lines of a numbered list or an algorithm ("1 Training:" / "2 A
// dataset consists of x and y ..."). A section heading is followed by its
// text or by a deeper number (3 -> 3.1), never directly by its successor.
func nextListItem(lines []*line, last int, num Numbering) bool {
	if num.Kind != "arabic" || last+1 >= len(lines) {
		return false
	}
	l, nx := lines[last], lines[last+1]
	if nx.page != l.page || nx.col != l.col || math.Abs(nx.x0-lines[last].x0) > 0.5*l.size || nx.bold >= 0.6 {
		return false
	}
	n2, ok := ParseNumbering(strings.TrimSpace(nx.text))
	if !ok || n2.Kind != "arabic" || n2.Depth != num.Depth {
		return false
	}
	parts, parts2 := strings.Split(num.Number, "."), strings.Split(n2.Number, ".")
	a, err1 := strconv.Atoi(parts[len(parts)-1])
	b, err2 := strconv.Atoi(parts2[len(parts2)-1])
	return err1 == nil && err2 == nil && b == a+1 && strings.Join(parts[:len(parts)-1], ".") == strings.Join(parts2[:len(parts2)-1], ".")
}
