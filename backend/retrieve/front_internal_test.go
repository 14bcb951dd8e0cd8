package retrieve

import (
	"context"
	"strings"
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

// A paper's abstract: its abstract section's leaves, else the abstract the
// tree left in its front matter after an "Abstract—" label (IEEE style),
// from the label on; nothing when it has neither.
func TestAbstractEvidence(t *testing.T) {
	seg := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	inline := "Anonymous submission #303 to Security & Privacy '21 Abstract—Double-fetch bugs are a plague in all major kernels. We propose TikTok to mitigate double-fetch bugs."
	paper := func(title string, top ...*papertree.Node) *papertree.Paper {
		return &papertree.Paper{Title: title, Path: "/" + title + ".pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: title,
			Children: append(top, &papertree.Node{Kind: papertree.KindSection, Title: "1 Introduction", Children: []*papertree.Node{seg("Kernels copy arguments twice.")}})}}
	}
	ix, ids := storeIndexWith(t,
		paper("Sectioned", &papertree.Node{Kind: papertree.KindSection, Title: "Abstract", Role: papertree.RoleAbstract, Children: []*papertree.Node{seg("We propose a parser.")}}),
		paper("Inline", &papertree.Node{Kind: papertree.KindSection, Role: papertree.RoleFrontMatter, Children: []*papertree.Node{seg(inline)}}),
		paper("None", &papertree.Node{Kind: papertree.KindSection, Role: papertree.RoleFrontMatter, Children: []*papertree.Node{seg("Ada Lovelace, University of London")}}),
	)
	for i, want := range []string{"We propose a parser.", inline[strings.Index(inline, "Double-fetch"):], ""} {
		ev, err := Abstract(context.Background(), ix, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if len(ev) > 0 {
			got = ev[0].Text
		}
		if got != want || len(ev) > 1 {
			t.Errorf("paper %d: abstract %q (%d passages), want %q", i, got, len(ev), want)
		}
	}
}
