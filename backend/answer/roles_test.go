package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A table leaf is quoted one row at a time with its headers; a formula or
// code leaf is never the quoted sentence when a prose sentence of the
// evidence holds the question's words, even one that reads like prose.
func TestLeafRoles(t *testing.T) {
	emb := embedding.NewBuiltin()
	grid := papertree.FormatTable([]string{"Model", "Layers", "Hidden size", "Heads", "Params"},
		[][]string{{"ViT-Base", "12", "768", "12", "86M"}, {"ViT-Large", "24", "1024", "16", "307M"}, {"ViT-Huge", "32", "1280", "16", "632M"}})
	tests := []struct {
		name, question string
		ev             []papertree.Evidence
		want, never    string
	}{
		{"table row with its headers", "How many parameters does ViT-Large have?",
			[]papertree.Evidence{
				{Kind: papertree.KindSegment, Role: papertree.RoleTable, Text: grid, Score: 0.8},
				{Kind: papertree.KindSegment, Text: "We scale the model in depth and width and report the parameters of each variant.", Score: 0.6},
			},
			"ViT-Large: Layers 24, Hidden size 1024, Heads 16, Params 307M [1]", "ViT-Huge"},
		{"formula leaf not quoted", "How is the training loss weighted for rare co-occurrence pairs?",
			[]papertree.Evidence{
				{Kind: papertree.KindSegment, Role: papertree.RoleFormula, Text: "the training loss is weighted by f(X) for rare co-occurrence pairs (8)", Score: 0.9},
				{Kind: papertree.KindSegment, Text: "Rare co-occurrence pairs are noisy, so the training loss weighting gives them less weight.", Score: 0.5},
			},
			"Rare co-occurrence pairs are noisy", "(8)"},
		{"code leaf not quoted", "How are residuals computed in ordered boosting?",
			[]papertree.Evidence{
				{Kind: papertree.KindSegment, Role: papertree.RoleCode, Text: "Residuals in ordered boosting are computed for each example in turn by the model of the previous ones.", Score: 0.9},
				{Kind: papertree.KindSegment, Text: "Ordered boosting computes the residuals of each example with a model trained without it.", Score: 0.5},
			},
			"Ordered boosting computes the residuals", "in turn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, nf, _, err := Extractive(context.Background(), emb, tc.question, tc.ev, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if nf || !strings.HasPrefix(text, tc.want) || strings.Contains(text, tc.never) {
				t.Errorf("answer %q (not found %v), want it to open with %q and not hold %q", text, nf, tc.want, tc.never)
			}
		})
	}
}
