package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

// TestAskRealPapersCitesRealSections indexes real papers and checks that
// every evidence path consists of the paper's title and section titles that
// are printed in the paper (matched against the hand-checked gold headings
// with the tree scorer's own text matching).
func TestAskRealPapersCitesRealSections(t *testing.T) {
	pdfs := shareddata.Dir(t, "pdfs")
	gold := shareddata.Dir(t, "gold")
	if testing.Short() {
		t.Skip("indexes real PDFs")
	}
	files := []string{"bert_1810.04805.pdf", "pennington2014_glove_emnlp.pdf", "kim2014_cnn_sentence_classification_emnlp.pdf"}
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
	headings := map[string][]string{} // paper title (normalised) -> gold heading texts (normalised)
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
		"Which datasets are used to evaluate the CNN for sentence classification?",
		"What is the next sentence prediction task?",
	}
	for _, q := range questions {
		out, errs, code := cli(t, "ask", "--db", db, "--json", q)
		if code != 0 {
			t.Fatalf("ask %q: %s", q, errs)
		}
		var ans papertree.Answer
		if err := json.Unmarshal([]byte(out), &ans); err != nil {
			t.Fatal(err)
		}
		if len(ans.Evidence) == 0 {
			t.Fatalf("%q: no evidence", q)
		}
		for _, e := range ans.Evidence {
			paper := eval.NormText(e.Path[0])
			hs, ok := headings[paper]
			if !ok {
				t.Fatalf("%q: evidence path starts with %q, not a paper title", q, e.Path[0])
			}
			for _, sec := range e.Path[1:] {
				found := false
				for _, h := range hs {
					if eval.TextsMatch(h, eval.NormText(sec)) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%q: section %q of %q is not a printed heading of that paper", q, sec, e.Path[0])
				}
			}
		}
		t.Logf("%q -> %s", q, strings.Join(ans.Evidence[0].Path, " > "))
	}
	_ = os.Remove(db)
}
