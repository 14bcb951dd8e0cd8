package app

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// DBFile is the library database's name inside the library folder.
const DBFile = "library.db"

// Backend adapts backend/library to the Library facade. It lives here, not in
// backend/library, because its types are app's view types and backend/ must
// never import this package (the CLI would link Wails).
type Backend struct{ lib *library.Library }

// NewBackend wraps an open library.
func NewBackend(lib *library.Library) *Backend { return &Backend{lib: lib} }

// OpenBackend opens (creating if needed) the library in dir. The caller
// closes the returned library when the app exits.
func OpenBackend(ctx context.Context, dir string) (*Backend, *library.Library, error) {
	lib, err := library.Open(ctx, library.Config{DBPath: filepath.Join(dir, DBFile), Upgrading: logUpgrade})
	if err != nil {
		return nil, nil, err
	}
	return NewBackend(lib), lib, nil
}

// logUpgrade logs that the library is being upgraded to this build's
// schema: the window opens after it, and a step may take seconds on a
// large library.
func logUpgrade(from, to int) {
	slog.Info("upgrading the library database", "from_schema", from, "to_schema", to)
}

// OpenFunc returns an Options.Open that opens the library in dir.
func OpenFunc(dir string) func(ctx context.Context) (Library, io.Closer, error) {
	return func(ctx context.Context) (Library, io.Closer, error) {
		b, lib, err := OpenBackend(ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		return b, lib, nil
	}
}

// SetFileTimeout changes the time limit for reading one PDF (Settings,
// parse.file_timeout_seconds) for the next index job.
func (b *Backend) SetFileTimeout(d time.Duration) { b.lib.SetFileTimeout(d) }

// SetOCR switches OCR on or off and sets its languages (Settings,
// parse.ocr and parse.ocr_languages) for the next index job.
func (b *Backend) SetOCR(c library.OCRConfig) { b.lib.SetOCR(c) }

// ListPapers lists the library, as stored (the store's order), with the
// reference manager's metadata applied.
func (b *Backend) ListPapers(ctx context.Context) ([]PaperView, error) {
	infos, err := b.lib.PapersWithRefs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]PaperView, 0, len(infos))
	for _, in := range infos {
		v := paperView(in.PaperInfo)
		v.Venue, v.DOI, v.CitationKey, v.Source = in.Venue, in.DOI, in.CitationKey, in.Source
		v.ArxivID = in.PaperInfo.ArxivID
		v.Collections, v.Tags = nonNilStrings(in.Collections), nonNilStrings(in.Tags)
		v.Edited, v.HeadingEdits, v.UnmatchedEdits = nonNilStrings(in.Edited), in.HeadingEdits, in.UnmatchedEdits
		if !in.AddedAt.IsZero() {
			v.AddedAt = in.AddedAt.UnixMilli()
		}
		out = append(out, v)
	}
	return out, nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Import imports references from a Zotero data directory or a .bib file.
func (b *Backend) Import(ctx context.Context, source, path string, progress func(Progress)) (ImportResult, error) {
	switch source {
	case "zotero":
		return b.ImportZoteroLibrary(ctx, path, "", progress)
	case "bibtex":
		return b.importWith(ctx, progress, func(ev func(library.Event)) (library.ImportSummary, error) {
			return b.lib.ImportBibTeX(ctx, path, ev)
		})
	default:
		return ImportResult{}, papertree.Errorf(papertree.EInvalid, "Unknown import source %q.", source)
	}
}

// ImportZoteroLibrary imports one library of a Zotero data directory, named
// by id or name ("" = every library; see zotero.Libraries).
func (b *Backend) ImportZoteroLibrary(ctx context.Context, dir, which string, progress func(Progress)) (ImportResult, error) {
	return b.importWith(ctx, progress, func(ev func(library.Event)) (library.ImportSummary, error) {
		return b.lib.ImportZoteroLibrary(ctx, dir, "", which, ev)
	})
}

func (b *Backend) importWith(ctx context.Context, progress func(Progress), run func(ev func(library.Event)) (library.ImportSummary, error)) (ImportResult, error) {
	ev := func(e library.Event) {
		progress(Progress{Stage: "index", Done: e.Done, Total: e.Total, File: e.File, Detail: e.Detail(), Message: e.ErrMsg, Remaining: e.Remaining.Milliseconds()})
	}
	sum, err := run(ev)
	if err != nil {
		if ctx.Err() != nil && papertree.ErrorCode(err) != papertree.ECanceled {
			err = papertree.Wrap(err, papertree.ECanceled, "The import was cancelled.")
		}
		return ImportResult{}, err
	}
	res := ImportResult{Imported: sum.Imported, Unchanged: sum.Unchanged, Collections: sum.Collections, Millis: int64(sum.Index.Seconds * 1000)}
	for _, s := range sum.Skipped {
		res.Skipped = append(res.Skipped, ImportSkip{Item: s.Item, Reason: s.Reason})
	}
	return res, nil
}

// SearchText returns the ids of the papers whose text has every word of query.
func (b *Backend) SearchText(ctx context.Context, query string) ([]string, error) {
	ids, err := b.lib.Store().PapersWithText(ctx, query)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out, nil
}

func paperView(in store.PaperInfo) PaperView {
	v := PaperView{
		ID:      strconv.FormatInt(in.ID, 10),
		Title:   in.Title,
		Authors: in.Authors,
		Year:    in.Year,
		Pages:   in.Pages,
		File:    in.Path,
		Hash:    in.Hash,
		Status:  in.Status,
		Stale:   in.Stale,

		OCRPages: in.OCRPages,
	}
	if v.Authors == nil {
		v.Authors = []string{}
	}
	v.Edited = []string{}
	if in.Status != store.StatusReady {
		v.Code, v.Message = string(in.ErrCode), in.ErrMessage
		if v.Message == "" {
			v.Message = "This file could not be indexed."
		}
	}
	return v
}

// sameFiles translates the library's pairs of same-content files.
func sameFiles(in []library.SameContent) []SameFile {
	out := make([]SameFile, 0, len(in))
	for _, s := range in {
		out = append(out, SameFile{Path: s.File, Of: s.Of})
	}
	return out
}

// Index runs a library indexing job and translates its events and summary.
func (b *Backend) Index(ctx context.Context, paths []string, progress func(Progress)) (Summary, error) {
	sum, err := b.lib.Index(ctx, paths, func(ev library.Event) {
		msg := ev.ErrMsg
		if msg == "" {
			msg = ev.Note // a duplicate, a moved paper
		}
		progress(Progress{Stage: "index", Done: ev.Done, Total: ev.Total, File: ev.File, Detail: ev.Detail(), Message: msg, Remaining: ev.Remaining.Milliseconds()})
	})
	if err != nil {
		if ctx.Err() != nil && papertree.ErrorCode(err) != papertree.ECanceled {
			err = papertree.Wrap(err, papertree.ECanceled, "Indexing was cancelled.")
		}
		return Summary{}, err
	}
	out := Summary{
		Indexed:    sum.Indexed,
		Skipped:    sum.Unchanged,
		Failures:   make([]FileFailure, 0, len(sum.Failed)),
		Millis:     int64(sum.Seconds * 1000),
		Duplicates: sameFiles(sum.Duplicates),
		Moved:      sameFiles(sum.Moved),
	}
	for _, f := range sum.Failed {
		msg := f.Error
		if msg == "" {
			msg = "This file could not be indexed."
		}
		out.Failures = append(out.Failures, FileFailure{Path: f.File, Code: string(f.Code), Message: msg})
	}
	return out, nil
}
