package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
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
// a regular file: not a FIFO, a device or a folder), it is shaped like a
// PDF (header in the first 1 KB, startxref and %%EOF in the last) and its
// content hash is the one stored when it was indexed. So a paper whose file
// was swapped for a link to a secrets file, a hard link or a text file
// written in place (even one holding "%PDF-"), or a text file named .pdf
// that failed to index, is never sent to the webview. What remains is a
// write into the same file while it is being served.
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

// paperFile returns the file of an indexed (ready) paper and the sha256 of
// its content when it was indexed.
func (a *App) paperFile(id string) (path, hash string, err error) {
	lib, err := a.ready()
	if err != nil {
		return "", "", err
	}
	if _, err := parseID(id, "paper"); err != nil {
		return "", "", err
	}
	ps, err := lib.ListPapers(a.context())
	if err != nil {
		return "", "", err
	}
	for _, p := range ps {
		if p.ID == id {
			if p.Status != "ready" {
				return "", "", papertree.Errorf(papertree.EConflict, "%s was not indexed, so it is not shown.", filepath.Base(p.File))
			}
			return p.File, p.Hash, nil
		}
	}
	return "", "", papertree.Errorf(papertree.ENotFound, "Paper %s is not in the library.", id)
}

// pdfHeaderWindow is how far into a file the "%PDF-" header may start and
// pdfTrailerWindow how far from its end "startxref" and "%%EOF" must be:
// readers accept up to 1 KB of junk before the header (pdf.js, Acrobat) and
// look for the end-of-file marker in the last 1 KB.
const (
	pdfHeaderWindow  = 1024
	pdfTrailerWindow = 1024
)

// looksLikePDF reports whether head (the first bytes of a file) holds a
// "%PDF-d.d" header within pdfHeaderWindow and tail (its last bytes) a
// "startxref" followed by "%%EOF".
func looksLikePDF(head, tail []byte) bool {
	head = head[:min(len(head), pdfHeaderWindow+8)]
	i := bytes.Index(head, []byte("%PDF-"))
	if i < 0 || i > pdfHeaderWindow || i+8 > len(head) {
		return false
	}
	v := head[i+5 : i+8]
	if v[0] < '1' || v[0] > '2' || v[1] != '.' || v[2] < '0' || v[2] > '9' {
		return false
	}
	tail = tail[max(0, len(tail)-pdfTrailerWindow):]
	x := bytes.LastIndex(tail, []byte("startxref"))
	return x >= 0 && bytes.Contains(tail[x:], []byte("%%EOF"))
}

// openPaperPDF opens the file of an indexed paper and checks the open file:
// regular, shaped like a PDF (header and trailer), and with the content it
// had when it was indexed (its sha256 equals the stored hash). The caller
// closes f.
func (a *App) openPaperPDF(id string) (f *os.File, st os.FileInfo, err error) {
	path, want, err := a.paperFile(id)
	if err != nil {
		return nil, nil, err
	}
	name := filepath.Base(path)
	// pdf.OpenRegular refuses anything but a regular file before opening
	// (opening a FIFO blocks until a writer appears) and again on the open
	// file.
	f, _, err = pdf.OpenRegular(path, 0)
	if err != nil {
		switch papertree.ErrorCode(err) {
		case papertree.ENotFound:
			return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s is no longer there.", name)
		case papertree.EInvalid, papertree.EEmptyFile:
			return nil, nil, papertree.Errorf(papertree.EInvalid, "%s is not a regular PDF file any more, so it is not opened.", name)
		}
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	changed := papertree.Errorf(papertree.ENotPDF, "%s changed since it was indexed (it is no longer the same PDF), so it is not shown. Index the folder again to show it.", name)
	if st, err = f.Stat(); err != nil {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	head := make([]byte, pdfHeaderWindow+8)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	tail := make([]byte, min(st.Size(), pdfTrailerWindow))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	if !looksLikePDF(head[:n], tail) {
		return nil, nil, changed
	}
	got, err := pdfHashes.hash(f, st)
	if err != nil {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	if want == "" || got != want {
		return nil, nil, changed
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "The file %s cannot be read.", name)
	}
	return f, st, nil
}

// pdfHashes remembers the content hash of served files, so that pdf.js's
// range requests (one per chunk of a large PDF) do not hash the whole file
// each time.
var pdfHashes = &hashCache{m: map[string]hashEntry{}}

// hashCache maps a file to its sha256, keyed by what changes when the file
// does: its path, and on the open file its size, modification time, and
// (where the system has them) device, inode and status-change time. ctime
// is set by the kernel on every write and cannot be set back like mtime,
// so a file rewritten in place, replaced or re-linked is hashed again.
type hashCache struct {
	mu sync.Mutex
	m  map[string]hashEntry // by path
}

type hashEntry struct {
	id   fileID
	hash string
}

// fileID is what identifies one version of a file's content.
type fileID struct {
	size        int64
	mtime       int64 // unix ns
	dev, ino    uint64
	ctimeSecond int64
	ctimeNano   int64
}

// maxHashEntries bounds the cache (one entry per paper viewed).
const maxHashEntries = 4096

// hash returns the hex sha256 of the open file f (whose Stat is st),
// reading it only when its identity differs from the cached one.
func (c *hashCache) hash(f *os.File, st os.FileInfo) (string, error) {
	id := identify(st)
	c.mu.Lock()
	e, ok := c.m[f.Name()]
	c.mu.Unlock()
	if ok && e.id == id {
		return e.hash, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	// The file may have changed while it was read: cache only what was
	// hashed from an unchanged file.
	if after, err := f.Stat(); err != nil || identify(after) != id {
		return "", errors.New("the file changed while it was read")
	}
	c.mu.Lock()
	if len(c.m) >= maxHashEntries {
		clear(c.m)
	}
	c.m[f.Name()] = hashEntry{id: id, hash: sum}
	c.mu.Unlock()
	return sum, nil
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
