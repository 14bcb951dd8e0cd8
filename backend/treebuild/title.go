package treebuild

import (
	"html"
	"math"
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/pdf"
)

// Title polish: the title block is found by size (findTitle); these rules
// keep an article-type label from being taken for it and clean the text
// that is shown: footnote marks after the title go, and a title set in
// capitals is shown in title case.

// articleLabelRe matches the article-type labels journals print above the
// title in large type ("REVIEW", "ARTICLE", "Original Articles",
// "RESEARCH Open Access", "LETTERS").
var articleLabelRe = regexp.MustCompile(`(?i)^(?:cover\s+sheet\b.*|technical\s+memorand(?:um|a)|(?:(?:original|research|review|brief|short|regular|full)\s+)?(?:review|article|articles|letter|letters|report|reports|research|editorial|perspective|perspectives|commentary|communication|correspondence|insight|analysis|news|essay|opinion|highlights?|paper)s?(?:\s+open\s+access)?|` + thesisLabel + `)$`)

// thesisLabel: the document type a thesis prints over its title, often
// larger than the title ("Bachelorarbeit", "Master's Thesis", "Doctoral
// Dissertation").
const thesisLabel = `(?:(?:bachelor|master|doctoral|doctorate|phd|ph\.\s?d\.?|diploma|honou?rs|senior)(?:'s|’s)?\s+)?(?:thesis|dissertation)|(?:bachelor|master|diplom|doktor|studien)arbeit|habilitationsschrift|dissertation|m[ée]moire|tesi[s]?(?:\s+(?:de|di)\s+\S+)?`

// isArticleLabel reports a line that is only an article-type label.
func isArticleLabel(t string) bool {
	return articleLabelRe.MatchString(strings.TrimSpace(t))
}

// footnoteMarks are the symbols set after a title to point to a footnote.
const footnoteMarks = "*∗†‡§¶✩⋆★☆#"

// titleLineText is a title line's text without the footnote marks at its
// end: trailing runs in smaller, raised type (superscripts: "IN THE
// BRAIN¹") or made only of mark symbols.
func titleLineText(l *line) string {
	t := strings.TrimSpace(l.text)
	for i := len(l.runs) - 1; i > 0; i-- {
		r := l.runs[i]
		rt := strings.TrimSpace(cleanText(r.Text))
		if rt == "" {
			continue
		}
		// A superscript is raised; a subscript at the end ("CuO₄") is
		// part of the title.
		small := r.Size < 0.8*l.size && len([]rune(rt)) <= 3 && r.Y < l.y-0.15*l.size
		marks := strings.Trim(rt, footnoteMarks+",") == ""
		if !small && !marks {
			break
		}
		if !strings.HasSuffix(t, rt) {
			break
		}
		t = strings.TrimRight(strings.TrimSuffix(t, rt), " ,")
	}
	return strings.TrimRight(t, " "+footnoteMarks)
}

// smallTitleWords stay in lower case inside a title-cased title.
var smallTitleWords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "but": true, "nor": true,
	"of": true, "in": true, "on": true, "at": true, "to": true, "for": true, "by": true, "with": true, "from": true,
	"as": true, "via": true, "vs": true, "vs.": true, "into": true, "onto": true, "per": true, "than": true}

// capsTitle reports a title set entirely in capitals (two or more words
// of three or more letters, no lower-case letter).
func capsTitle(t string) bool {
	words := 0
	for _, w := range strings.Fields(t) {
		n := 0
		for _, r := range w {
			if unicode.IsLower(r) {
				return false
			}
			if unicode.IsLetter(r) {
				n++
			}
		}
		if n >= 3 {
			words++
		}
	}
	return words >= 2
}

// titleCaseCaps turns a title set in capitals into title case for display:
// words capitalised, short function words in lower case (not first, not
// after a colon), and words that cannot be read as words kept as printed:
// with digits ("ITEM2VEC") or without vowels (acronyms: "LSTM", "CNN").
// Titles that are not all capitals are returned unchanged.
func titleCaseCaps(t string) string {
	if !capsTitle(t) {
		return t
	}
	ws := strings.Fields(t)
	for i, w := range ws {
		after := i > 0 && strings.HasSuffix(ws[i-1], ":")
		ws[i] = titleCaseWord(w, i == 0 || after)
	}
	return strings.Join(ws, " ")
}

func titleCaseWord(w string, first bool) string {
	parts := strings.Split(w, "-")
	for k, p := range parts {
		parts[k] = titleCasePart(p, first && k == 0)
	}
	return strings.Join(parts, "-")
}

func titleCasePart(p string, first bool) string {
	letters, vowels, digits := 0, 0, 0
	for _, r := range p {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
			if strings.ContainsRune("AEIOUYÄÖÜÁÉÍÓÚÀÈÌÒÙÂÊÎÔÛ", r) {
				vowels++
			}
		}
	}
	if letters <= 1 && !first {
		if strings.EqualFold(p, "a") {
			return "a"
		}
		return p
	}
	if digits > 0 || vowels == 0 {
		return p
	}
	lower := strings.ToLower(p)
	core := strings.TrimFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) })
	if !first && smallTitleWords[core] {
		return lower
	}
	rs := []rune(lower)
	for i, r := range rs {
		if unicode.IsLetter(r) {
			rs[i] = unicode.ToUpper(r)
			break
		}
	}
	return string(rs)
}

