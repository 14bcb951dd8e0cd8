package papertree

import (
	"reflect"
	"testing"
)

func TestEvidencePath(t *testing.T) {
	table := &Node{Kind: KindSegment, Role: RoleTable, ID: 9, Text: Table{Caption: "Table 3: Hyperparameters for training.", Header: []string{"Model", "Epochs"}, Rows: [][]string{{"ViT-B/16", "7"}}}.Format()}
	prose := &Node{Kind: KindSegment, ID: 9, Text: "We use Adam with a batch size of 4096."}
	caption := &Node{Kind: KindCaption, ID: 9, Text: "Figure 2b. Attention distance by head."}
	root := &Node{Kind: KindRoot, ID: 1, Title: "An Image Is Worth 16x16 Words"}
	titled := &Node{Kind: KindSection, ID: 2, Title: "B.1 Training"}
	untitled := &Node{Kind: KindSection, ID: 3}
	numbered := &Node{Kind: KindSection, ID: 4, Number: "C"}
	tests := []struct {
		name string
		path []*Node
		want []string
	}{
		{"titled sections as they are", []*Node{root, titled, prose}, []string{"An Image Is Worth 16x16 Words", "B.1 Training"}},
		{"an untitled section holding a table is named by the table", []*Node{root, untitled, table}, []string{"An Image Is Worth 16x16 Words", "Table 3"}},
		{"an untitled section holding a figure caption is named by the figure", []*Node{root, untitled, caption}, []string{"An Image Is Worth 16x16 Words", "Figure 2b"}},
		{"an untitled section with a number shows the number", []*Node{root, numbered, table}, []string{"An Image Is Worth 16x16 Words", "C"}},
		{"an untitled section holding prose is said to be untitled", []*Node{root, untitled, prose}, []string{"An Image Is Worth 16x16 Words", UntitledSection}},
		{"an untitled paper", []*Node{{Kind: KindRoot, ID: 1}, titled, prose}, []string{UntitledPaper, "B.1 Training"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ids := EvidencePath(tc.path)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("path %q, want %q", got, tc.want)
			}
			if len(ids) != len(got) || ids[0] != 1 {
				t.Errorf("ids %v for path %q: the ids of every section, the untitled ones too", ids, got)
			}
		})
	}
}

func TestDisplayPath(t *testing.T) {
	tests := []struct {
		name       string
		in, want   []string
		wantJoined string
	}{
		{"a stored path with an empty section", []string{"ViT", ""}, []string{"ViT", UntitledSection}, "ViT > Untitled section"},
		{"blank counts as empty", []string{"ViT", "  ", "A.1"}, []string{"ViT", UntitledSection, "A.1"}, "ViT > Untitled section > A.1"},
		{"an empty paper title", []string{"", "2 Method"}, []string{UntitledPaper, "2 Method"}, "Untitled paper > 2 Method"},
		{"nothing to name", []string{"ViT", "1 Introduction"}, []string{"ViT", "1 Introduction"}, "ViT > 1 Introduction"},
		{"no path", nil, []string{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DisplayPath(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("DisplayPath(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := JoinPath(tc.in); got != tc.wantJoined {
				t.Errorf("JoinPath(%q) = %q, want %q", tc.in, got, tc.wantJoined)
			}
		})
	}
}

func TestCaptionLabel(t *testing.T) {
	tab := func(c string) *Node {
		return &Node{Kind: KindSegment, Role: RoleTable, Text: Table{Caption: c, Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}}}.Format()}
	}
	tests := []struct {
		name string
		n    *Node
		want string
	}{
		{"table caption", tab("Table 3: Hyperparameters for training."), "Table 3"},
		{"roman numbering", tab("TABLE IV. Results on WMT."), "TABLE IV"},
		{"table without a caption", &Node{Kind: KindSegment, Role: RoleTable, Text: FormatTable([]string{"a", "b"}, [][]string{{"1", "2"}})}, ""},
		{"caption leaf with a sub-figure", &Node{Kind: KindCaption, Text: "Fig. 4a: Loss curves.\nmore"}, "Fig. 4a"},
		{"caption not opening with a label", &Node{Kind: KindCaption, Text: "Loss curves of Table 3 models."}, ""},
		{"prose never has one", &Node{Kind: KindSegment, Text: "Table 3 lists the hyperparameters."}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CaptionLabel(tc.n); got != tc.want {
				t.Errorf("CaptionLabel = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPaperName(t *testing.T) {
	for _, tc := range []struct{ name, title, path, want string }{
		{"a title", "Deep Learning", "/p/lecun.pdf", "Deep Learning"},
		{"no title: the file", "", "/p/shannon1945_memo.pdf", "shannon1945_memo.pdf"},
		{"a blank title: the file", "  ", "/p/x.pdf", "x.pdf"},
		{"neither", "", "", UntitledPaper},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PaperName(tc.title, tc.path); got != tc.want {
				t.Errorf("PaperName(%q, %q) = %q, want %q", tc.title, tc.path, got, tc.want)
			}
		})
	}
}
