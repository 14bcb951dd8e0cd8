package embedding

import (
	"reflect"
	"strings"
	"testing"
)

// TestStemCacheMatchesContentStems: the cache gives exactly ContentStems'
// output, word for word and in order, with one id per distinct stem, also
// when a text repeats words or mixes stopwords, placeholders, over-long
// tokens and non-ASCII letters.
func TestStemCacheMatchesContentStems(t *testing.T) {
	texts := []struct{ name, text string }{
		{"prose", "We trained the models on training data; the model trains faster than the trained baselines."},
		{"placeholders", "As shown in BIBREF12 and TABREF3, INLINEFORM0 improves over inlineform (see SECREF4)."},
		{"long token", "A token " + strings.Repeat("abc", 30) + " and " + strings.Repeat("abc", 31) + " differ only past 40 bytes."},
		{"non-ASCII", "Zürich naïve co-occurrence ÉCOLE Straße 3.5% İstanbul"},
		{"empty", ""},
		{"stopwords only", "the of and to in is it"},
	}
	c := NewStemCache()
	for _, tc := range texts {
		t.Run(tc.name, func(t *testing.T) {
			for round := 0; round < 2; round++ { // the second round hits the cache
				var got []string
				c.ContentStems(tc.text, func(s string, id int32) {
					if c.stems[id] != s {
						t.Fatalf("id %d is %q, not %q", id, c.stems[id], s)
					}
					got = append(got, s)
				})
				want := ContentStems(tc.text)
				if len(got) == 0 && len(want) == 0 {
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d: got %q, want %q", round, got, want)
				}
			}
		})
	}
	seen := map[string]bool{}
	for _, s := range c.stems {
		if seen[s] {
			t.Errorf("stem %q has two ids", s)
		}
		seen[s] = true
	}
}
