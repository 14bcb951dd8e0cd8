package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/store"
)

func sha(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func rawSQL(t *testing.T, path string, qs ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
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

// foreignCommands is one run of every command that takes --db (the guard in
// TestForeignDatabaseUntouched checks it against the usage text), with
// arguments that reach the opening of the library: inputs that are valid
// (or empty) so that no command stops on them first.
func foreignCommands(t *testing.T) [][]string {
	dir := t.TempDir()
	pdfs := filepath.Join(dir, "pdfs")
	os.Mkdir(pdfs, 0o755)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(pdfs, "a.pdf"))
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bib := write("refs.bib", "@article{k1, title={A Title}, author={A. Author}, year={2020}, file={"+filepath.Join(pdfs, "a.pdf")+"}}\n")
	list := write("list.json", "[]")
	set := write("set.json", `{"questions":[]}`)
	qasper := write("qasper.json", "{}")
	zot := t.TempDir() // an empty Zotero data folder: import stops on the library before reading it
	return [][]string{
		{"list"}, {"list", "--json"}, {"ask", "what is the method"}, {"ask", "--json", "what is the method"},
		{"tree", "1"}, {"search", "glyphs"}, {"remove", "1"},
		{"export", "--answer", "1"}, {"export", "--history"}, {"compare"}, {"compare", "--json"},
		{"edit", "--paper", "1", "--title", "T"}, {"edit", "--paper", "1", "--undo", "title"},
		{"heading", "--paper", "1", "--node", "2", "--rename", "X"}, {"heading", "--paper", "1", "--undo"},
		{"index", "--quiet", pdfs}, {"repair"}, {"repair", "--json"}, {"structures"},
		{"import", "bibtex", bib}, {"import", "zotero", zot},
		{"eval", "library", "--questions", list}, {"eval", "compare", "--set", list},
		{"eval", "search", "--set", set}, {"eval", "questions", "--set", set, "--pdfs", pdfs},
		{"eval", "qasper", "--data", qasper, "--limit", "1"},
		{"bench", "query", "--n", "1", "--scales", "1"},
	}
}

// TestForeignDatabaseUntouched: a database that is not a PaperTree library
// given as --db is refused by EVERY command that takes --db, with a non-zero
// exit and a plain message, and is byte-identical afterwards with no -wal/
// -shm/-journal file beside it. The files: a copy of a real zotero.sqlite
// (shared data), another program's database made here with a few tables and
// rows (rollback journal, and in WAL mode).
func TestForeignDatabaseUntouched(t *testing.T) {
	commands := foreignCommands(t)
	// Every command of the usage text that takes --db has a run above.
	for _, line := range strings.Split(usage, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "papertree" || !strings.Contains(line, "--db") {
			continue
		}
		name := f[1]
		if len(f) > 2 && !strings.HasPrefix(f[2], "-") {
			name += " " + f[2] // import zotero, eval library, bench query
		}
		found := false
		for _, args := range commands {
			if strings.HasPrefix(strings.Join(args, " ")+" ", name+" ") {
				found = true
			}
		}
		if !found {
			t.Errorf("%q takes --db but is not run on a foreign database here", name)
		}
	}
	other := func(wal bool) func(t *testing.T, p string) {
		return func(t *testing.T, p string) {
			var qs []string
			if wal {
				qs = append(qs, `PRAGMA journal_mode = WAL`)
			}
			qs = append(qs,
				`CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, added TEXT)`,
				`CREATE TABLE creators (id INTEGER PRIMARY KEY, item INTEGER REFERENCES items(id), name TEXT)`,
				`CREATE INDEX creators_item ON creators(item)`,
				`CREATE TABLE settings (key TEXT PRIMARY KEY, value BLOB)`,
				`INSERT INTO items(title, added) VALUES ('Attention Is All You Need', '2017-06-12'), ('Deep Residual Learning', '2015-12-10')`,
				`INSERT INTO creators(item, name) VALUES (1, 'Vaswani'), (2, 'He')`,
				`INSERT INTO settings VALUES ('version', x'0102')`)
			rawSQL(t, p, qs...)
		}
	}
	files := []struct {
		name string
		make func(t *testing.T, p string)
	}{
		{"zotero.sqlite copy", func(t *testing.T, p string) {
			copyFile(t, filepath.Join(shareddata.Dir(t, "zotero", "Zotero"), "zotero.sqlite"), p)
		}},
		{"other program's database", other(false)},
		{"other program's WAL database", other(true)},
	}
	for _, f := range files {
		for _, args := range commands {
			t.Run(f.name+"/"+strings.Join(args[:min(2, len(args))], " "), func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "zotero.sqlite")
				f.make(t, p)
				before := sha(t, p)
				out, errs, code := cli(t, append(args, "--db", p)...)
				if code == 0 || !strings.Contains(errs, "is not a PaperTree library") || !strings.Contains(errs, "[invalid]") ||
					!strings.Contains(errs, "PaperTree left it unchanged") {
					t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
				}
				if sha(t, p) != before {
					t.Errorf("%v changed the file", args)
				}
				for _, suf := range []string{"-wal", "-shm", "-journal"} {
					if _, err := os.Stat(p + suf); err == nil {
						t.Errorf("%v left %s beside the file", args, suf)
					}
				}
			})
		}
	}
}

