package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/papertree/papertree/backend/papertree"
)

// TestSQLiteBuild proves that sqlite-vec and FTS5 are available and that the
// vec extension runs inside the SQLite that go-sqlite3 compiles, not a
// system libsqlite3.
func TestSQLiteBuild(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var vecV, sqlV string
	var fts5 int
	if err := s.r.QueryRowContext(ctx, `SELECT vec_version(), sqlite_version(),
		sqlite_compileoption_used('ENABLE_FTS5')`).Scan(&vecV, &sqlV, &fts5); err != nil {
		t.Fatalf("vec_version: %v", err)
	}
	if !strings.HasPrefix(vecV, "v0.") {
		t.Errorf("vec_version = %q", vecV)
	}
	if lib, _, _ := sqlite3.Version(); sqlV != lib {
		t.Errorf("sqlite_version() = %s, go-sqlite3 compiled %s", sqlV, lib)
	}
	if fts5 != 1 {
		t.Errorf("FTS5 is not compiled in (build with -tags sqlite_fts5)")
	}
	if maps, err := os.ReadFile("/proc/self/maps"); err == nil && strings.Contains(string(maps), "libsqlite3") {
		t.Errorf("a shared libsqlite3 is mapped into the process; sqlite-vec must use go-sqlite3's SQLite")
	}
}

func TestOpenAndMigrations(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatalf("embedded migrations: %v", err)
	}
	latest := ms[len(ms)-1].version
	ctx := context.Background()
	tests := []struct {
		name     string
		prepare  func(t *testing.T, path string) // runs before Open
		wantCode papertree.Code
		wantWAL  bool
	}{
		{name: "fresh file", wantWAL: true},
		{name: "reopen is idempotent", wantWAL: true, prepare: func(t *testing.T, path string) {
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.SetMeta(ctx, "k", "kept"); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}},
		{name: "newer schema is refused", wantCode: papertree.EConflict, prepare: func(t *testing.T, path string) {
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.w.ExecContext(ctx, `INSERT INTO schema_migrations VALUES (999, '0999_future.sql', 0)`); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}},
		{name: "not a database", wantCode: papertree.EInvalid, prepare: func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("this is not sqlite ", 400)), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "lib.db")
			if tt.name == "memory" {
				path = ":memory:"
			}
			if tt.prepare != nil {
				tt.prepare(t, path)
			}
			s, err := Open(ctx, path)
			if tt.wantCode != "" {
				if err == nil {
					s.Close()
					t.Fatalf("Open succeeded, want %s", tt.wantCode)
				}
				if got := papertree.ErrorCode(err); got != tt.wantCode {
					t.Fatalf("code = %s (%v), want %s", got, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer s.Close()
			var uv, applied int
			if err := s.r.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&uv); err != nil {
				t.Fatal(err)
			}
			if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil {
				t.Fatal(err)
			}
			if uv != latest || applied != len(ms) {
				t.Errorf("user_version = %d, applied = %d, want %d and %d", uv, applied, latest, len(ms))
			}
			if v, _ := s.SchemaVersion(ctx); v != latest {
				t.Errorf("SchemaVersion = %d", v)
			}
			if tt.name == "reopen is idempotent" {
				if v, _ := s.Meta(ctx, "k"); v != "kept" {
					t.Errorf("meta lost across reopen: %q", v)
				}
			}
			for _, db := range []*sql.DB{s.w, s.r} {
				var jm string
				var fk, sync, busy int
				if err := db.QueryRowContext(ctx, `SELECT * FROM pragma_journal_mode, pragma_foreign_keys,
					pragma_synchronous, pragma_busy_timeout`).Scan(&jm, &fk, &sync, &busy); err != nil {
					t.Fatal(err)
				}
				if tt.wantWAL && jm != "wal" {
					t.Errorf("journal_mode = %s", jm)
				}
				if fk != 1 || sync != 1 || busy != int(busyTimeout.Milliseconds()) {
					t.Errorf("foreign_keys = %d, synchronous = %d, busy_timeout = %d", fk, sync, busy)
				}
			}
		})
	}
}

