package app

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/papertree/papertree/backend/papertree"
)

// Library folders: the folders the user opened are remembered in
// <library dir>/folders.json (most recent first), watched with fsnotify,
// and re-indexed in the background when PDFs in them are added, changed or
// removed. Re-indexing is cheap for unchanged files (the library skips them
// by content hash), so the watcher simply re-runs the job over all folders
// after changes have settled (debounced) and prunes papers whose file is gone.

// FoldersFile is the remembered-folders file inside the library folder.
const FoldersFile = "folders.json"

const maxFolders = 20

// fileTracker keeps every file's latest status during a job and which files
// changed since the last event, so each (throttled) progress event carries
// only the changes (the first event carries every file as queued): events
// dropped by the throttle lose no per-file state, and an event of a
// 1,000-file job does not resend 1,000 statuses.
type fileTracker struct {
	mu     sync.Mutex
	index  map[string]int
	states []FileState
	dirty  map[int]bool
}

func newFileTracker(paths []string) *fileTracker {
	t := &fileTracker{index: make(map[string]int, len(paths)), states: make([]FileState, 0, len(paths)), dirty: make(map[int]bool, len(paths))}
	for _, p := range paths {
		t.index[p] = len(t.states)
		t.dirty[len(t.states)] = true
		t.states = append(t.states, FileState{File: p, Status: "queued"})
	}
	return t
}

func (t *fileTracker) update(p Progress) {
	if p.File == "" || p.Detail == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	i, ok := t.index[p.File]
	if !ok {
		i = len(t.states)
		t.index[p.File] = i
		t.states = append(t.states, FileState{File: p.File})
	}
	if t.states[i].Status != p.Detail || t.states[i].Message != p.Message {
		t.states[i].Status, t.states[i].Message = p.Detail, p.Message
		t.dirty[i] = true
	}
}

// changes returns the files whose status changed since the previous call,
// in the job's order, and forgets them.
func (t *fileTracker) changes() []FileState {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.dirty) == 0 {
		return nil
	}
	idx := make([]int, 0, len(t.dirty))
	for i := range t.dirty {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	out := make([]FileState, len(idx))
	for k, i := range idx {
		out[k] = t.states[i]
	}
	clear(t.dirty)
	return out
}

// snapshot returns every file's latest status.
func (t *fileTracker) snapshot() []FileState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.states)
}

type foldersState struct {
	Folders []string `json:"folders"`
}

func (a *App) foldersPath() string { return filepath.Join(a.libraryDir, FoldersFile) }

// Folders returns the remembered library folders, most recent first.
func (a *App) Folders() []string {
	if a.libraryDir == "" {
		return []string{}
	}
	b, err := os.ReadFile(a.foldersPath())
	if err != nil {
		return []string{}
	}
	var st foldersState
	if json.Unmarshal(b, &st) != nil || st.Folders == nil {
		return []string{}
	}
	return st.Folders
}

func (a *App) saveFolders(folders []string) error {
	if a.libraryDir == "" {
		return nil
	}
	b, err := json.MarshalIndent(foldersState{Folders: folders}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(a.libraryDir, 0o755); err != nil {
		return err
	}
	tmp := a.foldersPath() + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, a.foldersPath())
}

// rememberFolder puts dir first in the remembered folders and watches it.
func (a *App) rememberFolder(dir string) {
	folders := []string{dir}
	for _, f := range a.Folders() {
		if f != dir && len(folders) < maxFolders {
			folders = append(folders, f)
		}
	}
	if err := a.saveFolders(folders); err != nil {
		a.log.Warn("remember folder", "dir", dir, "err", err)
	}
	a.mu.Lock()
	w := a.watch
	a.mu.Unlock()
	if w != nil {
		w.add(dir)
	}
}

// ForgetFolder stops watching dir and removes it from the remembered
// folders. Its papers stay in the library until their files are removed.
func (a *App) ForgetFolder(dir string) ([]string, error) {
	folders := slices.DeleteFunc(slices.Clone(a.Folders()), func(f string) bool { return f == dir })
	if err := a.saveFolders(folders); err != nil {
		return nil, papertree.Wrap(err, papertree.EInternal, "The list of folders could not be saved.")
	}
	a.mu.Lock()
	w := a.watch
	a.mu.Unlock()
	if w != nil {
		w.remove(dir)
	}
	return folders, nil
}

// ReindexAll re-indexes every remembered folder now (after settings that
// change the index, or on request). Unchanged papers are skipped.
func (a *App) ReindexAll() (Summary, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return Summary{}, asCoded(libErr, "The library could not be opened.")
	}
	if lib == nil {
		return Summary{}, papertree.Errorf(papertree.EConflict, "Indexing is not available in this build yet.")
	}
	paths := a.folderPDFs()
	if len(paths) == 0 {
		return Summary{}, papertree.Errorf(papertree.EInvalid, "There are no PDF files in the library folders.")
	}
	return a.runIndex(lib, paths, false)
}

