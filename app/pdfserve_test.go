package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
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

// TestLooksLikePDF: the header may follow up to 1 KB of junk, as readers
// accept; the file must end with startxref and %%EOF.
func TestLooksLikePDF(t *testing.T) {
	trailer := "\nxref\ntrailer\n<< >>\nstartxref\n123\n%%EOF\n"
	junk := func(n int) string { return strings.Repeat("j", n) }
	tests := []struct {
		name string
		file string
		want bool
	}{
		{"plain PDF", "%PDF-1.7\n" + trailer, true},
		{"PDF 2.0", "%PDF-2.0\n" + trailer, true},
		{"1 KB of junk before the header", junk(1024) + "%PDF-1.4\n" + trailer, true},
		{"junk past 1 KB before the header", junk(1025) + "%PDF-1.4\n" + trailer, false},
		{"no version after the header", "%PDF-\n" + trailer, false},
		{"header in the middle of text, no trailer", "Dear diary, %PDF-1.4 is here\n", false},
		{"no %%EOF", "%PDF-1.7\nstartxref\n123\n", false},
		{"no startxref", "%PDF-1.7\n%%EOF\n", false},
		{"%%EOF before startxref only", "%PDF-1.7\n%%EOF\nstartxref\n1\n", false},
		{"trailer followed by 1 KB of junk", "%PDF-1.7\n" + trailer + junk(1024), false},
		{"trailer followed by a little junk", "%PDF-1.7\n" + trailer + junk(200), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := []byte(tt.file)
			head := b[:min(len(b), pdfHeaderWindow+8)]
			tail := b[max(0, len(b)-pdfTrailerWindow):]
			if got := looksLikePDF(head, tail); got != tt.want {
				t.Errorf("looksLikePDF = %v, want %v", got, tt.want)
			}
		})
	}
}