func TestReadMigrations(t *testing.T) {
	sql := &fstest.MapFile{Data: []byte("CREATE TABLE x(a);")}
	tests := []struct {
		name    string
		files   fstest.MapFS
		want    []int
		wantErr bool
	}{
		{"ordered by number, not by name", fstest.MapFS{"migrations/0002_b.sql": sql, "migrations/0001_a.sql": sql,
			"migrations/0010_j.sql": sql, "migrations/0003_c.sql": sql, "migrations/0004_d.sql": sql,
			"migrations/0005_e.sql": sql, "migrations/0006_f.sql": sql, "migrations/0007_g.sql": sql,
			"migrations/0008_h.sql": sql, "migrations/0009_i.sql": sql, "migrations/README.md": sql},
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, false},
		{"gap (numbers reserved by parallel branches)", fstest.MapFS{"migrations/0001_a.sql": sql, "migrations/0003_c.sql": sql}, []int{1, 3}, false},
		{"duplicate version", fstest.MapFS{"migrations/0001_a.sql": sql, "migrations/0001_b.sql": sql}, nil, true},
		{"no number", fstest.MapFS{"migrations/init.sql": sql}, nil, true},
		{"zero", fstest.MapFS{"migrations/0000_init.sql": sql}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := readMigrations(tt.files)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.version)
			}
			if !tt.wantErr && fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("versions = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTwoStoresOneFile is the GUI and the CLI on one library: two Stores
// (separate pools, as in two processes) write the same file at once; the
// busy timeout and BEGIN IMMEDIATE must serialise them without errors.
func TestTwoStoresOneFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	var stores []*Store
	for range 2 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.EnsureEmbedder(ctx, "e", 8); err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	errs := make(chan error, 2)
	for i, s := range stores {
		go func() {
			for j := range 8 {
				p := synthPaper(fmt.Sprintf("/two/%d-%d.pdf", i, j%3), uint64(10*i+j), 3, 3, 5)
				if _, err := s.SavePaper(ctx, p, synthVectors(p, 8, uint64(j)), ""); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range stores {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent writer: %v", err)
		}
	}
	list, err := stores[1].ListPapers(ctx)
	if err != nil || len(list) != 6 {
		t.Fatalf("papers = %d, %v", len(list), err)
	}
	consistency(t, stores[0])
}

func TestMeta(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if v, err := s.Meta(ctx, "missing"); err != nil || v != "" {
		t.Fatalf("missing key = %q, %v", v, err)
	}
	for _, v := range []string{"one", "two"} {
		if err := s.SetMeta(ctx, "settings.json", v); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Meta(ctx, "settings.json"); got != v {
			t.Fatalf("Meta = %q, want %q", got, v)
		}
	}
	if err := s.SetMeta(ctx, "", "x"); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Fatalf("empty key err = %v", err)
	}
}

// stripIDs renders a tree as JSON without store-assigned IDs.
func treeJSON(t *testing.T, n *papertree.Node) string {
	t.Helper()
	var clear func(n *papertree.Node) *papertree.Node
	clear = func(n *papertree.Node) *papertree.Node {
		c := *n
		c.ID = 0
		c.Children = nil
		for _, ch := range n.Children {
			c.Children = append(c.Children, clear(ch))
		}
		return &c
	}
	b, err := json.Marshal(clear(n))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSaveAndLoadRoundTrip(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.EnsureEmbedder(ctx, "test-embedder", 8); err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/papers/a.pdf", 1, 3, 2, 4)
	want := treeJSON(t, p.Root)
	id, err := s.SavePaper(ctx, p, synthVectors(p, 8, 1), "fp-1")
	if err != nil {
		t.Fatalf("SavePaper: %v", err)
	}
	if p.ID != id || id == 0 {
		t.Fatalf("p.ID = %d, id = %d", p.ID, id)
	}
	p.Root.Walk(func(path []*papertree.Node) bool {
		if path[len(path)-1].ID == 0 {
			t.Fatalf("node %d has no ID after save", path[len(path)-1].Order)
		}
		return true
	})

	got, err := s.LoadPaper(ctx, id)
	if err != nil {
		t.Fatalf("LoadPaper: %v", err)
	}
	if g := treeJSON(t, got.Root); g != want {
		t.Errorf("tree changed in the round trip:\n got %.300s\nwant %.300s", g, want)
	}
	// IDs match the ones set on the saved tree, node by node.
	var savedIDs, loadedIDs []int64
	p.Root.Walk(func(path []*papertree.Node) bool { savedIDs = append(savedIDs, path[len(path)-1].ID); return true })
	got.Root.Walk(func(path []*papertree.Node) bool { loadedIDs = append(loadedIDs, path[len(path)-1].ID); return true })
	if len(savedIDs) != len(loadedIDs) {
		t.Fatalf("node count %d vs %d", len(savedIDs), len(loadedIDs))
	}
	for i := range savedIDs {
		if savedIDs[i] != loadedIDs[i] {
			t.Fatalf("node %d id %d vs %d", i, savedIDs[i], loadedIDs[i])
		}
	}
	if got.Path != p.Path || got.Title != p.Title || got.Year != p.Year || got.Pages != p.Pages ||
		got.OutlineUsed != p.OutlineUsed || len(got.PageSizes) != len(p.PageSizes) ||
		strings.Join(got.Authors, ";") != strings.Join(p.Authors, ";") || got.Abstract != p.Abstract ||
		strings.Join(got.Warnings, ";") != "synthetic" || got.Hash != p.Hash {
		t.Errorf("paper fields changed: %+v", got)
	}

	info, err := s.PaperByPath(ctx, p.Path)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != id || info.Status != StatusReady || info.Fingerprint != "fp-1" || info.Embedder != "test-embedder" ||
		info.Stale || info.Nodes != len(savedIDs) || info.IndexedAt.IsZero() || len(info.Authors) != 2 {
		t.Errorf("PaperByPath = %+v", info)
	}
	if byID, err := s.PaperByID(ctx, id); err != nil || byID.Path != p.Path {
		t.Errorf("PaperByID = %+v, %v", byID, err)
	}

	// Paths, leaves and section leaves.
	sec := p.Root.Children[1] // "2 ..."
	sub := sec.Children[1]    // "2.2 ..."
	leaf := sub.Children[len(sub.Children)-1]
	path, err := s.NodePath(ctx, leaf.ID)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, n := range path {
		titles = append(titles, n.Title)
	}
	if len(path) != 4 || path[0].ID != p.Root.ID || path[1].ID != sec.ID || path[2].ID != sub.ID || path[3].ID != leaf.ID {
		t.Errorf("NodePath = %v", titles)
	}
	if path[3].Text != leaf.Text || len(path[3].Boxes) != 1 || path[3].Boxes[0] != leaf.Boxes[0] {
		t.Errorf("leaf fields lost: %+v", path[3])
	}
	leaves, err := s.Leaves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 3*2*4 {
		t.Errorf("Leaves = %d", len(leaves))
	}
	for i := 1; i < len(leaves); i++ {
		if leaves[i].Order <= leaves[i-1].Order {
			t.Fatalf("leaves out of document order")
		}
	}
	under, err := s.SectionLeaves(ctx, sec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(under) != 8 || under[0].ID != sec.Children[0].Children[0].ID || under[7].ID != leaf.ID {
		t.Errorf("SectionLeaves = %d leaves", len(under))
	}
	if secs, _ := s.Sections(ctx, id); len(secs) != 3+3*2 {
		t.Errorf("Sections = %d", len(secs))
	}
	if n, err := s.Node(ctx, leaf.ID); err != nil || n.Text != leaf.Text {
		t.Errorf("Node = %+v, %v", n, err)
	}
	if pid, err := s.NodePaper(ctx, leaf.ID); err != nil || pid != id {
		t.Errorf("NodePaper = %d, %v", pid, err)
	}
	for name, err := range map[string]error{
		"LoadPaper": func() error { _, err := s.LoadPaper(ctx, 9999); return err }(),
		"NodePath":  func() error { _, err := s.NodePath(ctx, 99999); return err }(),
		"Node":      func() error { _, err := s.Node(ctx, 99999); return err }(),
		"ByPath":    func() error { _, err := s.PaperByPath(ctx, "/nope.pdf"); return err }(),
		"ByID":      func() error { _, err := s.PaperByID(ctx, 9999); return err }(),
		"Delete":    s.DeletePaper(ctx, 9999),
	} {
		if papertree.ErrorCode(err) != papertree.ENotFound {
			t.Errorf("%s on a missing id: %v, want not_found", name, err)
		}
	}
	consistency(t, s)
}

func TestSaveReplacePruneDelete(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.EnsureEmbedder(ctx, "e", 4); err != nil {
		t.Fatal(err)
	}
	a1 := synthPaper("/lib/a.pdf", 1, 2, 2, 3)
	idA1, err := s.SavePaper(ctx, a1, synthVectors(a1, 4, 1), "fp")
	if err != nil {
		t.Fatal(err)
	}
	oldLeaf := a1.Root.Children[0].Children[0].Children[0].ID
	b := synthPaper("/lib/b.pdf", 2, 2, 2, 3)
	if _, err := s.SavePaper(ctx, b, synthVectors(b, 4, 2), "fp"); err != nil {
		t.Fatal(err)
	}
	c := synthPaper("/lib/c.pdf", 3, 1, 1, 2)
	if _, err := s.SavePaper(ctx, c, Vectors{}, "fp"); err != nil {
		t.Fatal(err)
	}

	// Replace a.pdf with a different tree.
	a2 := synthPaper("/lib/a.pdf", 4, 3, 1, 2)
	idA2, err := s.SavePaper(ctx, a2, synthVectors(a2, 4, 4), "fp2")
	if err != nil {
		t.Fatal(err)
	}
	if idA2 == idA1 {
		t.Errorf("replaced paper kept its id %d (ids must not be reused)", idA1)
	}
	if _, err := s.PaperByID(ctx, idA1); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("old paper still readable: %v", err)
	}
	if _, err := s.Node(ctx, oldLeaf); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("old node still present: %v", err)
	}
	if hits, err := s.SearchText(ctx, "marker1x1x1", nil, 10); err != nil || len(hits) != 0 {
		t.Errorf("old FTS entries survive the replace: %v %v", hits, err)
	}
	if hits, err := s.SearchText(ctx, "marker4x1x1", nil, 10); err != nil || len(hits) != 1 || hits[0].PaperID != idA2 {
		t.Errorf("new FTS entries missing: %v %v", hits, err)
	}
	vecs, err := s.LoadVectors(ctx, SpaceSegment, []int64{idA2})
	if err != nil || len(vecs) != 3*1*2 {
		t.Errorf("segment vectors after replace = %d, %v", len(vecs), err)
	}
	if all, _ := s.LoadVectors(ctx, SpaceSegment, nil); len(all) != 6+2*2*3 {
		t.Errorf("all segment vectors = %d", len(all))
	}
	list, err := s.ListPapers(ctx)
	if err != nil || len(list) != 3 {
		t.Fatalf("ListPapers = %d, %v", len(list), err)
	}
	if list[0].Path != "/lib/a.pdf" || list[0].Fingerprint != "fp2" || list[2].Embedder != "" {
		t.Errorf("list = %+v", list)
	}
	consistency(t, s)

	// Prune keeps what keep accepts.
	removed, err := s.Prune(ctx, func(p string) bool { return p != "/lib/b.pdf" && p != "/lib/c.pdf" })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, ",") != "/lib/b.pdf,/lib/c.pdf" {
		t.Errorf("Prune removed %v", removed)
	}
	if removed, _ := s.Prune(ctx, func(string) bool { return true }); len(removed) != 0 {
		t.Errorf("Prune keeping all removed %v", removed)
	}
	if all, _ := s.LoadVectors(ctx, SpaceSegment, nil); len(all) != 6 {
		t.Errorf("segment vectors after prune = %d", len(all))
	}
	consistency(t, s)

	if err := s.DeletePaper(ctx, idA2); err != nil {
		t.Fatal(err)
	}
	var nodes, closure int
	s.r.QueryRow(`SELECT (SELECT count(*) FROM nodes), (SELECT count(*) FROM node_closure)`).Scan(&nodes, &closure)
	if nodes != 0 || closure != 0 {
		t.Errorf("after deleting every paper: %d nodes, %d closure rows", nodes, closure)
	}
	for _, sp := range Spaces {
		if all, _ := s.LoadVectors(ctx, sp, nil); len(all) != 0 {
			t.Errorf("%s vectors left: %d", sp, len(all))
		}
	}
	consistency(t, s)
}

func TestFailureRows(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	const path = "/lib/broken.pdf"
	cause := papertree.Errorf(papertree.EEncrypted, "The PDF is password-protected.")
	if err := s.RecordFailure(ctx, path, "h1", "fp", cause); err != nil {
		t.Fatal(err)
	}
	info, err := s.PaperByPath(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Status != StatusFailed || info.ErrCode != papertree.EEncrypted ||
		info.ErrMessage != "The PDF is password-protected." || info.Hash != "h1" || info.Nodes != 0 {
		t.Errorf("failure row = %+v", info)
	}
	if p, err := s.LoadPaper(ctx, info.ID); err != nil || p.Root != nil {
		t.Errorf("LoadPaper of a failed paper = %+v, %v", p, err)
	}

	// The file got fixed: a ready paper replaces the failure...
	p := synthPaper(path, 5, 1, 1, 2)
	if _, err := s.SavePaper(ctx, p, Vectors{}, "fp"); err != nil {
		t.Fatal(err)
	}
	if info, _ := s.PaperByPath(ctx, path); info.Status != StatusReady || info.ErrCode != "" {
		t.Errorf("after save = %+v", info)
	}
	// ...and breaks again: the failure replaces the ready paper and its nodes.
	if err := s.RecordFailure(ctx, path, "h2", "fp", errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	info, _ = s.PaperByPath(ctx, path)
	if info.Status != StatusFailed || info.ErrCode != papertree.EInternal || info.ErrMessage == "" {
		t.Errorf("plain error recorded as %+v", info)
	}
	if list, _ := s.ListPapers(ctx); len(list) != 1 {
		t.Errorf("%d rows for one path", len(list))
	}
	if err := s.RecordFailure(ctx, path, "", "", nil); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("nil cause: %v", err)
	}
	consistency(t, s)
}

func TestSavePaperRejectsBadInput(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	good := func() *papertree.Paper { return synthPaper("/x.pdf", 1, 1, 1, 2) }
	tests := []struct {
		name     string
		embed    bool
		paper    func() *papertree.Paper
		vecs     func(p *papertree.Paper) Vectors
		wantCode papertree.Code
	}{
		{"nil paper", false, func() *papertree.Paper { return nil }, nil, papertree.EInvalid},
		{"no tree", false, func() *papertree.Paper { return &papertree.Paper{Path: "/x.pdf"} }, nil, papertree.EInvalid},
		{"no path", false, func() *papertree.Paper { p := good(); p.Path = ""; return p }, nil, papertree.EInvalid},
		{"root is a section", false, func() *papertree.Paper { p := good(); p.Root.Kind = papertree.KindSection; return p }, nil, papertree.EInvalid},
		{"unknown kind", false, func() *papertree.Paper {
			p := good()
			p.Root.Children[0].Kind = "figure"
			return p
		}, nil, papertree.EInvalid},
		{"nested root", false, func() *papertree.Paper {
			p := good()
			p.Root.Children[0].Kind = papertree.KindRoot
			return p
		}, nil, papertree.EInvalid},
		{"vectors without embedder", false, good, func(p *papertree.Paper) Vectors {
			return Vectors{Segment: map[int][]float32{1: {1, 0, 0, 0}}}
		}, papertree.EConflict},
		{"wrong dimension", true, good, func(p *papertree.Paper) Vectors {
			return Vectors{Segment: map[int][]float32{3: {1, 0}}}
		}, papertree.EInvalid},
		{"order out of range", true, good, func(p *papertree.Paper) Vectors {
			return Vectors{Section: map[int][]float32{99: {1, 0, 0, 0}}}
		}, papertree.EInvalid},
		{"segment vector on a section", true, good, func(p *papertree.Paper) Vectors {
			return Vectors{Segment: map[int][]float32{1: {1, 0, 0, 0}}} // order 1 is section "1"
		}, papertree.EInvalid},
		{"section vector on a leaf", true, good, func(p *papertree.Paper) Vectors {
			return Vectors{Section: map[int][]float32{3: {1, 0, 0, 0}}} // order 3 is the first leaf
		}, papertree.EInvalid},
		{"NaN", true, good, func(p *papertree.Paper) Vectors {
			nan := float32(0)
			nan = nan / nan
			return Vectors{Summary: map[int][]float32{3: {nan, 0, 0, 0}}}
		}, papertree.EInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.embed {
				if _, err := s.EnsureEmbedder(ctx, "e", 4); err != nil {
					t.Fatal(err)
				}
			}
			p := tt.paper()
			var v Vectors
			if tt.vecs != nil {
				v = tt.vecs(p)
			}
			_, err := s.SavePaper(ctx, p, v, "fp")
			if got := papertree.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.wantCode)
			}
		})
	}
	if list, _ := s.ListPapers(ctx); len(list) != 0 {
		t.Errorf("rejected papers were stored: %d", len(list))
	}
	consistency(t, s)
}
