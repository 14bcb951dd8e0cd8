package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// removeApp is an App over a real library (SQLite in a temp dir) holding
// two real PDFs of one watched folder, with a short undo time.
func removeApp(t *testing.T, grace time.Duration) (a *App, rt *fakeRuntime, byFile map[string]PaperView, dir string) {
	t.Helper()
	ctx := context.Background()
	libDir := t.TempDir()
	be, lib, err := OpenBackend(ctx, libDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	rt = &fakeRuntime{}
	a = New(Options{Version: "t", LibraryDir: libDir, Library: be, Runtime: rt, Logger: quietLogger(), Throttle: time.Hour, Debounce: -1})
	a.removals.grace = grace
	dir = t.TempDir()
	copyFixture(t, dir, "twocolumn.pdf")
	copyFixture(t, dir, "rotated.pdf")
	if _, err := a.IndexFolder(dir); err != nil {
		t.Fatal(err)
	}
	ps, err := a.ListPapers()
	if err != nil || len(ps) != 2 {
		t.Fatalf("papers %v %v", ps, err)
	}
	byFile = map[string]PaperView{}
	for _, p := range ps {
		byFile[filepath.Base(p.File)] = p
	}
	return a, rt, byFile, dir
}

func listed(t *testing.T, a *App) map[string]bool {
	t.Helper()
	ps, err := a.ListPapers()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range ps {
		out[filepath.Base(p.File)] = true
	}
	return out
}

func TestRemoveWithUndo(t *testing.T) {
	tests := []struct {
		name string
		// act runs after RemovePapers; it returns whether twocolumn.pdf
		// must be in the library afterwards.
		act func(t *testing.T, a *App, token string) bool
	}{
		{"undo within the undo time restores it as it was", func(t *testing.T, a *App, token string) bool {
			res, err := a.UndoRemove(token)
			if err != nil || res.Restored != 1 {
				t.Fatalf("undo: %+v %v", res, err)
			}
			return true
		}},
		{"undo time passes: removed for good", func(t *testing.T, a *App, token string) bool {
			waitRemoved(t, a)
			return false
		}},
		{"window closes: removal written at once", func(t *testing.T, a *App, token string) bool {
			Hooks(a).Shutdown(context.Background())
			if rf, err := a.RemovedFiles(); err != nil || len(rf) != 1 {
				t.Fatalf("after shutdown, removed files = %v, %v", rf, err)
			}
			return false
		}},
		{"undo after it was written adds the file back", func(t *testing.T, a *App, token string) bool {
			waitRemoved(t, a)
			res, err := a.UndoRemove(token)
			if err != nil || res.Reindexed.Indexed != 1 {
				t.Fatalf("late undo: %+v %v", res, err)
			}
			if _, err := a.UndoRemove(token); papertree.ErrorCode(err) != papertree.ENotFound {
				t.Fatalf("second undo: %v", err)
			}
			return true
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, byFile, _ := removeApp(t, 300*time.Millisecond)
			target := byFile["twocolumn.pdf"]
			res, err := a.RemovePapers([]string{target.ID})
			if err != nil || res.Token == "" || len(res.Papers) != 1 || res.Papers[0].File != target.File || res.UndoSeconds != UndoSeconds {
				t.Fatalf("remove: %+v %v", res, err)
			}
			// Gone from the list and the search at once.
			if listed(t, a)["twocolumn.pdf"] {
				t.Fatal("still listed while its removal waits")
			}
			hits, err := a.SearchLibrary("glyphs")
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if h.PaperID == target.ID {
					t.Fatal("still found while its removal waits")
				}
			}
			want := tt.act(t, a, res.Token)
			if got := listed(t, a)["twocolumn.pdf"]; got != want {
				t.Fatalf("listed = %v, want %v", got, want)
			}
			if !listed(t, a)["rotated.pdf"] {
				t.Fatal("the other paper went too")
			}
		})
	}
}

// waitRemoved waits for the pending removal to be written.
func waitRemoved(t *testing.T, a *App) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		rf, err := a.RemovedFiles()
		if err != nil {
			t.Fatal(err)
		}
		if len(rf) > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the removal was never written")
}

// A removed file stays out when its watched folder is indexed again, until
// it is added back; a saved answer citing it still opens, and opening the
// paper says it was removed.
func TestRemovedStaysOutOfWatchedFolder(t *testing.T) {
	a, _, byFile, _ := removeApp(t, time.Hour)
	target := byFile["twocolumn.pdf"]
	ans, err := a.Ask(AskInput{Question: "How are glyphs grouped?", PaperIDs: []string{target.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.RemovePapers([]string{target.ID}); err != nil {
		t.Fatal(err)
	}
	// Asking writes pending removals first: no answer cites a paper being removed.
	if _, err := a.Ask(AskInput{Question: "How are glyphs grouped?"}); err != nil {
		t.Fatal(err)
	}
	rf, err := a.RemovedFiles()
	if err != nil || len(rf) != 1 || rf[0].File != target.File || rf[0].ID != target.ID {
		t.Fatalf("removed files: %+v %v", rf, err)
	}
	sum, err := a.ReindexAll()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 0 || listed(t, a)["twocolumn.pdf"] {
		t.Fatalf("re-index brought it back: %+v", sum)
	}
	if len(ans.RemovedPapers) != 0 {
		t.Fatalf("a fresh answer names removed papers: %v", ans.RemovedPapers)
	}
	old, err := a.Answer(ans.ID)
	if err != nil || len(old.Evidence) == 0 {
		t.Fatalf("answer citing the removed paper: %v", err)
	}
	if len(old.RemovedPapers) != 1 || old.RemovedPapers[0] != target.Title {
		t.Fatalf("reopened answer's removed papers = %q, want [%q]", old.RemovedPapers, target.Title)
	}
	if _, err := a.Paper(target.ID); err == nil || !strings.Contains(ViewError(err).Message, "was removed from the library") {
		t.Fatalf("opening the removed paper: %v", err)
	}
	if _, err := a.AddBack([]string{target.File}); err != nil {
		t.Fatal(err)
	}
	if !listed(t, a)["twocolumn.pdf"] {
		t.Fatal("added back but not listed")
	}
	if rf, _ := a.RemovedFiles(); len(rf) != 0 {
		t.Fatalf("still listed as removed: %+v", rf)
	}
}

func TestRemovePapersErrors(t *testing.T) {
	a, _, _, _ := removeApp(t, time.Hour)
	tests := []struct {
		name string
		ids  []string
		code papertree.Code
	}{
		{"nothing chosen", nil, papertree.EInvalid},
		{"unknown paper", []string{"999"}, papertree.ENotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := a.RemovePapers(tt.ids); papertree.ErrorCode(err) != tt.code {
				t.Fatalf("err = %v, want %s", err, tt.code)
			}
		})
	}
	if _, err := a.UndoRemove("nope"); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Fatalf("undo of nothing: %v", err)
	}
}

func TestSearchLibraryRanked(t *testing.T) {
	a, _, byFile, _ := removeApp(t, time.Hour)
	hits, err := a.SearchLibrary("glyphs grouped")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].PaperID != byFile["twocolumn.pdf"].ID || hits[0].NodeID == "" || len(hits[0].Path) == 0 {
		t.Fatalf("hits %+v", hits)
	}
	marked := false
	for _, p := range hits[0].Snippet {
		marked = marked || p.Mark
	}
	if !marked {
		t.Fatalf("no marked word in %+v", hits[0].Snippet)
	}
	if hits, err := a.SearchLibrary("   "); err != nil || len(hits) != 0 {
		t.Fatalf("blank query: %v %v", hits, err)
	}
}
