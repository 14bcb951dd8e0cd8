package library

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

// copyTree copies the Zotero fixture (read-only in ../shared/data) so a test
// can damage its copy.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestImportZoteroFixture(t *testing.T) {
	zdir := shareddata.Dir(t, "zotero", "Zotero")
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()

	sum, err := lib.ImportZotero(ctx, zdir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 3 || sum.Unchanged != 0 || !reflect.DeepEqual(sum.Collections, []string{"Collection 1", "Collection 2"}) {
		t.Errorf("first import = %+v", sum)
	}
	// The two snapshots the backup never had are reported on their items.
	if len(sum.Skipped) != 2 {
		t.Errorf("skipped = %+v, want the 2 missing snapshots", sum.Skipped)
	}
	for _, s := range sum.Skipped {
		if !strings.Contains(s.Reason, "arXiv.org Snapshot") || !strings.Contains(s.Reason, "missing") || s.Item == "" {
			t.Errorf("skip report %+v", s)
		}
	}
	papers, err := lib.PapersWithRefs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]PaperRef{}
	for _, p := range papers {
		byTitle[p.Title] = p
	}
	want := []struct {
		title, first string
		year         int
		collections  []string
	}{
		{"Optimal Multiple Stopping Rule for Warm-Starting Sequential Selection", "Mathilde Fekom", 2020, []string{"Collection 1"}},
		{"Archimedean Choice Functions: an Axiomatic Foundation for Imprecise Decision Making", "Jasper De Bock", 2020, []string{"Collection 2"}},
		{"Fully Differentiable Procedural Content Generation through Generative Playing Networks", "Philip Bontrager", 2020, nil},
	}
	if len(papers) != 3 {
		t.Fatalf("library has %d papers, want 3", len(papers))
	}
	for _, w := range want {
		p, ok := byTitle[w.title]
		if !ok {
			t.Errorf("no paper titled %q (Zotero's title must win over the PDF's)", w.title)
			continue
		}
		if p.Status != "ready" || p.Authors[0] != w.first || p.Year != w.year || strings.Join(p.Collections, "|") != strings.Join(w.collections, "|") || p.Source != "zotero" || p.Venue == "" {
			t.Errorf("%q: status %s authors %q year %d collections %q source %q venue %q", w.title, p.Status, p.Authors, p.Year, p.Collections, p.Source, p.Venue)
		}
	}

	again, err := lib.ImportZotero(ctx, zdir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Imported != 0 || again.Unchanged != 3 || again.Index.Indexed != 0 {
		t.Errorf("second import = %+v, want 3 unchanged", again)
	}
}

func TestImportZoteroCorruptedImportsNothing(t *testing.T) {
	src := shareddata.Dir(t, "zotero", "Zotero")
	zdir := filepath.Join(t.TempDir(), "Zotero")
	copyTree(t, src, zdir)
	db := filepath.Join(zdir, "zotero.sqlite")
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	_, err = lib.ImportZotero(ctx, zdir, "", nil)
	if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "Nothing was imported") {
		t.Fatalf("err = %v (%q)", err, papertree.ErrorMessage(err))
	}
	papers, _ := lib.PapersWithRefs(ctx)
	refs, _ := lib.Store().Refs(ctx)
	if len(papers) != 0 || len(refs) != 0 {
		t.Errorf("a damaged database imported %d papers, %d references", len(papers), len(refs))
	}
}

func TestImportBibTeX(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "papers"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "papers", "two column.pdf"))
	if b, err := os.ReadFile(filepath.Join(dir, "papers", "two column.pdf")); err != nil || os.WriteFile(filepath.Join(dir, "papers", "zz same.pdf"), b, 0o644) != nil {
		t.Fatal("copy", err)
	}
	outside := filepath.Join(t.TempDir(), "outside.pdf")
	copyFixture(t, "twocolumn.pdf", outside)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	bib := "@inproceedings{good2024,\n title = {A {G}ood Paper},\n author = {Smith, Ann and Müller, J.},\n booktitle = {Proc. of ACL},\n year = 2024,\n" +
		" keywords = {rag; trees},\n file = {:papers/two column.pdf:PDF}\n}\n\n" +
		"@article{abs2023, title = {Absolute}, year = 2023, file = {Full Text:" + strings.ReplaceAll(outside, ":", "\\:") + ":application/pdf}}\n\n" +
		"@article{missing2022, title = {Missing}, file = {:papers/gone.pdf:PDF}}\n\n" +
		"@article{escape2021, title = {Escapes}, file = {:../../etc/x.pdf:PDF}}\n\n" +
		"@article{notpdf2020, title = {Not a PDF}, file = {:notes.txt:Text}}\n\n" +
		"@article{nofile2019, title = {No file}}\n\n" +
		"@article{dup2016, title = {The same PDF}, file = {:papers/zz same.pdf:PDF}}\n\n" +
		"@article{broken2018, title = {Never closed,\n\n" +
		// A Latin-1 entry in a file that is otherwise UTF-8 ("Müller"
		// above): reported, not guessed (a wholly Latin-1 file is decoded;
		// see backend/bibtex).
		"@article{latin2017, title = {Caf\xe9}, file = {:papers/two column.pdf:PDF}}\n"
	bibPath := filepath.Join(dir, "refs.bib")
	if err := os.WriteFile(bibPath, []byte(bib), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	sum, err := lib.ImportBibTeX(ctx, bibPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 2 || sum.Unchanged != 0 {
		t.Errorf("imported %d unchanged %d, want 2 and 0: %+v", sum.Imported, sum.Unchanged, sum)
	}
	reasons := map[string]string{}
	for _, s := range sum.Skipped {
		reasons[s.Item] = s.Reason
	}
	want := map[string]string{
		"missing2022": "is missing",
		"escape2021":  "points outside the folder",
		"notpdf2020":  "not a PDF",
		"nofile2019":  "no file field",
		"broken2018":  "not closed",
		"latin2017":   "not UTF-8",
		"dup2016":     "the same PDF as",
	}
	if len(reasons) != len(want) {
		t.Errorf("skipped = %+v", sum.Skipped)
	}
	for item, w := range want {
		if !strings.Contains(reasons[item], w) {
			t.Errorf("%s: reason %q, want it to say %q", item, reasons[item], w)
		}
	}
	refs, _ := lib.Store().Refs(ctx)
	// The whole entries: the two imported and dup2016, whose record is
	// kept with its file (not a paper: the same PDF as good2024's).
	if len(refs) != 3 {
		t.Errorf("stored %d references, want only the 3 whole entries", len(refs))
	}
	papers, _ := lib.PapersWithRefs(ctx)
	found := false
	for _, p := range papers {
		if p.CitationKey == "good2024" {
			found = true
			if p.Title != "A Good Paper" || p.Year != 2024 || p.Venue != "Proc. of ACL" || strings.Join(p.Authors, "|") != "Ann Smith|J. Müller" || strings.Join(p.Tags, "|") != "rag|trees" {
				t.Errorf("good2024 = %+v", p)
			}
		}
	}
	if !found {
		t.Error("good2024 is not listed with its citation key")
	}
	keys, err := lib.CitationKeys(ctx, []int64{papers[0].ID, papers[1].ID})
	if err != nil || len(keys) != 2 {
		t.Errorf("citation keys = %v, %v", keys, err)
	}
	again, err := lib.ImportBibTeX(ctx, bibPath, nil)
	if err != nil || again.Imported != 0 || again.Unchanged != 2 {
		t.Errorf("second import = %+v, %v", again, err)
	}
}
