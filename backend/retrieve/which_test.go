package retrieve_test

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// library6 is library4 plus a survey whose related-work section and
// examples name logistic regression and dropout, and a paper whose front
// matter names an author Adam.
func library6(t testing.TB) (*retrieve.StoreIndex, []int64) {
	var base []*papertree.Paper
	survey := &papertree.Paper{Title: "A Survey of Text Classification", Path: "/survey.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "A Survey of Text Classification", Children: []*papertree.Node{
		sec("1 Introduction", seg("We survey methods that assign labels to documents and compare their accuracy on standard benchmarks.")),
		sec("2 Related Work", seg("Early systems relied on logistic regression over bag-of-words features and later added dropout to neural classifiers.")),
		sec("3 Discussion", seg("For example, a logistic regression classifier could be trained on the word counts of each document.")),
	}}}
	adam := &papertree.Paper{Title: "Graph Layouts for Citation Networks", Path: "/graph.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Graph Layouts for Citation Networks", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "", Role: papertree.RoleFrontMatter, Children: []*papertree.Node{seg("Adam Smith and Jane Doe, University of Somewhere, adam.smith@example.org")}},
		sec("1 Introduction", seg("We draw citation networks with force-directed layouts that keep clusters of related papers apart.")),
	}}}
	// An IEEE-style abstract run into the front matter ("... '21
	// Abstract—..."), the only place the paper states its method.
	tiktok := &papertree.Paper{Title: "Kernel Protection Against Double Fetches", Path: "/tiktok.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Kernel Protection Against Double Fetches", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "", Role: papertree.RoleFrontMatter, Children: []*papertree.Node{seg("Anonymous submission #303 to Security & Privacy '21 Abstract—Double-fetch bugs are a plague in kernels. Our system leverages on-the-fly page-table hardening to prevent changes to the system call arguments while the call executes.")}},
		sec("1 Introduction", seg("Kernels copy arguments from user space several times, and an attacker can change them in between.")),
	}}}
	base = append(base, library4Papers()...)
	return setup(t, append(base, survey, adam, tiktok)...)
}

func TestWhichPapers(t *testing.T) {
	ix, _ := library6(t)
	s, err := retrieve.Get("auto")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, q string
		want    []string // paper titles listed, in any order
	}{
		{"every paper that uses dropout", "Which papers use dropout in their models?",
			[]string{"Deep Convolutional Networks for Image Recognition", "Convolutional Networks for Sentence Sentiment"}},
		{"related work and examples do not state it", "Which papers use logistic regression?",
			[]string{"Detecting Hate Speech in Tweets"}},
		{"a reference list does not state it", "Which papers use recurrent networks?",
			[]string{"Sequence to Sequence Translation with Recurrent Networks"}},
		{"a name in front matter is not the optimizer", "Which papers train with the Adam optimizer?", nil},
		{"an abstract run into the front matter states it", "Which papers use page-table hardening?", []string{"Kernel Protection Against Double Fetches"}},
		{"no paper holds the word", "Which papers study superconductors?", nil},
		{"what papers", "What papers evaluate on the ImageNet dataset?", []string{"Deep Convolutional Networks for Image Recognition"}},
		{"another edition of the data set", "Which papers evaluate on WMT-2016?", nil},
		{"the edition typed", "Which papers use the WMT-2014 corpus?", []string{"Sequence to Sequence Translation with Recurrent Networks"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			if !res.List || res.Diag.Route != query.RouteList {
				t.Fatalf("route %q (list %v), want %q", res.Diag.Route, res.List, query.RouteList)
			}
			got := map[string]bool{}
			for i, f := range res.Findings {
				got[f.Title] = true
				if f.Cite != i+1 || res.Evidence[i].PaperID != f.PaperID || res.Evidence[i].NodeID != f.NodeID {
					t.Errorf("finding %d does not cite its own evidence: %+v", i, f)
				}
				if sp := res.Evidence[i].Span; sp == nil || res.Evidence[i].Text[sp.Start:sp.End] != f.Sentence {
					t.Errorf("finding %d: the sentence is not marked in its passage", i)
				}
				if len(f.Path) == 0 || len(f.Pages) == 0 {
					t.Errorf("finding %d has no path or page: %+v", i, f)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("listed %v, want %v", keys(got), tc.want)
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("%q not listed (got %v)", w, keys(got))
				}
			}
		})
	}
}

func TestWhichPapersInScope(t *testing.T) {
	ix, ids := library6(t)
	s, _ := retrieve.Get("auto")
	// Two papers in scope: only they are candidates.
	res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: "Which papers use dropout?", PaperIDs: []int64{ids[0], ids[2]}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].PaperID != ids[0] {
		t.Errorf("findings %+v, want the vision paper only", res.Findings)
	}
	// One paper in scope: a single-paper question, whatever its form.
	res, err = s.Retrieve(context.Background(), ix, retrieve.Request{Query: "Which papers use dropout?", PaperIDs: []int64{ids[0]}})
	if err != nil {
		t.Fatal(err)
	}
	if res.List || res.Diag.Route != query.RouteSingle || len(res.Evidence) == 0 {
		t.Errorf("one paper in scope: route %q list %v, %d evidence", res.Diag.Route, res.List, len(res.Evidence))
	}
}

func TestAutoRoutes(t *testing.T) {
	ix, _ := library6(t)
	s, _ := retrieve.Get("")
	if s.Name() != "auto" {
		t.Fatalf("default strategy %q, want auto", s.Name())
	}
	tests := []struct{ name, q, route, structure string }{
		{"single", "How are tweets labelled as hate speech?", query.RouteSingle, ""},
		{"list", "Which papers use beam search?", query.RouteList, ""},
		{"compare", "Compare the datasets of the papers on sentiment and translation", query.RouteCompare, retrieve.StructTable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			if res.Diag.Route != tc.route || res.Diag.RouteWhy == "" || res.Diag.RouteBy != "rules" {
				t.Errorf("route %q by %q (%q), want %q by the rules (no LLM)", res.Diag.Route, res.Diag.RouteBy, res.Diag.RouteWhy, tc.route)
			}
			if tc.structure != "" && (res.Diag.Selection == nil || res.Diag.Selection.Structure != tc.structure) {
				t.Errorf("selection %+v, want structure %q", res.Diag.Selection, tc.structure)
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
