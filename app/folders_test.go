package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func TestFoldersAreRememberedMostRecentFirstAndForgotten(t *testing.T) {
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, LibraryDir: t.TempDir()})
	if got := a.Folders(); len(got) != 0 || got == nil {
		t.Fatalf("fresh Folders() = %#v, want empty non-nil", got)
	}
	a.rememberFolder("/p/one")
	a.rememberFolder("/p/two")
	a.rememberFolder("/p/one")
	if got, want := a.Folders(), []string{"/p/one", "/p/two"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Folders() = %q, want %q", got, want)
	}
	left, err := a.ForgetFolder("/p/one")
	if err != nil || !reflect.DeepEqual(left, []string{"/p/two"}) || !reflect.DeepEqual(a.Folders(), []string{"/p/two"}) {
		t.Errorf("ForgetFolder = %q, %v; Folders() = %q", left, err, a.Folders())
	}
}

func TestIndexFolderRemembersTheFolder(t *testing.T) {
	dir := pdfDir(t, "a.pdf")
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, LibraryDir: t.TempDir(), Library: &scriptedLibrary{}, Throttle: time.Hour})
	if _, err := a.IndexFolder(dir); err != nil {
		t.Fatal(err)
	}
	if got := a.Folders(); len(got) != 1 || got[0] != dir {
		t.Errorf("Folders() = %q, want [%s]", got, dir)
	}
}

// waitFires waits up to d for the counter to reach want.
func waitFires(n *atomic.Int32, want int32, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if n.Load() >= want {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return n.Load() >= want
}

func TestFolderWatcherDebouncesPDFChanges(t *testing.T) {
	dir := t.TempDir()
	var fires atomic.Int32
	w, err := newFolderWatcher(100*time.Millisecond, func() { fires.Add(1) }, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	w.add(dir)

	// Files that are not PDFs (and hidden files) do not count.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden.pdf"), []byte("x"), 0o644)
	time.Sleep(300 * time.Millisecond)
	if n := fires.Load(); n != 0 {
		t.Fatalf("fired %d times for non-PDF changes", n)
	}

	// A burst of PDF changes is one re-index.
	for _, name := range []string{"a.pdf", "b.PDF", "c.pdf"} {
		os.WriteFile(filepath.Join(dir, name), []byte("%PDF-1.4"), 0o644)
	}
	if !waitFires(&fires, 1, 3*time.Second) {
		t.Fatal("no re-index after PDFs were added")
	}
	time.Sleep(300 * time.Millisecond)
	if n := fires.Load(); n != 1 {
		t.Errorf("fired %d times for one burst, want 1", n)
	}

	// PDFs in a new sub-folder are seen (the watch is recursive), and so is a removal.
	sub := filepath.Join(dir, "new")
	os.Mkdir(sub, 0o755)
	time.Sleep(300 * time.Millisecond) // the folder's own event fires once
	before := fires.Load()
	os.WriteFile(filepath.Join(sub, "d.pdf"), []byte("%PDF-1.4"), 0o644)
	if !waitFires(&fires, before+1, 3*time.Second) {
		t.Fatal("no re-index after a PDF appeared in a new sub-folder")
	}
	before = fires.Load()
	os.Remove(filepath.Join(dir, "a.pdf"))
	if !waitFires(&fires, before+1, 3*time.Second) {
		t.Fatal("no re-index after a PDF was removed")
	}
}

// Wails may load the page (which lists the papers at once) while OnStartup
// is still opening the library: an early call waits for the open instead of
// reporting an empty library.
func TestEarlyCallsWaitForTheLibraryToOpen(t *testing.T) {
	release := make(chan struct{})
	lib := &scriptedLibrary{papers: []PaperView{{ID: "1", Title: "T", Status: "ready", Authors: []string{}}}}
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, Debounce: -1, Open: func(context.Context) (Library, io.Closer, error) {
		<-release
		return lib, nil, nil
	}})
	got := make(chan []PaperView, 1)
	go func() {
		ps, _ := a.ListPapers()
		got <- ps
	}()
	go Hooks(a).Startup(context.Background())
	select {
	case ps := <-got:
		t.Fatalf("ListPapers returned %v before the library was open", ps)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	select {
	case ps := <-got:
		if len(ps) != 1 {
			t.Errorf("ListPapers = %v, want the library's paper", ps)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ListPapers did not return after the library opened")
	}
}

// A PDF moved or renamed inside a watched folder keeps its paper (the same
// id, so saved answers and links still find it): the watcher's job indexes
// before it prunes the gone path.
func TestWatcherKeepsAMovedPaper(t *testing.T) {
	a, _, byFile, dir := removeApp(t, time.Hour)
	before := byFile["twocolumn.pdf"]
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(dir, "sub", "renamed.pdf")
	if err := os.Rename(filepath.Join(dir, "twocolumn.pdf"), moved); err != nil {
		t.Fatal(err)
	}
	a.backgroundReindex()
	ps, err := a.ListPapers()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.ID+" "+filepath.Base(p.File))
	}
	slices.Sort(got)
	want := []string{before.ID + " renamed.pdf", byFile["rotated.pdf"].ID + " rotated.pdf"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("papers after the move %v, want %v (the same id)", got, want)
	}
}
