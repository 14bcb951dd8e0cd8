package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// copyFixture copies one of backend/pdf's fixture PDFs into dir.
func copyFixture(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "backend", "pdf", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBackendWithRealLibrary drives App over a real library (SQLite in a
// temp dir, real PDF fixtures): an empty list, an indexing job with one good
// and one encrypted file, then the list with both.
func TestBackendWithRealLibrary(t *testing.T) {
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	rt := &fakeRuntime{}
	a := newTestApp(be, rt)

	papers, err := a.ListPapers()
	if err != nil || len(papers) != 0 {
		t.Fatalf("empty library: %v, %v", papers, err)
	}

	pdfs := t.TempDir()
	good := copyFixture(t, pdfs, "twocolumn.pdf")
	bad := copyFixture(t, pdfs, "encrypted.pdf")
	sum, err := a.IndexFolder(pdfs)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 1 || len(sum.Failures) != 1 {
		t.Fatalf("summary = %+v, want 1 indexed and 1 failure", sum)
	}
	if f := sum.Failures[0]; f.Path != bad || f.Code != string(papertree.EEncrypted) || f.Message == "" {
		t.Errorf("failure = %+v, want the encrypted file with a message", f)
	}
	last := rt.events[len(rt.events)-1]
	if last.Stage != "done" || last.Done != 2 || last.Total != 2 {
		t.Errorf("last event = %+v", last)
	}
	var sawIndex bool
	for _, ev := range rt.events {
		sawIndex = sawIndex || (ev.Stage == "index" && ev.Detail != "")
	}
	if !sawIndex {
		t.Errorf("no per-file progress among %+v", rt.events)
	}

	papers, err = a.ListPapers()
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]PaperView{}
	for _, p := range papers {
		byFile[p.File] = p
	}
	if p := byFile[good]; p.Status != "ready" || p.Title == "" || p.Pages < 1 || p.ID == "" || p.Message != "" {
		t.Errorf("good paper = %+v", p)
	}
	if p := byFile[bad]; p.Status == "ready" || p.Code != string(papertree.EEncrypted) || p.Message == "" {
		t.Errorf("encrypted paper = %+v", p)
	}

	// A second run skips what is unchanged.
	sum, err = a.IndexFolder(pdfs)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 0 || sum.Skipped < 1 {
		t.Errorf("re-index summary = %+v, want the good file skipped", sum)
	}
}

func TestBackendCancel(t *testing.T) {
	be, lib, err := OpenBackend(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	pdfs := t.TempDir()
	copyFixture(t, pdfs, "twocolumn.pdf")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var mu sync.Mutex
	_, err = be.Index(ctx, []string{filepath.Join(pdfs, "twocolumn.pdf")}, func(Progress) { mu.Lock(); mu.Unlock() })
	if papertree.ErrorCode(err) != papertree.ECanceled {
		t.Errorf("cancelled job: %v (code %q), want canceled", err, papertree.ErrorCode(err))
	}
}

// TestImportBibTeXThroughApp imports a .bib naming a fixture PDF through the
// bound method: it runs as a job, and the listed paper carries the entry's
// metadata (which wins over the PDF's) and citation key; the text search
// finds it.
func TestImportBibTeXThroughApp(t *testing.T) {
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	rt := &fakeRuntime{}
	a := newTestApp(be, rt)
	dir := t.TempDir()
	copyFixture(t, dir, "twocolumn.pdf")
	bib := filepath.Join(dir, "refs.bib")
	if err := os.WriteFile(bib, []byte("@inproceedings{lee2022,\n title = {Columns {Everywhere}},\n author = {Lee, Kim},\n booktitle = {Proc. of Layout},\n year = 2022,\n groups = {Reading},\n file = {:twocolumn.pdf:PDF}\n}\n@misc{gone, title = {Gone}, file = {:gone.pdf:PDF}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := a.ImportBibTeX(bib)
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 1 || len(res.Skipped) != 1 || res.Skipped[0].Item != "gone" || res.Source != "bibtex" {
		t.Errorf("result = %+v", res)
	}
	if last := rt.events[len(rt.events)-1]; last.Stage != "done" || last.Job == 0 {
		t.Errorf("last progress = %+v", last)
	}
	papers, err := a.ListPapers()
	if err != nil || len(papers) != 1 {
		t.Fatalf("papers = %+v, %v", papers, err)
	}
	p := papers[0]
	if p.Title != "Columns Everywhere" || p.Year != 2022 || p.Venue != "Proc. of Layout" || p.CitationKey != "lee2022" || len(p.Collections) != 1 || p.AddedAt == 0 {
		t.Errorf("paper = %+v", p)
	}
	d, err := a.Paper(p.ID)
	if err != nil || d.Title != "Columns Everywhere" {
		t.Errorf("detail title = %q, %v", d.Title, err)
	}
	ids, err := a.SearchPapers("column")
	if err != nil || len(ids) != 1 || ids[0] != p.ID {
		t.Errorf("search = %v, %v", ids, err)
	}
	// The report's bibliography names the paper by its BibTeX metadata and key.
	ans, err := a.Ask(AskInput{Question: "What does the method do?"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := be.Export(ctx, []string{ans.ID}, "md", &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "*Columns Everywhere*. `[lee2022]`") {
		t.Errorf("report bibliography lacks the citation key:\n%s", buf.String())
	}
	if _, err := a.ImportZotero(t.TempDir()); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("import of a folder without zotero.sqlite: %v", err)
	}
}
