package app

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/zotero"
)

// Reference managers: importing a Zotero library or a BibTeX file runs as the
// one index job (progress, cancel), and library search over the papers' text.

// ImportSkip is one item that was not (wholly) imported, with the reason.
type ImportSkip struct {
	Item   string `json:"item"`
	Reason string `json:"reason"`
}

// ImportResult is the outcome of an import.
type ImportResult struct {
	Source      string       `json:"source"` // "zotero" or "bibtex"
	Imported    int          `json:"imported"`
	Unchanged   int          `json:"unchanged"`
	Skipped     []ImportSkip `json:"skipped"`
	Collections []string     `json:"collections"`
	Millis      int64        `json:"millis"`
}

// fileOpener is implemented by runtimes that can show a file picker
// (WailsRuntime); test runtimes need not.
type fileOpener interface {
	OpenFileDialog(ctx context.Context, title, defaultDir, filterName, pattern string) (string, error)
}

// OpenFileDialog shows the native file picker.
func (WailsRuntime) OpenFileDialog(ctx context.Context, title, defaultDir, filterName, pattern string) (string, error) {
	return wruntime.OpenFileDialog(ctx, wruntime.OpenDialogOptions{
		Title:            title,
		DefaultDirectory: defaultDir,
		Filters:          []wruntime.FileFilter{{DisplayName: filterName, Pattern: pattern}},
	})
}

// ChooseZoteroFolder shows the folder picker at Zotero's usual data
// directory (~/Zotero); "" when the user cancelled.
func (a *App) ChooseZoteroFolder() (string, error) {
	home, _ := os.UserHomeDir()
	start := home
	if st, err := os.Stat(filepath.Join(home, "Zotero")); err == nil && st.IsDir() {
		start = filepath.Join(home, "Zotero")
	}
	dir, err := a.rt.OpenDirectoryDialog(a.context(), "Choose your Zotero data directory (it holds zotero.sqlite)", start)
	if err != nil {
		return "", papertree.Wrap(err, papertree.EInternal, "The folder picker could not be opened.")
	}
	return dir, nil
}

// ChooseBibFile shows a file picker for a .bib file; "" when cancelled.
func (a *App) ChooseBibFile() (string, error) {
	fo, ok := a.rt.(fileOpener)
	if !ok {
		return "", papertree.Errorf(papertree.EConflict, "Choosing a file is not available here.")
	}
	home, _ := os.UserHomeDir()
	f, err := fo.OpenFileDialog(a.context(), "Choose a BibTeX file", home, "BibTeX (*.bib)", "*.bib")
	if err != nil {
		return "", papertree.Wrap(err, papertree.EInternal, "The file picker could not be opened.")
	}
	return f, nil
}

// ImportZotero imports a Zotero data directory (read-only) as the one job:
// each item's PDFs are indexed with its metadata, collections and tags.
func (a *App) ImportZotero(dir string) (ImportResult, error) {
	return a.runImport("zotero", dir)
}

// ImportBibTeX imports the entries of a .bib file that name their PDFs.
func (a *App) ImportBibTeX(file string) (ImportResult, error) {
	return a.runImport("bibtex", file)
}

// ZoteroLibraryView is one library of a Zotero data directory: the user's
// own or a group's (Zotero keeps them all in one zotero.sqlite).
type ZoteroLibraryView struct {
	ID    string `json:"id"`   // Zotero's libraryID
	Type  string `json:"type"` // "user" or "group"
	Name  string `json:"name"` // "My Library" or the group's name
	Items int    `json:"items"`
}

// ZoteroLibraries lists the libraries of a Zotero data directory (read
// only), so the page can ask which one to import when there are several.
func (a *App) ZoteroLibraries(dir string) ([]ZoteroLibraryView, error) {
	libs, err := zotero.Libraries(a.context(), dir)
	if err != nil {
		return nil, asCoded(err, "The Zotero database could not be read.")
	}
	out := make([]ZoteroLibraryView, 0, len(libs))
	for _, l := range libs {
		out = append(out, ZoteroLibraryView{ID: strconv.FormatInt(l.ID, 10), Type: l.Type, Name: l.Name, Items: l.Items})
	}
	return out, nil
}

// zoteroLibraryImporter is a Library that imports one Zotero library
// (Backend); test libraries need not.
type zoteroLibraryImporter interface {
	ImportZoteroLibrary(ctx context.Context, dir, which string, progress func(Progress)) (ImportResult, error)
}

// ImportZoteroLibrary imports one library (by id, as ZoteroLibraries gives
// it; "" = every library) of a Zotero data directory, as ImportZotero.
func (a *App) ImportZoteroLibrary(dir, library string) (ImportResult, error) {
	if strings.TrimSpace(library) == "" {
		return a.runImport("zotero", dir)
	}
	return a.runImportWith("zotero", dir, func(ctx context.Context, lib Library, progress func(Progress)) (ImportResult, error) {
		zl, ok := lib.(zoteroLibraryImporter)
		if !ok {
			return ImportResult{}, papertree.Errorf(papertree.EConflict, "Importing one Zotero library is not available in this build.")
		}
		return zl.ImportZoteroLibrary(ctx, dir, library, progress)
	})
}

func (a *App) runImport(source, path string) (ImportResult, error) {
	return a.runImportWith(source, path, func(ctx context.Context, lib Library, progress func(Progress)) (ImportResult, error) {
		return lib.Import(ctx, source, path, progress)
	})
}

func (a *App) runImportWith(source, path string, run func(ctx context.Context, lib Library, progress func(Progress)) (ImportResult, error)) (ImportResult, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return ImportResult{}, asCoded(libErr, "The library could not be opened.")
	}
	if lib == nil {
		return ImportResult{}, papertree.Errorf(papertree.EConflict, "Importing is not available in this build yet.")
	}
	if strings.TrimSpace(path) == "" {
		return ImportResult{}, papertree.Errorf(papertree.EInvalid, "Choose what to import first.")
	}
	var res ImportResult
	err := a.runJob(nil, false, func(ctx context.Context, progress func(Progress)) (err error) {
		res, err = run(ctx, lib, progress)
		return err
	})
	if err != nil {
		return ImportResult{}, asCoded(err, "The references could not be imported.")
	}
	if res.Skipped == nil {
		res.Skipped = []ImportSkip{}
	}
	if res.Collections == nil {
		res.Collections = []string{}
	}
	res.Source = source
	a.log.Info("imported", "source", source, "imported", res.Imported, "unchanged", res.Unchanged, "skipped", len(res.Skipped))
	return res, nil
}

// SearchPapers returns the ids of the papers whose text contains every word
// of query (the last one as a prefix), for the library's search as you type.
func (a *App) SearchPapers(query string) ([]string, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return nil, asCoded(libErr, "The library could not be opened.")
	}
	if lib == nil || strings.TrimSpace(query) == "" {
		return []string{}, nil
	}
	ids, err := lib.SearchText(a.context(), query)
	if err != nil {
		return nil, asCoded(err, "The library could not be searched.")
	}
	if ids == nil {
		ids = []string{}
	}
	return ids, nil
}
