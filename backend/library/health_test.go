package library

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// rawExec runs statements on the library file through a plain connection
// (as a tool, an interrupted edit or a bad sector would change it).
func rawExec(t *testing.T, path string, qs ...string) {
	t.Helper()
	db, err := sql.Open(store.DriverName, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// damagePages writes garbage over the b-tree page header of the named
// index: the file still opens, PRAGMA quick_check reports the page.
func damagePages(t *testing.T, path, index string) {
	t.Helper()
	var root, size int64
	db, err := sql.Open(store.DriverName, path)
	if err != nil {
		t.Fatal(err)
	}
	db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, index).Scan(&root)
	db.QueryRow(`PRAGMA page_size`).Scan(&size)
	db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	db.Close()
	if root < 2 {
		t.Fatalf("no root page for %s", index)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte{0x0d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, (root-1)*size); err != nil {
		t.Fatal(err)
	}
}

// TestIndexStopsOnLibraryErrors: a read-only library, a full disk and a
// damaged library stop an index job with a coded error in plain words (no
// raw SQLite text as the explanation), instead of failing every file the
// same way and reporting success.
func TestIndexStopsOnLibraryErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		setup  func(t *testing.T, path string) Config // before Open
		during func(t *testing.T, lib *Library)       // after Open
		code   papertree.Code
		want   string
	}{
		{"read-only", func(t *testing.T, path string) Config {
			return Config{DBPath: path, ReadOnly: true}
		}, nil, papertree.EConflict, "The library is read-only"},
		{"disk full", nil, func(t *testing.T, lib *Library) {
			n, err := lib.Store().PageCount(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := lib.Store().SetMaxPages(ctx, n+8); err != nil {
				t.Fatal(err)
			}
		}, papertree.EConflict, "The disk is full: indexing stopped, nothing was lost"},
		{"dropped full-text index", func(t *testing.T, path string) Config {
			rawExec(t, path, `DROP TABLE node_fts`)
			return Config{DBPath: path}
		}, nil, papertree.ECorrupt, "The library is damaged: run papertree repair"},
		{"damaged pages", func(t *testing.T, path string) Config {
			damagePages(t, path, "nodes_parent")
			return Config{DBPath: path}
		}, nil, papertree.ECorrupt, "The library is damaged: run papertree repair"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, dir := indexedCopies(t, 1)
			path := src.Store().Path()
			src.Close()
			for i := range 3 {
				copyFixture(t, "twocolumn.pdf", filepath.Join(dir, fmt.Sprintf("new%d.pdf", i)))
			}
			// New content, so that the copies are not "unchanged".
			for i := range 3 {
				f, _ := os.OpenFile(filepath.Join(dir, fmt.Sprintf("new%d.pdf", i)), os.O_APPEND|os.O_WRONLY, 0)
				fmt.Fprintf(f, "\n%% copy %d\n", i)
				f.Close()
			}
			cfg := Config{DBPath: path}
			if tt.setup != nil {
				cfg = tt.setup(t, path)
			}
			lib, err := Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			before, _ := lib.Store().ListPapers(ctx)
			if tt.during != nil {
				tt.during(t, lib)
			}
			sum, err := lib.Index(ctx, []string{dir}, nil)
			t.Logf("summary %+v, err %v", sum, err)
			if papertree.ErrorCode(err) != tt.code || !strings.HasPrefix(papertree.ErrorMessage(err), tt.want) {
				t.Fatalf("err = [%s] %q; want [%s] %q", papertree.ErrorCode(err), papertree.ErrorMessage(err), tt.code, tt.want)
			}
			if len(sum.Failed) > 0 {
				t.Errorf("files reported as failed for a library error: %+v", sum.Failed)
			}
			if tt.name == "disk full" {
				// Nothing half-saved, nothing lost: what was there is there,
				// and once there is room the job goes on.
				lib.Store().SetMaxPages(ctx, 0)
				if p, err := lib.Store().Check(ctx); err != nil || len(p) > 0 {
					t.Fatalf("after a full disk: %q, %v", p, err)
				}
				after, _ := lib.Store().ListPapers(ctx)
				if len(after) < len(before) {
					t.Fatalf("papers lost: %d -> %d", len(before), len(after))
				}
				sum, err := lib.Index(ctx, []string{dir}, nil)
				if err != nil || sum.Indexed+sum.Unchanged != 4 {
					t.Fatalf("index after freeing space: %+v, %v", sum, err)
				}
			} else {
				after, _ := lib.Store().ListPapers(ctx)
				if len(after) != len(before) {
					t.Errorf("papers %d -> %d: the job wrote into a library it refused", len(before), len(after))
				}
			}
		})
	}
}