// refineTitle adjusts the title block found by size (or by the info title)
// at its edges. A block that ends in a colon goes on: the subtitle after it
// may be set further down or in another display size ("Firm Entry and
// Exit:" ... "A Replication of ..."; an info title that stops at the colon).
// A line at either edge that is a label, not title text, is dropped: an
// article-type label, or a single word in capitals under or over title
// lines in mixed case (a series name such as "REMARK" set in the title's
// type). It returns the new line range and title text.
func refineTitle(lines []*line, lo, hi int, title string, st stats) (int, int, string) {
	// Subtitle after a colon.
	if strings.HasSuffix(strings.TrimSpace(title), ":") && hi+1 < len(lines) {
		last, next := lines[hi], lines[hi+1]
		if next.page == last.page && next.size >= st.bodySize+0.5 && next.size <= last.size+0.5 &&
			next.y > last.y && next.y-last.y < 4*last.size && letterCount(next.text) >= 3 &&
			!emailRe.MatchString(next.text) && (math.Abs(next.size-last.size) < 0.5 || !namesLine(next)) {
			parts := []string{strings.TrimSpace(title)}
			tol := math.Max(0.3, 0.03*next.size)
			j := hi + 1
			parts = append(parts, titleLineText(lines[j]))
			for j+1 < len(lines) && j-hi < 4 && lines[j+1].page == next.page && math.Abs(lines[j+1].size-next.size) < tol &&
				lines[j+1].y > lines[j].y && lines[j+1].y-lines[j].y < 2.2*next.size {
				j++
				parts = append(parts, titleLineText(lines[j]))
			}
			hi, title = j, joinLines(parts)
		}
	}
	if hi == lo {
		return lo, hi, title
	}
	mixed := func(a, b int) bool {
		for _, l := range lines[a : b+1] {
			for _, r := range l.text {
				if unicode.IsLower(r) {
					return true
				}
			}
		}
		return false
	}
	label := func(l *line) bool {
		t := strings.TrimSpace(titleLineText(l))
		if isArticleLabel(t) {
			return true
		}
		if strings.ContainsAny(t, " ") || letterCount(t) != len([]rune(t)) || letterCount(t) < 4 {
			return false
		}
		return strings.ToUpper(t) == t
	}
	first, last := lo, hi
	if label(lines[last]) && mixed(first, last-1) {
		last--
	}
	if last > first && label(lines[first]) && mixed(first+1, last) {
		first++
	}
	if first == lo && last == hi {
		return lo, hi, title
	}
	var parts []string
	for i := first; i <= last; i++ {
		parts = append(parts, titleLineText(lines[i]))
	}
	return first, last, joinLines(parts)
}

// namesLine reports a line made of person names: the names read from it
// hold nearly all of its words ("and", markers and e-mail addresses
// aside). A subtitle has words that are no part of a name ("Reading
// Papers as Hierarchies").
func namesLine(l *line) bool {
	inNames := 0
	for _, n := range lineNames(l) {
		inNames += wordCount(n)
	}
	words := 0
	for _, w := range strings.Fields(emailWordRe.ReplaceAllString(l.text, " ")) {
		if lw := strings.ToLower(w); letterCount(w) > 0 && lw != "and" && lw != "&" {
			words++
		}
	}
	return inNames > 0 && float64(inNames) >= 0.8*float64(words)
}

// Readable titles. The title found by size (or the info title) is kept only
// when it reads as language (pdf.ReadableLine: the measure that decides
// OCR, applied to one line) and is not a producer's placeholder. Otherwise
// the info dictionary's title is taken when it passes, else the first
// title-like line of the first page, else no title (the app shows the file
// name): an OCR'd formula set large ("dE=- 'in23 hC~RI~2.") or a routing
// list row of a scanned cover sheet is never shown as a paper's name.

// genericTitleRe matches info-dictionary titles that name the program, the
// file or a template rather than the paper ("Microsoft Word - paper.doc",
// "Untitled", "Document1", "main.tex", "Layout 1", "PowerPoint
// Presentation").
var genericTitleRe = regexp.MustCompile(`(?i)^(?:microsoft\s+(?:word|powerpoint|excel)\b.*|untitled(?:[\s-]*\d+)?|no\s+title|title|document\s*\d*|layout\s*\d*|(?:powerpoint\s+)?presentation|slide\s*\d*|.*\.(?:docx?|pdf|tex|dvi|ps|rtf|odt|indd|qxd|pages))$`)

// usableTitle reports a title that reads as language and is not a
// placeholder.
func usableTitle(t string) bool {
	t = strings.TrimSpace(t)
	return pdf.ReadableLine(t) && !genericTitleRe.MatchString(t)
}

