package app

import (
	"context"
	"os"
	"path/filepath"
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
