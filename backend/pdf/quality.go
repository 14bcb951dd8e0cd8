package pdf

import (
	"strings"
	"unicode"
)

// GarbledThreshold is the TextQuality below which Document.Garbled is set.
// Normal papers score above 0.97 (math symbols and odd glyphs included);
// a Type 3 font without a Unicode mapping decodes to raw codes and drags a
// page far below this.
const GarbledThreshold = 0.8

// qualityCounter tallies plausible versus implausible characters.
//
// Characters a font gives no Unicode meaning for are implausible unless
// the words they make read as language: a dvips bitmap (Type 3) font whose
// glyph names are "/a70", "/a82" often uses the character code itself as
// the character ("F", "R"), and its text is fine, while a font whose codes
// are numbered in order of first use decodes to "132547698"2;:=<?>47@A".
// The counter keeps both tallies and decides once per document.
type qualityCounter struct {
	good, total int
	unmapped    int // plausible characters among unmapped glyphs
	umWords     int // words set in fonts with unmapped glyphs
	umWordlike  int // ... of which read as words or numbers
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
		switch {
		case !plausible(r):
		case unmapped:
			q.unmapped++
		default:
			q.good++
		}
	}
}

// addWords tallies the words (runs) of fonts that had unmapped glyphs.
func (q *qualityCounter) addWords(runs []Run, fonts map[string]bool) {
	for _, r := range runs {
		if !fonts[r.Font] {
			continue
		}
		q.umWords++
		if wordlike(r.Text) {
			q.umWordlike++
		}
	}
}

func (q *qualityCounter) merge(o qualityCounter) {
	q.good += o.good
	q.total += o.total
	q.unmapped += o.unmapped
	q.umWords += o.umWords
	q.umWordlike += o.umWordlike
}

// minUnmappedWords and unmappedWordlike decide when unmapped glyphs read
// as language: at least 20 words, 80% of them words or numbers (the
// readable dvips paper of the silver set: 96%; the two garbled Type 3
// papers of the development set: 10% and 4%).
const (
	minUnmappedWords = 20
	unmappedWordlike = 0.8
)

// readable reports whether the unmapped glyphs read as language.
func (q *qualityCounter) readable() bool {
	return q.umWords >= minUnmappedWords && float64(q.umWordlike) >= unmappedWordlike*float64(q.umWords)
}

func (q *qualityCounter) quality() float64 {
	if q.total == 0 {
		return 0
	}
	good := q.good
	if q.readable() {
		good += q.unmapped
	}
	return float64(good) / float64(q.total)
}

// wordlike reports a run that reads as a word or a number: letters (with
// inner hyphens or apostrophes and at least one vowel unless it is a
// single capital) or digits with separators, once surrounding punctuation
// is trimmed.
func wordlike(s string) bool {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
	if s == "" {
		return false
	}
	letters, digits, vowels, other := 0, 0, 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
			if strings.ContainsRune("aeiouyAEIOUYáéíóúàèìòùäëïöüâêîôûåæøœ", r) {
				vowels++
			}
		case unicode.IsDigit(r):
			digits++
		case r == '-' || r == '\'' || r == '’' || r == '.' || r == ',':
		default:
			other++
		}
	}
	switch {
	case other > 0:
		return false
	case letters > 0 && digits > 0:
		return false
	case digits > 0:
		return true
	case letters == 1:
		return unicode.IsUpper([]rune(s)[0]) || s == "a"
	}
	return vowels > 0
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
