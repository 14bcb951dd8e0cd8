package retrieve_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// library4 is four papers on clearly different topics; the sentiment paper
// cites the translation paper in its references and the translation paper
// has an explicit algorithm block.
func library4(t testing.TB) (*retrieve.StoreIndex, []int64) {
	return setup(t, library4Papers()...)
}

func library4Papers() []*papertree.Paper {
	vision := &papertree.Paper{Title: "Deep Convolutional Networks for Image Recognition", Path: "/vision.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Deep Convolutional Networks for Image Recognition", Children: []*papertree.Node{
		sec("1 Introduction", seg("We classify natural images into one thousand object categories with a deep convolutional network.")),
		sec("2 Dataset", seg("We train on the ImageNet dataset of 1.2 million labelled high-resolution images in 1000 classes.")),
		sec("3 Training", seg("To reduce overfitting we use dropout in the fully connected layers and train on two GPUs for six days.")),
		sec("4 Results", seg("Our network achieves a top-5 error rate of 15.3 percent, far better than the previous state of the art.")),
	}}}
	hate := &papertree.Paper{Title: "Detecting Hate Speech in Tweets", Path: "/hate.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Detecting Hate Speech in Tweets", Children: []*papertree.Node{
		sec("1 Introduction", seg("Hate speech detection on social media must separate hate speech from merely offensive language.")),
		sec("2 Data", seg("We collect 25,000 tweets and label them by crowd-sourcing as hate speech, offensive language or neither.")),
		sec("3 Model", seg("We use logistic regression with word n-gram features and L2 regularization as our classifier.")),
		sec("4 Evaluation", seg("We measure precision, recall and F1 score; the best model reaches an F1 of 0.90 overall.")),
	}}}
	mt := &papertree.Paper{Title: "Sequence to Sequence Translation with Recurrent Networks", Path: "/mt.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Sequence to Sequence Translation with Recurrent Networks", Children: []*papertree.Node{
		sec("1 Introduction", seg("We translate English sentences to French with an encoder-decoder made of two recurrent networks.")),
		sec("2 Dataset", seg("We use the WMT 2014 English to French corpus of 12 million sentence pairs.")),
		sec("3 Decoding", seg("Algorithm 1: beam search decoding. Step 1: start from the empty hypothesis. Step 2: extend each hypothesis by one word. Step 3: keep the best B hypotheses.")),
		sec("4 Results", seg("An ensemble of five networks reaches a BLEU score of 34.8 on the WMT 2014 test set.")),
	}}}
	senti := &papertree.Paper{Title: "Convolutional Networks for Sentence Sentiment", Path: "/senti.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Convolutional Networks for Sentence Sentiment", Children: []*papertree.Node{
		sec("1 Introduction", seg("We classify the sentiment of movie review sentences with a convolutional network over word vectors.")),
		sec("2 Datasets", seg("We evaluate on the Stanford Sentiment Treebank and on movie review data with positive and negative labels.")),
		sec("3 Model", seg("A single convolution layer with max-over-time pooling and dropout on the penultimate layer feeds a softmax.")),
		sec("References", seg("I. Sutskever, O. Vinyals, Q. Le. 2014. Sequence to Sequence Translation with Recurrent Networks. In NIPS.")),
	}}}
	return []*papertree.Paper{vision, hate, mt, senti}
}

func titles(ev []papertree.Evidence) map[string]bool {
	out := map[string]bool{}
	for _, e := range ev {
		out[e.PaperTitle] = true
	}
	return out
}

