package app

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// PDFPrefix is the URL path under which the page view fetches a paper's PDF:
// PDFPrefix + paper id. Only files of papers in the library are served (by
// id, never by path), so the webview cannot read arbitrary files.
const PDFPrefix = "/pdf/"

// PDFHandler serves library PDFs to the in-app page view (pdf.js). It is the
// Wails asset server's fallback handler, so it sees only requests that are
// not frontend assets. It is a function, not a method, because every
// exported method of App is bound to JavaScript.
func PDFHandler(a *App) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, PDFPrefix) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			http.NotFound(w, r)
			return
		}
		id := strings.TrimPrefix(r.URL.Path, PDFPrefix)
		path, err := a.paperFile(id)
		if err != nil {
			http.Error(w, papertree.ErrorMessage(err), http.StatusNotFound)
			return
		}
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, "The PDF file is no longer there.", http.StatusNotFound)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.Error(w, "The PDF file cannot be read.", http.StatusNotFound)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/pdf")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		http.ServeContent(w, r, filepath.Base(path), st.ModTime(), f)
	})
}

func (a *App) paperFile(id string) (string, error) {
	lib, err := a.ready()
	if err != nil {
		return "", err
	}
	if _, err := parseID(id, "paper"); err != nil {
		return "", err
	}
	ps, err := lib.ListPapers(a.context())
	if err != nil {
		return "", err
	}
	for _, p := range ps {
		if p.ID == id {
			return p.File, nil
		}
	}
	return "", papertree.Errorf(papertree.ENotFound, "Paper %s is not in the library.", id)
}

// OpenPaperFile opens a library paper's PDF in the system's PDF viewer.
func (a *App) OpenPaperFile(id string) error {
	path, err := a.paperFile(id)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return papertree.Errorf(papertree.ENotFound, "The file %s is no longer there.", filepath.Base(path))
	}
	u := url.URL{Scheme: "file", Path: path}
	a.rt.OpenURL(a.context(), u.String())
	return nil
}
