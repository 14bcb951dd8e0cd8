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
//     malformed, no_text, too_large, too_complex, timeout, canceled).
//   - Work is bounded while reading, never checked after: inflated bytes per
//     stream and per document, operands per operator, CMap entries, runs
//     per page and per document, pages (refused before anything is
//     allocated per page), characters per run; ctx (cancel, deadline) is
//     checked inside pages. See Options and DefaultBudget. Library panics are
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

// Open parses the PDF file at path. See OpenRegular and Parse.
func Open(ctx context.Context, path string, opts Options) (*Document, error) {
	f, size, err := OpenRegular(path, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(ctx, f, size, opts)
}

// OpenRegular opens path for reading only if it is (or links to) a regular
// file of at most maxBytes (0 = no limit), checked with stat BEFORE the file
// is opened or read: a FIFO, a device such as /dev/zero (even behind a
// symlink named *.pdf), a folder or a 40 GiB sparse file is refused at once
// instead of blocking or being read to the end. The file is opened
// non-blocking and checked again through the open descriptor, so swapping
// the file for a FIFO between the two checks cannot hang the caller.
// Errors are coded (ENotFound, EInvalid, EEmptyFile, ETooLarge).
func OpenRegular(path string, maxBytes int64) (*os.File, int64, error) {
	st, err := os.Stat(path) // follows symlinks: the target is what gets read
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if _, lerr := os.Lstat(path); lerr == nil {
				return nil, 0, &papertree.Error{Code: papertree.ENotFound, Message: "The file is a link to something that does not exist.", Op: "open pdf", Err: err}
			}
			return nil, 0, &papertree.Error{Code: papertree.ENotFound, Message: "The PDF file does not exist.", Op: "open pdf", Err: err}
		}
		return nil, 0, FileError(err)
	}
	if err := checkRegular(st, maxBytes); err != nil {
		return nil, 0, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, FileError(err)
	}
	fst, err := f.Stat()
	if err == nil {
		err = checkRegular(fst, maxBytes)
	}
	if err != nil {
		f.Close()
		if _, ok := err.(*papertree.Error); ok {
			return nil, 0, err
		}
		return nil, 0, &papertree.Error{Code: papertree.EInvalid, Message: "The PDF file cannot be opened.", Op: "open pdf", Err: err}
	}
	clearNonblock(f)
	return f, fst.Size(), nil
}

// checkRegular refuses anything but a regular file within maxBytes.
func checkRegular(st os.FileInfo, maxBytes int64) error {
	switch m := st.Mode(); {
	case m.IsDir():
		return &papertree.Error{Code: papertree.EInvalid, Message: "The path is a folder, not a PDF file.", Op: "open pdf"}
	case !m.IsRegular():
		return &papertree.Error{Code: papertree.EInvalid, Message: "The path is not a regular file (it is a pipe, a device or a socket), so it is not read.", Op: "open pdf"}
	case st.Size() == 0:
		return coded(papertree.EEmptyFile, "The file is empty (0 bytes).", nil)
	case maxBytes > 0 && st.Size() > maxBytes:
		return coded(papertree.ETooLarge,
			fmt.Sprintf("The PDF is too large (%d MB; the limit is %d MB).", mb(st.Size()), mb(maxBytes)), nil)
	}
	return nil
}

