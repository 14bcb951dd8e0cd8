package treebuild

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ligatures maps presentation forms that PDF fonts use to plain letters.
var ligatures = strings.NewReplacer(
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl",
	"\ufb05", "st", "\ufb06", "st", "\u00ad", "", "\u200b", "", "\ufeff", "",
	"\u2010", "-", "\u2011", "-", "\u00a0", " ", "\u2002", " ", "\u2003", " ", "\u2009", " ",
)

// cleanText normalises ligatures and collapses whitespace. Control
// characters and replacement characters are dropped so that garbled text
// layers do not leak invisible bytes into the tree.
func cleanText(s string) string {
	s = composeAccents(ligatures.Replace(s))
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case r == unicode.ReplacementChar || unicode.IsControl(r) || (r >= 0xE000 && r <= 0xF8FF):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// joinLines concatenates the texts of consecutive lines of one paragraph,
// repairing end-of-line hyphenation: "compu-" + "tation" becomes
// "computation" when the first half ends in a lowercase letter and the
// second starts with one (a word broken by the typesetter); compounds such
// as "state-of-" + "the-art" or "GPT-" + "2" keep their hyphen.
func joinLines(texts []string) string {
	s, _ := joinWithOffsets(texts)
	return s
}

// joinWithOffsets is joinLines that also returns where each input line
// starts in the result.
func joinWithOffsets(texts []string) (string, []int) {
	b := make([]byte, 0, 64*len(texts))
	offs := make([]int, len(texts))
	for i, t := range texts {
		t = strings.TrimSpace(t)
		if len(b) > 0 && t != "" {
			if dehyphenate(string(b[max(0, len(b)-64):]), t) {
				b = b[:len(b)-1]
			} else {
				b = append(b, ' ')
			}
		}
		offs[i] = len(b)
		b = append(b, t...)
	}
	return string(b), offs
}

var compoundPrefix = regexp.MustCompile(`(?i)(?:^|[\s(])(?:non|self|well|state|multi|cross|pre|post|co|re|semi|anti|end|one|two|three|high|low|large|small|fine|long|short|real|open|top|left|right|task|domain|sentence|word|character|token|data|model|human|rule|graph|knowledge|zero|few)-$`)

// dehyphenate reports whether a line ending in cur ("...compu-") continues a
// word broken by the line end into next ("tation ...").
func dehyphenate(cur, next string) bool {
	if !strings.HasSuffix(cur, "-") || strings.HasSuffix(cur, "--") {
		return false
	}
	// only the last word matters; keep the regexp off long paragraphs
	if len(cur) > 48 {
		k := len(cur) - 48
		for k < len(cur) && !utf8.RuneStart(cur[k]) {
			k++
		}
		cur = cur[k:]
	}
	rs := []rune(strings.TrimSuffix(cur, "-"))
	if len(rs) == 0 || !unicode.IsLower(rs[len(rs)-1]) {
		return false
	}
	nr := []rune(next)
	if len(nr) == 0 || !unicode.IsLower(nr[0]) {
		return false
	}
	// A hyphen inside a word that already has one ("state-of-") is a compound.
	i := len(rs) - 1
	for i >= 0 && (unicode.IsLetter(rs[i])) {
		i--
	}
	if i >= 0 && rs[i] == '-' {
		return false
	}
	if compoundPrefix.MatchString(cur) {
		return false
	}
	return true
}

// furnitureKey is a line's letters, lowercased and sorted, so that "Page 3"
// and "Page 4", a running header with its page number on either side, the
// mirrored headers of facing pages ("504 28 JULY 2006 VOL 313 SCIENCE
// www.sciencemag.org" on a left page, "www.sciencemag.org SCIENCE VOL 313
// 28 JULY 2006 505" on a right one) and one header set with or without a
// space or hyphen ("Zero-Shot", "Zero Shot", an OCR layer's
// "QUASI-NEWTONMATRICES") all compare equal. Digits and everything else are
// dropped.
func furnitureKey(s string) string {
	var rs []rune
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	return string(rs)
}

var pageNumberRe = regexp.MustCompile(`(?i)^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$`)

// dropFurniture removes running headers and footers (text repeated in the
// top or bottom margin of several pages) and page numbers. A line is in a
// margin when it lies in the top or bottom 9% of the page; repetition is
// counted on texts with digits folded, and a header must recur on at least
// three pages (or a third of them) to go.
func dropFurniture(pages [][]*line) [][]*line {
	inMargin := func(l *line) bool {
		return l.y < 0.09*l.pageH+l.size || l.y > 0.91*l.pageH
	}
	type posKey struct {
		key string
		top bool
	}
	count := map[posKey]int{}
	for _, ls := range pages {
		seen := map[posKey]bool{}
		for _, l := range ls {
			if !inMargin(l) {
				continue
			}
			k := posKey{furnitureKey(l.text), l.y < 0.5*l.pageH}
			if k.key == "" || seen[k] {
				continue
			}
			seen[k] = true
			count[k]++
		}
	}
	need := int(math.Max(3, math.Ceil(float64(len(pages))/3)))
	if len(pages) < 3 {
		need = 2
	}
	out := make([][]*line, len(pages))
	for i, ls := range pages {
		for _, l := range ls {
			if inMargin(l) {
				k := posKey{furnitureKey(l.text), l.y < 0.5*l.pageH}
				if count[k] >= need && len(pages) >= 2 {
					continue
				}
				if pageNumberRe.MatchString(strings.TrimSpace(l.text)) {
					continue
				}
			}
			out[i] = append(out[i], l)
		}
	}
	return out
}

// spacingAccents maps the spacing accent glyphs that TeX draws over a
// letter as a separate character ("R¨onnqvist", "T¨ubingen") to the
// combining mark they stand for.
var spacingAccents = map[rune]rune{
	'\u00a8': '\u0308', // diaeresis
	'\u00b4': '\u0301', // acute
	'\u02c6': '\u0302', // circumflex
	'\u02dc': '\u0303', // tilde
	'\u02c7': '\u030c', // caron
	'\u02da': '\u030a', // ring
	'\u02dd': '\u030b', // double acute
	'\u02d8': '\u0306', // breve
	'\u00b8': '\u0327', // cedilla ("Fran¸cois")
	'\u02db': '\u0328', // ogonek
	'\u02d9': '\u0307', // dot above
}

// composeAccents joins a spacing accent with the letter that follows it
// ("¨o" becomes "ö"; a dotless i takes the accent as "í"). An accent that
// no letter follows is left as it is.
func composeAccents(s string) string {
	if !strings.ContainsAny(s, "\u00a8\u00b4\u02c6\u02dc\u02c7\u02da\u02dd\u02d8\u00b8\u02db\u02d9") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	changed := false
	for i := 0; i < len(rs); i++ {
		mark, ok := spacingAccents[rs[i]]
		if ok && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
			letter := rs[i+1]
			if letter == '\u0131' {
				letter = 'i'
			}
			b.WriteRune(letter)
			b.WriteRune(mark)
			i++
			changed = true
			continue
		}
		b.WriteRune(rs[i])
	}
	if !changed {
		return s
	}
	return norm.NFC.String(b.String())
}
