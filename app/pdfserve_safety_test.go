//go:build unix

package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// indexedApp indexes the two-column fixture (good.pdf) and a text file
// named diary.pdf (fails to index) and returns the app and the papers by
// file name.
func indexedApp(t *testing.T) (*App, map[string]PaperView, string) {
	t.Helper()
	be, lib, err := OpenBackend(context.Background(), filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	a := newTestApp(be, &fakeRuntime{})
	pdfs := t.TempDir()
	good := copyFixture(t, pdfs, "twocolumn.pdf")
	if err := os.Rename(good, filepath.Join(pdfs, "good.pdf")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pdfs, "diary.pdf"), []byte("Dear diary, today I indexed my papers.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.IndexFolder(pdfs); err != nil {
		t.Fatal(err)
	}
	papers, err := a.ListPapers()
	if err != nil || len(papers) != 2 {
		t.Fatalf("papers = %+v, %v", papers, err)
	}
	by := map[string]PaperView{}
	for _, p := range papers {
		by[filepath.Base(p.File)] = p
	}
	return a, by, pdfs
}

// TestPDFHandlerServesOnlyIndexedPDFs: the page view gets a paper's file
// only when the paper is indexed and the file is still a regular PDF.
func TestPDFHandlerServesOnlyIndexedPDFs(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		paper string
		swap  func(t *testing.T, path string) // changes the file after indexing
		want  int
	}{
		{"indexed PDF", "good.pdf", nil, http.StatusOK},
		{"failed to index (text named .pdf)", "diary.pdf", nil, http.StatusNotFound},
		{"swapped for a symlink to a secret", "good.pdf", func(t *testing.T, path string) {
			os.Remove(path)
			if err := os.Symlink(secret, path); err != nil {
				t.Fatal(err)
			}
		}, http.StatusNotFound},
		{"swapped for a text file", "good.pdf", func(t *testing.T, path string) {
			os.WriteFile(path, []byte("not a pdf any more"), 0o644)
		}, http.StatusNotFound},
		{"text holding %PDF- written in place", "good.pdf", func(t *testing.T, path string) {
			os.WriteFile(path, []byte("Dear diary, %PDF-1.4 is in my first kilobyte.\n"), 0o644)
		}, http.StatusNotFound},
		{"text shaped like a PDF (header and trailer) written in place", "good.pdf", func(t *testing.T, path string) {
			os.WriteFile(path, []byte("%PDF-1.4\nDear diary, PRIVATE KEY\nstartxref\n0\n%%EOF\n"), 0o644)
		}, http.StatusNotFound},
		{"swapped for a symlink to another PDF", "good.pdf", func(t *testing.T, path string) {
			other := copyFixture(t, t.TempDir(), "rotated.pdf")
			os.Remove(path)
			if err := os.Symlink(other, path); err != nil {
				t.Fatal(err)
			}
		}, http.StatusNotFound},
		{"swapped for a hard link to another PDF", "good.pdf", func(t *testing.T, path string) {
			other := copyFixture(t, filepath.Dir(path), "rotated.pdf")
			os.Remove(path)
			if err := os.Link(other, path); err != nil {
				t.Skip("no hard links here:", err)
			}
		}, http.StatusNotFound},
		{"touched (same content, new time)", "good.pdf", func(t *testing.T, path string) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
		}, http.StatusOK},
		{"moved away and back (new inode, same content)", "good.pdf", func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(path)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, http.StatusOK},
		{"swapped for a FIFO", "good.pdf", func(t *testing.T, path string) {
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}, http.StatusNotFound},
		{"swapped for a folder", "good.pdf", func(t *testing.T, path string) {
			os.Remove(path)
			os.Mkdir(path, 0o755)
		}, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, papers, _ := indexedApp(t)
			p := papers[tt.paper]
			if tt.swap != nil {
				tt.swap(t, p.File)
			}
			rec := httptest.NewRecorder()
			done := make(chan struct{})
			go func() {
				PDFHandler(a).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, PDFPrefix+p.ID, nil))
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the handler hangs")
			}
			if rec.Code != tt.want {
				t.Fatalf("GET = %d, want %d (%s)", rec.Code, tt.want, rec.Body.String())
			}
			if body := rec.Body.String(); strings.Contains(body, "PRIVATE KEY") || strings.Contains(body, "Dear diary") {
				t.Fatalf("served content it must not: %q", body[:min(len(body), 80)])
			}
		})
	}
}

// fakeOpener puts an "xdg-open" on PATH that records its arguments and
// exits with code.
func fakeOpener(t *testing.T, code int) string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + log + "'\necho 'xdg-open: no method available for opening' >&2\nexit " + string(rune('0'+code)) + "\n"
	name, _ := openerCommand("x")
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return log
}

// TestOpenPaperFile: the PDF goes to the platform opener as one argument
// (no shell, no file:// URL), and a failing or missing opener is reported.
func TestOpenPaperFile(t *testing.T) {
	a, papers, _ := indexedApp(t)
	good := papers["good.pdf"]

	log := fakeOpener(t, 0)
	if err := a.OpenPaperFile(good.ID); err != nil {
		t.Fatalf("open: %v", err)
	}
	b, err := os.ReadFile(log)
	if err != nil || strings.TrimSpace(string(b)) != good.File {
		t.Fatalf("opener got %q, %v; want %s", b, err, good.File)
	}

	fakeOpener(t, 4) // xdg-open's "the action failed"
	if err := a.OpenPaperFile(good.ID); err == nil || !strings.Contains(err.Error(), "could not open") {
		t.Errorf("failing opener: %v", err)
	}

	t.Setenv("PATH", t.TempDir()) // no opener at all
	if err := a.OpenPaperFile(good.ID); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing opener: %v", err)
	}

	fakeOpener(t, 0)
	if err := a.OpenPaperFile(papers["diary.pdf"].ID); err == nil {
		t.Error("a paper that failed to index was opened")
	}
}

// TestPDFHandlerRehashesAFileRewrittenInPlace: the hash cache is keyed on
// what a write changes. A file served once (its hash cached), then
// rewritten in place with other bytes of the same size and its
// modification time set back, is hashed again and refused.
func TestPDFHandlerRehashesAFileRewrittenInPlace(t *testing.T) {
	a, papers, _ := indexedApp(t)
	p := papers["good.pdf"]
	get := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		PDFHandler(a).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, PDFPrefix+p.ID, nil))
		return rec
	}
	if rec := get(); rec.Code != http.StatusOK {
		t.Fatalf("first GET = %d (%s)", rec.Code, rec.Body.String())
	}
	st, err := os.Stat(p.File)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p.File)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, header and trailer; one byte in the middle differs.
	b[len(b)/2] ^= 0x20
	f, err := os.OpenFile(p.File, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p.File, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if rec := get(); rec.Code != http.StatusNotFound {
		t.Fatalf("GET after an in-place rewrite = %d, want 404", rec.Code)
	} else if !strings.Contains(rec.Body.String(), "changed since it was indexed") {
		t.Errorf("message = %q", rec.Body.String())
	}
}
