package library

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// indexedCopies indexes n copies of the two-column fixture into a new
// library and returns it.
func indexedCopies(t *testing.T, n int) (*Library, string) {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		copyFixture(t, "twocolumn.pdf", filepath.Join(dir, fmt.Sprintf("p%02d.pdf", i)))
	}
	ctx := context.Background()
	db := filepath.Join(dir, "lib.db")
	lib, err := Open(ctx, Config{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil || sum.Indexed != n {
		t.Fatalf("index: %+v, %v", sum, err)
	}
	return lib, dir
}

// TestAskDuringReindex asks library-wide questions while another writer
// replaces every paper again and again (as a re-index does: same path, new
// id). Papers vanish between the listing and the load; no question may fail.
func TestAskDuringReindex(t *testing.T) {
	lib, _ := indexedCopies(t, 4)
	ctx := context.Background()
	st := lib.Store()
	ps, err := st.ListPapers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var replaced atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			info, err := st.PaperByPath(ctx, ps[i%len(ps)].Path)
			if err != nil {
				t.Error(err)
				return
			}
			p, err := st.LoadPaper(ctx, info.ID)
			if err != nil {
				continue // replaced between the two reads
			}
			if _, err := st.SavePaper(ctx, p, store.Vectors{}, info.Fingerprint); err != nil {
				t.Error(err)
				return
			}
			replaced.Add(1)
		}
	}()
	failed := 0
	for i := 0; i < 150; i++ {
		// A fresh cache each time, so every question loads papers from the
		// store (as a cold question does).
		lib.ix = nil
		lib.ixOnce = sync.Once{}
		if _, err := lib.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"}); err != nil {
			failed++
			if failed < 3 {
				t.Errorf("ask %d: %v", i, err)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if failed > 0 {
		t.Errorf("%d of 150 questions failed while %d papers were replaced", failed, replaced.Load())
	}
	// A paper named explicitly that no longer exists is still an error.
	if _, err := lib.Ask(ctx, AskRequest{Question: "method", PaperIDs: []int64{999999}}); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("unknown explicit paper: %v", err)
	}
}

// TestDamagedLibrary damages real library files in the ways a crash, a bad
// copy or a disk error does, and checks what users see: either the
// operation works (the damaged paper reported, the rest usable) or a coded
// error in plain words; never a raw SQLite or sqlite-vec message.
func TestDamagedLibrary(t *testing.T) {
	ctx := context.Background()
	src, dir := indexedCopies(t, 3)
	ps, err := src.Papers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := ps[0].ID
	srcPath := src.Store().Path()
	src.Close()
	good, err := os.ReadFile(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	sqlDamage := func(qs ...string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
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
	}
	byteDamage := func(fn func(b []byte) []byte) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, fn(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name   string
		damage func(t *testing.T, path string)
		check  func(t *testing.T, lib *Library)
	}{
		{"garbage page headers", byteDamage(func(b []byte) []byte {
			// Every other B-tree page header after the schema page.
			for off := 2 * 4096; off+4096 <= len(b); off += 2 * 4096 {
				for i := range 64 {
					b[off+i] = byte(0xA5 ^ i)
				}
			}
			return b
		}), nil},
		{"garbage in the last pages", byteDamage(func(b []byte) []byte {
			for off := len(b) / 2; off < len(b); off++ {
				b[off] = byte(off*7 + 3)
			}
			return b
		}), nil},
		{"truncated to half", byteDamage(func(b []byte) []byte { return b[:len(b)/2/4096*4096] }), nil},
		{"header destroyed", byteDamage(func(b []byte) []byte { copy(b, "garbage garbage garbage garbage"); return b }), nil},
		{"bad authors JSON", sqlDamage(fmt.Sprintf(`UPDATE papers SET authors = '{not json' WHERE id = %d`, first)), func(t *testing.T, lib *Library) {
			ps, err := lib.Papers(ctx)
			if err != nil || len(ps) != 3 {
				t.Fatalf("list: %d papers, %v", len(ps), err)
			}
			if ps[0].ErrCode != papertree.ECorrupt || ps[1].ErrCode != "" {
				t.Errorf("damaged paper not reported: %+v", ps[0])
			}
		}},
		{"bad boxes JSON", sqlDamage(fmt.Sprintf(`UPDATE nodes SET boxes = '[{"x":' WHERE paper_id = %d`, first)), func(t *testing.T, lib *Library) {
			if p, err := lib.Paper(ctx, fmt.Sprint(first)); err != nil || p.Root == nil {
				t.Errorf("paper with damaged boxes: %v", err)
			}
		}},
		{"corrupted embedder row", sqlDamage(`UPDATE meta SET value = 'bu' || char(0) || 'ltin?' WHERE key = 'embedder.name'`,
			`UPDATE meta SET value = 'x' WHERE key = 'embedder.dim'`), func(t *testing.T, lib *Library) {
			ps, _ := lib.Papers(ctx)
			for _, p := range ps {
				if p.Stale {
					t.Fatalf("paper %d marked stale by a damaged meta row", p.ID)
				}
			}
			if name, dim := lib.Store().Embedder(); name != lib.Embedder().Name() || dim != lib.Embedder().Dim() {
				t.Errorf("embedder after repair = %s/%d", name, dim)
			}
		}},
		{"damaged vector row", sqlDamage(fmt.Sprintf(`UPDATE paper_vectors SET data = x'0102' WHERE paper_id = %d`, first)), nil},
		{"damaged vec0 chunk", sqlDamage(`UPDATE vec_paper_vector_chunks00 SET vectors = zeroblob(8)`), nil},
		{"missing tree", sqlDamage(`PRAGMA foreign_keys = OFF`, fmt.Sprintf(`DELETE FROM nodes WHERE paper_id = %d`, first)), nil},
		{"dropped full-text index", sqlDamage(`DROP TABLE node_fts`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "lib.db")
			if err := os.WriteFile(path, good, 0o644); err != nil {
				t.Fatal(err)
			}
			tt.damage(t, path)
			plain := func(op string, err error) {
				t.Helper()
				if err == nil {
					return
				}
				t.Logf("%s: [%s] %v", op, papertree.ErrorCode(err), err)
				msg := papertree.ErrorMessage(err)
				low := strings.ToLower(msg)
				if papertree.ErrorCode(err) == papertree.EInternal || strings.Contains(low, "sqlite") ||
					strings.Contains(low, "vec0") || strings.Contains(low, "sql ") || strings.Contains(low, "malformed") {
					t.Errorf("%s: raw error reaches the user: [%s] %s (%v)", op, papertree.ErrorCode(err), msg, err)
				}
			}
			lib, err := Open(ctx, Config{DBPath: path, MustExist: true})
			plain("open", err)
			if err != nil {
				return
			}
			defer lib.Close()
			_, err = lib.Papers(ctx)
			plain("list", err)
			_, err = lib.Paper(ctx, fmt.Sprint(first))
			plain("tree", err)
			_, err = lib.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"})
			plain("ask library", err)
			_, err = lib.Ask(ctx, AskRequest{Question: "What does the paper say about the method?", PaperIDs: []int64{ps[1].ID}})
			plain("ask paper", err)
			if tt.check != nil {
				tt.check(t, lib)
			}
		})
	}
	_ = dir
}

