package pdf

import "unicode"

// GarbledThreshold is the TextQuality below which Document.Garbled is set.
// Normal papers score above 0.97 (math symbols and odd glyphs included);
// a Type 3 font without a Unicode mapping decodes to raw codes and drags a
// page far below this.
const GarbledThreshold = 0.8

// qualityCounter tallies plausible versus implausible characters.
type qualityCounter struct {
	good, total int
}

// addGlyph counts one glyph's characters; unmapped marks a raw character
// code the font gives no Unicode meaning for (it may look like a letter,
// e.g. "Ý" from a dvips Type 3 font, but it is not text).
func (q *qualityCounter) addGlyph(s string, unmapped bool) {
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		q.total++
		if !unmapped && plausible(r) {
			q.good++
		}
	}
}

func (q *qualityCounter) merge(o qualityCounter) {
	q.good += o.good
	q.total += o.total
}

func (q *qualityCounter) quality() float64 {
	if q.total == 0 {
		return 0
	}
	return float64(q.good) / float64(q.total)
}

// plausible reports whether r is a character a paper's text layer
// normally contains. Replacement characters, control codes (a raw font
// code below 0x20 shows up as one), C1 controls and private-use code
// points are not.
func plausible(r rune) bool {
	switch {
	case r == unicode.ReplacementChar:
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return false
	case r >= 0xe000 && r <= 0xf8ff, r >= 0xf0000:
		return false
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsPunct(r), unicode.IsSymbol(r), unicode.IsMark(r):
		return true
	case unicode.IsNumber(r):
		return true
	}
	return false
}
