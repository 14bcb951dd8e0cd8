// Package zoterotest builds Zotero data directories for tests from a real
// one, so that tests meet Zotero's own schema (its triggers, lookup tables
// and library ids) rather than a hand-written imitation.
package zoterotest

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/papertree/papertree/backend/internal/shareddata"
)

const dbFile = "zotero.sqlite"

// Group library contents GroupLibrary adds.
const (
	GroupLibraryID = 7
	GroupName      = "Lab Reading Group"
)

// SharedGroupLibrary is GroupLibrary over the real Zotero data directory
// of the development data (../shared/data/zotero/Zotero); the test skips,
// saying so, when that data is absent.
func SharedGroupLibrary(t testing.TB, pdfDir string) string {
	t.Helper()
	return GroupLibrary(t, shareddata.Dir(t, "zotero", "Zotero"), pdfDir)
}

// GroupLibrary copies the Zotero data directory src (the real one in
// ../shared/data/zotero/Zotero: zotero.sqlite with Zotero's own schema,
// and its storage) into a temp dir and adds a group library there, as
// Zotero keeps one after the user joins a group: a libraries row of type
// 'group', its groups row, two papers, each with a PDF attachment in
// storage/<key>/ (twocolumn.pdf and rotated.pdf, copied from pdfDir), one
// in a group collection, plus a trashed paper and a note that must not
// count. The copy's files are writable; src is only read.
func GroupLibrary(t testing.TB, src, pdfDir string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// Copies of a read-only source are read-only: the test writes to them.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			mode := os.FileMode(0o644)
			if d.IsDir() {
				mode = 0o755
			}
			os.Chmod(p, mode)
		}
		return nil
	})
	for key, pdf := range map[string]string{"GRPATT01": "twocolumn.pdf", "GRPATT02": "rotated.pdf"} {
		b, err := os.ReadFile(filepath.Join(pdfDir, pdf))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "storage", key), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "storage", key, pdf), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, dbFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (7, 'group', 1, 1)`,
		`INSERT INTO groups (groupID, libraryID, name, description, version) VALUES (4242, 7, 'Lab Reading Group', '', 1)`,
		`INSERT INTO items (itemID, itemTypeID, libraryID, key) SELECT 100, itemTypeID, 7, 'GRPITEM1' FROM itemTypes WHERE typeName = 'journalArticle'`,
		`INSERT INTO items (itemID, itemTypeID, libraryID, key) SELECT 101, itemTypeID, 7, 'GRPITEM2' FROM itemTypes WHERE typeName = 'conferencePaper'`,
		`INSERT INTO items (itemID, itemTypeID, libraryID, key) SELECT 102, itemTypeID, 7, 'GRPTRASH' FROM itemTypes WHERE typeName = 'journalArticle'`,
		`INSERT INTO items (itemID, itemTypeID, libraryID, key) SELECT 103, itemTypeID, 7, 'GRPNOTE1' FROM itemTypes WHERE typeName = 'note'`,
		`INSERT INTO items (itemID, itemTypeID, libraryID, key) SELECT 110, itemTypeID, 7, 'GRPATT01' FROM itemTypes WHERE typeName = 'attachment'`,
		`INSERT INTO items (itemID, itemTypeID, libraryID, key) SELECT 111, itemTypeID, 7, 'GRPATT02' FROM itemTypes WHERE typeName = 'attachment'`,
		`INSERT INTO deletedItems (itemID) VALUES (102)`,
		`INSERT INTO itemDataValues (valueID, value) VALUES (9001, 'Group Paper on Two Columns'), (9002, 'Group Paper on Rotated Pages')`,
		`INSERT INTO itemData (itemID, fieldID, valueID) SELECT 100, fieldID, 9001 FROM fields WHERE fieldName = 'title'`,
		`INSERT INTO itemData (itemID, fieldID, valueID) SELECT 101, fieldID, 9002 FROM fields WHERE fieldName = 'title'`,
		`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES
			(110, 100, 0, 'application/pdf', 'storage:twocolumn.pdf'), (111, 101, 0, 'application/pdf', 'storage:rotated.pdf')`,
		`INSERT INTO collections (collectionID, collectionName, libraryID, key) VALUES (900, 'Group Shelf', 7, 'GRPCOLL1')`,
		`INSERT INTO collectionItems (collectionID, itemID, orderIndex) VALUES (900, 100, 0)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return dir
}
