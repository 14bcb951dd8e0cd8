package library

import (
	"context"
	"strings"
	"testing"
)

// A question asking for a paper's gist is answered from its abstract, with
// the sentences in which the paper says what it does; one asking about a
// concept of the paper gets the ordinary answer.
func TestAskPaperGist(t *testing.T) {
	ctx := context.Background()
	l, _, info := glyphsLibrary(t)
	for _, tc := range []struct {
		name, q string
		scope   []int64
		gist    bool
	}{
		{"what it proposes", "What does this paper propose?", []int64{info.ID}, true},
		{"summary", "Summarize the paper.", []int64{info.ID}, true},
		{"named by its title words", "What is the main contribution of Recovering Paper Structure from Glyphs?", []int64{info.ID}, true},
		{"a concept of the paper", "What is the main idea of glyph grouping?", []int64{info.ID}, false},
		{"not a gist question", "How are glyphs grouped into words?", []int64{info.ID}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := l.Ask(ctx, AskRequest{Question: tc.q, PaperIDs: tc.scope, NoHistory: true})
			if err != nil {
				t.Fatal(err)
			}
			fromAbstract := len(a.Evidence) > 0
			for _, e := range a.Evidence {
				fromAbstract = fromAbstract && len(e.Path) > 1 && e.Path[len(e.Path)-1] == "Abstract"
			}
			if fromAbstract != tc.gist {
				t.Fatalf("evidence from the abstract only: %v, want %v (%q)", fromAbstract, tc.gist, a.Text)
			}
			if tc.gist && (!strings.HasPrefix(a.Text, "We parse positioned glyphs") || a.NotFound || a.Mode != "extractive") {
				t.Errorf("gist answer %q (mode %s, not found %v), want the abstract's 'We parse ...' first", a.Text, a.Mode, a.NotFound)
			}
		})
	}
}
