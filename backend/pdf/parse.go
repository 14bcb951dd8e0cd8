// Package pdf is PaperTree's boundary to the PDF library: it turns one PDF
// file into positioned text runs per page, the outline (bookmarks) and the
// document information dictionary, and nothing else.
//
// Data flow: file -> Parse -> Document{Pages[Runs], Outline, Info} ->
// treebuild. This is the ONLY package that imports github.com/ledongthuc/pdf
// (a patched copy lives in third_party/ledongthuc-pdf, see its README).
//
// Invariants:
//   - Parse never panics. Every failure is a *papertree.Error with a code
//     the UI can act on (empty_file, not_pdf, truncated, encrypted,
//     malformed, no_text, too_large, canceled). Library panics are
//     recovered per file and per page; a page that panics is kept as an
//     empty page and listed in Document.SkippedPages.
//   - Coordinates are PDF points with the origin at the top-left of the
//     page's crop box (y grows downwards), matching papertree.Box.
//   - Runs are words (or same-font fragments of a word) on one baseline, in
//     content-stream order; whitespace is never inside a run.
//   - Ligature glyphs are mapped to letters; nothing else is normalised
//     (de-hyphenation and reading order are the tree builder's job).
//   - A garbled text layer does not fail Parse; it is reported through
//     Document.TextQuality and Document.Garbled.
//   - Parse keeps no shared mutable state: different files may be parsed
//     concurrently (one library Reader per call).
package pdf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	lib "github.com/ledongthuc/pdf"

	"github.com/papertree/papertree/backend/papertree"
)

// Open parses the PDF file at path. See Parse.
func Open(ctx context.Context, path string, opts Options) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &papertree.Error{Code: papertree.ENotFound, Message: "The PDF file does not exist.", Op: "open pdf", Err: err}
		}
		return nil, &papertree.Error{Code: papertree.EInvalid, Message: "The PDF file cannot be opened.", Op: "open pdf", Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &papertree.Error{Code: papertree.EInvalid, Message: "The PDF file cannot be opened.", Op: "open pdf", Err: err}
	}
	if st.IsDir() {
		return nil, &papertree.Error{Code: papertree.EInvalid, Message: "The path is a folder, not a PDF file.", Op: "open pdf"}
	}
	return Parse(ctx, f, st.Size(), opts)
}

// Parse reads a PDF of size bytes from r. It checks ctx between pages and
// returns ECanceled when it is done. On success the document has at least
// one run of text; see the package comment for the error codes.
func Parse(ctx context.Context, r io.ReaderAt, size int64, opts Options) (doc *Document, err error) {
	if size <= 0 {
		return nil, coded(papertree.EEmptyFile, "The file is empty (0 bytes).", nil)
	}
	if opts.MaxBytes > 0 && size > opts.MaxBytes {
		return nil, coded(papertree.ETooLarge,
			fmt.Sprintf("The PDF is too large (%d MB; the limit is %d MB).", mb(size), mb(opts.MaxBytes)), nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled(err)
	}
	defer func() {
		if x := recover(); x != nil {
			doc = nil
			err = coded(papertree.EMalformed, "The PDF file is damaged and cannot be read.", panicError(x))
		}
	}()

	rd, err := lib.NewReader(r, size)
	if err != nil {
		return nil, classifyOpenError(err)
	}

	var pages []lib.Page
	if err := protect(func() { pages = rd.Pages() }); err != nil {
		return nil, coded(papertree.EMalformed, "The PDF's page tree cannot be read.", err)
	}
	if len(pages) == 0 {
		return nil, coded(papertree.EMalformed, "The PDF has no readable pages.", nil)
	}
	if opts.MaxPages > 0 && len(pages) > opts.MaxPages {
		return nil, coded(papertree.ETooLarge,
			fmt.Sprintf("The PDF has too many pages (%d; the limit is %d).", len(pages), opts.MaxPages), nil)
	}

	doc = &Document{Pages: make([]Page, 0, len(pages))}
	// Info and outline are optional: a damaged one is dropped, not fatal.
	_ = protect(func() { doc.Info = readInfo(rd.Trailer().Key("Info")) })

	var q qualityCounter
	styles := make(map[string]fontStyle)
	for i, p := range pages {
		if err := ctx.Err(); err != nil {
			return nil, canceled(err)
		}
		n := i + 1
		var pg Page
		if err := protect(func() { pg = extractPage(p, n, styles, &q) }); err != nil {
			pg = Page{Number: n}
			_ = protect(func() { pg.Width, pg.Height = pageSize(p) })
			if pg.Width == 0 {
				pg.Width, pg.Height = 612, 792
			}
			doc.SkippedPages = append(doc.SkippedPages, n)
		}
		doc.Pages = append(doc.Pages, pg)
	}
	if len(doc.SkippedPages) == len(pages) {
		return nil, coded(papertree.EMalformed, "The PDF's pages cannot be read.", nil)
	}
	if !hasRuns(doc.Pages) {
		return nil, coded(papertree.ENoText,
			"The PDF has no text layer (it may be a scan or consist only of images); it would need OCR first.", nil)
	}
	doc.TextQuality = q.quality()
	doc.Garbled = doc.TextQuality < GarbledThreshold

	_ = protect(func() { doc.Outline = readOutline(rd, pages) })
	return doc, nil
}

func mb(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

func coded(code papertree.Code, msg string, err error) *papertree.Error {
	return &papertree.Error{Code: code, Message: msg, Op: "parse pdf", Err: err}
}

func canceled(err error) *papertree.Error {
	return coded(papertree.ECanceled, "Reading the PDF was cancelled.", err)
}

// classifyOpenError maps the library's (patched) sentinel errors to codes.
func classifyOpenError(err error) *papertree.Error {
	switch {
	case errors.Is(err, lib.ErrNotPDF):
		return coded(papertree.ENotPDF, "The file is not a PDF (it has no PDF header).", err)
	case errors.Is(err, lib.ErrEncrypted):
		return coded(papertree.EEncrypted, "The PDF is password-protected or uses unsupported encryption.", err)
	case errors.Is(err, lib.ErrTruncated):
		return coded(papertree.ETruncated, "The PDF file is incomplete or damaged (its end is missing or its cross-reference table is unreadable).", err)
	default:
		return coded(papertree.EMalformed, "The PDF file is damaged and cannot be read.", err)
	}
}

// protect runs fn and turns a panic into an error. The library reports
// malformed input by panicking; a panic that escapes it must only ever
// cost the part of the document being read.
func protect(fn func()) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = panicError(x)
		}
	}()
	fn()
	return nil
}

// panicError keeps the panic value and the stack for logs (Error.Err is
// never shown to users).
func panicError(x any) error {
	if e, ok := x.(error); ok {
		return fmt.Errorf("pdf library panic: %w\n%s", e, debug.Stack())
	}
	return fmt.Errorf("pdf library panic: %v\n%s", x, debug.Stack())
}

func hasRuns(pages []Page) bool {
	for _, p := range pages {
		if len(p.Runs) > 0 {
			return true
		}
	}
	return false
}
