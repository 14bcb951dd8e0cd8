package store

import (
	"context"
	"slices"
	"testing"
)

// A word the paper's metadata holds (an author read from the PDF's
// information dictionary, a corrected venue) is held by the paper, though
// its text never prints it: "never mentions" must not be said of it.
func TestMetaHolders(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	p := textPaper("/casimir.pdf", "On the attraction between two perfectly conducting plates", "These formulae are obtained by correcting for retardation.")
	p.Authors, p.Venue, p.Year = []string{"H. B. G. Casimir"}, "Proceedings of the KNAW", 1948
	a, err := s.SavePaper(ctx, p, Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SavePaper(ctx, textPaper("/b.pdf", "Pre-training of deep bidirectional Transformers", "We mask tokens."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typed string
		want  []int64
	}{
		{"Casimir", []int64{a}},
		{"casimir", []int64{a}},
		{"KNAW", []int64{a}},
		{"Casímir", []int64{a}}, // diacritics folded as the index folds them
		{"1948", []int64{a}},
		{"conducting plate", []int64{a}}, // plural folded, words in a row
		{"pretraining", []int64{b}},      // printed in two parts
		{"transformer", []int64{b}},
		{"Polder", nil},
		{"plates conducting", nil}, // not in a row
	} {
		got, err := s.MetaHolders(ctx, tc.typed)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("MetaHolders(%q) = %v, want %v", tc.typed, got, tc.want)
		}
	}
	// A correction is metadata too.
	if err := s.SetPaperFields(ctx, b, map[string]string{FieldAuthors: `["Jacob Devlin"]`}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.MetaHolders(ctx, "Devlin"); err != nil || !slices.Equal(got, []int64{b}) {
		t.Errorf("corrected author: %v, %v", got, err)
	}
	if _, err := s.MetaHolders(ctx, "–"); err == nil {
		t.Error("a phrase with no word must be an error")
	}
}