// TestUnreadableFolderIsReported: a sub-folder that cannot be read is listed
// in the job's failures, and the rest of the folder is indexed. A real
// chmod 000 folder is used when not running as root (root reads anything);
// the walk is made to fail the same way otherwise.
func TestUnreadableFolderIsReported(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "good.pdf"))
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFixture(t, "twocolumn.pdf", filepath.Join(locked, "hidden.pdf"))
	if os.Geteuid() != 0 {
		os.Chmod(locked, 0)
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
	} else {
		orig := walkDir
		walkDir = func(root string, fn fs.WalkDirFunc) error {
			return orig(root, func(path string, d fs.DirEntry, err error) error {
				if path == locked && err == nil {
					// What WalkDir reports for a folder it cannot list.
					return fn(path, d, &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission})
				}
				return fn(path, d, err)
			})
		}
		t.Cleanup(func() { walkDir = orig })
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 1 || len(sum.Failed) != 1 || sum.Failed[0].File != locked || sum.Failed[0].Code != papertree.EInvalid ||
		!strings.Contains(sum.Failed[0].Error, "permission denied") {
		t.Fatalf("summary %+v: want good.pdf indexed and the locked folder reported", sum)
	}
}

// TestReadOnlyLibrary: a library that cannot be written is opened read-only
// and can still be listed and asked (answers are not saved). Without root,
// the file and its folder are really made read-only; as root (who may write
// anything) the read-only mode is asked for explicitly.
func TestReadOnlyLibrary(t *testing.T) {
	src, _ := indexedCopies(t, 2)
	path := src.Store().Path()
	src.Close()
	ctx := context.Background()
	cfg := Config{DBPath: path, MustExist: true}
	if os.Geteuid() != 0 {
		os.Chmod(path, 0o444)
		os.Chmod(filepath.Dir(path), 0o555)
		t.Cleanup(func() { os.Chmod(filepath.Dir(path), 0o755); os.Chmod(path, 0o644) })
	} else {
		cfg.ReadOnly = true
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("open read-only: %v", err)
	}
	if !lib.Store().ReadOnly() {
		t.Fatal("the library was not opened read-only")
	}
	ps, err := lib.Papers(ctx)
	if err != nil || len(ps) != 2 {
		t.Fatalf("list: %d, %v", len(ps), err)
	}
	a, err := lib.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"})
	if err != nil || a.ID != 0 || len(a.Evidence) == 0 {
		t.Fatalf("ask: %+v, %v", a, err)
	}
	// Writing is refused in plain words.
	if err := lib.Store().SetMeta(ctx, "k", "v"); err == nil {
		t.Error("a write succeeded on a read-only library")
	} else if e := store.UserError(err); papertree.ErrorCode(e) != papertree.EConflict {
		t.Errorf("write error: %v", e)
	}
	lib.Close()
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("the read-only library file changed")
	}
}
