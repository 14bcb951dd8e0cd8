package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

// sqliteFile makes an SQLite database at p with the given statements,
// written by a plain connection (as another program would).
func sqliteFile(t *testing.T, p string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// sideFiles lists the -wal, -shm and -journal files beside p.
func sideFiles(p string) []string {
	var out []string
	for _, suf := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(p + suf); err == nil {
			out = append(out, filepath.Base(p+suf))
		}
	}
	return out
}

// TestOpenRefusesForeignFiles: a file that is not a PaperTree library is
// refused, whatever the open mode, with a coded message, and is left
// byte-identical with no -wal/-shm/-journal files beside it.
func TestOpenRefusesForeignFiles(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		make func(t *testing.T, p string)
		want string
	}{
		{"zotero.sqlite", func(t *testing.T, p string) {
			src := filepath.Join(shareddata.Dir(t, "zotero", "Zotero"), "zotero.sqlite")
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "another program's database (tables "},
		{"other program's tables", func(t *testing.T, p string) {
			sqliteFile(t, p, `CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT)`, `INSERT INTO items(title) VALUES ('x')`)
		}, "tables items"},
		{"other program's WAL database", func(t *testing.T, p string) {
			sqliteFile(t, p, `PRAGMA journal_mode = WAL`, `CREATE TABLE history (url TEXT)`, `INSERT INTO history VALUES ('u')`)
		}, "tables history"},
		{"other program's tables only in its -wal", func(t *testing.T, p string) {
			// A crash (or a running program) leaves the tables in the -wal:
			// copied while the writer is open, as a backup tool would.
			src := filepath.Join(t.TempDir(), "live.sqlite")
			db, err := sql.Open("sqlite3", src)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			for _, q := range []string{`PRAGMA journal_mode = WAL`, `PRAGMA wal_autocheckpoint = 0`, `CREATE TABLE items (id INTEGER)`, `INSERT INTO items VALUES (1)`} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			for _, suf := range []string{"", "-wal"} {
				b, err := os.ReadFile(src + suf)
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(p+suf, b, 0o644)
			}
		}, "tables items"},
		{"other application id", func(t *testing.T, p string) {
			sqliteFile(t, p, `PRAGMA application_id = 1196444237`, `CREATE TABLE papers (id INTEGER)`)
		}, "application id 0x47504a4d"},
		{"a table named like ours only", func(t *testing.T, p string) {
			sqliteFile(t, p, `CREATE TABLE papers (id INTEGER, title TEXT)`)
		}, "tables papers"},
		{"text file", func(t *testing.T, p string) {
			os.WriteFile(p, []byte(strings.Repeat("notes about papers\n", 20)), 0o644)
		}, "not a database file"},
		{"short file", func(t *testing.T, p string) { os.WriteFile(p, []byte("SQLite format 3\x00"), 0o644) }, "not a database file"},
	}
	for _, tt := range tests {
		for _, mode := range []struct {
			name string
			o    Options
		}{{"create", Options{}}, {"must exist", Options{MustExist: true}}, {"read-only", Options{MustExist: true, ReadOnly: true}}} {
			t.Run(tt.name+"/"+mode.name, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "other.sqlite")
				tt.make(t, p)
				before, side := fileSum(t, p), sideFiles(p)
				var wal [32]byte
				if _, err := os.Stat(p + "-wal"); err == nil {
					wal = fileSum(t, p+"-wal")
				}
				s, err := OpenWith(ctx, p, mode.o)
				if err == nil {
					s.Close()
					t.Fatal("a file that is not a library was opened")
				}
				if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "is not a PaperTree library") ||
					!strings.Contains(papertree.ErrorMessage(err), tt.want) {
					t.Errorf("err = [%s] %s; want invalid, 'is not a PaperTree library' and %q", papertree.ErrorCode(err), papertree.ErrorMessage(err), tt.want)
				}
				if fileSum(t, p) != before {
					t.Error("the file changed")
				}
				if wal != ([32]byte{}) && fileSum(t, p+"-wal") != wal {
					t.Error("the -wal file changed")
				}
				got := sideFiles(p)
				if wal != ([32]byte{}) {
					// Reading a -wal needs its index (-shm), made beside it.
					side = append(side, "other.sqlite-shm")
				}
				if strings.Join(got, ",") != strings.Join(side, ",") {
					t.Errorf("side files %v, before %v", got, side)
				}
			})
		}
	}
}

// TestOpenAcceptsLibraries: our own libraries open, a library of an older
// version (no application id) is stamped when it is opened writable and not
// when read-only, and a 0-byte file or an SQLite file without tables becomes
// a new library only where one may be created.
func TestOpenAcceptsLibraries(t *testing.T) {
	ctx := context.Background()
	appID := func(t *testing.T, p string) int64 {
		t.Helper()
		db, err := sql.Open("sqlite3", "file:"+p+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var id int64
		if err := db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	library := func(t *testing.T, p string) {
		s, err := Open(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SavePaper(ctx, synthPaper("/papers/a.pdf", 1, 2, 1, 2), Vectors{}, "fp"); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	tests := []struct {
		name    string
		make    func(t *testing.T, p string)
		o       Options
		wantErr string // "" = opens
		wantApp int64
		papers  int
	}{
		{"our library", library, Options{MustExist: true}, "", ApplicationID, 1},
		{"older library, writable", func(t *testing.T, p string) {
			library(t, p)
			sqliteFile(t, p, `PRAGMA application_id = 0`)
		}, Options{MustExist: true}, "", ApplicationID, 1},
		{"older library, read-only", func(t *testing.T, p string) {
			library(t, p)
			sqliteFile(t, p, `PRAGMA application_id = 0`)
		}, Options{MustExist: true, ReadOnly: true}, "", 0, 1},
		{"0 bytes, index", func(t *testing.T, p string) { os.WriteFile(p, nil, 0o644) }, Options{}, "", ApplicationID, 0},
		{"0 bytes, read", func(t *testing.T, p string) { os.WriteFile(p, nil, 0o644) }, Options{MustExist: true}, "is empty (0 bytes)", -1, 0},
		{"no tables, index", func(t *testing.T, p string) { sqliteFile(t, p, `PRAGMA user_version = 0`, `VACUUM`) }, Options{}, "", ApplicationID, 0},
		{"no tables, read", func(t *testing.T, p string) { sqliteFile(t, p, `PRAGMA user_version = 0`, `VACUUM`) }, Options{MustExist: true}, "without any tables", -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "lib.db")
			tt.make(t, p)
			var before [32]byte
			if _, err := os.Stat(p); err == nil {
				before = fileSum(t, p)
			}
			s, err := OpenWith(ctx, p, tt.o)
			if tt.wantErr != "" {
				if err == nil {
					s.Close()
					t.Fatal("opened")
				}
				if !strings.Contains(papertree.ErrorMessage(err), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if fileSum(t, p) != before {
					t.Error("a refused file changed")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ps, err := s.ListPapers(ctx)
			s.Close()
			if err != nil || len(ps) != tt.papers {
				t.Fatalf("list: %d papers, %v", len(ps), err)
			}
			if got := appID(t, p); got != tt.wantApp {
				t.Errorf("application_id = %#x, want %#x", got, tt.wantApp)
			}
		})
	}
}
