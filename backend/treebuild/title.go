package treebuild

import (
	"math"
	"regexp"
	"strings"
	"unicode"
)

// Title polish: the title block is found by size (findTitle); these rules
// keep an article-type label from being taken for it and clean the text
// that is shown: footnote marks after the title go, and a title set in
// capitals is shown in title case.

// articleLabelRe matches the article-type labels journals print above the
// title in large type ("REVIEW", "ARTICLE", "Original Articles",
// "RESEARCH Open Access", "LETTERS").
var articleLabelRe = regexp.MustCompile(`(?i)^(?:(?:(?:original|research|review|brief|short|regular|full)\s+)?(?:review|article|articles|letter|letters|report|reports|research|editorial|perspective|perspectives|commentary|communication|correspondence|insight|analysis|news|essay|opinion|highlights?|paper)s?(?:\s+open\s+access)?|` + thesisLabel + `)$`)

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
