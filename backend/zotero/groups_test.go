package zotero

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/zotero/zoterotest"
)

func TestLibrariesListsGroups(t *testing.T) {
	ctx := context.Background()
	real := shareddata.Dir(t, "zotero", "Zotero")
	dir := zoterotest.GroupLibrary(t, real, filepath.Join("..", "pdf", "testdata"))
	user := LibraryInfo{ID: 1, Type: "user", Name: UserLibraryName, Items: 3}
	group := LibraryInfo{ID: 7, Type: "group", Name: "Lab Reading Group", GroupID: 4242, Items: 2}

	t.Run("real data directory has one library", func(t *testing.T) {
		libs, err := Libraries(ctx, real)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(libs, []LibraryInfo{user}) {
			t.Errorf("libraries = %+v", libs)
		}
	})
	t.Run("with a group library", func(t *testing.T) {
		libs, err := Libraries(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(libs, []LibraryInfo{user, group}) {
			t.Errorf("libraries = %+v", libs)
		}
	})

	titles := func(lib *Library) []string {
		var out []string
		for _, it := range lib.Items {
			out = append(out, it.Title)
		}
		return out
	}
	orig, err := Read(ctx, real, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		library     int64
		titles      []string
		collections []string
		code        papertree.Code
	}{
		{name: "user library only", library: 1, titles: titles(orig), collections: orig.Collections},
		{name: "group library only", library: 7, titles: []string{"Group Paper on Two Columns", "Group Paper on Rotated Pages"}, collections: []string{"Group Shelf"}},
		{name: "every library", library: 0, titles: append(titles(orig), "Group Paper on Two Columns", "Group Paper on Rotated Pages"), collections: append(append([]string{}, orig.Collections...), "Group Shelf")},
		{name: "no such library", library: 99, code: papertree.ENotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib, err := Read(ctx, dir, Options{Library: tc.library})
			if tc.code != "" {
				if papertree.ErrorCode(err) != tc.code || !strings.Contains(papertree.ErrorMessage(err), `7 "Lab Reading Group"`) {
					t.Fatalf("err = %v, want %s naming the libraries", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(titles(lib), tc.titles) || !reflect.DeepEqual(lib.Collections, tc.collections) {
				t.Errorf("titles %q collections %q, want %q %q", titles(lib), lib.Collections, tc.titles, tc.collections)
			}
			for _, it := range lib.Items {
				if len(it.PDFs) != 1 {
					t.Errorf("%s: pdfs %q missing %q", it.Title, it.PDFs, it.Missing)
				}
				if strings.HasPrefix(it.Title, "Group Paper on Two") && !reflect.DeepEqual(it.Collections, []string{"Group Shelf"}) {
					t.Errorf("%s: collections %q", it.Title, it.Collections)
				}
			}
		})
	}
}

func TestFindLibrary(t *testing.T) {
	libs := []LibraryInfo{
		{ID: 1, Type: "user", Name: UserLibraryName},
		{ID: 7, Type: "group", Name: "Lab Reading Group"},
		{ID: 8, Type: "group", Name: "Twins"},
		{ID: 9, Type: "group", Name: "twins"},
		{ID: 10, Type: "group", Name: "42"},
	}
	cases := []struct {
		name, want string
		id         int64
		code       papertree.Code
	}{
		{name: "by id", want: "7", id: 7},
		{name: "by name, any case", want: "lab reading GROUP", id: 7},
		{name: "user library by name", want: "My Library", id: 1},
		{name: "user library by type", want: "user", id: 1},
		{name: "a numeric group name", want: "42", id: 10},
		{name: "a name two groups share", want: "Twins", code: papertree.EInvalid},
		{name: "unknown", want: "Nope", code: papertree.ENotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := FindLibrary(libs, tc.want)
			if tc.code != "" {
				if papertree.ErrorCode(err) != tc.code {
					t.Fatalf("got %+v %v, want %s", l, err, tc.code)
				}
				return
			}
			if err != nil || l.ID != tc.id {
				t.Errorf("got %+v %v, want id %d", l, err, tc.id)
			}
		})
	}
}

// A hand-made database without library ids (not Zotero 5's schema) holds
// one library, the user's; choosing it reads every item.
func TestLibrariesWithoutLibraryTables(t *testing.T) {
	dir := t.TempDir()
	oneItemLibrary(t, dir, "AAAA1111", linkImportedFile, "storage:a.pdf")
	libs, err := Libraries(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(libs, []LibraryInfo{{ID: 1, Type: "user", Name: UserLibraryName, Items: 1}}) {
		t.Errorf("libraries = %+v", libs)
	}
	lib, err := Read(context.Background(), dir, Options{Library: 1})
	if err != nil || len(lib.Items) != 1 {
		t.Fatalf("read library 1: %+v %v", lib, err)
	}
}

// The same without the development data: a hand-written database with
// Zotero 5's library columns and tables (only what the reader queries), a
// user library, two groups (one empty) and a feed library, which is not
// listed. Runs on a fresh clone.
func TestLibrariesHandWrittenSchema(t *testing.T) {
	dir := t.TempDir()
	for _, key := range []string{"ATT00001", "ATT00002", "ATT00003"} {
		if err := os.MkdirAll(filepath.Join(dir, "storage", key), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "storage", key, "p.pdf"), []byte("%PDF-1.4\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL)`,
		`CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL)`,
		`CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT)`,
		`CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT, dateAdded TEXT, dateModified TEXT, libraryID INT, key TEXT)`,
		`CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY)`,
		`CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT)`,
		`CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE)`,
		`CREATE TABLE itemData (itemID INT, fieldID INT, valueID INT)`,
		`CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT)`,
		`CREATE TABLE itemCreators (itemID INT, creatorID INT, creatorTypeID INT, orderIndex INT)`,
		`CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT, parentCollectionID INT, libraryID INT)`,
		`CREATE TABLE collectionItems (collectionID INT, itemID INT, orderIndex INT)`,
		`CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE itemTags (itemID INT, tagID INT, type INT)`,
		`CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, path TEXT)`,
		`INSERT INTO libraries VALUES (1, 'user'), (2, 'feed'), (5, 'group'), (6, 'group')`,
		`INSERT INTO groups VALUES (100, 5, 'Zeta Lab'), (101, 6, 'alpha reading')`,
		`INSERT INTO itemTypes VALUES (1, 'journalArticle'), (2, 'attachment'), (3, 'note')`,
		`INSERT INTO fields VALUES (1, 'title')`,
		`INSERT INTO itemDataValues VALUES (1, 'Mine'), (2, 'Lab One'), (3, 'Lab Two')`,
		`INSERT INTO items VALUES (1, 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 1, 'MINE0001'),
			(2, 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 5, 'LAB00001'),
			(3, 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 5, 'LAB00002'),
			(4, 3, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 5, 'NOTE0001'),
			(5, 1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 2, 'FEED0001'),
			(10, 2, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 1, 'ATT00001'),
			(11, 2, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 5, 'ATT00002'),
			(12, 2, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 5, 'ATT00003')`,
		`INSERT INTO itemData VALUES (1, 1, 1), (2, 1, 2), (3, 1, 3)`,
		`INSERT INTO itemAttachments VALUES (10, 1, 0, 'application/pdf', 'storage:p.pdf'), (11, 2, 0, 'application/pdf', 'storage:p.pdf'), (12, 3, 0, 'application/pdf', 'storage:p.pdf')`,
		`INSERT INTO collections VALUES (1, 'Mine shelf', NULL, 1), (2, 'Lab shelf', NULL, 5)`,
		`INSERT INTO collectionItems VALUES (1, 1, 0), (2, 3, 0)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()

	ctx := context.Background()
	libs, err := Libraries(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []LibraryInfo{
		{ID: 1, Type: "user", Name: UserLibraryName, Items: 1},
		{ID: 6, Type: "group", Name: "alpha reading", GroupID: 101, Items: 0},
		{ID: 5, Type: "group", Name: "Zeta Lab", GroupID: 100, Items: 2},
	}
	if !reflect.DeepEqual(libs, want) {
		t.Fatalf("libraries = %+v, want %+v (user first, then groups by name, no feeds)", libs, want)
	}
	cases := []struct {
		name        string
		library     int64
		titles      []string
		collections []string
	}{
		{name: "user", library: 1, titles: []string{"Mine"}, collections: []string{"Mine shelf"}},
		{name: "group", library: 5, titles: []string{"Lab One", "Lab Two"}, collections: []string{"Lab shelf"}},
		{name: "empty group", library: 6, titles: nil, collections: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib, err := Read(ctx, dir, Options{Library: tc.library})
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, it := range lib.Items {
				titles = append(titles, it.Title)
				if len(it.PDFs) != 1 {
					t.Errorf("%s: pdfs %q", it.Title, it.PDFs)
				}
			}
			if !reflect.DeepEqual(titles, tc.titles) || !reflect.DeepEqual(lib.Collections, tc.collections) {
				t.Errorf("titles %q collections %q, want %q %q", titles, lib.Collections, tc.titles, tc.collections)
			}
		})
	}
}
