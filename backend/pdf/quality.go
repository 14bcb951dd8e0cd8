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

func (q *qualityCounter) add(s string) {
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		q.total++
		if plausible(r) {
			q.good++
		}
	}
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