// TestIndexNoPDFs: a folder without any PDF is an error in plain words.
func TestIndexNoPDFs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	_, err = lib.Index(ctx, []string{dir}, nil)
	if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "No PDF files were found in "+dir) {
		t.Fatalf("err = %v", err)
	}
}

// TestAskLibraryState: an empty library says so; an answer that cannot be
// saved (dropped answers table) is returned with a coded "not saved" error.
func TestAskLibraryState(t *testing.T) {
	ctx := context.Background()
	q := AskRequest{Question: "What does the paper say about the method?"}
	t.Run("empty library", func(t *testing.T) {
		lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
		if err != nil {
			t.Fatal(err)
		}
		defer lib.Close()
		a, err := lib.Ask(ctx, q)
		if a != nil || papertree.ErrorCode(err) != papertree.EConflict || !strings.Contains(papertree.ErrorMessage(err), "The library is empty") {
			t.Fatalf("ask an empty library: %v, %v", a, err)
		}
	})
	t.Run("answers table dropped", func(t *testing.T) {
		src, _ := indexedCopies(t, 1)
		path := src.Store().Path()
		src.Close()
		rawExec(t, path, `DROP TABLE answers`)
		lib, err := Open(ctx, Config{DBPath: path, MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		defer lib.Close()
		a, err := lib.Ask(ctx, q)
		if a == nil || a.ID != 0 || len(a.Evidence) == 0 {
			t.Fatalf("the answer made is not returned: %+v", a)
		}
		if papertree.ErrorCode(err) != papertree.ECorrupt || !strings.HasPrefix(papertree.ErrorMessage(err), "The answer was not saved: The library is damaged: run papertree repair") {
			t.Fatalf("err = [%s] %v", papertree.ErrorCode(err), err)
		}
	})
}

// TestRepairLibrary: papertree repair brings each damaged library back to
// a sound one that indexes and answers, keeps the saved answers, and
// indexes papers with damaged rows again from their PDFs (or lists them as
// lost when the PDF is gone).
func TestRepairLibrary(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		damage    []string
		removePDF bool
		answers   int
		reindexed int
		lost      int
	}{
		{"dropped full-text index", []string{`DROP TABLE node_fts`}, false, 1, 0, 0},
		{"dropped answers table", []string{`DROP TABLE answers`}, false, 0, 0, 0},
		{"lost tree", []string{`PRAGMA foreign_keys = OFF`, `DELETE FROM nodes WHERE paper_id = (SELECT min(id) FROM papers)`}, false, 1, 1, 0},
		{"bad authors JSON", []string{`UPDATE papers SET authors = '{not json' WHERE id = (SELECT min(id) FROM papers)`}, false, 1, 1, 0},
		{"lost tree, PDF gone", []string{`PRAGMA foreign_keys = OFF`, `DELETE FROM nodes WHERE paper_id = (SELECT min(id) FROM papers)`}, true, 1, 0, 1},
		{"dropped paper vectors", []string{`DROP TABLE vec_paper`}, false, 1, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, _ := indexedCopies(t, 2)
			if _, err := src.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"}); err != nil {
				t.Fatal(err)
			}
			ps, _ := src.Papers(ctx)
			if ps[1].ID < ps[0].ID {
				ps[0], ps[1] = ps[1], ps[0] // ps[0] is the damaged one: min(id)
			}
			path := src.Store().Path()
			src.Close()
			rawExec(t, path, tt.damage...)
			if tt.removePDF {
				os.Remove(ps[0].Path)
			}
			lib, err := Open(ctx, Config{DBPath: path, MustExist: true})
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			rep, err := lib.Repair(ctx)
			t.Logf("repair: recreated %v, reindexed %v, lost %v, remaining %v, failed %v", rep.Recreated, rep.Reindexed, rep.Lost, rep.Remaining, rep.Failed)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Remaining) > 0 || len(rep.Reindexed) != tt.reindexed || len(rep.Lost) != tt.lost {
				t.Fatalf("report: %d reindexed (want %d), %d lost (want %d), remaining %v", len(rep.Reindexed), tt.reindexed, len(rep.Lost), tt.lost, rep.Remaining)
			}
			if p, err := lib.Store().Check(ctx); err != nil || len(p) > 0 {
				t.Fatalf("after repair: %q, %v", p, err)
			}
			if as, err := lib.Answers(ctx, 0, 0); err != nil || len(as) != tt.answers {
				t.Errorf("answers after repair: %d, %v; want %d", len(as), err, tt.answers)
			}
			id := ps[1].ID
			if tt.lost == 0 {
				id = 0
			}
			req := AskRequest{Question: "What does the paper say about the method?"}
			if id != 0 {
				req.PaperIDs = []int64{id}
			}
			if a, err := lib.Ask(ctx, req); err != nil || len(a.Evidence) == 0 || a.ID == 0 {
				t.Errorf("ask after repair: %+v, %v", a, err)
			}
			if tt.lost == 0 {
				if sum, err := lib.Index(ctx, []string{filepath.Dir(ps[0].Path)}, nil); err != nil || sum.Unchanged != 2 {
					t.Errorf("index after repair: %+v, %v", sum, err)
				}
			}
		})
	}
}

