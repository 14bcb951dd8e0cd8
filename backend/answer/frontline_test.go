package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// TestFrontLineNotQuoted: an author or affiliation line of the front
// matter is not the quoted answer when a readable sentence of the evidence
// holds the question's words; it is quoted for words of its own the
// question asks about.
func TestFrontLineNotQuoted(t *testing.T) {
	emb := embedding.NewBuiltin()
	title := "Sparse Graph Parsing"
	front := papertree.Evidence{Kind: papertree.KindSegment, Role: papertree.RoleFrontMatter, PaperTitle: title, Score: 1.0,
		Text: "Maria Brandt and Kenji Okafor Department of Computer Science, University of Toronto, Toronto, Canada"}
	abs := papertree.Evidence{Kind: papertree.KindSegment, Role: papertree.RoleAbstract, PaperTitle: title, Score: 0.6,
		Text: "Dependency parsers are slow on long sentences. We propose a sparse graph parser that prunes arcs before scoring them."}
	tests := []struct {
		question, contains, absent string
	}{
		{"What does the Brandt and Okafor paper propose?", "sparse graph parser", "Kenji Okafor"},
		{"Which university are Brandt and Okafor at?", "University of Toronto", ""},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, Input{Question: tt.question, Evidence: []papertree.Evidence{front, abs}}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.Text, tt.contains) || tt.absent != "" && strings.Contains(out.Text, tt.absent) {
				t.Fatalf("answer %q: want %q quoted, not %q", out.Text, tt.contains, tt.absent)
			}
		})
	}
	if !proseSentence("We propose TikTok to mitigate double-fetch bugs.") || proseSentence("Proceedings of the 2019 Conference on Empirical Methods in Natural Language Processing, pages 1–10") ||
		proseSentence("Geoffrey E. Hinton hinton@cs.toronto.edu Simon Osindero Department of Computer Science") {
		t.Fatal("proseSentence misreads prose or a front-matter line")
	}
}
