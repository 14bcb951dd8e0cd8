package treebuild

import (
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
var articleLabelRe = regexp.MustCompile(`(?i)^(?:(?:original|research|review|brief|short|regular|full)\s+)?(?:review|article|articles|letter|letters|report|reports|research|editorial|perspective|perspectives|commentary|communication|correspondence|insight|analysis|news|essay|opinion|highlights?|paper)s?(?:\s+open\s+access)?$`)

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
