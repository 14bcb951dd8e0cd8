package retrieve

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	querypkg "github.com/papertree/papertree/backend/query"
)

// TestRefillTrimmed: the budget the selection left unused goes back to the
// trimmed passages of the section holding most of the evidence, and to no
// other passage; no passage is added or dropped.
func TestRefillTrimmed(t *testing.T) {
	leaf := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	// The introduction's answering sentence is longer than a short trim
	// and ranks below a sentence that repeats the question's words, so the
	// trim leaves it out.
	intro := "Data migration between schemas is synthesized because schemas change, and a Datalog program is the output. " +
		strings.Repeat("Schemas change often in practice and the programs that use them change too. ", 3) +
		"Since foreign keys and the triggers that the source and target databases declare constrain the order in which rows may be written, " +
		"the migration must be synthesized as a Datalog program whose rules respect that order."
	other := strings.Repeat("Related tools synthesize SQL queries from examples given by users. ", 4) +
		"Data migration is also studied for document stores."
	side := "Table 3 lists the running time of every benchmark in seconds."
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "1 Introduction", Children: []*papertree.Node{leaf(intro), leaf(side)}},
		{Kind: papertree.KindSection, Title: "6 Related Work", Children: []*papertree.Node{leaf(other)}},
	}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	var io, so, oo int
	for o, n := range d.Nodes {
		switch n.Text {
		case intro:
			io = o
		case side:
			so = o
		case other:
			oo = o
		}
	}
	q := querypkg.Parse("Why is data migration between schemas synthesized as a Datalog program?")
	whole := func(o int, S float64) cand {
		n := d.Nodes[o]
		return cand{d: d, o: o, S: S, cost: n.Tokens, text: n.Text, score: S}
	}
	trimmed := func(o int, S float64, tokens int) cand { return whole(o, S).trimmedTo(tokens, q) }
	const answer = "must be synthesized as a Datalog program"

	t.Run("precondition: the short trim lacks the answering sentence", func(t *testing.T) {
		if c := trimmed(io, 0.9, 30); strings.Contains(c.text, answer) || !c.trim {
			t.Fatalf("trim to 30 tokens kept %q", c.text)
		}
	})
	t.Run("room left: the focus section's trimmed passage regains its sentences", func(t *testing.T) {
		sel := []cand{trimmed(io, 0.9, 30), whole(so, 0.5)}
		out := refillTrimmed(sel, 512, q)
		if len(out) != 2 || out[0].o != io || out[1].o != so {
			t.Fatalf("passages changed: %v", out)
		}
		if out[0].text != intro || out[0].trim {
			t.Fatalf("with room for the whole leaf it should be whole, got %q", out[0].text)
		}
	})
	t.Run("some room: the best sentences that fit, the kept ones stay", func(t *testing.T) {
		sel := []cand{trimmed(io, 0.9, 30), whole(so, 0.5)}
		kept := sel[0].text
		// Room for the answering sentence, not for the whole leaf.
		budget := sel[0].cost + sel[1].cost + papertree.CountTokens(intro[strings.Index(intro, "Since"):]) + 5
		out := refillTrimmed(sel, budget, q)
		used := 0
		for _, c := range out {
			used += c.cost
		}
		if used > budget {
			t.Fatalf("used %d tokens of %d", used, budget)
		}
		g := out[0]
		if g.cost <= sel[0].cost || g.text == intro || !strings.Contains(oneLine(g.text), oneLine(kept)) {
			t.Fatalf("grown passage %q (%d tokens) does not extend %q (%d)", g.text, g.cost, kept, sel[0].cost)
		}
		if !strings.Contains(g.text, answer) {
			t.Fatalf("grown passage lacks the answering sentence: %q", g.text)
		}
	})
	t.Run("a trimmed passage of another section stays trimmed", func(t *testing.T) {
		// The introduction holds most tokens; the related-work hedge is
		// trimmed and must not grow.
		sel := []cand{whole(io, 0.9), trimmed(oo, 0.6, 20)}
		out := refillTrimmed(sel, 1024, q)
		if out[1].cost != sel[1].cost || out[1].text != sel[1].text {
			t.Fatalf("the other section's passage grew: %q", out[1].text)
		}
	})
	t.Run("no room: nothing changes", func(t *testing.T) {
		sel := []cand{trimmed(io, 0.9, 30), whole(so, 0.5)}
		out := refillTrimmed(sel, sel[0].cost+sel[1].cost+minTrim-1, q)
		if out[0].text != sel[0].text {
			t.Fatalf("grew without room: %q", out[0].text)
		}
	})
}