// fallbackTitle is the title when the one found by size is not usable: the
// info title when it passes, else the first title-like line of the first
// page (with the lines that continue it), else none. It returns the line
// range (-1 when the title is not a printed line) and the text.
func fallbackTitle(lines []*line, st stats, skip map[int]bool, info string) (int, int, string) {
	if t := strings.TrimSpace(html.UnescapeString(info)); usableTitle(t) {
		return -1, -1, t
	}
	if lo, hi, t, ok := titleLikeLines(lines, st, skip); ok {
		return lo, hi, t
	}
	return -1, -1, ""
}

// titleLikeLines finds the first title-like line of the first page, in the
// top half of the page and before the abstract, the first conventional
// heading or the first line of prose: a line of two or more words set
// apart from the text (bold, capitals or larger than body size), not
// smaller than the text (running heads, bylines), not a label, caption,
// date, citation or line of names, that reads as language. Lines that
// follow it in the same size and face continue it (up to four lines).
func titleLikeLines(lines []*line, st stats, skip map[int]bool) (int, int, string, bool) {
	first := -1
	for i, l := range lines {
		if !skip[l.page] {
			first = i
			break
		}
	}
	if first < 0 {
		return 0, 0, "", false
	}
	page := lines[first].page
	source := sourceBlock(lines, first, st)
	apart := func(l *line, t string) bool {
		return l.bold >= 0.5 || isAllCaps(t) || l.size >= st.bodySize+0.5
	}
	for i := first; i < len(lines) && lines[i].page == page; i++ {
		l := lines[i]
		if l.y > 0.5*l.pageH {
			break
		}
		t := strings.TrimSpace(titleLineText(l))
		if _, conv := ConventionalName(t); conv || abstractLabelRe.MatchString(t) {
			break
		}
		if source[i] || l.size < st.bodySize-0.5 {
			continue
		}
		if !apart(l, t) {
			if wordCount(t) >= 8 {
				break // prose: a title comes before it
			}
			continue
		}
		if wordCount(t) < 2 || captionLike(t) || emailRe.MatchString(t) || isArticleLabel(t) || citationLine(t) ||
			endsLikeSentence(t) || dateLineRe.MatchString(t) || bylineLine(l) || !usableTitle(t) {
			continue
		}
		parts := []string{t}
		hi := i
		tol := math.Max(0.3, 0.03*l.size)
		for hi+1 < len(lines) && hi-i < 3 {
			n := lines[hi+1]
			nt := strings.TrimSpace(titleLineText(n))
			if n.page != page || source[hi+1] || math.Abs(n.size-l.size) >= tol || n.y <= lines[hi].y || n.y-lines[hi].y >= 2.2*l.size ||
				(n.bold >= 0.5) != (l.bold >= 0.5) || isAllCaps(nt) != isAllCaps(t) || bylineLine(n) || emailRe.MatchString(nt) {
				break
			}
			hi++
			parts = append(parts, nt)
		}
		if text := joinLines(parts); usableTitle(text) {
			return i, hi, text, true
		}
	}
	return 0, 0, "", false
}

// reprintRe opens the block at the head of a reprint that names where the
// paper appeared ("Reprinted from: COMPLEXITY OF COMPUTER COMPUTATIONS /
// Edited by ... / (Plenum Press, 1972)").
var reprintRe = regexp.MustCompile(`(?i)^(?:reprinted|reproduced|excerpted)\s+(?:with\s+permission\s+)?from\b`)

// sourceBlock marks the lines of a reprint's source block on the first
// page: the "Reprinted from" line and the lines under it up to the first
// gap wider than two and a half body line spacings. The book or journal it
// names, often set larger than the paper's title, is not the paper.
func sourceBlock(lines []*line, first int, st stats) map[int]bool {
	out := map[int]bool{}
	page := lines[first].page
	for i := first; i < len(lines) && lines[i].page == page; i++ {
		if lines[i].y > 0.3*lines[i].pageH {
			break
		}
		if !reprintRe.MatchString(strings.TrimSpace(lines[i].text)) {
			continue
		}
		out[i] = true
		for j := i + 1; j < len(lines) && lines[j].page == page && lines[j].y-lines[j-1].y > 0 && lines[j].y-lines[j-1].y <= 2.5*st.lineSpacing; j++ {
			out[j] = true
		}
		break
	}
	return out
}

// bylineRe finds what marks a line of person names: an initial ("M."), or
// names joined by "and", "&" or commas.
var bylineRe = regexp.MustCompile(`(?i)(?:^|\s)\p{Lu}\.(?:\s|$|-)|\sand\s|&|,`)

// bylineLine reports a byline: a line of person names (namesLine) marked as
// one by an initial or a joiner. The name reader also takes a title in
// capitals for a name ("REDUCIBILITY AMONG COMBINATORIAL PROBLEMS"); a
// title has neither mark.
func bylineLine(l *line) bool {
	return namesLine(l) && bylineRe.MatchString(l.text)
}
