package retrieve

import (
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// The front page shown for an answer from a paper's details: its front
// matter leaves (at most three), else the first leaf under its root.
func TestFrontPage(t *testing.T) {
	leaf := func(text string, role papertree.Role) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Role: role, Tokens: papertree.CountTokens(text)}
	}
	body := &papertree.Node{Kind: papertree.KindSection, Title: "1 Introduction", Children: []*papertree.Node{leaf("We study glaciers.", "")}}
	for _, tc := range []struct {
		name string
		top  []*papertree.Node
		want []string
	}{
		{"front matter leaves", []*papertree.Node{leaf("Ada Lovelace and Charles Babbage", papertree.RoleFrontMatter), leaf("University of London", papertree.RoleFrontMatter),
			leaf("Received 1843", papertree.RoleFrontMatter), leaf("Keywords: engines", papertree.RoleFrontMatter), body},
			[]string{"Ada Lovelace and Charles Babbage", "University of London", "Received 1843"}},
		{"no front matter role: the root's first leaf", []*papertree.Node{leaf(" ", ""), leaf("A. Lovelace, London", ""), body}, []string{"A. Lovelace, London"}},
		{"nothing under the root", []*papertree.Node{body}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := &papertree.Node{Kind: papertree.KindRoot, Title: "Notes", Children: tc.top}
			d := NewPaperData(&papertree.Paper{ID: 3, Title: "Notes", Root: root}, nil, nil, nil)
			var got []string
			for _, e := range frontPage(d) {
				if e.PaperID != 3 {
					t.Errorf("evidence of paper %d", e.PaperID)
				}
				got = append(got, e.Text)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			}
		})
	}
}
