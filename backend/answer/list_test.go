package answer

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestComposeList(t *testing.T) {
	holders := map[string][]int64{"adam": {3, 7}, "dropout": {7}}
	c := Claims{Holders: func(w string) ([]int64, bool) { return holders[w], true }}
	tests := []struct {
		name       string
		findings   []papertree.PaperFinding
		topic      []string
		scope      []int64
		notFound   bool
		wantText   []string
		wantAbsent []string
	}{
		{"a list with citations", []papertree.PaperFinding{
			{PaperID: 7, Title: "Transformers", Sentence: "We use Adam with β1 = 0.9.", Cite: 1},
			{PaperID: 3, Title: "ResNeXt", Sentence: "Our use of Adam as optimizer is unconventional.", Cite: 2}},
			[]string{"adam"}, nil, false, []string{"2 papers of the library state it:", "1. Transformers: “We use Adam with β1 = 0.9.” [1]", "2. ResNeXt:"}, nil},
		{"none states it, the word is held: no absence claim", nil, []string{"adam"}, nil, true,
			[]string{"No paper in this library says so"}, nil},
		{"none states it, no paper holds the word", nil, []string{"superconductor"}, nil, true,
			[]string{"No paper in this library says so", "No paper of this library mentions “superconductor”."}, []string{"superconductor"}},
		{"scoped: held outside the scope only", nil, []string{"dropout"}, []int64{3, 5}, true,
			[]string{"None of these papers says so", "None of these papers mentions “dropout”."}, []string{"dropout"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cc := c
			cc.Scope = tc.scope
			out := ComposeList(tc.findings, tc.topic, 0, cc)
			if out.NotFound != tc.notFound {
				t.Errorf("not found %v, want %v", out.NotFound, tc.notFound)
			}
			for _, w := range tc.wantText {
				if !strings.Contains(out.Text, w) {
					t.Errorf("text %q lacks %q", out.Text, w)
				}
			}
			var absent []string
			for _, a := range out.Absent {
				absent = append(absent, a.Word)
			}
			if strings.Join(absent, ",") != strings.Join(tc.wantAbsent, ",") {
				t.Errorf("absent %v, want %v", absent, tc.wantAbsent)
			}
			if !tc.notFound && len(out.Cited) != len(tc.findings) {
				t.Errorf("cited %v", out.Cited)
			}
		})
	}
	// Without a way to check, nothing is claimed absent.
	if out := ComposeList(nil, []string{"x"}, 0, Claims{}); len(out.Absent) != 0 || strings.Contains(out.Text, "mentions") {
		t.Errorf("unchecked absence claimed: %q", out.Text)
	}
	// Papers past the bound of papers read are said to be unread, and then
	// no paper is said to lack the property.
	out := ComposeList(nil, []string{"dropout"}, 12, c)
	if !out.NotFound || strings.Contains(out.Text, "No paper in this library says so") || !strings.Contains(out.Text, "12 more papers mention “dropout” but were not read") {
		t.Errorf("unread papers: %q", out.Text)
	}
}