// TestRepairRefusesReadOnly: a read-only library is not repaired.
func TestRepairRefusesReadOnly(t *testing.T) {
	src, _ := indexedCopies(t, 1)
	path := src.Store().Path()
	src.Close()
	lib, err := Open(context.Background(), Config{DBPath: path, MustExist: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if _, err := lib.Repair(context.Background()); papertree.ErrorCode(err) != papertree.EConflict || papertree.ErrorMessage(err) != store.ReadOnlyMsg {
		t.Fatalf("repair read-only: %v", err)
	}
}

// TestRebuildDamagedPages: when repair cannot fix a library in place
// (damaged pages of the nodes table), Rebuild makes a new one: the saved
// answer keeps its id, the imported reference and the papers come back
// (indexed again from their PDFs), and the damaged file is kept aside,
// byte-identical.
func TestRebuildDamagedPages(t *testing.T) {
	ctx := context.Background()
	src, _ := indexedCopies(t, 3)
	a, err := src.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := src.Papers(ctx)
	path := src.Store().Path()
	src.Close()
	rawExec(t, path, fmt.Sprintf(`INSERT INTO paper_ref(path, source, ref_title, updated_at) VALUES ('%s', 'zotero', 'From Zotero', 1)`, ps[0].Path))
	damagePages(t, path, "nodes")
	damaged := fileSHA(t, path)

	lib, err := Open(ctx, Config{DBPath: path, MustExist: true})
	if err == nil {
		rep, err := lib.Repair(ctx)
		lib.Close()
		if papertree.ErrorCode(err) != papertree.ECorrupt && len(rep.Remaining) == 0 {
			t.Fatalf("repair in place: %+v, %v; want damage it cannot fix", rep, err)
		}
	}
	rb, err := Rebuild(ctx, Config{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rebuild: copied %v, unreadable %v, index %+v, lost %v, kept %s", rb.Salvaged.Copied, rb.Salvaged.Unreadable, rb.Index, rb.Lost, rb.DamagedCopy)
	if fileSHA(t, rb.DamagedCopy) != damaged {
		t.Error("the damaged file was changed")
	}
	lib, err = Open(ctx, Config{DBPath: path, MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if p, err := lib.Store().Check(ctx); err != nil || len(p) > 0 {
		t.Fatalf("rebuilt library: %q, %v", p, err)
	}
	if got, err := lib.Answer(ctx, a.ID); err != nil || got.Question != a.Question || len(got.Evidence) != len(a.Evidence) {
		t.Errorf("saved answer %d after rebuild: %+v, %v", a.ID, got, err)
	}
	after, _ := lib.Papers(ctx)
	if len(after) != 3 {
		t.Fatalf("%d papers after rebuild, want 3", len(after))
	}
	if refs, err := lib.Store().Refs(ctx); err != nil || refs[ps[0].Path].Title != "From Zotero" {
		t.Errorf("the imported reference was lost: %+v, %v", refs, err)
	}
	if _, err := lib.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"}); err != nil {
		t.Errorf("ask after rebuild: %v", err)
	}
}

func fileSHA(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}
