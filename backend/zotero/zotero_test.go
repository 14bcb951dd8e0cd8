package zotero

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

func TestReadFixture(t *testing.T) {
	dir := shareddata.Dir(t, "zotero", "Zotero")
	lib, err := Read(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		title       string
		creators    []string
		year        int
		collections []string
		pdf         string
		missing     int
	}{
		{"Optimal Multiple Stopping Rule for Warm-Starting Sequential Selection", []string{"Mathilde Fekom", "Nicolas Vayatis", "Argyris Kalogeratos"}, 2020, []string{"Collection 1"}, "D8U5D9DE", 1},
		{"Archimedean Choice Functions: an Axiomatic Foundation for Imprecise Decision Making", []string{"Jasper De Bock"}, 2020, []string{"Collection 2"}, "VBAXIRIQ", 0},
		{"Fully Differentiable Procedural Content Generation through Generative Playing Networks", []string{"Philip Bontrager", "Julian Togelius"}, 2020, nil, "NZQQEMC5", 1},
	}
	if len(lib.Items) != len(want) {
		t.Fatalf("items = %d, want %d: %+v", len(lib.Items), len(want), lib.Items)
	}
	for i, w := range want {
		it := lib.Items[i]
		t.Run(it.Key, func(t *testing.T) {
			if it.Title != w.title || !reflect.DeepEqual(it.Creators, w.creators) || it.Year != w.year || !reflect.DeepEqual(it.Collections, w.collections) {
				t.Errorf("got %q %q %d %q", it.Title, it.Creators, it.Year, it.Collections)
			}
			if len(it.PDFs) != 1 || filepath.Base(filepath.Dir(it.PDFs[0])) != w.pdf {
				t.Errorf("pdfs = %q, want one in storage/%s", it.PDFs, w.pdf)
			}
			if len(it.Missing) != w.missing {
				t.Errorf("missing = %q, want %d", it.Missing, w.missing)
			}
			for _, m := range it.Missing {
				if !strings.Contains(m, "arXiv.org Snapshot") || !strings.Contains(m, "is missing") {
					t.Errorf("missing report %q does not name the snapshot", m)
				}
			}
			if !strings.HasPrefix(it.Venue, "arXiv:") || it.AddedAt.IsZero() {
				t.Errorf("venue %q added %v", it.Venue, it.AddedAt)
			}
		})
	}
	if !reflect.DeepEqual(lib.Collections, []string{"Collection 1", "Collection 2"}) {
		t.Errorf("collections = %q", lib.Collections)
	}
}

func TestReadCorruptedCopy(t *testing.T) {
	src := shareddata.Dir(t, "zotero", "Zotero", DBFile)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func([]byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)/3] },
		"pages overwritten": func(b []byte) []byte {
			c := append([]byte(nil), b...)
			copy(c[8192:], strings.Repeat("\xde\xad", 8192))
			return c
		},
		"not a database": func([]byte) []byte { return []byte("this is not a database at all, just text\n") },
	}
	for name, corrupt := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, DBFile), corrupt(b), 0o644); err != nil {
				t.Fatal(err)
			}
			lib, err := Read(context.Background(), dir, Options{})
			if err == nil {
				t.Fatalf("read a damaged copy: %d items", len(lib.Items))
			}
			if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "damaged") {
				t.Errorf("error = %v (%s)", err, papertree.ErrorMessage(err))
			}
		})
	}
}

func TestReadNotAZoteroDir(t *testing.T) {
	_, err := Read(context.Background(), t.TempDir(), Options{})
	if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "not a Zotero data directory") {
		t.Errorf("err = %v", err)
	}
}

