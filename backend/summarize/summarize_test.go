package summarize

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestExtractive(t *testing.T) {
	seg := "We fine-tune BERT on SQuAD with a learning rate of 3e-5. The batch size is 32. " +
		"Fine-tuning BERT on SQuAD takes one hour on a TPU. Table 2 shows the results."
	tests := []struct {
		name     string
		in       Input
		contains []string
		absent   []string
	}{
		{"anchored to path", Input{PaperTitle: "BERT", Path: []string{"4 Experiments", "4.2 SQuAD"}, Segment: seg},
			[]string{"4 Experiments > 4.2 SQuAD. ", "fine-tune BERT on SQuAD"}, []string{"Continues"}},
		{"carries previous key terms", Input{Path: []string{"3 Method"}, Segment: seg, PrevSummary: "3 Method. Masked language modelling objective objective."},
			[]string{"(Continues: objective"}, nil},
		{"empty segment keeps path", Input{Path: []string{"1 Intro"}}, []string{"1 Intro."}, nil},
		{"no path", Input{Segment: "A single sentence about graphs."}, []string{"A single sentence about graphs."}, []string{">"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Extractive(tt.in)
			for _, c := range tt.contains {
				if !strings.Contains(got, c) {
					t.Errorf("summary %q lacks %q", got, c)
				}
			}
			for _, c := range tt.absent {
				if strings.Contains(got, c) {
					t.Errorf("summary %q contains %q", got, c)
				}
			}
			if tok := papertree.CountTokens(got); tok > MaxTokens+40 {
				t.Errorf("summary too long: %d tokens", tok)
			}
		})
	}
}

func TestExtractiveBoundsLongSegments(t *testing.T) {
	long := strings.Repeat("Transformers encode long documents with sparse attention patterns over many layers. ", 60)
	got := Extractive(Input{Path: []string{"2 Background"}, Segment: long})
	if tok := papertree.CountTokens(got); tok > MaxTokens+20 {
		t.Fatalf("summary has %d tokens, want about %d", tok, MaxTokens)
	}
}

func TestPaperFillsSegmentsInSectionOrder(t *testing.T) {
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "1 Intro", Children: []*papertree.Node{
			{Kind: papertree.KindSegment, Text: "Graph neural networks are popular. They learn node embeddings."},
			{Kind: papertree.KindSegment, Text: "We study robustness."},
			{Kind: papertree.KindCaption, Text: "Figure 1: A graph."},
		}},
	}}
	Paper(&papertree.Paper{Title: "P", Root: root})
	segs := root.Children[0].Children
	if !strings.HasPrefix(segs[0].Summary, "1 Intro. ") {
		t.Fatalf("first summary %q", segs[0].Summary)
	}
	if !strings.Contains(segs[1].Summary, "Continues") {
		t.Fatalf("second summary should carry terms of the first: %q", segs[1].Summary)
	}
	if segs[2].Summary != "" {
		t.Fatalf("captions get no summary: %q", segs[2].Summary)
	}
}
