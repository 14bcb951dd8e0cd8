package zotero

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// oneItemLibrary writes a Zotero database in dataDir holding one paper
// with one PDF attachment (key, link mode, stored path).
func oneItemLibrary(t *testing.T, dataDir, key string, mode int, path string) {
	t.Helper()
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dataDir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT)`,
		`CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT, dateAdded TEXT, dateModified TEXT, key TEXT)`,
		`CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY)`,
		`CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT)`,
		`CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE)`,
		`CREATE TABLE itemData (itemID INT, fieldID INT, valueID INT)`,
		`CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT)`,
		`CREATE TABLE itemCreators (itemID INT, creatorID INT, creatorTypeID INT, orderIndex INT)`,
		`CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT, parentCollectionID INT)`,
		`CREATE TABLE collectionItems (collectionID INT, itemID INT, orderIndex INT)`,
		`CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE itemTags (itemID INT, tagID INT, type INT)`,
		`CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, path TEXT)`,
		`INSERT INTO itemTypes VALUES (1, 'conferencePaper'), (2, 'attachment')`,
		`INSERT INTO fields VALUES (1, 'title')`,
		`INSERT INTO itemDataValues VALUES (1, 'A Paper')`,
		`INSERT INTO itemData VALUES (1, 1, 1)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if _, err := db.Exec(`INSERT INTO items VALUES (1, 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 'ITEM0001'),
		(10, 2, '2024-01-01 00:00:00', '2024-01-01 00:00:00', ?)`, key); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO itemAttachments VALUES (10, 1, ?, 'application/pdf', ?)`, mode, path); err != nil {
		t.Fatal(err)
	}
}

// TestReadKeepsAttachmentsInsideTheirFolder: a stored file stays inside
// its item's storage folder and a base-directory file inside the base
// directory, as written and where links lead; anything else is skipped
// and reported on the item, never returned as a PDF to index.
func TestReadKeepsAttachmentsInsideTheirFolder(t *testing.T) {
	type layout struct{ root, data, base, outside string }
	pdf := func(t *testing.T, p string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("%PDF-1.4\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(t *testing.T, target, p string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	tests := []struct {
		name    string
		key     string
		mode    int
		path    string
		setup   func(t *testing.T, l layout) string // returns the PDF expected ("" = none)
		missing string                              // expected in the item's Missing report
	}{
		{"stored file", "KEY00001", linkImportedFile, "storage:paper.pdf", func(t *testing.T, l layout) string {
			return pdf(t, filepath.Join(l.data, "storage", "KEY00001", "paper.pdf"))
		}, ""},
		{"stored file in a sub-folder", "KEY00001", linkImportedFile, "storage:sub/paper.pdf", func(t *testing.T, l layout) string {
			return pdf(t, filepath.Join(l.data, "storage", "KEY00001", "sub", "paper.pdf"))
		}, ""},
		{"storage:../../x.pdf (the data folder)", "KEY00001", linkImportedFile, "storage:../../x.pdf", func(t *testing.T, l layout) string {
			pdf(t, filepath.Join(l.data, "x.pdf"))
			return ""
		}, "points outside its Zotero storage folder"},
		{"storage:../../../x.pdf (outside the data folder)", "KEY00001", linkImportedFile, "storage:../../../x.pdf", func(t *testing.T, l layout) string {
			pdf(t, filepath.Join(l.root, "x.pdf"))
			return ""
		}, "points outside its Zotero storage folder"},
		{"another item's folder", "KEY00001", linkImportedFile, "storage:../KEY00002/x.pdf", func(t *testing.T, l layout) string {
			pdf(t, filepath.Join(l.data, "storage", "KEY00002", "x.pdf"))
			return ""
		}, "points outside its Zotero storage folder"},
		{"stored file that is a link outside", "KEY00001", linkImportedFile, "storage:paper.pdf", func(t *testing.T, l layout) string {
			link(t, pdf(t, filepath.Join(l.outside, "secret.pdf")), filepath.Join(l.data, "storage", "KEY00001", "paper.pdf"))
			return ""
		}, "leads outside its Zotero storage folder through a link"},
		{"stored file in a link loop", "KEY00001", linkImportedFile, "storage:paper.pdf", func(t *testing.T, l layout) string {
			p := filepath.Join(l.data, "storage", "KEY00001", "paper.pdf")
			link(t, p, p)
			return ""
		}, "is a link that cannot be followed"},
		{"storage folder moved to another disk (a linked folder)", "KEY00001", linkImportedFile, "storage:paper.pdf", func(t *testing.T, l layout) string {
			pdf(t, filepath.Join(l.outside, "storage", "KEY00001", "paper.pdf"))
			link(t, filepath.Join(l.outside, "storage"), filepath.Join(l.data, "storage"))
			return filepath.Join(l.data, "storage", "KEY00001", "paper.pdf")
		}, ""},
		{"old bare name", "KEY00001", linkImportedFile, "paper.pdf", func(t *testing.T, l layout) string {
			return pdf(t, filepath.Join(l.data, "storage", "KEY00001", "paper.pdf"))
		}, ""},
		{"key that climbs out", "..", linkImportedFile, "x.pdf", func(t *testing.T, l layout) string {
			pdf(t, filepath.Join(l.data, "x.pdf"))
			return ""
		}, "is not a valid Zotero key"},
		{"base-directory file", "KEY00001", linkLinkedFile, "attachments:papers/rel.pdf", func(t *testing.T, l layout) string {
			return pdf(t, filepath.Join(l.base, "papers", "rel.pdf"))
		}, ""},
		{"attachments:../.. (outside the base directory)", "KEY00001", linkLinkedFile, "attachments:../../x.pdf", func(t *testing.T, l layout) string {
			pdf(t, filepath.Join(l.root, "x.pdf"))
			return ""
		}, "points outside the base directory"},
		{"base-directory file that is a link outside", "KEY00001", linkLinkedFile, "attachments:rel.pdf", func(t *testing.T, l layout) string {
			link(t, pdf(t, filepath.Join(l.outside, "secret.pdf")), filepath.Join(l.base, "rel.pdf"))
			return ""
		}, "leads outside the base directory through a link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			l := layout{root: root, data: filepath.Join(root, "home", "Zotero"), base: filepath.Join(root, "home", "papers", "base"), outside: filepath.Join(root, "elsewhere")}
			os.MkdirAll(l.base, 0o755)
			want := tt.setup(t, l)
			oneItemLibrary(t, l.data, tt.key, tt.mode, tt.path)
			lib, err := Read(context.Background(), l.data, Options{BaseDir: l.base})
			if err != nil {
				t.Fatal(err)
			}
			if len(lib.Items) != 1 {
				t.Fatalf("items = %+v", lib.Items)
			}
			it := lib.Items[0]
			var wantPDFs []string
			if want != "" {
				wantPDFs = []string{want}
			}
			if !reflect.DeepEqual(it.PDFs, wantPDFs) {
				t.Errorf("PDFs = %q, want %q", it.PDFs, wantPDFs)
			}
			if tt.missing == "" {
				if len(it.Missing) != 0 {
					t.Errorf("missing = %q, want none", it.Missing)
				}
			} else if len(it.Missing) != 1 || !strings.Contains(it.Missing[0], tt.missing) {
				t.Errorf("missing = %q, want one saying %q", it.Missing, tt.missing)
			}
		})
	}
}
