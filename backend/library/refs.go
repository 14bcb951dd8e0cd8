package library

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/zotero"
)

// Importing from reference managers: a Zotero data directory (or a BibTeX
// file, refs_bibtex.go) becomes reference metadata for PDFs (store.RefMeta,
// which wins over what the PDF says) plus an ordinary indexing job over those
// PDFs, in place (nothing is copied). The source is read whole first, so a
// source that cannot be read imports nothing; the metadata is written in one
// transaction; then the files are indexed, unchanged files skipped by hash.

// ImportSkip is one item (or one of its files) that was not imported, with
// the reason in plain words.
type ImportSkip struct {
	Item   string `json:"item"`
	Reason string `json:"reason"`
}

// ImportSummary is the outcome of an import. Items count references (a
// Zotero item, a BibTeX entry), not files.
type ImportSummary struct {
	Imported    int          `json:"imported"`  // new or changed metadata, or a (re)indexed file
	Unchanged   int          `json:"unchanged"` // same metadata, files already indexed
	Skipped     []ImportSkip `json:"skipped"`
	Collections []string     `json:"collections"` // every collection of the source
	Index       Summary      `json:"index"`       // the indexing job over the items' PDFs
}

// importItem is one reference with its files, whatever the source.
type importItem struct {
	label string // how reports name the item (its title, else its key)
	refs  []store.RefMeta
	skips []string // reasons, e.g. missing attachment files
	// broken is the source file of an entry that could not be read
	// (broken BibTeX syntax): it is also listed in Index.Failed.
	broken string
}

// ImportZotero imports a Zotero data directory (read-only; see package
// zotero). baseDir resolves "attachments:" linked files ("" = none).
func (l *Library) ImportZotero(ctx context.Context, dir, baseDir string, progress func(Event)) (ImportSummary, error) {
	return l.ImportZoteroLibrary(ctx, dir, baseDir, "", progress)
}

// ImportZoteroLibrary imports one library of a Zotero data directory:
// which names it by id or name (zotero.FindLibrary; "" = every library in
// the file, as ImportZotero). Zotero keeps the user's library and each
// group library in the one zotero.sqlite (see zotero.Libraries).
func (l *Library) ImportZoteroLibrary(ctx context.Context, dir, baseDir, which string, progress func(Event)) (ImportSummary, error) {
	opt := zotero.Options{BaseDir: baseDir}
	if strings.TrimSpace(which) != "" {
		libs, err := zotero.Libraries(ctx, dir)
		if err != nil {
			return ImportSummary{}, err
		}
		li, err := zotero.FindLibrary(libs, which)
		if err != nil {
			return ImportSummary{}, err
		}
		opt.Library = li.ID
	}
	zl, err := zotero.Read(ctx, dir, opt)
	if err != nil {
		return ImportSummary{}, err
	}
	_, dbFile, _ := zotero.Find(dir)
	items := make([]importItem, 0, len(zl.Items))
	for _, it := range zl.Items {
		label := it.Title
		if label == "" {
			label = "Zotero item " + it.Key
		}
		ii := importItem{label: label, skips: it.Missing}
		for _, pdf := range it.PDFs {
			ii.refs = append(ii.refs, store.RefMeta{
				Path: pdf, Source: store.SourceZotero, SourceFile: dbFile, SourceID: it.Key,
				Title: it.Title, Authors: it.Creators, Year: it.Year, Venue: it.Venue, DOI: it.DOI,
				CitationKey: it.CitationKey, Collections: it.Collections, Tags: it.Tags, AddedAt: it.AddedAt,
			})
		}
		if len(it.PDFs) == 0 && len(it.Missing) == 0 {
			ii.skips = append(ii.skips, "it has no PDF attachment")
		}
		items = append(items, ii)
	}
	sum, err := l.importItems(ctx, items, progress)
	sum.Collections = append([]string{}, zl.Collections...)
	return sum, err
}

// importItems stores the items' metadata (one transaction) and indexes
// their files, then counts per item.
func (l *Library) importItems(ctx context.Context, items []importItem, progress func(Event)) (ImportSummary, error) {
	sum := ImportSummary{Skipped: []ImportSkip{}, Collections: []string{}, Index: Summary{Failed: []FileError{}}}
	var refs []store.RefMeta
	for _, it := range items {
		refs = append(refs, it.refs...)
	}
	changed, err := l.store.PutRefs(ctx, refs)
	if err != nil {
		return sum, papertree.Wrap(err, papertree.EInternal, "The imported references could not be saved. Nothing was imported.")
	}
	changedByPath := map[string]bool{}
	var paths []string
	seen := map[string]bool{}
	for i, r := range refs {
		changedByPath[r.Path] = changedByPath[r.Path] || changed[i]
		if !seen[r.Path] {
			seen[r.Path] = true
			paths = append(paths, r.Path)
		}
	}
	var mu sync.Mutex
	status := map[string]Event{}
	if len(paths) > 0 {
		idx, err := l.Index(ctx, paths, func(ev Event) {
			if ev.Status == StatusReady || ev.Status == StatusUnchanged || ev.Status == StatusFailed || ev.Status == StatusDuplicate {
				mu.Lock()
				status[ev.File] = ev
				mu.Unlock()
			}
			if progress != nil {
				progress(ev)
			}
		})
		sum.Index = idx
		if sum.Index.Failed == nil {
			sum.Index.Failed = []FileError{}
		}
		if err != nil {
			return sum, err
		}
	}
	for _, it := range items {
		if it.broken != "" {
			for _, why := range it.skips {
				sum.Index.Failed = append(sum.Index.Failed, FileError{File: it.broken, Code: papertree.EInvalid,
					Error: fmt.Sprintf("The entry %s could not be read (%s), so it was not imported.", it.label, why)})
			}
		}
	}
	for _, it := range items {
		for _, why := range it.skips {
			sum.Skipped = append(sum.Skipped, ImportSkip{Item: it.label, Reason: why})
		}
		if len(it.refs) == 0 {
			continue
		}
		ok, fresh := 0, false
		for _, r := range it.refs {
			ev := status[r.Path]
			switch ev.Status {
			case StatusFailed:
				msg := ev.ErrMsg
				if msg == "" {
					msg = "it could not be indexed"
				}
				sum.Skipped = append(sum.Skipped, ImportSkip{Item: it.label, Reason: fmt.Sprintf("%s: %s", filepath.Base(r.Path), msg)})
			case StatusDuplicate:
				// Two entries with one PDF (a duplicate entry, an
				// attachment copied): one paper, which keeps the record
				// of the entry read first; this one is said, not lost.
				sum.Skipped = append(sum.Skipped, ImportSkip{Item: it.label, Reason: fmt.Sprintf(
					"%s: the same PDF as %s, already in the library: not imported twice", filepath.Base(r.Path), ev.Of)})
			case StatusReady:
				ok++
				fresh = true
			case StatusUnchanged:
				ok++
				fresh = fresh || changedByPath[r.Path]
			}
		}
		switch {
		case ok == 0:
		case fresh:
			sum.Imported++
		default:
			sum.Unchanged++
		}
	}
	return sum, nil
}

