package store

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestSpellLikeLibrary: a name the question glues to its number takes the
// papers' spelling when more passages write it apart than glued.
func TestSpellLikeLibrary(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	p := synthPaper("/lib/a.pdf", 21, 2, 1, 2)
	leaf := p.Root.Children[0].Children[0].Children[0]
	leaf.Text = "We compare GPT-2 with ResNet 50 features; the FP16 runs use word2vec and BERT-base. T5 and Llama 2 too."
	p.Root.Children[1].Children[0].Children[0].Text = "GPT-2 is large; Llama2 and Llama2 again."
	// Another paper writes one of the names glued, in passing.
	o := synthPaper("/lib/b.pdf", 22, 2, 1, 2)
	o.Root.Children[0].Children[0].Children[0].Text = "Models such as GPT2 and ROBERTA."
	for _, x := range []*papertree.Paper{p, o} {
		if _, err := s.SavePaper(ctx, x, Vectors{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, q, want string }{
		{"hyphenated in the paper", "How many parameters does GPT2 have?", "How many parameters does GPT-2 have?"},
		{"space in the paper", "Which layer of resnet50 is used?", "Which layer of resnet-50 is used?"},
		{"glued in the paper", "Are FP16 runs stable?", "Are FP16 runs stable?"},
		{"as many passages glued as apart", "Is Llama2 used?", "Is Llama2 used?"},
		{"not in the library", "Is GPT3 compared?", "Is GPT3 compared?"},
		{"already split", "Is GPT-2 compared?", "Is GPT-2 compared?"},
		{"two names", "GPT2 or ResNet50?", "GPT-2 or ResNet-50?"},
		{"no glued name", "What is the learning rate?", "What is the learning rate?"},
		{"inside a longer word", "Is word2vec used?", "Is word2vec used?"},
		{"hostile quotes", `GPT2" OR "x`, `GPT-2" OR "x`},
		{"only the first names of a pasted page", strings.Repeat("abc1 ", 8) + "GPT2", strings.Repeat("abc1 ", 8) + "GPT2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.SpellLikeLibrary(ctx, tc.q)
			if err != nil || got != tc.want {
				t.Errorf("SpellLikeLibrary(%q) = %q, %v; want %q", tc.q, got, err, tc.want)
			}
		})
	}
}
