package qasper

import (
	"math"
	"testing"
)

func TestSetF1(t *testing.T) {
	cases := []struct {
		name string
		pred []string
		gold []string
		want float64
	}{
		{"both empty", nil, nil, 1},
		{"gold empty", []string{"a"}, nil, 0},
		{"pred empty", nil, []string{"a"}, 0},
		{"exact", []string{"a", "b"}, []string{"b", "a"}, 1},
		{"half", []string{"a", "b"}, []string{"a"}, 2 * 0.5 * 1 / 1.5},
		{"disjoint", []string{"a", "b"}, []string{"c"}, 0},
		{"duplicate gold counted once", []string{"a"}, []string{"a", "a"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pred := map[string]bool{}
			for _, p := range c.pred {
				pred[p] = true
			}
			if got := setF1(pred, c.gold); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("setF1 = %v, want %v", got, c.want)
			}
		})
	}
}

type fixed struct{ scores []float64 }

func (f fixed) Name() string { return "fixed" }
func (f fixed) Prepare([]string) (func(string) ([]float64, error), error) {
	return func(string) ([]float64, error) { return f.scores, nil }, nil
}

func TestEvaluate(t *testing.T) {
	p := Paper{
		ID:         "p",
		Paragraphs: []string{"p0", "p1", "p2", "p3"},
		Questions: []Question{
			{ID: "q1", Gold: [][]string{{"p2"}, {"p0", "p3"}}}, // ranked: p2 first
			{ID: "q2", Gold: [][]string{{}}},                   // no evidence: F1 0, not ranked
			{ID: "q3", Gold: [][]string{{"missing"}}},          // gold not among paragraphs
		},
	}
	m, err := Evaluate([]Paper{p}, fixed{[]float64{0.1, 0.5, 0.9, 0.2}}) // rank p2 p1 p3 p0
	if err != nil {
		t.Fatal(err)
	}
	if m.Questions != 3 || m.Ranked != 1 {
		t.Fatalf("questions %d ranked %d, want 3 and 1", m.Questions, m.Ranked)
	}
	if m.Recall1 != 1 || m.MRR != 1 || m.Recall3 != 1 {
		t.Errorf("R@1 %v R@3 %v MRR %v, want 1", m.Recall1, m.Recall3, m.MRR)
	}
	// q1 top-2 {p2,p1} vs {p2}: F1 2/3; q2 and q3: 0.
	if want := (2.0 / 3) / 3; math.Abs(m.EvidenceF1-want) > 1e-9 {
		t.Errorf("evidence F1 %v, want %v", m.EvidenceF1, want)
	}
}

func TestBM25(t *testing.T) {
	split := func(s string) []string {
		var out []string
		word := ""
		for _, r := range s + " " {
			if r == ' ' {
				if word != "" {
					out = append(out, word)
				}
				word = ""
			} else {
				word += string(r)
			}
		}
		return out
	}
	m := BM25{K1: 1.2, B: 0.75, Analyze: split}
	score, err := m.Prepare([]string{"cat sat mat", "dog dog dog", "cat cat", "bird"})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := score("cat")
	// N=4, n=2: idf = ln(1 + 2.5/2.5) = ln 2; avgdl = 9/4.
	idf := math.Log(2)
	want0 := idf * 1 * 2.2 / (1 + 1.2*(0.25+0.75*3/2.25))
	want2 := idf * 2 * 2.2 / (2 + 1.2*(0.25+0.75*2/2.25))
	if math.Abs(s[0]-want0) > 1e-9 || math.Abs(s[2]-want2) > 1e-9 || s[1] != 0 || s[3] != 0 {
		t.Errorf("scores %v, want [%v 0 %v 0]", s, want0, want2)
	}
}

func TestSplitDeterministic(t *testing.T) {
	ids := []Paper{{ID: "1602.07563"}, {ID: "1909.00001"}, {ID: "2001.12345"}, {ID: "1811.00002"}}
	b1, h1 := Split(ids)
	b2, h2 := Split(ids[1:])
	held := map[string]bool{}
	for _, p := range h1 {
		held[p.ID] = true
	}
	for _, p := range h2 {
		if !held[p.ID] {
			t.Errorf("paper %s changed halves when the set changed", p.ID)
		}
	}
	if len(b1)+len(h1) != 4 || len(b2)+len(h2) != 3 {
		t.Error("split lost papers")
	}
}
