package retrieve

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	querypkg "github.com/papertree/papertree/backend/query"
)

// TestDecidingHedge: when no sentence of the selection can decide a yes/no
// question, the best deciding sentence of the chosen paper enters the
// evidence, the least relevant passage making room; when one can, nothing
// changes.
func TestDecidingHedge(t *testing.T) {
	leaf := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	intro := "We present a new parser for dependency trees. It is fast and accurate on many treebanks."
	method := "The parser reads the sentence once from left to right. The network uses pretrained word embeddings as its input."
	weak := strings.Repeat("Parsing has a long history in linguistics. ", 6)
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "1 Introduction", Children: []*papertree.Node{leaf(intro), leaf(weak)}},
		{Kind: papertree.KindSection, Title: "3 Method", Children: []*papertree.Node{leaf(method)}},
	}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	at := map[string]int{}
	for o, n := range d.Nodes {
		at[n.Text] = o
	}
	whole := func(text string, S float64) cand {
		n := d.Nodes[at[text]]
		return cand{d: d, o: at[text], S: S, cost: n.Tokens, text: n.Text, score: S}
	}
	const deciding = "The network uses pretrained word embeddings as its input."
	// A stand-in for the answer step's rules: only the sentence that says
	// what is asked decides.
	decides := func(s, _, _ string) float64 {
		if strings.Contains(s, "pretrained word embeddings") {
			return 0.8
		}
		return 0
	}
	q := querypkg.Parse("Does the network use pretrained word embeddings?")
	pool := []cand{whole(intro, 0.9), whole(weak, 0.3), whole(method, 0.5)}
	cost := func(cs []cand) int {
		n := 0
		for _, c := range cs {
			n += c.cost
		}
		return n
	}

	t.Run("room left: the sentence enters alone", func(t *testing.T) {
		sel := []cand{whole(intro, 0.9)}
		out := decidingHedge(sel, pool, 512, q, decides)
		if len(out) != 2 || out[1].o != at[method] || out[1].text != deciding || !out[1].trim {
			t.Fatalf("want the deciding sentence added, got %+v", out)
		}
	})
	t.Run("budget full: the least relevant passage makes room, never the best", func(t *testing.T) {
		sel := []cand{whole(intro, 0.9), whole(weak, 0.3)}
		budget := cost(sel)
		out := decidingHedge(sel, pool, budget, q, decides)
		if cost(out) > budget {
			t.Fatalf("used %d tokens of %d", cost(out), budget)
		}
		if len(out) != 2 || out[0].o != at[intro] || out[1].text != deciding {
			t.Fatalf("want intro and the deciding sentence, got %+v", out)
		}
	})
	t.Run("its passage selected: the sentence joins the kept ones", func(t *testing.T) {
		part := whole(method, 0.5)
		part.text, part.trim = "The parser reads the sentence once from left to right.", true
		part.cost = papertree.CountTokens(part.text)
		out := decidingHedge([]cand{whole(intro, 0.9), part}, pool, 512, q, decides)
		if len(out) != 2 || out[1].text != method || out[1].trim {
			t.Fatalf("want the method passage whole again, got %+v", out)
		}
	})
	t.Run("the evidence can decide already: unchanged", func(t *testing.T) {
		sel := []cand{whole(intro, 0.9), whole(method, 0.5)}
		out := decidingHedge(sel, pool, 512, q, decides)
		if len(out) != 2 || out[0].text != intro || out[1].text != method {
			t.Fatalf("selection changed: %+v", out)
		}
	})
	t.Run("nothing decides, or not a yes/no question: unchanged", func(t *testing.T) {
		sel := []cand{whole(intro, 0.9)}
		if out := decidingHedge(sel, pool, 512, q, func(string, string, string) float64 { return 0 }); len(out) != 1 {
			t.Fatalf("selection changed: %+v", out)
		}
		if out := decidingHedge(sel, pool, 512, q, nil); len(out) != 1 {
			t.Fatalf("selection changed: %+v", out)
		}
	})
	t.Run("no room even after dropping: unchanged", func(t *testing.T) {
		sel := []cand{whole(intro, 0.9)}
		if out := decidingHedge(sel, pool, sel[0].cost, q, decides); len(out) != 1 || out[0].text != intro {
			t.Fatalf("selection changed: %+v", out)
		}
	})
	t.Run("a sentence that decides only with the one before it brings it along", func(t *testing.T) {
		const anaphor = "These networks do not use them."
		method2 := "The network reads pretrained word embeddings. " + anaphor + " The parser is fast."
		root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
			{Kind: papertree.KindSection, Title: "1 Introduction", Children: []*papertree.Node{leaf(intro)}},
			{Kind: papertree.KindSection, Title: "3 Method", Children: []*papertree.Node{leaf(method2)}},
		}}
		d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
		var in, m cand
		for o, n := range d.Nodes {
			switch n.Text {
			case intro:
				in = cand{d: d, o: o, S: 0.9, cost: n.Tokens, text: n.Text, score: 0.9}
			case method2:
				m = cand{d: d, o: o, S: 0.5, cost: n.Tokens, text: n.Text, score: 0.5}
			}
		}
		// A stand-in: the sentence decides only with its antecedent.
		withBefore := func(s, _, before string) float64 {
			if s == anaphor && strings.Contains(before, "pretrained word embeddings") {
				return 0.7
			}
			return 0
		}
		out := decidingHedge([]cand{in}, []cand{in, m}, 512, q, withBefore)
		if len(out) != 2 || out[1].text != "The network reads pretrained word embeddings. "+anaphor {
			t.Fatalf("want the sentence and the one before it added, got %+v", out)
		}
	})
}
