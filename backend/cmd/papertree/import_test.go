package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/bibtex"
	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/zotero/zoterotest"
)

func TestImportZoteroJSON(t *testing.T) {
	zdir := shareddata.Dir(t, "zotero", "Zotero")
	db := filepath.Join(t.TempDir(), "lib.db")
	for i, want := range []struct{ imported, unchanged int }{{3, 0}, {0, 3}} {
		out, errs, code := cli(t, "import", "zotero", "--db", db, "--json", "--quiet", zdir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got struct {
			Imported    int      `json:"imported"`
			Unchanged   int      `json:"unchanged"`
			Collections []string `json:"collections"`
			Skipped     []struct {
				Item   string `json:"item"`
				Reason string `json:"reason"`
			} `json:"skipped"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if got.Imported != want.imported || got.Unchanged != want.unchanged || len(got.Skipped) != 2 || len(got.Collections) != 2 {
			t.Errorf("import %d = %+v, want %+v", i+1, got, want)
		}
	}
	if _, errs, code := cli(t, "import", "zotero", "--db", db, t.TempDir()); code != 1 || !strings.Contains(errs, "not a Zotero data directory") {
		t.Errorf("a folder without zotero.sqlite: exit %d: %s", code, errs)
	}
}

// A .bib entry names the fixture PDF; the answer's BibTeX export and its
// Markdown report carry the entry's citation key.
func TestImportBibTeXThenExportBib(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "paper.pdf")
	b, err := os.ReadFile(filepath.Join(fixtures, "twocolumn.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pdf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	bib := filepath.Join(dir, "refs.bib")
	if err := os.WriteFile(bib, []byte("@article{doe2021columns,\n title = {Two {C}olumns, Carefully},\n author = {Doe, Jane},\n journal = {J. Layout},\n year = 2021,\n file = {:paper.pdf:PDF}\n}\n@article{broken, title = {x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "lib.db")
	out, errs, code := cli(t, "import", "bibtex", "--db", db, "--json", "--quiet", bib)
	if code != 0 || !strings.Contains(out, `"imported": 1`) || !strings.Contains(out, `"item": "broken"`) {
		t.Fatalf("import exit %d: %s %s", code, out, errs)
	}
	out, errs, code = cli(t, "ask", "--db", db, "--json", "What does the method do?")
	if code != 0 {
		t.Fatalf("ask exit %d: %s", code, errs)
	}
	var a struct {
		ID int64 `json:"answer_id"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || a.ID == 0 {
		t.Fatalf("no answer id: %s", out)
	}
	out, errs, code = cli(t, "export", "--db", db, "--answer", itoa(a.ID), "--format", "bib")
	if code != 0 {
		t.Fatalf("export exit %d: %s", code, errs)
	}
	entries, problems := bibtex.Parse([]byte(out))
	if len(problems) != 0 || len(entries) != 1 || entries[0].Key != "doe2021columns" || bibtex.Text(entries[0].Fields["title"]) != "Two Columns, Carefully" || entries[0].Fields["journal"] != "J. Layout" {
		t.Errorf("bib export = %s (%+v)", out, problems)
	}
	out, _, _ = cli(t, "export", "--db", db, "--answer", itoa(a.ID))
	if !strings.Contains(out, "`[doe2021columns]`") || !strings.Contains(out, "Two Columns, Carefully") {
		t.Errorf("the report's bibliography lacks the citation key or the imported title:\n%s", out)
	}
}

// A Zotero database with a group library (Zotero's own schema, see
// zoterotest): --list-libraries lists the user's library and the group with
// their item counts; --library imports one of them by id or name, and the
// real data directory's own items still import as before.
func TestImportZoteroGroupLibrary(t *testing.T) {
	zdir := zoterotest.GroupLibrary(t, shareddata.Dir(t, "zotero", "Zotero"), fixtures)

	out, errs, code := cli(t, "import", "zotero", "--list-libraries", "--json", zdir)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var libs []struct {
		ID    int64  `json:"id"`
		Type  string `json:"type"`
		Name  string `json:"name"`
		Items int    `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &libs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(libs) != 2 || libs[0].Name != "My Library" || libs[0].Items != 3 || libs[1].ID != zoterotest.GroupLibraryID || libs[1].Name != zoterotest.GroupName || libs[1].Items != 2 {
		t.Fatalf("libraries = %+v", libs)
	}
	if text, _, code := cli(t, "import", "zotero", "--list-libraries", zdir); code != 0 || !strings.Contains(text, "7\tgroup\t2 items\tLab Reading Group") {
		t.Errorf("text list: exit %d: %q", code, text)
	}

	cases := []struct {
		name, library string
		imported      int
		collections   int
		code          int
		errText       string
	}{
		{name: "group by name", library: "lab reading group", imported: 2, collections: 1},
		{name: "user library by id", library: "1", imported: 3, collections: 2},
		{name: "unknown library", library: "Nope", code: 1, errText: `no library "Nope"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "lib.db")
			out, errs, code := cli(t, "import", "zotero", "--db", db, "--library", tc.library, "--json", "--quiet", zdir)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			if tc.code != 0 {
				if !strings.Contains(errs, tc.errText) {
					t.Errorf("stderr %q does not say %q", errs, tc.errText)
				}
				return
			}
			var got struct {
				Imported    int      `json:"imported"`
				Collections []string `json:"collections"`
				Index       struct {
					Indexed int `json:"indexed"`
				} `json:"index"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if got.Imported != tc.imported || len(got.Collections) != tc.collections || got.Index.Indexed != tc.imported {
				t.Errorf("got %+v, want %d imported and indexed, %d collections", got, tc.imported, tc.collections)
			}
		})
	}
}
