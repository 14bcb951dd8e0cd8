package library

import (
	"testing"
	"time"

	"github.com/papertree/papertree/backend/store"
)

// Reference-manager metadata wins; the PDF's venue and DOI are the fallback.
func TestApplyRefMetaPrecedence(t *testing.T) {
	pdf := store.PaperInfo{Path: "/a.pdf", Venue: "arXiv preprint", DOI: "10.1/pdf"}
	tests := []struct {
		name       string
		ref        store.RefMeta
		venue, doi string
	}{
		{"no reference", store.RefMeta{}, "arXiv preprint", "10.1/pdf"},
		{"reference wins", store.RefMeta{Path: "/a.pdf", Venue: "NAACL", DOI: "10.2/ref"}, "NAACL", "10.2/ref"},
		{"empty reference fields fall back", store.RefMeta{Path: "/a.pdf", Title: "T"}, "arXiv preprint", "10.1/pdf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := applyRef(pdf, tc.ref, time.Time{}, store.EditMark{})
			if p.Venue != tc.venue || p.DOI != tc.doi {
				t.Errorf("venue %q doi %q, want %q %q", p.Venue, p.DOI, tc.venue, tc.doi)
			}
		})
	}
}