// folderPDFs lists the PDFs of all remembered folders that still exist.
func (a *App) folderPDFs() []string {
	seen := map[string]bool{}
	var paths []string
	for _, f := range a.Folders() {
		ps, err := FindPDFs(f)
		if err != nil {
			continue // gone or empty: its papers are pruned
		}
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// backgroundReindex is the watcher's job: index the folders again, then
// prune removed files. When a job is running it is postponed to its end.
func (a *App) backgroundReindex() {
	lib, _ := a.library()
	if lib == nil {
		return
	}
	a.mu.Lock()
	if a.cancel != nil {
		a.pending = true
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	ctx := a.context()
	// Index first, prune after: a file moved or renamed inside the folders
	// then finds its paper (same content, old path gone) and keeps it whole
	// (saved answers, corrections), instead of the paper being pruned and
	// the PDF read again as a new one.
	if paths := a.folderPDFs(); len(paths) > 0 {
		if _, err := a.runIndex(lib, paths, true); err != nil && papertree.ErrorCode(err) != papertree.EConflict {
			a.log.Warn("background index", "err", err)
		}
	}
	if gone, err := lib.Prune(ctx); err != nil {
		a.log.Warn("prune", "err", err)
	} else if len(gone) > 0 {
		a.log.Info("pruned removed files", "count", len(gone))
		a.rt.EventsEmit(ctx, EventLibraryChanged)
	}
}

// jobFinished runs a postponed watcher re-index.
func (a *App) jobFinished() {
	a.mu.Lock()
	due := a.pending
	a.pending = false
	a.mu.Unlock()
	if due {
		go a.backgroundReindex()
	}
}

// startWatching watches the remembered folders and schedules one background
// re-scan (files may have changed while the app was closed).
func (a *App) startWatching() {
	if a.debounce < 0 {
		return
	}
	w, err := newFolderWatcher(a.debounce, func() { a.backgroundReindex() }, a.log.Warn)
	if err != nil {
		a.log.Warn("watch folders", "err", err)
		return
	}
	a.mu.Lock()
	a.watch = w
	a.mu.Unlock()
	folders := a.Folders()
	for _, f := range folders {
		w.add(f)
	}
	if len(folders) > 0 {
		w.poke()
	}
}

// folderWatcher turns file system events under some folders into one
// debounced call of fire.
type folderWatcher struct {
	w        *fsnotify.Watcher
	debounce time.Duration
	fire     func()
	warn     func(msg string, args ...any)

	mu    sync.Mutex
	roots map[string]bool
	timer *time.Timer
	done  chan struct{}
}

func newFolderWatcher(debounce time.Duration, fire func(), warn func(string, ...any)) (*folderWatcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &folderWatcher{w: fw, debounce: debounce, fire: fire, warn: warn, roots: map[string]bool{}, done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// add watches dir and its sub-folders (fsnotify is not recursive); hidden
// folders are skipped, as FindPDFs skips them.
func (w *folderWatcher) add(dir string) {
	w.mu.Lock()
	w.roots[dir] = true
	w.mu.Unlock()
	w.addTree(dir)
}

func (w *folderWatcher) addTree(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if err := w.w.Add(p); err != nil {
			w.warn("watch folder", "dir", p, "err", err)
		}
		return nil
	})
}

func (w *folderWatcher) remove(dir string) {
	w.mu.Lock()
	delete(w.roots, dir)
	w.mu.Unlock()
	for _, p := range w.w.WatchList() {
		if p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) {
			_ = w.w.Remove(p)
		}
	}
}

// poke schedules fire after the debounce delay (restarting the delay).
func (w *folderWatcher) poke() {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case <-w.done:
		return
	default:
	}
	if w.timer != nil {
		w.timer.Stop()
	}
	w.timer = time.AfterFunc(w.debounce, w.fire)
}

// relevant reports whether an event may change the library: a PDF was
// created, written, removed or renamed, or a folder appeared or vanished.
func relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	if strings.HasPrefix(filepath.Base(ev.Name), ".") {
		return false
	}
	if strings.EqualFold(filepath.Ext(ev.Name), ".pdf") {
		return true
	}
	// A removed or renamed name without an extension may have been a
	// folder of PDFs (it cannot be checked any more). New folders are
	// handled in loop.
	return filepath.Ext(ev.Name) == "" && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename))
}

func (w *folderWatcher) loop() {
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() && !strings.HasPrefix(filepath.Base(ev.Name), ".") {
					w.addTree(ev.Name) // a folder moved in may hold PDFs already
					w.poke()
					continue
				}
			}
			if relevant(ev) {
				w.poke()
			}
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				w.warn("folder watcher", "err", err)
			}
			w.poke() // an overflow may have hidden changes: re-scan
		}
	}
}

func (w *folderWatcher) close() {
	w.mu.Lock()
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	_ = w.w.Close()
}
