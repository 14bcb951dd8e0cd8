package retrieve

import (
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestEvidencePathNamesUntitledPaperByFile: the first segment of an
// evidence path is the paper's title, or its file name when the PDF gave no
// title (as the library list and search name it), never a blank or
// "Untitled paper" while the file is known.
func TestEvidencePathNamesUntitledPaperByFile(t *testing.T) {
	for _, tc := range []struct{ name, title, path, want string }{
		{"titled", "Glacier Flow", "/p/glacier.pdf", "Glacier Flow"},
		{"untitled", "", "/p/shannon1945_memo.pdf", "shannon1945_memo.pdf"},
		{"untitled, no file", "", "", papertree.UntitledPaper},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaf := &papertree.Node{Kind: papertree.KindSegment, Text: "We measure flow.", Tokens: 4}
			root := &papertree.Node{Kind: papertree.KindRoot, Title: tc.title, Children: []*papertree.Node{
				{Kind: papertree.KindSection, Title: "2 Method", Children: []*papertree.Node{leaf}},
			}}
			d := NewPaperData(&papertree.Paper{ID: 1, Title: tc.title, Path: tc.path, Root: root}, nil, nil, nil)
			o := -1
			for i, n := range d.Nodes {
				if n == leaf || n.Text == leaf.Text {
					o = i
				}
			}
			if o < 0 {
				t.Fatal("leaf not found")
			}
			titles, _ := evidencePath(d, o)
			if len(titles) != 2 || titles[0] != tc.want || titles[1] != "2 Method" {
				t.Errorf("path %q, want [%q \"2 Method\"]", titles, tc.want)
			}
		})
	}
}
