package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

const xssTitle = `<img src=x onerror=alert(1)> Trees <script>alert(2)</script>`

// TestAskAnswersWithRootToLeafPaths checks the contract the paper view's
// highlight relies on, over a real library: every evidence item's PathIDs
// start at the paper's root and follow parent links down to the leaf's
// section, and NodeID is a leaf under it. Text with markup travels as text.
func TestAskAnswersWithRootToLeafPaths(t *testing.T) {
	dir := t.TempDir()
	makeLibrary(t, dir, 3)
	ctx := context.Background()
	// One paper whose title and text carry markup.
	st, err := store.Open(ctx, filepath.Join(dir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: xssTitle, PageStart: 1, PageEnd: 2, Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "2 Method <b>bold</b>", Level: 1, PageStart: 2, PageEnd: 2, Children: []*papertree.Node{
			{Kind: papertree.KindSegment, Level: 2, Text: "Gradient boosting grows shallow decision trees <script>alert(3)</script> one after another.", PageStart: 2, PageEnd: 2},
		}},
	}}
	if _, err := st.SavePaper(ctx, &papertree.Paper{Path: "/papers/xss.pdf", Title: xssTitle, Pages: 2, Root: root}, store.Vectors{}, "bench"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	be, lib, err := OpenBackend(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	a := newTestApp(be, &fakeRuntime{})

	papers, err := a.ListPapers()
	if err != nil {
		t.Fatal(err)
	}
	var xssID string
	for _, p := range papers {
		if p.Title == xssTitle {
			xssID = p.ID
		}
	}
	if xssID == "" {
		t.Fatalf("paper with markup in its title not listed verbatim: %+v", papers)
	}
	d, err := a.Paper(xssID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != xssTitle || d.Root.Title != xssTitle || !strings.Contains(d.Root.Children[0].Children[0].Text, "<script>alert(3)</script>") {
		t.Errorf("markup was altered on the way: %q / %q", d.Title, d.Root.Children[0].Children[0].Text)
	}

	parent := map[string]string{}
	kind := map[string]string{}
	var walk func(n *TreeNode, p string)
	walk = func(n *TreeNode, p string) {
		parent[n.ID], kind[n.ID] = p, n.Kind
		for _, c := range n.Children {
			walk(c, n.ID)
		}
	}
	walk(d.Root, "")

	ans, err := a.Ask(AskInput{Question: "How does gradient boosting grow decision trees?", PaperIDs: []string{xssID}})
	if err != nil {
		t.Fatal(err)
	}
	if ans.ID == "" || len(ans.Evidence) == 0 || ans.Mode != "extractive" {
		t.Fatalf("answer = %+v", ans)
	}
	for i, e := range ans.Evidence {
		ids := e.PathIDs
		if len(ids) == 0 || ids[0] != d.Root.ID || len(ids) != len(e.Path) {
			t.Fatalf("evidence %d: path ids %q (titles %q) do not start at root %s", i, ids, e.Path, d.Root.ID)
		}
		for j := 1; j < len(ids); j++ {
			if parent[ids[j]] != ids[j-1] {
				t.Errorf("evidence %d: %s is not a child of %s", i, ids[j], ids[j-1])
			}
		}
		if parent[e.NodeID] != ids[len(ids)-1] || (kind[e.NodeID] != "segment" && kind[e.NodeID] != "caption") {
			t.Errorf("evidence %d: leaf %s (%s) is not under %s", i, e.NodeID, kind[e.NodeID], ids[len(ids)-1])
		}
	}

	// History reopens the same answer; export renders it.
	hist, err := a.History(10)
	if err != nil || len(hist) != 1 || hist[0].ID != ans.ID {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	again, err := a.Answer(ans.ID)
	if err != nil || again.Text != ans.Text || len(again.Evidence) != len(ans.Evidence) || !slices.Equal(again.Evidence[0].PathIDs, ans.Evidence[0].PathIDs) {
		t.Errorf("reopened answer differs: %+v, %v", again, err)
	}
	var buf bytes.Buffer
	if err := be.Export(ctx, nil, "md", &buf); err != nil || !strings.Contains(buf.String(), "gradient boosting") {
		t.Errorf("export: %v\n%s", err, buf.String())
	}
	// Export through the save dialog: HTML escapes the markup from the PDF.
	rt := a.rt.(*fakeRuntime)
	rt.savePath = filepath.Join(t.TempDir(), "answer") // no extension: added
	path, err := a.ExportAnswer(ans.ID, "html")
	if err != nil || path != rt.savePath+".html" {
		t.Fatalf("ExportAnswer = %q, %v", path, err)
	}
	html, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(html), "&lt;script&gt;") || strings.Contains(string(html), "<script>alert") {
		t.Errorf("exported HTML does not escape the paper's markup (err %v)", err)
	}
	rt.savePath = ""
	if path, err := a.ExportHistory("pdf"); err != nil || path != "" {
		t.Errorf("cancelled save dialog: %q, %v", path, err)
	}
	if _, err := a.ExportAnswer(ans.ID, "rtf"); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("unknown format: %v", err)
	}
	if err := a.DeleteAnswer(ans.ID); err != nil {
		t.Fatal(err)
	}
	if hist, _ := a.History(10); len(hist) != 0 {
		t.Errorf("history after delete = %+v", hist)
	}
}

func TestAskRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	makeLibrary(t, dir, 1)
	be, lib, err := OpenBackend(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	a := newTestApp(be, &fakeRuntime{})
	for name, in := range map[string]AskInput{
		"empty":        {Question: "   "},
		"too long":     {Question: strings.Repeat("x", maxQuestion+1)},
		"bad budget":   {Question: "q", Budget: -5},
		"bad paper id": {Question: "q", PaperIDs: []string{"abc"}},
		"bad strategy": {Question: "q", Strategy: "nope"},
	} {
		if _, err := a.Ask(in); papertree.ErrorCode(err) == "" || papertree.ErrorCode(err) == papertree.EInternal {
			t.Errorf("%s: err = %v, want a user-facing coded error", name, err)
		}
	}
}

// Reopening an answer from History gives back what it was asked with (the
// papers of its scope, its strategy and budget), so the ask view can ask the
// same question again; an answer asked of the whole library has no papers.
func TestReopenedAnswerKeepsScopeAndStrategy(t *testing.T) {
	dir := t.TempDir()
	makeLibrary(t, dir, 3)
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	a := newTestApp(be, &fakeRuntime{})
	papers, err := a.ListPapers()
	if err != nil || len(papers) != 3 {
		t.Fatalf("papers %v %v", papers, err)
	}
	cases := []struct {
		name   string
		in     AskInput
		papers []string
	}{
		{name: "one paper, naive", in: AskInput{PaperIDs: []string{papers[1].ID}, Strategy: "naive", Budget: 320}, papers: []string{papers[1].ID}},
		{name: "two papers, pt-rag", in: AskInput{PaperIDs: []string{papers[0].ID, papers[2].ID}, Strategy: "pt-rag", Budget: 640}, papers: []string{papers[0].ID, papers[2].ID}},
		{name: "whole library, auto", in: AskInput{Strategy: "auto", Budget: 512}, papers: []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Question = "Which idea does passage 2 of section 3 explain?"
			ans, err := a.Ask(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.Answer(ans.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.PaperIDs, tc.papers) || got.Strategy != tc.in.Strategy || got.Diag.Budget != tc.in.Budget {
				t.Errorf("reopened: papers %q strategy %q budget %d, want %q %q %d", got.PaperIDs, got.Strategy, got.Diag.Budget, tc.papers, tc.in.Strategy, tc.in.Budget)
			}
		})
	}
}

// TestAnswerViewNamesUntitledSections: an answer saved before evidence
// named untitled sections holds an empty path segment; the app shows it
// named, its ids (which the tree opens) untouched.
func TestAnswerViewNamesUntitledSections(t *testing.T) {
	tests := []struct {
		name string
		path []string
		want []string
	}{
		{"a stored empty segment", []string{"ViT", ""}, []string{"ViT", papertree.UntitledSection}},
		{"a titled path as it is", []string{"ViT", "Table 3"}, []string{"ViT", "Table 3"}},
		{"no path is an empty list", nil, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ids := make([]int64, len(tc.path))
			for i := range ids {
				ids[i] = int64(10 + i)
			}
			v := answerView(&papertree.Answer{Evidence: []papertree.Evidence{{PaperID: 1, NodeID: 12, Path: tc.path, PathIDs: ids}}})
			e := v.Evidence[0]
			if !slices.Equal(e.Path, tc.want) || e.Path == nil || len(e.PathIDs) != len(ids) {
				t.Errorf("path %q ids %v, want %q with ids %v", e.Path, e.PathIDs, tc.want, ids)
			}
		})
	}
}
