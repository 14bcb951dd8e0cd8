package retrieve_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/internal/storetest"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/summarize"
)

func seg(text string) *papertree.Node {
	return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text), PageStart: 2, PageEnd: 2,
		Boxes: []papertree.Box{{Page: 2, X0: 10, Y0: 20, X1: 200, Y1: 40}}}
}

func sec(title string, kids ...*papertree.Node) *papertree.Node {
	return &papertree.Node{Kind: papertree.KindSection, Title: title, Children: kids, PageStart: 1, PageEnd: 3}
}

// paper builds a small paper whose sections are about clearly different things.
func paper(title, path string) *papertree.Paper {
	root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
		sec("1 Introduction",
			seg("Question answering over scientific papers is hard because papers are long and structured."),
			seg("We propose a retrieval method that follows the outline of the paper.")),
		sec("2 Datasets",
			seg("We evaluate on the QASPER dataset of 1,585 NLP papers with 5,049 questions written by NLP practitioners."),
			seg("The QASPER test split contains 416 papers; we use the official evaluator for answer and evidence F1.")),
		sec("3 Model",
			sec("3.1 Encoder", seg("The encoder is a transformer with twelve layers and learned positional embeddings.")),
			sec("3.2 Training", seg("We train with Adam, a learning rate of 0.0001 and a batch size of 32 for ten epochs on two GPUs."))),
		sec("4 Results", seg("Our method improves evidence F1 by eight points over the flat chunk baseline.")),
	}}
	return &papertree.Paper{Title: title, Path: path, Pages: 3, Root: root}
}

func setup(t testing.TB, papers ...*papertree.Paper) (*retrieve.StoreIndex, []int64) {
	t.Helper()
	st, ids := setupStore(t, papers...)
	return retrieve.NewStoreIndex(st, embedding.NewBuiltin(), 0), ids
}

// setupStore saves papers in a new library and returns its store.
func setupStore(t testing.TB, papers ...*papertree.Paper) (*store.Store, []int64) {
	t.Helper()
	for _, p := range papers {
		summarize.Paper(p)
	}
	st, _, ids := storetest.Library(t, papers...)
	return st, ids
}

func TestStrategiesFindTheRightSection(t *testing.T) {
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"))
	tests := []struct {
		name, strategy, question, wantSection string
		params                                retrieve.Params
	}{
		{"pt-rag training details", "pt-rag", "What learning rate and batch size were used for training?", "3.2 Training", retrieve.DefaultParams()},
		{"pt-rag dataset", "pt-rag", "Which dataset is used for evaluation and how many papers does it have?", "2 Datasets", retrieve.DefaultParams()},
		{"pt-rag without paths", "pt-rag", "What learning rate and batch size were used for training?", "3.2 Training", func() retrieve.Params {
			p := retrieve.DefaultParams()
			p.NoPaths = true
			return p
		}()},
		{"pt-rag without summaries", "pt-rag", "Which dataset is used for evaluation?", "2 Datasets", func() retrieve.Params {
			p := retrieve.DefaultParams()
			p.NoSummaries = true
			return p
		}()},
		{"naive", "naive", "What learning rate and batch size were used for training?", "3.2 Training", retrieve.DefaultParams()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := retrieve.Get(tt.strategy)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tt.question, PaperIDs: ids, Budget: 60, Params: tt.params})
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
			if last := best.Path[len(best.Path)-1]; last != tt.wantSection {
				t.Fatalf("best evidence in %q, want %q (path %v)", last, tt.wantSection, best.Path)
			}
			if best.Path[0] != "Path-Guided QA" || len(best.PathIDs) != len(best.Path) || best.NodeID == 0 {
				t.Fatalf("evidence does not resolve to a root-to-leaf path: %+v", best)
			}
			if len(best.Pages) == 0 || len(best.Boxes) == 0 {
				t.Fatalf("evidence lacks pages/boxes: %+v", best)
			}
			if res.Diag.TokensUsed > 60 || res.Diag.Budget != 60 {
				t.Fatalf("budget not respected: %+v", res.Diag)
			}
			for i := 1; i < len(res.Evidence); i++ {
				if res.Evidence[i].PaperID == res.Evidence[i-1].PaperID && res.Evidence[i].Order < res.Evidence[i-1].Order {
					t.Fatalf("evidence not in document order")
				}
			}
			if !strings.Contains(res.Context, "## ") || !strings.Contains(res.Context, "[1]") {
				t.Fatalf("context lacks path headers or markers:\n%s", res.Context)
			}
		})
	}
}