func TestFableLibraryWide(t *testing.T) {
	ix, _ := library4(t)
	s, _ := retrieve.Get("fable")
	tests := []struct {
		name, q, want string
		budget        int
		branch        string
	}{
		{"hate speech, nodes", "How are tweets labelled as hate speech or offensive language?", "Detecting Hate Speech in Tweets", 40, "nodes"},
		{"translation, nodes", "What BLEU score does the translation ensemble reach on WMT 2014?", "Sequence to Sequence Translation with Recurrent Networks", 40, "nodes"},
		{"whole papers fit", "Which dataset of images is used for training the convolutional network?", "Deep Convolutional Networks for Image Recognition", 4000, "docs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tt.q, Budget: tt.budget})
			if err != nil {
				t.Fatal(err)
			}
			sel := res.Diag.Selection
			if sel == nil || sel.Branch != tt.branch || len(sel.Papers) == 0 {
				t.Fatalf("selection %+v, want branch %s", sel, tt.branch)
			}
			if !sel.Papers[0].Chosen || sel.Papers[0].PaperTitle != tt.want || !strings.Contains(sel.Papers[0].Reason, "title/ToC match") {
				t.Errorf("first paper %+v, want %q chosen with its scores", sel.Papers[0], tt.want)
			}
			if !titles(res.Evidence)[tt.want] {
				t.Errorf("no evidence from %q: %v", tt.want, titles(res.Evidence))
			}
			if res.Diag.TokensUsed > tt.budget {
				t.Errorf("tokens %d > budget %d", res.Diag.TokensUsed, tt.budget)
			}
			for _, f := range []string{"fable document selection: title/ToC match (no LLM)"} {
				if !contains(res.Diag.Fallbacks, f) {
					t.Errorf("fallbacks %v lack %q", res.Diag.Fallbacks, f)
				}
			}
			if tt.branch == "docs" {
				// Whole papers: every leaf of each chosen paper.
				n := 0
				for _, e := range res.Evidence {
					if e.PaperTitle == tt.want {
						n++
					}
				}
				if n != 4 {
					t.Errorf("docs branch returned %d leaves of %q, want all 4", n, tt.want)
				}
			} else if !contains(res.Diag.Fallbacks, "fable node navigation: TreeExpansion only (no LLM)") {
				t.Errorf("fallbacks %v lack the navigation fallback", res.Diag.Fallbacks)
			}
			for _, e := range res.Evidence {
				if len(e.Path) == 0 || e.NodeID == 0 || len(e.Pages) == 0 {
					t.Errorf("evidence lost its provenance: %+v", e)
				}
			}
		})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestFableLLMHooks(t *testing.T) {
	ix, ids := library4(t)
	s, _ := retrieve.Get("fable")
	hate := ids[1]
	var navCtx []retrieve.DocToC
	var selectCtx []retrieve.DocToC
	var evalNode int64
	h := &retrieve.MultiDocLLM{
		SelectDocs: func(ctx context.Context, q string, docs []retrieve.DocToC) ([]int64, string, error) {
			selectCtx = docs
			return []int64{999, hate}, "the hate speech paper labels tweets", nil
		},
		Navigate: func(ctx context.Context, q string, docs []retrieve.DocToC) ([]int64, error) {
			navCtx = docs
			for _, d := range docs {
				for _, e := range d.Entries {
					if strings.HasSuffix(e.Path, "4 Evaluation") {
						evalNode = e.NodeID
					}
				}
			}
			return []int64{evalNode, 12345}, nil
		},
	}
	ctx := retrieve.WithMultiDocLLM(context.Background(), h)
	res, err := s.Retrieve(ctx, ix, retrieve.Request{Query: "Which metrics measure the hate speech classifier?", Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(selectCtx) != 4 {
		t.Fatalf("select saw %d documents, want the whole library", len(selectCtx))
	}
	for _, d := range selectCtx {
		for _, e := range d.Entries {
			if e.Depth > 2 {
				t.Errorf("select context has an entry deeper than L=2: %+v", e)
			}
		}
	}
	for _, d := range navCtx {
		if !containsID(res.Diag.Selection.Papers, d.PaperID) {
			t.Errorf("navigation saw paper %d outside D_fusion", d.PaperID)
		}
	}
	first := res.Diag.Selection.Papers[0]
	if first.PaperID != hate || !strings.Contains(first.By, "llm") || !strings.Contains(first.Reason, "labels tweets") {
		t.Errorf("first paper %+v, want the LLM's choice with its reason", first)
	}
	// NodeFusion: the LLM's paper comes first, in reading order, and the
	// navigated section is part of it.
	navigated := false
	for _, e := range res.Evidence {
		if e.PaperID == hate && e.Path[len(e.Path)-1] == "4 Evaluation" {
			navigated = true
		}
	}
	if len(res.Evidence) == 0 || res.Evidence[0].PaperID != hate || !navigated {
		t.Errorf("evidence does not start with the LLM's paper and hold the navigated section: %+v", res.Evidence)
	}
	if len(res.Diag.Fallbacks) != 0 {
		t.Errorf("fallbacks with a working LLM: %v", res.Diag.Fallbacks)
	}
	// A failing LLM falls back and says so; nothing fails.
	bad := &retrieve.MultiDocLLM{
		SelectDocs: func(context.Context, string, []retrieve.DocToC) ([]int64, string, error) {
			return nil, "", papertree.Errorf(papertree.ELLM, "server down")
		},
		Navigate: func(context.Context, string, []retrieve.DocToC) ([]int64, error) {
			return nil, errors.New("timeout")
		},
	}
	res, err = s.Retrieve(retrieve.WithMultiDocLLM(context.Background(), bad), ix, retrieve.Request{Query: "Which metrics measure the hate speech classifier?", Budget: 40})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 || len(res.Diag.Fallbacks) != 2 || !strings.Contains(res.Diag.Fallbacks[0], "server down") {
		t.Errorf("fallbacks %v, evidence %d", res.Diag.Fallbacks, len(res.Evidence))
	}
}

func containsID(ps []papertree.PaperChoice, id int64) bool {
	for _, p := range ps {
		if p.PaperID == id && p.Chosen {
			return true
		}
	}
	return false
}

func TestStructRAGOffline(t *testing.T) {
	ix, _ := library4(t)
	s, _ := retrieve.Get("structrag")
	tests := []struct {
		name, q, structure, rendered string
		papers                       []string
	}{
		{"table", "Compare the datasets and results of the convolutional network papers", "table", "| Paper | Column | Cell |", []string{"Deep Convolutional Networks for Image Recognition"}},
		{"graph", "Which papers cite the sequence to sequence translation paper?", "graph", `relation: "cites"`, []string{"Convolutional Networks for Sentence Sentiment"}},
		{"algorithm", "What are the steps of the beam search decoding procedure?", "algorithm", "Algorithm 1", []string{"Sequence to Sequence Translation with Recurrent Networks"}},
		{"catalogue", "Summarize what these papers say about datasets and training", "catalogue", " — ", nil},
		{"chunk", "What classifier is used to detect hate speech?", "chunk", "1.", []string{"Detecting Hate Speech in Tweets"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tt.q, Budget: 200})
			if err != nil {
				t.Fatal(err)
			}
			sel := res.Diag.Selection
			if sel == nil || sel.Structure != tt.structure || sel.RoutedBy != "rules" || sel.RouteReason == "" {
				t.Fatalf("selection %+v, want structure %s by rules", sel, tt.structure)
			}
			if !strings.Contains(sel.Rendered, tt.rendered) {
				t.Errorf("rendered structure lacks %q:\n%s", tt.rendered, sel.Rendered)
			}
			if len(res.Evidence) == 0 || res.Diag.TokensUsed > 200 {
				t.Fatalf("evidence %d, tokens %d", len(res.Evidence), res.Diag.TokensUsed)
			}
			got := titles(res.Evidence)
			for _, p := range tt.papers {
				if !got[p] {
					t.Errorf("no evidence from %q: %v", p, got)
				}
			}
			for _, e := range res.Evidence {
				if e.NodeID == 0 || len(e.Path) == 0 || len(e.Pages) == 0 || e.Text == "" {
					t.Errorf("item without provenance: %+v", e)
				}
			}
			if !contains(res.Diag.Fallbacks, "structrag router: rules from the question's form (no LLM)") {
				t.Errorf("fallbacks %v lack the router fallback", res.Diag.Fallbacks)
			}
		})
	}
}

func TestStructRAGLLMHooks(t *testing.T) {
	ix, _ := library4(t)
	s, _ := retrieve.Get("structrag")
	var structurized int
	var extractSubs []string
	h := &retrieve.MultiDocLLM{
		Route: func(ctx context.Context, q string, titles []string) (string, string, error) {
			return "table", "statistical question", nil
		},
		Structurize: func(ctx context.Context, q, typ string, doc retrieve.StructDoc) (retrieve.StructOut, error) {
			structurized++
			if typ != "table" || len(doc.Sources) == 0 {
				t.Errorf("structurize %s with %d sources", typ, len(doc.Sources))
			}
			return retrieve.StructOut{Description: "datasets of " + doc.Title, Items: []retrieve.StructItem{
				{Text: "Dataset: from " + doc.Sources[0].Tag, Sources: []string{doc.Sources[0].Tag}},
				{Text: "Invented row", Sources: []string{"S999"}},
			}}, nil
		},
		Decompose: func(ctx context.Context, q string, descs []string) ([]string, error) {
			if len(descs) == 0 {
				t.Error("decompose got no descriptions")
			}
			return []string{"Which dataset does each paper use?"}, nil
		},
		Extract: func(ctx context.Context, sub, typ string, items []string) ([]int, error) {
			extractSubs = append(extractSubs, sub)
			return []int{0}, nil
		},
	}
	res, err := s.Retrieve(retrieve.WithMultiDocLLM(context.Background(), h), ix, retrieve.Request{Query: "Compare the datasets of these papers", Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	sel := res.Diag.Selection
	if sel.Structure != "table" || sel.RoutedBy != "llm" || sel.RouteReason != "statistical question" {
		t.Errorf("selection %+v", sel)
	}
	chosen := 0
	for _, p := range sel.Papers {
		if p.Chosen {
			chosen++
		}
	}
	if structurized != chosen {
		t.Errorf("structurizer called %d times for %d chosen papers", structurized, chosen)
	}
	if len(sel.SubQueries) != 1 || len(extractSubs) != 1 || extractSubs[0] != sel.SubQueries[0] {
		t.Errorf("sub-questions %v, extract calls %v", sel.SubQueries, extractSubs)
	}
	if strings.Contains(sel.Rendered, "Invented row") {
		t.Error("an item citing an unknown source tag was kept")
	}
	dropped := false
	for _, f := range res.Diag.Fallbacks {
		if strings.Contains(f, "dropped: no known source tag") {
			dropped = true
		}
	}
	if !dropped || len(res.Evidence) != 1 {
		t.Errorf("fallbacks %v, evidence %d (want the one item the LLM kept)", res.Diag.Fallbacks, len(res.Evidence))
	}
}

func TestFableOnePaperInScope(t *testing.T) {
	ix, ids := library4(t)
	s, _ := retrieve.Get("fable")
	// A question unrelated to the paper: with one paper in scope it is
	// still the paper searched.
	res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: "Which optimizer and learning rate were used?", PaperIDs: ids[1:2], Budget: 60})
	if err != nil {
		t.Fatal(err)
	}
	sel := res.Diag.Selection
	if len(sel.Papers) != 1 || !sel.Papers[0].Chosen || sel.Papers[0].By != "scope" {
		t.Errorf("selection %+v", sel)
	}
	for _, e := range res.Evidence {
		if e.PaperID != ids[1] {
			t.Errorf("evidence from paper %d outside the scope", e.PaperID)
		}
	}
}
