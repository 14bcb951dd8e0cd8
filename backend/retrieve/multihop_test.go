package retrieve

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// scripted is a Strategy that answers each query from a table (by the
// first word of the query) and records the requests it saw.
type scripted struct {
	ev   map[string][]papertree.Evidence
	seen []Request
}

func (s *scripted) Name() string        { return "scripted" }
func (s *scripted) Description() string { return "test strategy" }
func (s *scripted) Retrieve(_ context.Context, _ Index, req Request) (Result, error) {
	s.seen = append(s.seen, req)
	first, _, _ := strings.Cut(req.Query, " ")
	var out []papertree.Evidence
	used := 0
	for _, e := range s.ev[first] {
		if used+e.Tokens > req.Budget {
			continue
		}
		used += e.Tokens
		out = append(out, e)
	}
	return Result{Evidence: out, Diag: papertree.Diagnostics{TokensUsed: used, Budget: req.Budget, Timings: map[string]float64{"x": 1}}}, nil
}

func ev(paper, node int64, order, tokens int, text string) papertree.Evidence {
	return papertree.Evidence{PaperID: paper, PaperTitle: "P" + string(rune('0'+paper)), NodeID: node, Order: order, Tokens: tokens,
		Text: text, Path: []string{"P", "Sec"}, PathIDs: []int64{1, 2}, SectionID: node / 10, Score: float64(node) / 100}
}

func TestRetrieveMultiHop(t *testing.T) {
	table := map[string][]papertree.Evidence{
		"who":   {ev(1, 12, 5, 40, "BERT was trained on BooksCorpus."), ev(1, 11, 2, 30, "We use BERT.")},
		"which": {ev(1, 11, 2, 30, "We use BERT."), ev(2, 31, 1, 50, "BooksCorpus has 800M words.")},
		"how":   {ev(1, 13, 9, 100, "Size.")},
	}
	cases := []struct {
		name      string
		subs      []string
		ents      [][]string // per Entities call
		budget    int
		hops      int
		wantQs    []string
		wantBud   []int
		wantNodes []int64
	}{
		{
			name: "entities carried, budget shared, evidence merged in document order",
			subs: []string{"who trained it", "which corpus", "how big"}, ents: [][]string{{"BERT", "BooksCorpus"}, {"BooksCorpus", "800M words"}},
			budget: 300, hops: 3,
			wantQs:    []string{"who trained it", "which corpus (BERT; BooksCorpus)", "how big (800M words)"},
			wantBud:   []int{100, 115, 180},
			wantNodes: []int64{11, 12, 13, 31},
		},
		{
			name: "two hops without new entities stop early",
			subs: []string{"who a", "which b", "how c"}, ents: [][]string{nil, nil},
			budget: 300, hops: 3,
			wantQs:    []string{"who a", "which b"},
			wantBud:   []int{100, 115},
			wantNodes: []int64{11, 12, 31},
		},
		{
			name: "sub-queries beyond H are dropped",
			subs: []string{"who a", "which b", "how c"}, ents: [][]string{{"BERT"}},
			budget: 300, hops: 2,
			wantQs:    []string{"who a", "which b (BERT)"},
			wantBud:   []int{150, 230},
			wantNodes: []int64{11, 12, 31},
		},
		{
			name: "a single sub-query is one plain retrieval",
			subs: []string{"which corpus"}, budget: 200, hops: 3,
			wantQs: []string{"which corpus"}, wantBud: []int{200}, wantNodes: []int64{11, 31},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &scripted{ev: table}
			call := 0
			var texts []string
			h := MultiHop{
				Decompose: func(_ context.Context, q string, max int) []string {
					if max != c.hops {
						t.Errorf("Decompose max = %d, want %d", max, c.hops)
					}
					return append([]string(nil), c.subs...)
				},
				Entities: func(_ context.Context, text, next string) []string {
					texts = append(texts, text)
					call++
					if call > len(c.ents) {
						return nil
					}
					return c.ents[call-1]
				},
			}
			p := DefaultParams()
			p.Hops = c.hops
			res, hops, err := RetrieveMultiHop(context.Background(), s, nil, Request{Query: "original question", Budget: c.budget, Params: p}, h)
			if err != nil {
				t.Fatal(err)
			}
			var qs []string
			var buds []int
			for _, r := range s.seen {
				qs = append(qs, r.Query)
				buds = append(buds, r.Budget)
			}
			if !reflect.DeepEqual(qs, c.wantQs) || !reflect.DeepEqual(buds, c.wantBud) {
				t.Errorf("queries %q budgets %v, want %q %v", qs, buds, c.wantQs, c.wantBud)
			}
			var nodes []int64
			for _, e := range res.Evidence {
				nodes = append(nodes, e.NodeID)
			}
			if !reflect.DeepEqual(nodes, c.wantNodes) {
				t.Errorf("evidence nodes %v, want %v", nodes, c.wantNodes)
			}
			if res.Diag.TokensUsed > c.budget || res.Diag.Budget != c.budget {
				t.Errorf("tokens %d of budget %d (diag budget %d)", res.Diag.TokensUsed, c.budget, res.Diag.Budget)
			}
			if len(hops) != len(c.wantQs) {
				t.Errorf("hops = %+v", hops)
			}
			if len(c.subs) > 1 && len(texts) > 0 && strings.Contains(texts[len(texts)-1], "We use BERT.") && len(texts) > 1 {
				t.Errorf("entity text of a later hop repeats evidence of an earlier one: %q", texts[len(texts)-1])
			}
			if len(c.subs) > 1 && !strings.HasPrefix(res.Context, "# P1\n## Sec\n[1] ") {
				t.Errorf("context = %q", res.Context)
			}
		})
	}
}

func TestMergeResults(t *testing.T) {
	a := Result{Evidence: []papertree.Evidence{ev(2, 21, 3, 10, "b"), ev(2, 20, 1, 10, "a")}}
	low := ev(1, 5, 0, 10, "c")
	high := low
	high.Score = 0.9
	b := Result{Evidence: []papertree.Evidence{low, ev(2, 20, 1, 10, "a")}}
	c := Result{Evidence: []papertree.Evidence{high}, Diag: papertree.Diagnostics{Fallbacks: []string{"f1"}}}
	a.Diag.Fallbacks = []string{"f1"}
	m := MergeResults([]Result{a, b, c}, 64)
	var got []int64
	for _, e := range m.Evidence {
		got = append(got, e.NodeID)
	}
	if !reflect.DeepEqual(got, []int64{20, 21, 5}) {
		t.Errorf("order %v: papers by first appearance, document order inside", got)
	}
	if m.Evidence[2].Score != 0.9 || m.Diag.TokensUsed != 30 || m.Diag.Budget != 64 || m.Diag.Sections != 2 {
		t.Errorf("merged = %+v", m.Diag)
	}
	if !reflect.DeepEqual(m.Diag.Fallbacks, []string{"f1"}) {
		t.Errorf("fallbacks %v", m.Diag.Fallbacks)
	}
	if strings.Count(m.Context, "# P") != 2 {
		t.Errorf("context = %q", m.Context)
	}
}