// TestIndexLibraryErrorsCLI: index stops with a non-zero exit and a plain
// message on a folder without PDFs (creating no library), a read-only
// library, a full disk and a damaged library; repair then makes the
// damaged library indexable again. A 0-byte file becomes a new library.
func TestIndexLibraryErrorsCLI(t *testing.T) {
	pdfs := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(pdfs, "a.pdf"))
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(pdfs, "b.pdf"))
	f, _ := os.OpenFile(filepath.Join(pdfs, "b.pdf"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n% another copy\n")
	f.Close()
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("no papers here"), 0o644)

	t.Run("folder without PDFs", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "new.db")
		_, errs, code := cli(t, "index", "--db", db, empty)
		if code != 1 || !strings.Contains(errs, "No PDF files were found in "+empty) {
			t.Fatalf("exit %d, %q", code, errs)
		}
		if _, err := os.Stat(db); err == nil {
			t.Error("a library file was created for nothing")
		}
	})
	t.Run("0-byte file", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "touched.db")
		os.WriteFile(db, nil, 0o644)
		if out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs); code != 0 || !strings.Contains(out, "indexed 2") {
			t.Fatalf("index into a 0-byte file: exit %d, %q %q", code, out, errs)
		}
	})
	t.Run("read-only library", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "lib.db")
		if _, errs, code := cli(t, "index", "--db", db, "--quiet", filepath.Join(pdfs, "a.pdf")); code != 0 {
			t.Fatal(errs)
		}
		forceReadOnly = true
		defer func() { forceReadOnly = false }()
		out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs)
		if code != 1 || !strings.Contains(errs, "The library is read-only") || strings.Contains(out, "indexed") {
			t.Fatalf("exit %d, %q %q", code, out, errs)
		}
	})
	t.Run("disk full", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "lib.db")
		testIndexOpened = func(l *library.Library) {
			n, _ := l.Store().PageCount(context.Background())
			l.Store().SetMaxPages(context.Background(), n+4)
		}
		defer func() { testIndexOpened = nil }()
		out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs)
		if code != 1 || !strings.Contains(errs, "The disk is full: indexing stopped, nothing was lost") || strings.Contains(errs, "failed:") {
			t.Fatalf("exit %d, %q %q", code, out, errs)
		}
		testIndexOpened = nil
		if out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs); code != 0 || !strings.Contains(out, "failed 0") {
			t.Fatalf("index once there is room: exit %d, %q %q", code, out, errs)
		}
	})
	t.Run("damaged library, then repair", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "lib.db")
		if _, errs, code := cli(t, "index", "--db", db, "--quiet", filepath.Join(pdfs, "a.pdf")); code != 0 {
			t.Fatal(errs)
		}
		if _, errs, code := cli(t, "ask", "--db", db, "what is the method"); code != 0 {
			t.Fatal(errs)
		}
		rawSQL(t, db, `DROP TABLE node_fts`)
		out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs)
		if code != 1 || !strings.Contains(errs, "The library is damaged: run papertree repair") || strings.Contains(errs, "no such table") && !strings.Contains(errs, "detail:") {
			t.Fatalf("index a damaged library: exit %d, %q %q", code, out, errs)
		}
		out, errs, code = cli(t, "repair", "--db", db)
		if code != 0 || !strings.Contains(out, "recreated table node_fts") || !strings.Contains(out, "The library is sound") {
			t.Fatalf("repair: exit %d, %q %q", code, out, errs)
		}
		if out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs); code != 0 || !strings.Contains(out, "indexed 1, unchanged 1") {
			t.Fatalf("index after repair: exit %d, %q %q", code, out, errs)
		}
		if out, _, code := cli(t, "export", "--db", db, "--answer", "1", "--format", "md"); code != 0 || out == "" {
			t.Fatalf("the saved answer did not survive the repair: exit %d", code)
		}
	})
}

