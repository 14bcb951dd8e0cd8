package eval

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

func TestTokenF1(t *testing.T) {
	tests := []struct {
		name       string
		pred, gold string
		want       float64
	}{
		{"exact", "BERT base", "BERT base", 1},
		{"articles and punctuation ignored", "The BERT-base!", "bertbase", 1},
		{"partial", "a large BERT model", "BERT model", 0.8},
		{"disjoint", "yes", "no", 0},
		{"both empty", "", "", 1},
		{"pred empty", "", "x", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TokenF1(tt.pred, tt.gold); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("TokenF1(%q, %q) = %v, want %v", tt.pred, tt.gold, got, tt.want)
			}
		})
	}
}

func TestEvidenceF1(t *testing.T) {
	tests := []struct {
		name       string
		pred, gold []string
		want       float64
	}{
		{"both empty", nil, nil, 1},
		{"pred empty", nil, []string{"a"}, 0},
		{"gold empty", []string{"a"}, nil, 0},
		{"whitespace normalised", []string{"a  b"}, []string{"a b"}, 1},
		{"half", []string{"a", "b"}, []string{"a"}, 2 * 0.5 * 1 / 1.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EvidenceF1(tt.pred, tt.gold); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("EvidenceF1 = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEACE(t *testing.T) {
	g := map[string]float64{"a": 1}
	if got := EACE(g, map[string]float64{"a": 1}); got != 0 {
		t.Fatalf("perfect alignment EACE = %v", got)
	}
	if got := EACE(g, map[string]float64{"b": 1}); math.Abs(got-(-math.Log(EACEEpsilon))) > 1e-9 {
		t.Fatalf("missed section EACE = %v", got)
	}
}

func TestBuildQasperTreeNesting(t *testing.T) {
	q := &QasperPaper{ID: "x", Title: "T", Abstract: "An abstract."}
	add := func(name string, paras ...string) {
		q.FullText = append(q.FullText, struct {
			SectionName string   `json:"section_name"`
			Paragraphs  []string `json:"paragraphs"`
		}{name, paras})
	}
	add("Introduction", "Intro para.")
	add("Method", "Method para.")
	add("Method ::: Data", "Data para one.", "Data para two.")
	add("Method ::: Model", "Model para.")
	add("Method", "Back in method.")
	qt := BuildQasperTree(q, 512)
	got := []string{}
	for _, h := range papertree.Headings(qt.Paper.Root) {
		got = append(got, strings.Repeat("-", h.Level)+h.Text)
	}
	want := "-Introduction|-Method|--Data|--Model"
	if strings.Join(got, "|") != want {
		t.Fatalf("headings %v, want %s", got, want)
	}
	method := qt.Paper.Root.Children[1]
	last := method.Children[len(method.Children)-1]
	if last.Text != "Back in method." || qt.Para[last.Order] != "Back in method." {
		t.Fatalf("continued section paragraph misplaced: %+v", last)
	}
}

func TestQasperSmoke(t *testing.T) {
	data := shareddata.Dir(t, "qasper", "qasper-tune.json")
	if testing.Short() {
		t.Skip("short mode")
	}
	ctx := context.Background()
	for _, s := range []string{"pt-rag", "naive"} {
		rep, err := RunQasper(ctx, data, QasperOptions{Strategy: s, Budget: 512, Limit: 60})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Questions != 60 || rep.EvidenceF1Text <= 0.05 {
			t.Fatalf("%s: implausible report %+v", s, rep)
		}
		t.Logf("%s: evF1(text)=%.3f ansF1=%.3f SE=%.3f EACE=%.3f p50=%.2fms", s, rep.EvidenceF1Text, rep.AnswerF1, rep.SectionEntropy, rep.EACE, rep.LatencyP50)
	}
}
