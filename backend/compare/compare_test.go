package compare_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/compare"
	"github.com/papertree/papertree/backend/internal/storetest"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/summarize"
)

func seg(text string, page int) *papertree.Node {
	return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text), PageStart: page, PageEnd: page}
}

func sec(title string, kids ...*papertree.Node) *papertree.Node {
	return &papertree.Node{Kind: papertree.KindSection, Title: title, Children: kids, PageStart: 1, PageEnd: 3}
}

func paper(title, dataset, model, metric, result string) *papertree.Paper {
	return &papertree.Paper{Title: title, Path: "/" + title + ".pdf", Pages: 4, Root: &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
		sec("1 Introduction", seg("This paper studies a problem that many people care about, and we describe our contribution here.", 1)),
		sec("2 Datasets", seg(dataset, 2)),
		sec("3 Model", seg(model, 2)),
		sec("4 Evaluation", seg(metric, 3)),
		sec("5 Results", seg(result, 3)),
		sec("References", seg("A. Author. 2010. A paper about datasets, models and results. In Proceedings.", 4)),
	}}}
}

func setup(t testing.TB, n int) (*retrieve.StoreIndex, []int64) {
	t.Helper()
	var papers []*papertree.Paper
	for i := 0; i < n; i++ {
		p := paper(fmt.Sprintf("Paper %d on sentiment", i+1),
			fmt.Sprintf("We evaluate on the Stanford Sentiment Treebank dataset with %d thousand sentences.", i+5),
			fmt.Sprintf("Our model is a convolutional network with %d filters over word vectors.", 100*(i+1)),
			"We report accuracy and macro F1 as the evaluation metrics on the test set.",
			fmt.Sprintf("Our method achieves %d.5 percent accuracy, outperforming the previous best system.", 80+i))
		summarize.Paper(p)
		papers = append(papers, p)
	}
	st, emb, ids := storetest.Library(t, papers...)
	return retrieve.NewStoreIndex(st, emb, 0), ids
}

