package retrieve_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

func onePaper(title, path string, authors []string, texts ...string) *papertree.Paper {
	sec := &papertree.Node{Kind: papertree.KindSection, Title: "1 Introduction"}
	for _, t := range texts {
		sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Text: t, Tokens: papertree.CountTokens(t)})
	}
	return &papertree.Paper{Title: title, Path: path, Authors: authors, Pages: 1,
		Root: &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{sec}}}
}

// One weak name match never restricts a library-wide question to one
// paper: an all-capitals title whose lead is "THE ..." (no authors, OCR
// text) must not capture questions containing "the", and a paper that
// shares a surname with the one cited is searched alone only when its text
// holds what the question asks about.
func TestNoPaperCapturesTheLibrary(t *testing.T) {
	papers := []*papertree.Paper{
		onePaper("THE PERCEPTRON: A PROBABILISTIC MODEL FOR INFORMATION STORAGE AND ORGANIZATION IN THE BRAIN", "/perceptron.pdf", nil,
			"THE PERCEPTRON is a hypothetical nervous system. The perceptron learns by reinforcement of association cells."),
		onePaper("An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale", "/vit.pdf", []string{"Alexey Dosovitskiy", "Lucas Beyer"},
			"We train ViT with Adam using beta1 0.9 and beta2 0.999 on ImageNet and JFT-300M.", "The Vision Transformer splits an image into patches."),
		onePaper("Zero-Shot Object Detection", "/zsd.pdf", []string{"Shafin Rahman", "Salman Khan", "Nick Barnes"},
			"We detect unseen object classes with a YOLO-style detector and semantic embeddings."),
		onePaper("Lumpy Investment in General Equilibrium", "/lumpy.pdf", []string{"Replication Team"},
			"Nonconvex adjustment costs cause lumpy investment at the plant level, yet aggregate investment is smooth in equilibrium."),
	}
	for i := 0; i < 6; i++ {
		papers = append(papers, onePaper(fmt.Sprintf("Filler Study %d of Sentiment", i), fmt.Sprintf("/f%d.pdf", i), []string{"Ann Other"},
			fmt.Sprintf("We classify sentiment in corpus %d with a convolutional network.", i)))
	}
	ix, ids := setup(t, papers...)
	perceptron, vit, zsd, lumpy := ids[0], ids[1], ids[2], ids[3]
	strat, _ := retrieve.Get(retrieve.Default)
	tests := []struct {
		name, q  string
		want     int64 // the paper the best evidence must come from
		notAlone int64 // a paper that must not be searched alone
	}{
		{"the-lead of an all-capitals title", "Which optimizer is used to train the Vision Transformer on ImageNet?", vit, perceptron},
		{"co-author surname, content elsewhere", "Do Khan and Thomas (2008) find that nonconvex adjustment costs cause lumpy investment?", lumpy, zsd},
		{"named paper that holds the question", "How does the perceptron learn?", perceptron, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := strat.Retrieve(context.Background(), ix, retrieve.Request{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Evidence) == 0 {
				t.Fatal("no evidence")
			}
			best := res.Evidence[0]
			for _, e := range res.Evidence {
				if e.Score > best.Score {
					best = e
				}
			}
			if best.PaperID != tc.want {
				t.Errorf("best evidence from paper %d (%s), want %d", best.PaperID, best.PaperTitle, tc.want)
			}
			if tc.notAlone != 0 && len(res.Searched) == 1 && res.Searched[0] == tc.notAlone {
				t.Errorf("searched paper %d alone", tc.notAlone)
			}
			if tc.notAlone != 0 && res.Identified == tc.notAlone {
				t.Errorf("paper %d reported as the paper the question names", tc.notAlone)
			}
		})
	}
}