// A tiny library in Zotero's schema (the tables Read uses), built here so the
// linked-file, base-directory, citation key and nested-collection cases run
// without the shared fixture.
func TestReadSyntheticLibrary(t *testing.T) {
	dir := t.TempDir()
	base := t.TempDir()
	elsewhere := t.TempDir()
	write := func(p string) string {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("%PDF-1.4\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stored := write(filepath.Join(dir, "storage", "AAAA1111", "stored.pdf"))
	linked := write(filepath.Join(elsewhere, "linked.pdf"))
	relative := write(filepath.Join(base, "papers", "rel.pdf"))

	db, err := sql.Open("sqlite3", filepath.Join(dir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
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
		`INSERT INTO itemTypes VALUES (1, 'conferencePaper'), (2, 'attachment'), (3, 'note'), (4, 'thesis')`,
		`INSERT INTO fields VALUES (1, 'title'), (2, 'date'), (3, 'proceedingsTitle'), (4, 'DOI'), (5, 'extra'), (6, 'university')`,
		// 1: a conference paper with a stored and a linked PDF, pinned BBT key.
		// 2: a thesis with a base-directory PDF and one outside any folder.
		// 3: an item in the trash. 10..14: attachments; 20: a note.
		`INSERT INTO items VALUES (1, 1, '2024-05-01 10:00:00', '2024-05-02 10:00:00', 'ITEM0001'),
			(2, 4, '2023-01-01 00:00:00', '2023-01-01 00:00:00', 'ITEM0002'),
			(3, 1, '2023-01-01 00:00:00', '2023-01-01 00:00:00', 'ITEM0003'),
			(10, 2, '2024-05-01 10:00:00', '2024-05-01 10:00:00', 'AAAA1111'),
			(11, 2, '2024-05-01 10:00:00', '2024-05-01 10:00:00', 'AAAA2222'),
			(12, 2, '2024-05-01 10:00:00', '2024-05-01 10:00:00', 'AAAA3333'),
			(13, 2, '2024-05-01 10:00:00', '2024-05-01 10:00:00', 'AAAA4444'),
			(14, 2, '2024-05-01 10:00:00', '2024-05-01 10:00:00', 'AAAA5555'),
			(20, 3, '2024-05-01 10:00:00', '2024-05-01 10:00:00', 'NOTE0001')`,
		`INSERT INTO deletedItems VALUES (3)`,
		`INSERT INTO itemDataValues VALUES (1, 'Tree Retrieval'), (2, '2024-05 May 2024'), (3, 'Proceedings of ACL 2024'), (4, '10.1000/xyz'),
			(5, 'Some note' || char(10) || 'Citation Key: smith2024tree'), (6, 'A Thesis'), (7, 'c. 1999'), (8, 'Univ. of Somewhere'), (9, 'Trashed')`,
		`INSERT INTO itemData VALUES (1, 1, 1), (1, 2, 2), (1, 3, 3), (1, 4, 4), (1, 5, 5), (2, 1, 6), (2, 2, 7), (2, 6, 8), (3, 1, 9)`,
		`INSERT INTO creators VALUES (1, 'Ann', 'Smith', 0), (2, '', 'OpenAI Team', 1), (3, 'Bo', 'Li', 0)`,
		`INSERT INTO itemCreators VALUES (1, 1, 1, 0), (1, 2, 1, 1), (2, 3, 1, 0)`,
		`INSERT INTO collections VALUES (1, 'Reading', NULL), (2, 'Retrieval', 1)`,
		`INSERT INTO collectionItems VALUES (2, 1, 0), (1, 2, 0)`,
		`INSERT INTO tags VALUES (1, 'rag'), (2, 'trees')`,
		`INSERT INTO itemTags VALUES (1, 2, 0), (1, 1, 0)`,
		`INSERT INTO itemAttachments VALUES
			(10, 1, 0, 'application/pdf', 'storage:stored.pdf'),
			(11, 1, 2, 'application/pdf', '` + linked + `'),
			(12, 2, 2, 'application/pdf', 'attachments:papers/rel.pdf'),
			(13, 2, 2, 'application/pdf', '/nowhere/gone.pdf'),
			(14, 1, 3, 'text/html', 'https://example.org')`,
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	// Better BibTeX's own database holds the key of the thesis.
	bbt, err := sql.Open("sqlite3", filepath.Join(dir, "better-bibtex.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE citationkey (itemID INT, itemKey TEXT, libraryID INT, citationKey TEXT, pinned INT)`,
		`INSERT INTO citationkey VALUES (2, 'ITEM0002', 1, 'li1999thesis', 0), (1, 'ITEM0001', 1, 'notthisone', 0)`,
	} {
		if _, err := bbt.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	bbt.Close()

	cases := []struct {
		name    string
		opt     Options
		pdfs2   []string
		missing int
	}{
		{name: "with base directory", opt: Options{BaseDir: base}, pdfs2: []string{relative}, missing: 1},
		{name: "without base directory", opt: Options{}, pdfs2: nil, missing: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib, err := Read(context.Background(), dir, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(lib.Items) != 2 {
				t.Fatalf("items = %+v, want 2 (no trash, notes or attachments)", lib.Items)
			}
			a, b := lib.Items[0], lib.Items[1]
			if a.Title != "Tree Retrieval" || a.Year != 2024 || a.Venue != "Proceedings of ACL 2024" || a.DOI != "10.1000/xyz" || a.CitationKey != "smith2024tree" {
				t.Errorf("item 1 = %+v", a)
			}
			if !reflect.DeepEqual(a.Creators, []string{"Ann Smith", "OpenAI Team"}) || !reflect.DeepEqual(a.Collections, []string{"Reading / Retrieval"}) || !reflect.DeepEqual(a.Tags, []string{"rag", "trees"}) {
				t.Errorf("item 1 creators %q collections %q tags %q", a.Creators, a.Collections, a.Tags)
			}
			if !reflect.DeepEqual(a.PDFs, []string{stored, linked}) || len(a.Missing) != 0 {
				t.Errorf("item 1 pdfs %q missing %q", a.PDFs, a.Missing)
			}
			if b.CitationKey != "li1999thesis" {
				t.Errorf("item 2 citation key = %q, want Better BibTeX's", b.CitationKey)
			}
			if b.Year != 1999 || b.Venue != "Univ. of Somewhere" || !reflect.DeepEqual(b.PDFs, tc.pdfs2) || len(b.Missing) != tc.missing {
				t.Errorf("item 2 = year %d venue %q pdfs %q missing %q", b.Year, b.Venue, b.PDFs, b.Missing)
			}
			if !reflect.DeepEqual(lib.Collections, []string{"Reading", "Reading / Retrieval"}) {
				t.Errorf("collections %q", lib.Collections)
			}
		})
	}
}

// While Zotero runs, its newest changes sit in zotero.sqlite-wal; an
// immutable read of zotero.sqlite alone would miss them. Read sees them,
// and leaves the user's files exactly as they were.
func TestReadSeesWriteAheadLog(t *testing.T) {
	src := filepath.Join(shareddata.Dir(t, "zotero", "Zotero"), DBFile)
	dir := t.TempDir()
	db := filepath.Join(dir, DBFile)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// "Zotero" keeps the database open in WAL mode with an unmerged change.
	z, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	z.SetMaxOpenConns(1)
	const renamed = "Renamed While Zotero Runs"
	for _, s := range []string{`PRAGMA journal_mode=WAL`, `PRAGMA wal_autocheckpoint=0`,
		`UPDATE itemDataValues SET value = '` + renamed + `' WHERE value LIKE 'Fully Differentiable%'`} {
		if _, err := z.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	wal, err := os.ReadFile(db + "-wal")
	if err != nil || len(wal) == 0 {
		t.Fatalf("no write-ahead log to read (%v)", err)
	}
	main, _ := os.ReadFile(db)

	lib, err := Read(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, it := range lib.Items {
		titles = append(titles, it.Title)
	}
	if !slices.Contains(titles, renamed) {
		t.Errorf("titles %q: the change in the write-ahead log was not read", titles)
	}
	after, _ := os.ReadFile(db)
	afterWal, _ := os.ReadFile(db + "-wal")
	if !bytes.Equal(after, main) || !bytes.Equal(afterWal, wal) {
		t.Errorf("Read changed the user's database or its log")
	}
}