// damageTablePages writes garbage over the first page of a table's b-tree
// (the file still opens; quick_check and reads of the table fail).
func damageTablePages(t *testing.T, path, table string) {
	t.Helper()
	var root, size int64
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root)
	db.QueryRow(`PRAGMA page_size`).Scan(&size)
	db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte{0x0d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, (root-1)*size); err != nil {
		t.Fatal(err)
	}
}

// TestRepairRebuildsCLI: a library with damaged pages, which repair
// cannot fix in place, is rebuilt: exit 0, the saved answer is exported by
// its id afterwards, the papers index as unchanged, and the damaged file is
// kept aside byte-identical.
func TestRepairRebuildsCLI(t *testing.T) {
	pdfs := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(pdfs, "a.pdf"))
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := cli(t, "ask", "--db", db, "what is the method"); code != 0 {
		t.Fatal(errs)
	}
	damageTablePages(t, db, "nodes")
	damaged := sha(t, db)
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs); code != 1 || !strings.Contains(errs, "run papertree repair") {
		t.Fatalf("index a library with damaged pages: exit %d, %q", code, errs)
	}
	out, errs, code := cli(t, "repair", "--db", db)
	if code != 0 || !strings.Contains(out, "rebuilt the library in a new file: kept 1 saved answers") || !strings.Contains(out, "The library is sound") {
		t.Fatalf("repair: exit %d\n%s\n%s", code, out, errs)
	}
	kept := strings.TrimSpace(out[strings.Index(out, "the damaged file was kept as ")+len("the damaged file was kept as "):])
	kept = strings.SplitN(kept, "\n", 2)[0]
	if sha(t, kept) != damaged {
		t.Errorf("the damaged file kept at %s was changed", kept)
	}
	if out, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs); code != 0 || !strings.Contains(out, "indexed 0, unchanged 1") {
		t.Fatalf("index after rebuild: exit %d, %q %q", code, out, errs)
	}
	if out, errs, code := cli(t, "export", "--db", db, "--answer", "1", "--format", "md"); code != 0 || !strings.Contains(out, "what is the method") {
		t.Fatalf("export of the saved answer after rebuild: exit %d, %q", code, errs)
	}
}

// TestAskLibraryStatesCLI: ask says when its answer is not saved (read-only
// or damaged library) and when the library is empty; export of a damaged
// saved answer is a plain coded error, not the JSON decoder's message.
func TestAskLibraryStatesCLI(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	good := filepath.Join(t.TempDir(), "lib.db")
	if _, errs, code := cli(t, "index", "--db", good, "--quiet", dir); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := cli(t, "ask", "--db", good, "what is the method"); code != 0 {
		t.Fatal(errs)
	}
	copyLib := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "lib.db")
		copyFile(t, good, p)
		return p
	}
	tests := []struct {
		name     string
		prepare  func(t *testing.T) string
		args     []string
		code     int
		stdout   string
		stderr   string
		notInOut string
	}{
		{"read-only", func(t *testing.T) string {
			forceReadOnly = true
			t.Cleanup(func() { forceReadOnly = false })
			return copyLib(t)
		}, []string{"ask", "what is the method"}, 0, "answer not saved: the library is read-only", "", "answer #0"},
		{"read-only json", func(t *testing.T) string {
			forceReadOnly = true
			t.Cleanup(func() { forceReadOnly = false })
			return copyLib(t)
		}, []string{"ask", "--json", "what is the method"}, 0, `"evidence"`, "the answer was not saved: the library is read-only", ""},
		{"answers table dropped", func(t *testing.T) string {
			p := copyLib(t)
			rawSQL(t, p, `DROP TABLE answers`)
			return p
		}, []string{"ask", "what is the method"}, 1, "answer not saved", "The answer was not saved: The library is damaged: run papertree repair", "answer #0"},
		{"empty library", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "empty.db")
			s, err := store.Open(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			return p
		}, []string{"ask", "what is the method"}, 1, "", "The library is empty", "Evidence"},
		{"empty library list", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "empty.db")
			s, err := store.Open(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			return p
		}, []string{"list"}, 0, "The library is empty", "", ""},
		{"bit-flipped answer", func(t *testing.T) string {
			p := copyLib(t)
			rawSQL(t, p, `UPDATE answers SET evidence = '[{"path": [' || char(1)`)
			return p
		}, []string{"export", "--answer", "1", "--format", "md"}, 1, "", "Saved answer 1 is damaged in the library (its evidence cannot be read)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := tt.prepare(t)
			args := append([]string{tt.args[0], "--db", db}, tt.args[1:]...)
			out, errs, code := cli(t, args...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) ||
				(tt.notInOut != "" && strings.Contains(out, tt.notInOut)) {
				t.Fatalf("exit %d (want %d)\nstdout %q (want %q, not %q)\nstderr %q (want %q)", code, tt.code, out, tt.stdout, tt.notInOut, errs, tt.stderr)
			}
			if first := strings.SplitN(errs, "\n", 2)[0]; strings.Contains(first, "unexpected end of JSON") || strings.Contains(first, "invalid character") {
				t.Errorf("raw JSON error as the explanation: %q", first)
			}
		})
	}
	_ = fmt.Sprint
}

