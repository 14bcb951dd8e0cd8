package app

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

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
//
// What is served is checked on the open file itself (no race between a
// check and the open): the paper is indexed (status ready), the file is a
// regular file (a symlink is followed, but what it leads to must itself be
// a regular file: not a FIFO, a device or a folder) and it starts like a PDF.
// So a paper whose file was swapped for a link to a secrets file, or a text
// file named .pdf that failed to index, is never sent to the webview.
func PDFHandler(a *App) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, PDFPrefix) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			http.NotFound(w, r)
			return
		}
		id := strings.TrimPrefix(r.URL.Path, PDFPrefix)
		f, st, err := a.openPaperPDF(id)
		if err != nil {
			http.Error(w, papertree.ErrorMessage(err), http.StatusNotFound)
			return
		}
		defer f.Close()
		h := w.Header()
		h.Set("Content-Type", "application/pdf")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		http.ServeContent(w, r, "paper.pdf", st.ModTime(), f)
	})
}

// paperFile returns the file of an indexed (ready) paper.
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
			if p.Status != "ready" {
				return "", papertree.Errorf(papertree.EConflict, "%s was not indexed, so it is not shown.", filepath.Base(p.File))
			}
			return p.File, nil
		}
	}
	return "", papertree.Errorf(papertree.ENotFound, "Paper %s is not in the library.", id)
}

// pdfHeaderWindow is how far into a file the "%PDF-" header may start
// (readers accept leading junk; pdf.js looks in the first 1024 bytes).
const pdfHeaderWindow = 1024

// openPaperPDF opens the file of an indexed paper and checks the open file:
// regular, and a PDF by its header. The caller closes f.
func (a *App) openPaperPDF(id string) (f *os.File, st os.FileInfo, err error) {
	path, err := a.paperFile(id)
	if err != nil {
		return nil, nil, err
	}
	name := filepath.Base(path)
	// Refuse anything but a regular file before opening: opening a FIFO
	// blocks until a writer appears.
	if pre, err := os.Stat(path); err != nil {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s is no longer there.", name)
	} else if !pre.Mode().IsRegular() {
		return nil, nil, papertree.Errorf(papertree.EInvalid, "%s is not a regular file, so it is not opened.", name)
	}
	f, err = os.Open(path)
	if err != nil {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, nil, papertree.Errorf(papertree.EInvalid, "%s is not a regular file, so it is not opened.", name)
	}
	head := make([]byte, pdfHeaderWindow)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	if !bytes.Contains(head[:n], []byte("%PDF-")) {
		return nil, nil, papertree.Errorf(papertree.ENotPDF, "%s is no longer a PDF file (it changed since it was indexed).", name)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	return f, st, nil
}

// openerCommand returns the desktop's "open this file" command. Wails'
// BrowserOpenURL refuses file:// URLs (v2.16 accepts only http(s) and
// mailto), so the file is handed to the platform opener directly: an exec
// with the path as one argument, never through a shell.
var openerCommand = func(path string) (string, []string) {
	switch runtime.GOOS {
	case "darwin":
		return "open", []string{path}
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler", path}
	}
	return "xdg-open", []string{path}
}

// openerWait is how long OpenPaperFile waits for the opener's verdict.
// xdg-open returns as soon as the viewer is launched (exit status 0) or
// fails at once (no handler, no desktop); an opener still running after
// this is taken as a viewer that started in the foreground.
var openerWait = 5 * time.Second

// OpenPaperFile opens a library paper's PDF in the system's PDF viewer. It
// reports failure when the file is not an indexed PDF, when no opener is
// installed, or when the opener says it could not open the file.
func (a *App) OpenPaperFile(id string) error {
	f, _, err := a.openPaperPDF(id)
	if err != nil {
		return err
	}
	path := f.Name()
	f.Close()
	name, args := openerCommand(path)
	bin, err := exec.LookPath(name)
	if err != nil {
		return papertree.Errorf(papertree.ENotFound,
			"No program to open files is installed (%s was not found). The PDF is at %s.", name, path)
	}
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return papertree.Wrap(err, papertree.EConflict, "The system viewer could not be started. The PDF is at "+path+".")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	base := a.context()
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, openerWait)
	defer cancel()
	select {
	case err := <-done:
		if err != nil {
			detail := strings.TrimSpace(stderr.String())
			if len(detail) > 200 {
				detail = detail[:200]
			}
			return papertree.Wrap(errors.Join(err, errors.New(detail)), papertree.EConflict,
				"The system could not open the PDF (no viewer is set up for PDF files?). The PDF is at "+path+".")
		}
		return nil
	case <-ctx.Done():
		return nil // still running: a viewer in the foreground; it is reaped when it exits
	}
}