// Parse reads a PDF of size bytes from r. Cancellation and the deadline of
// ctx act inside a page (checked every few thousand tokens), not only
// between pages. The budgets of opts (see Options) are enforced while
// reading; the first one hit fails the file with ETooComplex. On success
// the document has at least one run of text; see the package comment for
// the error codes.
func Parse(ctx context.Context, r io.ReaderAt, size int64, opts Options) (doc *Document, err error) {
	if size <= 0 {
		return nil, coded(papertree.EEmptyFile, "The file is empty (0 bytes).", nil)
	}
	if opts.MaxBytes > 0 && size > opts.MaxBytes {
		return nil, coded(papertree.ETooLarge,
			fmt.Sprintf("The PDF is too large (%d MB; the limit is %d MB).", mb(size), mb(opts.MaxBytes)), nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err)
	}
	budget := opts.budget()
	var rd *lib.Reader
	defer func() {
		if x := recover(); x != nil {
			doc = nil
			err = coded(papertree.EMalformed, "The PDF file is damaged and cannot be read.", panicError(x))
		}
		// A budget hit or a cancellation may surface as a damaged page or
		// a panic inside the library: the reason the Reader stopped wins.
		if rd != nil && err != nil {
			if e := stopError(ctx, rd.Err()); e != nil {
				doc, err = nil, e
			}
		}
	}()

	rd, err = lib.NewReaderLimits(r, size, budget.readerLimits(ctx))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, ctxError(cerr)
		}
		var le *lib.LimitError
		if errors.As(err, &le) {
			return nil, coded(papertree.ETooComplex, budgetMessage(le.What, le.Limit), err)
		}
		return nil, classifyOpenError(err)
	}

	var pages []lib.Page
	var more bool
	maxPages := opts.MaxPages
	if err := protect(func() { pages, more = rd.PagesLimit(maxPages) }); err != nil {
		return nil, coded(papertree.EMalformed, "The PDF's page tree cannot be read.", err)
	}
	if e := stopError(ctx, rd.Err()); e != nil {
		return nil, e
	}
	if more && maxPages > 0 {
		return nil, coded(papertree.ETooLarge,
			fmt.Sprintf("The PDF has too many pages (more than %d, the limit).", maxPages), nil)
	}
	if len(pages) == 0 {
		var e *papertree.Error
		if perr := protect(func() { e = noPagesError(rd) }); perr != nil || e == nil {
			e = coded(papertree.EMalformed, "The PDF has no readable pages.", perr)
		}
		return nil, e
	}

	doc = &Document{Pages: make([]Page, 0, len(pages))}
	// Info and outline are optional: a damaged one is dropped, not fatal.
	_ = protect(func() { doc.Info = readInfo(rd.Trailer().Key("Info")) })

	var q qualityCounter
	styles := make(map[string]fontStyle)
	runs := 0
	for i, p := range pages {
		if err := ctx.Err(); err != nil {
			return nil, ctxError(err)
		}
		n := i + 1
		var pg Page
		lim := runLimit{page: budget.MaxPageRuns, doc: budget.MaxRuns, used: runs}
		perr := protect(func() { pg = extractPage(rd, p, n, styles, &q, lim) })
		if e := stopError(ctx, rd.Err()); e != nil {
			return nil, e
		}
		if perr != nil {
			pg = Page{Number: n}
			_ = protect(func() { pg.Width, pg.Height = pageSize(p) })
			if pg.Width == 0 {
				pg.Width, pg.Height = 612, 792
			}
			doc.SkippedPages = append(doc.SkippedPages, n)
		}
		runs += len(pg.Runs)
		doc.Pages = append(doc.Pages, pg)
	}
	if len(doc.SkippedPages) == len(pages) {
		return nil, coded(papertree.EMalformed, "The PDF's pages cannot be read.", nil)
	}
	if !hasRuns(doc.Pages) {
		return nil, noTextError(ctx, pages)
	}
	doc.TextQuality = q.quality()
	doc.Garbled = doc.TextQuality < GarbledThreshold

	_ = protect(func() { doc.Outline = readOutline(rd, pages) })
	if e := stopError(ctx, rd.Err()); e != nil {
		// The outline is optional, but a cancellation while reading it
		// still cancels the file.
		if papertree.ErrorCode(e) != papertree.ETooComplex {
			return nil, e
		}
		doc.Outline = nil
	}
	return doc, nil
}

// ctxError codes a context error: the deadline of the file or a cancel.
func ctxError(err error) *papertree.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return coded(papertree.ETimeout, "Reading the PDF took longer than its time limit, so it was skipped.", err)
	}
	return canceled(err)
}

// stopError turns the reason the Reader stopped into a coded error (nil
// when it did not stop).
func stopError(ctx context.Context, err error) *papertree.Error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return ctxError(cerr)
	}
	var le *lib.LimitError
	if errors.As(err, &le) {
		return coded(papertree.ETooComplex, budgetMessage(le.What, le.Limit), err)
	}
	var re *runsError
	if errors.As(err, &re) {
		return coded(papertree.ETooComplex, re.message(), err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ctxError(err)
	}
	return coded(papertree.EMalformed, "The PDF file is damaged and cannot be read.", err)
}

// budgetMessage says in plain words which budget a file exceeded.
func budgetMessage(what string, limit int64) string {
	const pre = "The PDF is too complex to read safely, so it was skipped: "
	switch what {
	case "stream bytes":
		return pre + fmt.Sprintf("one of its compressed parts expands to more than %d MB.", mb(limit))
	case "document bytes":
		return pre + fmt.Sprintf("its compressed content expands to more than %d MB in all.", mb(limit))
	case "operands":
		return pre + fmt.Sprintf("a page holds more than %d numbers or values in a row without a drawing command.", limit)
	case "cmap entries":
		return pre + fmt.Sprintf("a font's character map has more than %d entries.", limit)
	}
	return pre + what + "."
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

// readerLimits are a resolved budget's limits for the PDF library's reader,
// checking ctx while it reads.
func (o Options) readerLimits(ctx context.Context) lib.Limits {
	return lib.Limits{
		MaxStreamBytes: o.MaxStreamBytes,
		MaxDocBytes:    o.MaxDocBytes,
		MaxOperands:    o.MaxOperands,
		MaxCMapEntries: o.MaxCMapEntries,
		Check:          ctx.Err,
	}
}
