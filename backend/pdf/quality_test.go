package pdf

import (
	"strings"
	"testing"
)

func TestWordlike(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"word", "portfolio", true},
		{"capitalised with comma", "Gomes,", true},
		{"accented name with hyphen", "Velásquez-Giraldo", true},
		{"year in brackets", "(2005)", true},
		{"decimal number", "0.05", true},
		{"single capital", "A", true},
		{"article", "a", true},
		{"stray lowercase letter", "e", false},
		{"consonants only", "bcdfg", false},
		{"letters mixed with digits", "47@A25BC8ED3FG", false},
		{"punctuation soup", "$&%('*)+-,/.", false},
		{"digits and symbols", "132547698\"2;:=<?>", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wordlike(tc.s); got != tc.want {
				t.Errorf("wordlike(%q) = %v, want %v", tc.s, got, tc.want)
			}
		})
	}
}

// Unmapped glyphs count as text only when the words they make read as
// language, and only with enough words to tell.
func TestQualityUnmappedGlyphs(t *testing.T) {
	runsOf := func(text string) []Run {
		var rs []Run
		for _, w := range strings.Fields(text) {
			rs = append(rs, Run{Text: w, Font: "Type3"})
		}
		return rs
	}
	prose := strings.Repeat("We solve the lifecycle portfolio choice model of Cocco, Gomes and Maenhout (2005) with a grid. ", 3)
	garbage := strings.Repeat("132547698\"2;:=<?>47@A25BC8ED3FG HJILKNMPO9O9ORQ 25@TSVU;WX25YZSV[C472 us t+vxwxyz|{7w ", 4)
	tests := []struct {
		name   string
		text   string
		fonts  map[string]bool
		wantOK bool // quality above GarbledThreshold
	}{
		{"readable words from an unmapped font", prose, map[string]bool{"Type3": true}, true},
		{"garbage from an unmapped font", garbage, map[string]bool{"Type3": true}, false},
		{"too few words to tell", "The model is solved.", map[string]bool{"Type3": true}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var q qualityCounter
			for _, w := range strings.Fields(tc.text) {
				q.addGlyph(w, true)
			}
			q.addWords(runsOf(tc.text), tc.fonts)
			if got := q.quality() >= GarbledThreshold; got != tc.wantOK {
				t.Errorf("quality %.3f (words %d, wordlike %d): readable = %v, want %v", q.quality(), q.umWords, q.umWordlike, got, tc.wantOK)
			}
		})
	}
}