// TestIndexRealFullDisk: the same as the disk-full case of
// TestIndexLibraryErrorsCLI on a real full file system (a 1 MB tmpfs,
// which only root can mount; skipped otherwise): exit 1, "The disk is
// full", the papers saved before are listed, and nothing is half-saved.
func TestIndexRealFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		// A background warm-up of the last command may still hold the
		// library's file for a moment: a lazy unmount detaches the mount at
		// once (the memory goes when the file closes), so the temporary
		// folder can be removed.
		if exec.Command("umount", mnt).Run() != nil {
			exec.Command("umount", "-l", mnt).Run()
		}
	})
	pdfs := t.TempDir()
	for i := range 40 {
		p := filepath.Join(pdfs, fmt.Sprintf("p%02d.pdf", i))
		copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), p)
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, "\n%% copy %d\n", i)
		f.Close()
	}
	db := filepath.Join(mnt, "lib.db")
	_, errs, code := cli(t, "index", "--db", db, "--quiet", pdfs)
	if code != 1 || !strings.Contains(errs, "The disk is full: indexing stopped, nothing was lost") || strings.Contains(errs, "failed:") {
		t.Fatalf("exit %d, %q", code, errs)
	}
	out, errs, code := cli(t, "list", "--db", db, "--json")
	if code != 0 || !strings.Contains(out, `"status": "ready"`) || strings.Contains(out, `"failed"`) {
		t.Fatalf("list after a full disk: exit %d, %q %q", code, out, errs)
	}
}

// TestReadCommandsLeaveTheLibraryAsItIs: the commands that only read a
// library (list, tree, search, export, compare, and the evaluations that ask
// nothing) leave a current library byte-identical, with no -wal or -shm
// file left beside it: a library on a synced folder or under version control
// is not rewritten by looking at it. (ask writes by design: it saves the
// answer; an older library is upgraded by any command, once.)
func TestReadCommandsLeaveTheLibraryAsItIs(t *testing.T) {
	dir := t.TempDir()
	pdfs := filepath.Join(dir, "pdfs")
	os.Mkdir(pdfs, 0o755)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(pdfs, "a.pdf"))
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--quiet", "--db", db, pdfs); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	if _, errs, code := cli(t, "ask", "--db", db, "How are glyphs grouped into words?"); code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errs) // an answer for export to read
	}
	set := filepath.Join(dir, "set.json")
	os.WriteFile(set, []byte(`{"questions":[]}`), 0o644)
	for _, args := range [][]string{
		{"list"}, {"list", "--json"}, {"tree", "1"}, {"tree", "--json", "1"}, {"search", "glyphs"}, {"search", "--json", "glyphs"},
		{"export", "--answer", "1"}, {"export", "--history"}, {"export", "--answer", "1", "--format", "bib"},
		{"compare"}, {"compare", "--json"}, {"eval", "search", "--set", set},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			before := sha(t, db)
			if out, errs, code := cli(t, append(args, "--db", db)...); code != 0 {
				t.Fatalf("exit %d: stdout %q, stderr %q", code, out, errs)
			}
			if sha(t, db) != before {
				t.Errorf("%v changed the library file", args)
			}
			for _, suf := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(db + suf); err == nil {
					t.Errorf("%v left %s beside the library", args, suf)
				}
			}
		})
	}
}