func TestBuild(t *testing.T) {
	ix, ids := setup(t, 3)
	tab, err := compare.Build(context.Background(), ix, compare.Request{PaperIDs: ids, Aspects: []string{"Dataset", "Model", "Metric", "Results"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Papers) != 3 || len(tab.Aspects) != 4 || len(tab.Cells) != 12 || tab.AspectsProposed {
		t.Fatalf("table shape: %d papers, %d aspects, %d cells", len(tab.Papers), len(tab.Aspects), len(tab.Cells))
	}
	wantSection := map[string]string{"Dataset": "2 Datasets", "Model": "3 Model", "Metric": "4 Evaluation", "Results": "5 Results"}
	for _, c := range tab.Cells {
		if c.NotFound || len(c.Evidence) != 1 {
			t.Errorf("cell %d/%s: not found %v, evidence %d", c.PaperID, c.Aspect, c.NotFound, len(c.Evidence))
			continue
		}
		e := c.Evidence[0]
		if got := e.Path[len(e.Path)-1]; got != wantSection[c.Aspect] {
			t.Errorf("cell %d/%s quotes %q from %q, want section %q", c.PaperID, c.Aspect, c.Text, got, wantSection[c.Aspect])
		}
		if e.Text != c.Text || e.NodeID == 0 || len(e.Pages) == 0 || len(e.PathIDs) != len(e.Path) || e.PaperID != c.PaperID {
			t.Errorf("cell evidence does not resolve: %+v", e)
		}
	}
}

func TestBadInput(t *testing.T) {
	ix, ids := setup(t, 2)
	many := make([]int64, 50)
	for i := range many {
		many[i] = int64(1000 + i)
	}
	tests := []struct {
		name     string
		req      compare.Request
		code     papertree.Code
		warn     string
		notFound int // cells expected not found
	}{
		{"one paper", compare.Request{PaperIDs: ids[:1], Aspects: []string{"Dataset"}}, "", "Only one paper", 0},
		{"fifty papers", compare.Request{PaperIDs: many, Aspects: []string{"Dataset"}}, papertree.EInvalid, "", 0},
		{"unknown ids", compare.Request{PaperIDs: []int64{ids[0], 999}, Aspects: []string{"Dataset"}}, papertree.ENotFound, "", 0},
		{"aspect nobody mentions", compare.Request{PaperIDs: ids, Aspects: []string{"Quantum entanglement"}}, "", "", 2},
		{"duplicate aspects", compare.Request{PaperIDs: ids, Aspects: []string{"Dataset", " dataset ", "DATASET", "Results"}}, "", "Repeated aspect", 0},
		{"too many aspects", compare.Request{PaperIDs: ids, Aspects: strings.Split("a;b;c;d;e;f;g;h;i;j;k", ";")}, papertree.EInvalid, "", 0},
		{"over-long aspect", compare.Request{PaperIDs: ids, Aspects: []string{strings.Repeat("dataset ", 20)}}, papertree.EInvalid, "", 0},
		{"repeated papers", compare.Request{PaperIDs: []int64{ids[0], ids[0], ids[1]}, Aspects: []string{"Dataset"}}, "", "repeated paper", 0},
		{"no aspects: proposed", compare.Request{PaperIDs: ids}, "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := compare.Build(context.Background(), ix, tt.req)
			if tt.code != "" {
				var pe *papertree.Error
				if !errors.As(err, &pe) || pe.Code != tt.code || papertree.ErrorMessage(err) == "" {
					t.Fatalf("error %v, want code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.warn != "" && !strings.Contains(strings.Join(tab.Warnings, " "), tt.warn) {
				t.Errorf("warnings %v lack %q", tab.Warnings, tt.warn)
			}
			nf := 0
			for _, c := range tab.Cells {
				if c.NotFound {
					nf++
					if c.Text != compare.NotInPaperText && c.Text != compare.NotNamedText(c.Aspect) || len(c.Evidence) != 0 {
						t.Errorf("not-found cell guesses: %+v", c)
					}
				}
			}
			if nf != tt.notFound {
				t.Errorf("%d cells not found, want %d", nf, tt.notFound)
			}
			if tt.name == "duplicate aspects" && len(tab.Aspects) != 2 {
				t.Errorf("aspects %v, want 2 after merging", tab.Aspects)
			}
			if tt.name == "no aspects: proposed" && (!tab.AspectsProposed || len(tab.Aspects) < 4) {
				t.Errorf("proposed aspects %v", tab.Aspects)
			}
		})
	}
}

func TestExports(t *testing.T) {
	ix, ids := setup(t, 2)
	tab, err := compare.Build(context.Background(), ix, compare.Request{PaperIDs: ids, Aspects: []string{"Dataset", "Quantum entanglement"}})
	if err != nil {
		t.Fatal(err)
	}
	// Hostile text from a PDF must stay text in every export.
	tab.Cells[0].Text = "=HYPERLINK(\"http://x\") | <script>alert(1)</script> *bold*"
	tab.Cells[0].Evidence[0].Text = tab.Cells[0].Text
	md := tab.Markdown()
	if strings.Contains(md, "<script>") || !strings.Contains(md, `\|`) || !strings.Contains(md, "*not found*") || strings.Count(md, "\n") != 4 {
		t.Errorf("markdown:\n%s", md)
	}
	csv, err := tab.CSV()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(csv), `"'=HYPERLINK(""http://x"")`) || !strings.HasPrefix(string(csv), "paper_id,paper_title,aspect,text,not_found,path,pages,node_id\n") {
		t.Errorf("csv:\n%s", csv)
	}
	for _, f := range report.Formats() {
		var b strings.Builder
		if err := report.Write(&b, f, report.Doc{Tables: []report.Table{tab.ReportTable("Comparison")}}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out := b.String()
		switch f {
		case "html":
			if strings.Contains(out, "<script>alert") || !strings.Contains(out, "&lt;script&gt;") || !strings.Contains(out, "not found") {
				t.Errorf("html table not escaped or incomplete")
			}
		case "md":
			if !strings.Contains(out, "| Paper | Dataset | Quantum entanglement |") || strings.Contains(out, "<script>") {
				t.Errorf("md report:\n%s", out)
			}
		case "pdf":
			if !strings.HasPrefix(out, "%PDF") {
				t.Errorf("pdf output does not start with %%PDF")
			}
		case "docx":
			if !strings.HasPrefix(out, "PK") {
				t.Errorf("docx output is not a zip")
			}
		}
	}
}

// BenchmarkBuild10x5 is the acceptance figure "10 papers x 5 aspects
// offline" (docs/measurements.md reports it on the 44 development PDFs with
// papertree compare).
func BenchmarkBuild10x5(b *testing.B) {
	ix, ids := setup(b, 10)
	req := compare.Request{PaperIDs: ids, Aspects: []string{"Dataset", "Model", "Metric", "Results", "Limitations"}}
	for i := 0; i < b.N; i++ {
		if _, err := compare.Build(context.Background(), ix, req); err != nil {
			b.Fatal(err)
		}
	}
}