// PaperRef is a listed paper with its reference metadata applied: what the
// reference manager says wins over what was extracted from the PDF.
type PaperRef struct {
	store.PaperInfo
	Venue       string
	DOI         string
	CitationKey string
	Collections []string
	Tags        []string
	Source      string    // "" (the PDF only), store.SourceZotero, store.SourceBibTeX
	AddedAt     time.Time // when the file first entered the library (or the reference manager's date added)
	// Edited lists the fields the researcher corrected (they win over the
	// reference manager and the PDF); HeadingEdits counts the corrections
	// of its tree, UnmatchedEdits those that found no heading at the last
	// re-index.
	Edited         []string
	HeadingEdits   int
	UnmatchedEdits int
}

// PapersWithRefs lists the papers (as Papers) with reference metadata
// applied and their date added.
func (l *Library) PapersWithRefs(ctx context.Context) ([]PaperRef, error) {
	infos, err := l.store.ListPapers(ctx)
	if err != nil {
		return nil, err
	}
	refs, err := l.store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	added, err := l.store.AddedDates(ctx)
	if err != nil {
		return nil, err
	}
	edits, err := l.store.EditedPaths(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]PaperRef, len(infos))
	for i, in := range infos {
		out[i] = applyRef(in, refs[in.Path], added[in.Path], edits[in.Path])
	}
	return out, nil
}

// applyRef merges a paper's row with its reference metadata and its
// corrections: the PDF's own values are the fallback, the reference
// manager's win over them, and the researcher's corrections (already in
// the row, see store/overlay.go) win over both.
func applyRef(in store.PaperInfo, m store.RefMeta, added time.Time, e store.EditMark) PaperRef {
	p := PaperRef{PaperInfo: in, AddedAt: added, Venue: in.Venue, DOI: in.DOI,
		Edited: e.Fields, HeadingEdits: e.Headings, UnmatchedEdits: e.Unmatched}
	edited := func(f string) bool { return slices.Contains(e.Fields, f) }
	if m.Path != "" {
		if m.Title != "" && !edited(store.FieldTitle) {
			p.Title = m.Title
		}
		if len(m.Authors) > 0 && !edited(store.FieldAuthors) {
			p.Authors = m.Authors
		}
		if m.Year > 0 && !edited(store.FieldYear) {
			p.Year = m.Year
		}
		if !m.AddedAt.IsZero() {
			p.AddedAt = m.AddedAt
		}
		if m.Venue != "" && !edited(store.FieldVenue) {
			p.Venue = m.Venue
		}
		if m.DOI != "" && !edited(store.FieldDOI) {
			p.DOI = m.DOI
		}
		p.CitationKey, p.Source = m.CitationKey, m.Source
		p.Collections, p.Tags = m.Collections, m.Tags
	}
	if edited(store.FieldKey) {
		p.CitationKey = e.Key
	}
	return p
}

// CitationKeys returns the citation key of each paper id that has one.
func (l *Library) CitationKeys(ctx context.Context, ids []int64) (map[int64]string, error) {
	refs, err := l.store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	edits, err := l.store.EditedPaths(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, id := range ids {
		pi, err := l.store.PaperByID(ctx, id)
		if err != nil {
			continue // a paper removed since: no key
		}
		if k := applyRef(pi, refs[pi.Path], pi.IndexedAt, edits[pi.Path]).CitationKey; k != "" {
			out[id] = k
		}
	}
	return out, nil
}

// uniqueSorted returns the distinct non-empty strings of xs, sorted.
func uniqueSorted(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		x = strings.TrimSpace(x)
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// PaperRefByID returns one paper with its reference metadata applied (what
// reports cite: the reference manager's title, authors, year and citation
// key win over the PDF's).
func (l *Library) PaperRefByID(ctx context.Context, id int64) (PaperRef, error) {
	pi, err := l.store.PaperByID(ctx, id)
	if err != nil {
		return PaperRef{}, err
	}
	m, _, err := l.store.RefByPath(ctx, pi.Path)
	if err != nil {
		return PaperRef{}, err
	}
	edits, err := l.store.EditedPaths(ctx)
	if err != nil {
		return PaperRef{}, err
	}
	return applyRef(pi, m, pi.IndexedAt, edits[pi.Path]), nil
}
