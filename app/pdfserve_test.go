package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
)

func TestPDFHandlerServesOnlyLibraryPapersByID(t *testing.T) {
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	a := newTestApp(be, &fakeRuntime{})
	pdfs := t.TempDir()
	copyFixture(t, pdfs, "twocolumn.pdf")
	if _, err := a.IndexFolder(pdfs); err != nil {
		t.Fatal(err)
	}
	papers, err := a.ListPapers()
	if err != nil || len(papers) != 1 {
		t.Fatalf("papers = %+v, %v", papers, err)
	}
	h := PDFHandler(a)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	rec := get(PDFPrefix + papers[0].ID)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/pdf" || rec.Body.Len() < 100 || string(rec.Body.Bytes()[:5]) != "%PDF-" {
		t.Fatalf("GET paper: %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
	for _, path := range []string{PDFPrefix + "999", PDFPrefix + "abc", PDFPrefix + "..%2f..%2fetc%2fpasswd", "/etc/passwd", PDFPrefix} {
		if rec := get(path); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, rec.Code)
		}
	}
	// The system viewer is tested in TestOpenPaperFile; unknown ids are errors.
	if err := a.OpenPaperFile("999"); err == nil {
		t.Error("OpenPaperFile(999) did not fail")
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, PDFPrefix+papers[0].ID, nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("POST = %d, want 404", rec.Code)
	}
}