func TestPTRAGConcentratesOnFewerSections(t *testing.T) {
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"))
	q := retrieve.Request{Query: "How was the model trained and with which optimizer?", PaperIDs: ids, Budget: 512}
	pt, _ := retrieve.Get("pt-rag")
	nv, _ := retrieve.Get("naive")
	a, err := pt.Retrieve(context.Background(), ix, q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := nv.Retrieve(context.Background(), ix, q)
	if err != nil {
		t.Fatal(err)
	}
	if a.Diag.SectionEntropy >= b.Diag.SectionEntropy {
		t.Fatalf("pt-rag section entropy %.3f not below naive %.3f", a.Diag.SectionEntropy, b.Diag.SectionEntropy)
	}
	chosen := 0
	for _, s := range a.Sections {
		if s.Chosen {
			chosen++
		}
	}
	if chosen == 0 || chosen > retrieve.DefaultParams().Sections {
		t.Fatalf("%d chosen sections", chosen)
	}
}

func TestLibraryWideScopeFindsThePaper(t *testing.T) {
	other := &papertree.Paper{Title: "Protein Folding", Path: "/b.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Protein Folding",
		Children: []*papertree.Node{sec("1 Folding", seg("Proteins fold into three-dimensional structures determined by their amino acid sequence."))}}}
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"), other)
	s, _ := retrieve.Get("")
	p := retrieve.DefaultParams()
	p.MaxPapers = 1
	res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: "What determines how proteins fold?", Budget: 100, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 || res.Evidence[0].PaperID != ids[1] {
		t.Fatalf("library-wide question answered from the wrong paper: %+v", res.Evidence)
	}
}

func TestRequestValidation(t *testing.T) {
	ix, ids := setup(t, paper("P", "/a.pdf"))
	tests := []struct {
		name     string
		strategy string
		req      retrieve.Request
		code     papertree.Code
	}{
		{"empty question", "pt-rag", retrieve.Request{Query: "  ", PaperIDs: ids}, papertree.EInvalid},
		{"huge budget", "pt-rag", retrieve.Request{Query: "q", PaperIDs: ids, Budget: 1 << 30}, papertree.EInvalid},
		{"missing paper", "pt-rag", retrieve.Request{Query: "q", PaperIDs: []int64{9999}}, papertree.ENotFound},
		{"naive empty", "naive", retrieve.Request{Query: ""}, papertree.EInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := retrieve.Get(tt.strategy)
			_, err := s.Retrieve(context.Background(), ix, tt.req)
			if papertree.ErrorCode(err) != tt.code {
				t.Fatalf("error %v (code %q), want %q", err, papertree.ErrorCode(err), tt.code)
			}
		})
	}
	if _, err := retrieve.Get("nope"); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Fatalf("unknown strategy: %v", err)
	}
	if names := retrieve.Names(); names[0] != retrieve.Default || retrieve.Default != "auto" {
		t.Fatalf("default strategy must be listed first: %v", names)
	}
}

func BenchmarkPTRAGOnePaper(b *testing.B) {
	ix, ids := setup(b, paper("P", "/a.pdf"))
	s, _ := retrieve.Get("pt-rag")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Retrieve(ctx, ix, retrieve.Request{Query: "What learning rate was used?", PaperIDs: ids, Budget: 512}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLibraryWideShortlistAtScale(t *testing.T) {
	papers := []*papertree.Paper{}
	for i := 0; i < 40; i++ {
		title := fmt.Sprintf("Path-Guided QA %d", i)
		papers = append(papers, paper(title, fmt.Sprintf("/filler%02d.pdf", i)))
	}
	target := &papertree.Paper{Title: "Protein Folding", Path: "/target.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Protein Folding",
		Children: []*papertree.Node{sec("1 Folding", seg("Proteins fold into three-dimensional structures determined by their amino acid sequence."))}}}
	ix, ids := setup(t, append(papers, target)...)
	s, _ := retrieve.Get("pt-rag")
	res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: "What determines how proteins fold?", Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 || res.Evidence[0].PaperID != ids[len(ids)-1] {
		t.Fatalf("library-wide question over 41 papers answered from the wrong paper: %+v", res.Evidence)
	}
}

// A question that describes its paper ("the transformer model for
// multivariate time-series anomaly detection") is answered by the one
// sentence that holds what it asks, not by the passages that repeat the
// paper's title words (query.Question.Within).
func TestScopedQuestionDescribingItsPaper(t *testing.T) {
	const title = "Deep Transformer Networks for Anomaly Detection in Multivariate Time Series Data"
	root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
		sec("Abstract", seg("Anomaly detection in multivariate time series data is important. We propose a deep transformer network "+
			"for anomaly detection in multivariate time series that detects and diagnoses anomalies with attention.")),
		sec("1 Introduction", seg("Multivariate time series anomaly detection is a long-studied problem. Transformer models are "+
			"trained on multivariate time series to detect anomalies, and our transformer model detects anomaly sequences quickly.")),
		sec("4 Experiments", seg("We run every experiment on one machine with eight cores. We use the AdamW optimizer to train our "+
			"model with an initial learning rate of 0.01. The window size is ten.")),
		sec("6 Conclusions", seg("We presented a transformer model for anomaly detection in multivariate time series data that "+
			"trains fast and detects anomalies in time series better than prior models.")),
	}}
	ix, ids := setup(t, &papertree.Paper{Title: title, Path: "/tranad.pdf", Pages: 3, Root: root})
	s, err := retrieve.Get("auto")
	if err != nil {
		t.Fatal(err)
	}
	q := "Which optimizer and initial learning rate were used to train the transformer model for multivariate time-series anomaly detection?"
	res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: q, PaperIDs: ids, Budget: 64, Params: retrieve.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Evidence {
		if strings.Contains(e.Text, "AdamW optimizer to train our model with an initial learning rate of 0.01") {
			return
		}
		got = append(got, e.Text)
	}
	t.Errorf("the AdamW sentence is not in the evidence: %q", got)
}
