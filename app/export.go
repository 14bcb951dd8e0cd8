package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/outfile"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
)

// ExportAnswer saves one answer as a report (md, html, pdf or docx), or
// the papers it cites as BibTeX (bib), where the user chooses in the save
// dialog. It returns the written path, or "" when the user cancelled.
func (a *App) ExportAnswer(id, format string) (string, error) {
	return a.export([]string{id}, format, "papertree-answer-"+id)
}

// ExportHistory saves the whole question history as one report, or the
// papers its answers cite as BibTeX (bib).
func (a *App) ExportHistory(format string) (string, error) {
	return a.export(nil, format, "papertree-history-"+time.Now().Format("2006-01-02"))
}

// ExportPapersBibTeX saves papers of the library as BibTeX where the user
// chooses in the save dialog: the ids given (the library view's selection,
// or the papers its search and filters list), every paper when ids is
// empty. It returns the written path, or "" when the user cancelled.
func (a *App) ExportPapersBibTeX(ids []string) (string, error) {
	b, err := a.bibExporter()
	if err != nil {
		return "", err
	}
	all := len(ids) == 0
	if all {
		// The papers the list shows (those waiting to be removed are not),
		// in its order; a file that could not be read, and has no reference
		// metadata to name it, has nothing to cite.
		lib, err := a.ready()
		if err != nil {
			return "", err
		}
		ps, err := lib.ListPapers(a.context())
		if err != nil {
			return "", asCoded(err, "The library could not be read.")
		}
		for _, p := range a.hidePapers(ps) {
			if p.Status == "ready" || strings.TrimSpace(p.Title) != "" {
				ids = append(ids, p.ID)
			}
		}
		if len(ids) == 0 {
			return "", papertree.Errorf(papertree.ENotFound, "The library has no paper to export yet.")
		}
	} else if h := a.removals.hidden(); len(h) > 0 {
		ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return h[id] })
		if len(ids) == 0 {
			return "", papertree.Errorf(papertree.ENotFound, "These papers are being removed from the library.")
		}
	}
	data, n, err := b.PapersBibTeX(a.context(), ids)
	if err != nil {
		return "", asCoded(err, "The BibTeX file could not be written.")
	}
	name := "papertree-papers-" + time.Now().Format("2006-01-02")
	if all {
		name = "papertree-library-" + time.Now().Format("2006-01-02")
	}
	return a.saveBib(name, data, n, "papers")
}

// isBib reports whether an export format names BibTeX rather than a report.
func isBib(format string) bool {
	f := strings.ToLower(strings.TrimPrefix(format, "."))
	return f == "bib" || f == "bibtex"
}

func (a *App) export(ids []string, format, name string) (string, error) {
	if isBib(format) {
		b, err := a.bibExporter()
		if err != nil {
			return "", err
		}
		data, n, err := b.AnswersBibTeX(a.context(), ids)
		if err != nil {
			return "", asCoded(err, "The BibTeX file could not be written.")
		}
		return a.saveBib(name, data, n, "answers")
	}
	lib, err := a.ready()
	if err != nil {
		return "", err
	}
	ext := report.Ext(format)
	if ext == "." {
		return "", papertree.Errorf(papertree.EInvalid, "Unknown report format %q (have: %s).", format, strings.Join(append(report.Formats(), "bib"), ", "))
	}
	// Render first: a failure is reported before the user picks a file.
	var buf bytes.Buffer
	if err := lib.Export(a.context(), ids, format, &buf); err != nil {
		return "", asCoded(err, "The report could not be written.")
	}
	path, err := a.saveFile("Export report", "report", name, ext, buf.Bytes())
	if err != nil || path == "" {
		return path, err
	}
	a.log.Info("exported report", "path", path, "answers", len(ids), "format", format)
	return path, nil
}

// BibExporter is the part of a Library that writes BibTeX; the Backend
// implements it with backend/library's BibTeX, the code of the CLI's
// `export --format bib` (corrections win over reference metadata, which
// wins over the PDF's; citation keys from Zotero or BibTeX when known).
// Each method returns the .bib file and its number of entries, and a coded
// ENotFound when there is no paper to write.
type BibExporter interface {
	// AnswersBibTeX: the papers the saved answers cite (all of the
	// history when ids is empty).
	AnswersBibTeX(ctx context.Context, ids []string) ([]byte, int, error)
	// PapersBibTeX: the papers, in the order given.
	PapersBibTeX(ctx context.Context, ids []string) ([]byte, int, error)
}

func (a *App) bibExporter() (BibExporter, error) {
	lib, err := a.ready()
	if err != nil {
		return nil, err
	}
	b, ok := lib.(BibExporter)
	if !ok {
		return nil, papertree.Errorf(papertree.EConflict, "BibTeX export is not available in this build.")
	}
	return b, nil
}

// saveBib saves a rendered .bib file through the save dialog (as the
// reports are saved) and logs it ("" when the user cancelled).
func (a *App) saveBib(name string, data []byte, entries int, from string) (string, error) {
	path, err := a.saveFile("Export BibTeX", "bibliography", name, ".bib", data)
	if err != nil || path == "" {
		return path, err
	}
	a.log.Info("exported BibTeX", "path", path, "entries", entries, "from", from)
	return path, nil
}

// AnswersBibTeX writes the papers the answers cite as BibTeX.
func (b *Backend) AnswersBibTeX(ctx context.Context, ids []string) ([]byte, int, error) {
	answers, err := b.exportedAnswers(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	data, n, err := b.lib.BibTeX(ctx, library.CitedByAnswers(answers))
	if err == nil && n == 0 {
		err = papertree.Errorf(papertree.ENotFound, "The answers cite no paper that is still in the library.")
	}
	return data, n, err
}

// PapersBibTeX writes papers as BibTeX, in the order given.
func (b *Backend) PapersBibTeX(ctx context.Context, ids []string) ([]byte, int, error) {
	if len(ids) == 0 {
		return nil, 0, papertree.Errorf(papertree.EInvalid, "Choose the papers to export.")
	}
	nums := make([]int64, 0, len(ids))
	for _, s := range ids {
		n, err := parseID(s, "paper")
		if err != nil {
			return nil, 0, err
		}
		nums = append(nums, n)
	}
	data, n, err := b.lib.BibTeX(ctx, nums)
	if err == nil && n == 0 {
		err = papertree.Errorf(papertree.ENotFound, "None of these papers is in the library any more.")
	}
	return data, n, err
}

// saveFile asks where to save data (dialog title, noun for the file-type
// filter and the messages: "report", "file") and writes it with
// backend/outfile, as the CLI's export does: only onto a regular file or a
// new path (a device, a FIFO or a folder is refused with a coded message),
// atomically, so a failed write never leaves half a file. It returns ""
// when the user cancelled.
func (a *App) saveFile(title, noun, name, ext string, data []byte) (string, error) {
	home, _ := os.UserHomeDir()
	path, err := a.rt.SaveFileDialog(a.context(), title, home, name+ext, strings.ToUpper(strings.TrimPrefix(ext, "."))+" "+noun, "*"+ext)
	if err != nil {
		return "", papertree.Wrap(err, papertree.EInternal, "The save dialog could not be opened.")
	}
	if path == "" {
		return "", nil
	}
	if filepath.Ext(path) == "" {
		path += ext
	}
	if err := outfile.Write(a.context(), path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}
