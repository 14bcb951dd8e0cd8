package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// A symbol the question types with an underscore subscript ("x_max") is
// held by a paper that prints it glued ("xmax"), alone and next to the
// word it follows: no absence is claimed of it.
func TestSubscriptHeldGlued(t *testing.T) {
	ctx := context.Background()
	body := "The model depends weakly on the cutoff, which we fix to xmax = 100 for all experiments."
	seg := &papertree.Node{Kind: papertree.KindSegment, Text: body, Tokens: papertree.CountTokens(body)}
	p := &papertree.Paper{Title: "Word vectors", Path: "/p.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Word vectors",
		Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "1 Model", Children: []*papertree.Node{seg}}}}}
	ix, ids := storeIndexWith(t, p)
	id := ids[0]
	holders := WordHolders(ctx, ix)
	if ids, ok := holders("x_max"); !ok || len(ids) != 1 || ids[0] != id {
		t.Errorf("holders(x_max) = %v, %v; want [%d]", ids, ok, id)
	}
	if ids, ok := holders("y_max"); !ok || len(ids) != 0 {
		t.Errorf("holders(y_max) = %v, %v; want none", ids, ok)
	}
	together := Together(ctx, ix)
	if yes, ok := together("cutoff", "x_max"); !ok || !yes {
		t.Errorf("together(cutoff, x_max) = %v, %v; want true", yes, ok)
	}
	if yes, ok := together("cutoff", "y_max"); !ok || yes {
		t.Errorf("together(cutoff, y_max) = %v, %v; want false", yes, ok)
	}
	in := TogetherIn(ctx, ix)
	if ids, body, ok := in("cutoff", "x_max"); !ok || !slices.Equal(ids, []int64{id}) || !slices.Equal(body, []int64{id}) {
		t.Errorf("in(cutoff, x_max) = %v, %v, %v; want [%d] in its body", ids, body, ok, id)
	}
	if ids, _, ok := in("cutoff", "y_max"); !ok || len(ids) != 0 {
		t.Errorf("in(cutoff, y_max) = %v, %v; want none", ids, ok)
	}
	if got := gluedSubscripts("cutoff x_max, u_v_w"); got != "cutoff xmax, u_v_w" {
		t.Errorf("gluedSubscripts = %q", got)
	}
}
