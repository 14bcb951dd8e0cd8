package store

import (
	"context"
	"reflect"
	"testing"
)

// PDF-extracted metadata survives a save/load round trip through real SQLite.
func TestPaperMetaRoundTrip(t *testing.T) {
	tests := []struct {
		name              string
		venue, doi, arxiv string
		affils            []string
	}{
		{"all fields", "NAACL-HLT 2019", "10.18653/v1/N19-1423", "1810.04805", []string{"Google AI Language"}},
		{"none", "", "", "", nil},
		{"arxiv only", "", "", "2106.09685", nil},
	}
	s := openTemp(t)
	ctx := context.Background()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := synthPaper("/meta"+tc.name+".pdf", uint64(i+1), 1, 1, 2)
			p.Venue, p.DOI, p.ArxivID, p.Affiliations = tc.venue, tc.doi, tc.arxiv, tc.affils
			id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.LoadPaper(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got.Venue != tc.venue || got.DOI != tc.doi || got.ArxivID != tc.arxiv ||
				!reflect.DeepEqual(got.Affiliations, tc.affils) {
				t.Errorf("got venue %q doi %q arxiv %q affils %q; want %q %q %q %q",
					got.Venue, got.DOI, got.ArxivID, got.Affiliations, tc.venue, tc.doi, tc.arxiv, tc.affils)
			}
		})
	}
}
