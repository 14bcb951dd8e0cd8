package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/bibtex"
	"github.com/papertree/papertree/backend/papertree"
)

// TestExportBibTeXThroughTheApp drives the window's BibTeX exports over a
// real library: a paper imported from a .bib (key lee2022), then corrected
// by the researcher, and a second paper indexed from its PDF. The answer's
// "BibTeX (.bib)" export, the history's and the library's (selected papers,
// or every listed paper) write, through the save dialog, a .bib whose
// entries carry the corrected title, authors and year (the overlay wins
// over the reference metadata and the PDF's) and the reference manager's
// key.
func TestExportBibTeXThroughTheApp(t *testing.T) {
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	rt := &fakeRuntime{}
	a := newTestApp(be, rt)
	a.removals.grace = time.Hour // a removal stays pending (undoable) through the test

	refs := t.TempDir()
	copyFixture(t, refs, "twocolumn.pdf")
	bib := filepath.Join(refs, "refs.bib")
	if err := os.WriteFile(bib, []byte("@inproceedings{lee2022,\n title = {Columns Everywhere},\n author = {Lee, Kim},\n booktitle = {Proc. of Layout},\n year = 2022,\n file = {:twocolumn.pdf:PDF}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := a.ImportBibTeX(bib); err != nil || res.Imported != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	other := t.TempDir()
	copyFixture(t, other, "rotated.pdf")
	if _, err := a.IndexFolder(other); err != nil {
		t.Fatal(err)
	}
	papers, err := a.ListPapers()
	if err != nil || len(papers) != 2 {
		t.Fatalf("papers = %+v, %v", papers, err)
	}
	var cited, second PaperView
	for _, p := range papers {
		if p.CitationKey == "lee2022" {
			cited = p
		} else {
			second = p
		}
	}
	if cited.ID == "" || second.ID == "" {
		t.Fatalf("papers = %+v", papers)
	}
	const title = "Glyphs to Structure: a Corrected Title"
	if _, err := a.EditPaper(cited.ID, map[string]string{"title": title, "authors": "Ada Lovelace; Charles Babbage", "year": "2019"}); err != nil {
		t.Fatal(err)
	}
	ans, err := a.Ask(AskInput{Question: "What does the method do?", PaperIDs: []string{cited.ID}})
	if err != nil || len(ans.Evidence) == 0 {
		t.Fatalf("ask: %+v, %v", ans, err)
	}

	// export saves through the fake save dialog and returns the parsed entries.
	export := func(t *testing.T, fn func() (string, error)) []bibtex.Entry {
		t.Helper()
		rt.savePath = filepath.Join(t.TempDir(), "cited") // no extension: .bib is added
		path, err := fn()
		if err != nil || path != rt.savePath+".bib" {
			t.Fatalf("export = %q, %v; want %s.bib", path, err, rt.savePath)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		entries, problems := bibtex.Parse(data)
		if len(problems) != 0 {
			t.Fatalf("the exported .bib does not parse: %+v\n%s", problems, data)
		}
		for _, stale := range []string{"Columns Everywhere", "Lee", "{2022}", "Recovering Paper Structure"} {
			if strings.Contains(string(data), stale) {
				t.Errorf("the .bib still has %q (the metadata before the correction):\n%s", stale, data)
			}
		}
		return entries
	}
	corrected := func(t *testing.T, e bibtex.Entry) {
		t.Helper()
		if e.Key != "lee2022" || bibtex.Text(e.Fields["title"]) != title || e.Fields["author"] != "Ada Lovelace and Charles Babbage" ||
			e.Year() != 2019 || e.Fields["booktitle"] != "Proc. of Layout" || e.Type != "inproceedings" {
			t.Errorf("entry = %+v; want key lee2022, the corrected title, authors and year, the venue from the .bib", e)
		}
		if fs := e.Files(); len(fs) != 1 || filepath.Base(fs[0].Path) != "twocolumn.pdf" {
			t.Errorf("file field = %q", e.Fields["file"])
		}
	}
	keys := func(es []bibtex.Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Key)
		}
		return out
	}

	t.Run("answer", func(t *testing.T) {
		es := export(t, func() (string, error) { return a.ExportAnswer(ans.ID, "bib") })
		if len(es) != 1 {
			t.Fatalf("entries %q, want the one cited paper", keys(es))
		}
		corrected(t, es[0])
	})
	t.Run("history", func(t *testing.T) {
		es := export(t, func() (string, error) { return a.ExportHistory("bibtex") })
		if len(es) != 1 {
			t.Fatalf("entries %q", keys(es))
		}
		corrected(t, es[0])
	})
	t.Run("selected papers", func(t *testing.T) {
		es := export(t, func() (string, error) { return a.ExportPapersBibTeX([]string{second.ID}) })
		if len(es) != 1 || es[0].Key == "lee2022" || len(es[0].Files()) != 1 || es[0].Files()[0].Path != second.File {
			t.Fatalf("entries %+v, want only %s", es, second.File)
		}
	})
	t.Run("all papers", func(t *testing.T) {
		es := export(t, func() (string, error) { return a.ExportPapersBibTeX(nil) })
		if len(es) != 2 {
			t.Fatalf("entries %q, want both papers", keys(es))
		}
		for _, e := range es {
			if e.Key == "lee2022" {
				corrected(t, e)
			}
		}
	})
	t.Run("all but a paper being removed", func(t *testing.T) {
		res, err := a.RemovePapers([]string{second.ID})
		if err != nil {
			t.Fatal(err)
		}
		defer a.UndoRemove(res.Token)
		es := export(t, func() (string, error) { return a.ExportPapersBibTeX(nil) })
		if len(es) != 1 || es[0].Key != "lee2022" {
			t.Fatalf("entries %q, want only lee2022", keys(es))
		}
		rt.savePath = filepath.Join(t.TempDir(), "x.bib")
		if _, err := a.ExportPapersBibTeX([]string{second.ID}); papertree.ErrorCode(err) != papertree.ENotFound {
			t.Errorf("exporting only the paper being removed: %v", err)
		}
	})
	t.Run("cancelled, refused and bad input", func(t *testing.T) {
		rt.savePath = ""
		if path, err := a.ExportAnswer(ans.ID, "bib"); path != "" || err != nil {
			t.Errorf("cancelled dialog: %q, %v", path, err)
		}
		rt.savePath = filepath.Join(t.TempDir(), "refs.bib") // a folder is never replaced
		if err := os.Mkdir(rt.savePath, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ExportPapersBibTeX(nil); papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "folder") {
			t.Errorf("saving onto a folder: %v", err)
		}
		if st, err := os.Stat(rt.savePath); err != nil || !st.IsDir() {
			t.Errorf("the folder was replaced: %v", err)
		}
		rt.savePath = filepath.Join(t.TempDir(), "x.bib")
		if _, err := a.ExportPapersBibTeX([]string{"nope"}); papertree.ErrorCode(err) != papertree.EInvalid {
			t.Errorf("a bad paper id: %v", err)
		}
		if _, err := a.ExportPapersBibTeX([]string{"99999"}); papertree.ErrorCode(err) != papertree.ENotFound {
			t.Errorf("a paper not in the library: %v", err)
		}
		if _, err := os.Stat(rt.savePath); !os.IsNotExist(err) {
			t.Errorf("a failed export wrote %s", rt.savePath)
		}
		if _, err := a.ExportAnswer(ans.ID, "rtf"); papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "bib") {
			t.Errorf("unknown format: %v", err)
		}
	})
}
