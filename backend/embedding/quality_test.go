package embedding_test

import (
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/embedding/internal/qasper"
	"github.com/papertree/papertree/backend/embedding/internal/train"
	"github.com/papertree/papertree/backend/internal/shareddata"
)

// TestRetrievalBeatsBM25HeldOut is the acceptance check of the built-in
// embedder: a model trained only on the build half of the QASPER tune
// papers must rank the held-out half's evidence paragraphs better than
// Okapi BM25 (k1=1.2, b=0.75, same stemming and stopwords) on every metric.
// Training in the test (about 10 s) keeps the held-out papers' text out of
// the model, which the shipped model (trained on all tune papers) cannot.
func TestRetrievalBeatsBM25HeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: trains a word-vector model (about 10 s)")
	}
	path := shareddata.Dir(t, "qasper", "qasper-tune.json")
	papers, err := qasper.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	build, held := qasper.Split(papers)
	if len(build) == 0 || len(held) == 0 {
		t.Fatalf("split gave %d build and %d held-out papers", len(build), len(held))
	}
	m, err := train.Train(train.Texts(build), "build half", train.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embedding.NewBuiltinWith(m, embedding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	bm25 := qasper.BM25{Label: "bm25 (k1=1.2, b=0.75)", K1: 1.2, B: 0.75, Analyze: embedding.ContentStems}
	base, err := qasper.Evaluate(held, bm25)
	if err != nil {
		t.Fatal(err)
	}
	got, err := qasper.Evaluate(held, qasper.Embedder{Label: "builtin (build-half model)", E: emb})
	if err != nil {
		t.Fatal(err)
	}
	fused, err := qasper.Evaluate(held, qasper.Fusion{Label: "0.5 cos + 0.5 bm25", A: qasper.Embedder{E: emb}, B: bm25, Weight: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out half, %d papers:\n%s", len(held), qasper.Table([]qasper.Metrics{base, got, fused}))
	if base.EvidenceF1 < 0.2 || base.Ranked < 300 {
		t.Fatalf("BM25 baseline looks broken: F1 %.3f over %d ranked questions", base.EvidenceF1, base.Ranked)
	}
	for _, c := range []struct {
		name      string
		got, base float64
	}{
		{"recall@1", got.Recall1, base.Recall1},
		{"recall@3", got.Recall3, base.Recall3},
		{"recall@5", got.Recall5, base.Recall5},
		{"MRR", got.MRR, base.MRR},
		{"evidence F1", got.EvidenceF1, base.EvidenceF1},
	} {
		if c.got <= c.base {
			t.Errorf("%s: embedder %.3f does not beat BM25 %.3f", c.name, c.got, c.base)
		}
	}
}
