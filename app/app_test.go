package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
)

// fakeRuntime stands in for the window (the process boundary): it records
// events and answers the folder dialog.
type fakeRuntime struct {
	mu        sync.Mutex
	events    []Progress
	names     []string
	dialogDir string
	dialogErr error
	savePath  string
	opened    []string
	health    []LLMHealthView // EventLLMHealth payloads
}

func (r *fakeRuntime) EventsEmit(_ context.Context, name string, data ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = append(r.names, name)
	if len(data) == 1 {
		if p, ok := data[0].(Progress); ok {
			r.events = append(r.events, p)
		}
		if h, ok := data[0].(LLMHealthView); ok {
			r.health = append(r.health, h)
		}
	}
}

func (r *fakeRuntime) SaveFileDialog(context.Context, string, string, string, string, string) (string, error) {
	return r.savePath, nil
}

func (r *fakeRuntime) OpenURL(_ context.Context, u string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opened = append(r.opened, u)
}

func (r *fakeRuntime) OpenDirectoryDialog(context.Context, string, string) (string, error) {
	return r.dialogDir, r.dialogErr
}

// scriptedLibrary is a Library whose Index reports one progress per file
// and can block until released, to exercise job control.
type scriptedLibrary struct {
	Library // methods a test does not script panic (nil interface)
	papers  []PaperView
	listErr error
	started chan struct{} // closed when Index starts, if non-nil
	release chan struct{} // Index waits for this (or ctx) if non-nil
	gotPath []string
	stopped atomic.Bool // set when Index returns
}

func (l *scriptedLibrary) ListPapers(context.Context) ([]PaperView, error) {
	return l.papers, l.listErr
}

func (l *scriptedLibrary) Index(ctx context.Context, paths []string, progress func(Progress)) (Summary, error) {
	l.gotPath = paths
	defer l.stopped.Store(true)
	if l.started != nil {
		close(l.started)
	}
	if l.release != nil {
		select {
		case <-l.release:
		case <-ctx.Done():
			return Summary{}, ctx.Err() // deliberately not coded: App must code it
		}
	}
	for i, p := range paths {
		progress(Progress{Stage: "index", Done: i + 1, Total: len(paths), File: p, Detail: "ready"})
	}
	return Summary{Indexed: len(paths)}, nil
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newTestApp(lib Library, rt *fakeRuntime) *App {
	o := Options{Version: "1.2.3", LibraryDir: "/lib", Runtime: rt, Logger: quietLogger(), Throttle: time.Hour}
	if lib != nil {
		o.Library = lib
	}
	return New(o)
}

func pdfDir(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		write(t, filepath.Join(dir, n))
	}
	return dir
}

func TestListPapers(t *testing.T) {
	cases := []struct {
		name    string
		lib     Library
		wantLen int
		code    papertree.Code
		msg     string
	}{
		{name: "no backend wired: empty, not an error", lib: nil, wantLen: 0},
		{name: "nil slice becomes empty list", lib: &scriptedLibrary{}, wantLen: 0},
		{name: "papers pass through", lib: &scriptedLibrary{papers: []PaperView{{ID: "1", Title: "A"}, {ID: "2", Title: "B"}}}, wantLen: 2},
		{name: "uncoded error gets a safe message", lib: &scriptedLibrary{listErr: errors.New("sql: database is locked at /x/y.db")}, code: papertree.EInternal, msg: "The library could not be read."},
		{name: "coded error is kept", lib: &scriptedLibrary{listErr: papertree.Errorf(papertree.ENotFound, "Gone.")}, code: papertree.ENotFound, msg: "Gone."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestApp(tc.lib, &fakeRuntime{})
			got, err := a.ListPapers()
			if tc.code != "" {
				ev := ViewError(err)
				if ev.Code != string(tc.code) || ev.Message != tc.msg {
					t.Fatalf("error view = %+v, want code %q message %q", ev, tc.code, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || len(got) != tc.wantLen {
				t.Fatalf("got %#v, want non-nil list of %d", got, tc.wantLen)
			}
		})
	}
}

func TestLibraryOpenErrorIsShown(t *testing.T) {
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, LibraryErr: errors.New("sqlite: file is not a database")})
	_, err := a.ListPapers()
	if ev := ViewError(err); ev.Code != "internal" || ev.Message != "The library could not be opened." {
		t.Errorf("ListPapers error view = %+v", ev)
	}
	a = New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, LibraryErr: papertree.Errorf(papertree.EInvalid, "The library folder cannot be created.")})
	_, err = a.IndexFolder(t.TempDir())
	if ev := ViewError(err); ev.Code != "invalid" || ev.Message != "The library folder cannot be created." {
		t.Errorf("IndexFolder error view = %+v", ev)
	}
}

type closeCounter struct{ n int }

func (c *closeCounter) Close() error { c.n++; return nil }

func TestStartupOpensAndShutdownClosesTheLibrary(t *testing.T) {
	closer := &closeCounter{}
	lib := &scriptedLibrary{papers: []PaperView{{ID: "7"}}}
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, Open: func(context.Context) (Library, io.Closer, error) {
		return lib, closer, nil
	}})
	if info, _ := a.Info(); info.Backend {
		t.Error("backend reported before Startup opened it")
	}
	Hooks(a).Startup(context.Background())
	if got, err := a.ListPapers(); err != nil || len(got) != 1 {
		t.Fatalf("after Startup: %v, %v", got, err)
	}
	Hooks(a).Shutdown(context.Background())
	Hooks(a).Shutdown(context.Background())
	if closer.n != 1 {
		t.Errorf("closed %d times, want once", closer.n)
	}

	failing := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, Open: func(context.Context) (Library, io.Closer, error) {
		return nil, nil, papertree.Errorf(papertree.EInvalid, "The library folder cannot be created.")
	}})
	Hooks(failing).Startup(context.Background())
	if _, err := failing.ListPapers(); papertree.ErrorMessage(err) != "The library folder cannot be created." {
		t.Errorf("open failure not shown: %v", err)
	}
	Hooks(failing).Shutdown(context.Background()) // nothing to close
}

func TestInfoAndVersion(t *testing.T) {
	a := newTestApp(nil, &fakeRuntime{})
	info, err := a.Info()
	if err != nil {
		t.Fatal(err)
	}
	want := AppInfo{Name: "PaperTree", Version: "1.2.3", LibraryDir: "/lib", Backend: false}
	if info != want || a.Version() != "1.2.3" {
		t.Errorf("info = %+v version %q, want %+v", info, a.Version(), want)
	}
	if New(Options{}).Version() != "dev" {
		t.Error("empty version should read as dev")
	}
}

func TestChooseFolder(t *testing.T) {
	a := newTestApp(nil, &fakeRuntime{dialogDir: "/papers"})
	if got, err := a.ChooseFolder(); err != nil || got != "/papers" {
		t.Errorf("got %q, %v", got, err)
	}
	a = newTestApp(nil, &fakeRuntime{dialogErr: errors.New("gtk: no display")})
	_, err := a.ChooseFolder()
	if ev := ViewError(err); ev.Code != "internal" || ev.Message != "The folder picker could not be opened." {
		t.Errorf("error view = %+v", ev)
	}
}

func TestIndexFolderReportsProgressAndSummary(t *testing.T) {
	dir := pdfDir(t, "a.pdf", "b.pdf", "c.pdf")
	rt := &fakeRuntime{}
	lib := &scriptedLibrary{}
	a := newTestApp(lib, rt)
	sum, err := a.IndexFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 3 || sum.Failures == nil {
		t.Errorf("summary = %+v, want 3 indexed and a non-nil failure list", sum)
	}
	if len(lib.gotPath) != 3 || filepath.Base(lib.gotPath[0]) != "a.pdf" {
		t.Errorf("library got paths %q", lib.gotPath)
	}
	// With an hour-long throttle: scan (stage change), first index report
	// (stage change), last one (end of stage), done. The middle one is dropped.
	want := []Progress{
		{Stage: "scan", Total: 3, Job: 1},
		{Stage: "index", Done: 1, Total: 3, File: lib.gotPath[0], Detail: "ready", Job: 1},
		{Stage: "index", Done: 3, Total: 3, File: lib.gotPath[2], Detail: "ready", Job: 1},
		{Stage: "done", Done: 3, Total: 3, Job: 1},
	}
	if len(rt.events) != len(want) {
		t.Fatalf("events = %+v, want %+v", rt.events, want)
	}
	// Events carry the files that changed since the previous event (all
	// files on the first): the change dropped by the throttle (b.pdf ready)
	// arrives with the next event, and the done event repeats nothing.
	wantFiles := [][]string{
		{"a.pdf queued", "b.pdf queued", "c.pdf queued"},
		{"a.pdf ready"},
		{"b.pdf ready", "c.pdf ready"},
		nil,
	}
	for i := range want {
		got := rt.events[i]
		var statuses []string
		for _, f := range got.Files {
			statuses = append(statuses, filepath.Base(f.File)+" "+f.Status)
		}
		got.Files = nil
		if !reflect.DeepEqual(got, want[i]) || rt.names[i] != EventIndexProgress {
			t.Errorf("event %d = %s %+v, want %+v", i, rt.names[i], got, want[i])
		}
		if !reflect.DeepEqual(statuses, wantFiles[i]) {
			t.Errorf("event %d file statuses = %q, want %q", i, statuses, wantFiles[i])
		}
	}
	if rt.names[len(rt.names)-1] != EventLibraryChanged {
		t.Errorf("last event = %s, want %s", rt.names[len(rt.names)-1], EventLibraryChanged)
	}
}

func TestIndexFolderErrors(t *testing.T) {
	cases := []struct {
		name string
		lib  Library
		dir  string
		code papertree.Code
	}{
		{name: "no backend", lib: nil, dir: pdfDir(t, "a.pdf"), code: papertree.EConflict},
		{name: "no pdfs", lib: &scriptedLibrary{}, dir: pdfDir(t, "a.txt"), code: papertree.EInvalid},
		{name: "empty path", lib: &scriptedLibrary{}, dir: "", code: papertree.EInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newTestApp(tc.lib, &fakeRuntime{}).IndexFolder(tc.dir)
			if got := papertree.ErrorCode(err); got != tc.code {
				t.Errorf("code = %q (%v), want %q", got, err, tc.code)
			}
		})
	}
}

// runBlockedJob starts IndexFolder on a library that blocks until released
// and returns once the job is running.
func runBlockedJob(t *testing.T, a *App, lib *scriptedLibrary, dir string) <-chan error {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := a.IndexFolder(dir)
		errc <- err
	}()
	select {
	case <-lib.started:
	case <-time.After(10 * time.Second):
		t.Fatal("index job did not start")
	}
	return errc
}

func TestIndexFolderOneJobAtATimeAndCancel(t *testing.T) {
	dir := pdfDir(t, "a.pdf")
	lib := &scriptedLibrary{started: make(chan struct{}), release: make(chan struct{})}
	a := newTestApp(lib, &fakeRuntime{})
	if a.CancelIndex() {
		t.Error("CancelIndex reported a job while idle")
	}
	errc := runBlockedJob(t, a, lib, dir)

	if _, err := a.IndexFolder(dir); papertree.ErrorCode(err) != papertree.EConflict {
		t.Errorf("second job: code %q (%v), want conflict", papertree.ErrorCode(err), err)
	}
	if !a.CancelIndex() {
		t.Error("CancelIndex found no running job")
	}
	err := <-errc
	if ev := ViewError(err); ev.Code != "canceled" || ev.Message != "Indexing was cancelled." {
		t.Errorf("cancelled job: %+v", ev)
	}
	// The slot is free again.
	a.mu.Lock()
	a.lib = &scriptedLibrary{}
	a.mu.Unlock()
	if _, err := a.IndexFolder(dir); err != nil {
		t.Errorf("job after cancel: %v", err)
	}
}

func TestShutdownStopsRunningJob(t *testing.T) {
	lib := &scriptedLibrary{started: make(chan struct{}), release: make(chan struct{})}
	a := newTestApp(lib, &fakeRuntime{})
	Hooks(a).Startup(context.Background())
	errc := runBlockedJob(t, a, lib, pdfDir(t, "a.pdf"))
	Hooks(a).Shutdown(context.Background())
	// What Shutdown promises: the library's Index has returned, so the
	// store is not closed under a writer. IndexFolder hands its error back
	// a moment later, on its own goroutine.
	if !lib.stopped.Load() {
		t.Error("Shutdown returned before the job stopped")
	}
	select {
	case err := <-errc:
		if papertree.ErrorCode(err) != papertree.ECanceled {
			t.Errorf("job ended with %v, want canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("IndexFolder did not return after Shutdown")
	}
	Hooks(a).Shutdown(context.Background()) // idle: returns at once
}

func TestFormatError(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want ErrorView
	}{
		{"coded", papertree.Errorf(papertree.EEncrypted, "This PDF is password-protected."), ErrorView{"encrypted", "This PDF is password-protected."}},
		{"wrapped coded", errors.Join(errors.New("ctx"), papertree.Errorf(papertree.ENoText, "No text.")), ErrorView{"no_text", "No text."}},
		{"plain Go error is hidden", errors.New("open /secret/path: permission denied"), ErrorView{"internal", "An internal error occurred."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The formatter must hand Wails a string: the runtime rejects
			// with new Error(<what we return>), which turns objects into
			// "[object Object]".
			s, ok := FormatError(tc.err).(string)
			if !ok {
				t.Fatalf("FormatError returned %T, want a string", FormatError(tc.err))
			}
			var got ErrorView
			if err := json.Unmarshal([]byte(s), &got); err != nil {
				t.Fatalf("FormatError = %q: %v", s, err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestDefaultLibraryDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if got := DefaultLibraryDir(); got != "/data/papertree" {
		t.Errorf("with XDG_DATA_HOME: %q", got)
	}
	t.Setenv("XDG_DATA_HOME", "relative") // the spec says ignore relative paths
	t.Setenv("HOME", "/home/r")
	if got := DefaultLibraryDir(); got != "/home/r/.local/share/papertree" {
		t.Errorf("fallback: %q", got)
	}
}

func TestStartFoldersAreGivenOnce(t *testing.T) {
	zotero := t.TempDir()
	if err := os.WriteFile(filepath.Join(zotero, "zotero.sqlite"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, StartFolders: []string{"/home/r/Papers", zotero, "/home/r/refs.BIB"},
		StartErrors: []string{"/no/such/folder: no such folder"}})
	want := []StartItem{{Kind: "error", Error: "/no/such/folder: no such folder"},
		{Path: "/home/r/Papers", Kind: "folder"}, {Path: zotero, Kind: "zotero"}, {Path: "/home/r/refs.BIB", Kind: "bibtex"}}
	if got := a.StartFolders(); !reflect.DeepEqual(got, want) {
		t.Fatalf("first call = %+v, want %+v", got, want)
	}
	if got := a.StartFolders(); got == nil || len(got) != 0 {
		t.Fatalf("second call = %#v, want an empty list", got)
	}
}

func TestLogDisplayed(t *testing.T) {
	var buf bytes.Buffer
	a := New(Options{Logger: slog.New(slog.NewTextHandler(&buf, nil)), Runtime: &fakeRuntime{}})
	a.LogDisplayed("error", "No PDF files were found\n in /x.   Dismiss")
	a.LogDisplayed("anything", strings.Repeat("é", 400))
	out := buf.String()
	if !strings.Contains(out, `msg="displayed error" text="No PDF files were found in /x. Dismiss"`) {
		t.Errorf("log = %s", out)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || len(lines[1]) > maxShownLog+100 || !utf8.ValidString(lines[1]) {
		t.Errorf("long text not capped on a rune boundary: %q", lines[len(lines)-1])
	}
}

// TestLogDisplayedView: a view's record of what it rendered keeps its kind
// (scripts/smoke.sh waits for "displayed view" lines).
func TestLogDisplayedView(t *testing.T) {
	var buf bytes.Buffer
	a := New(Options{Logger: slog.New(slog.NewTextHandler(&buf, nil)), Runtime: &fakeRuntime{}})
	a.LogDisplayed("view", "which-papers list: 3 papers")
	if out := buf.String(); !strings.Contains(out, `msg="displayed view" text="which-papers list: 3 papers"`) {
		t.Errorf("log = %s", out)
	}
	// A long record is cut in the middle: where its controls sit, at its
	// end, is kept (the smoke test clicks them).
	buf.Reset()
	a.LogDisplayed("view", "answer: Who wrote it?; paths: "+strings.Repeat("A › B (p. 1) | ", 60)+"; export md at 410,620; first ask of at 860,590")
	out := buf.String()
	if !strings.Contains(out, "answer: Who wrote it?; paths: A › B") || !strings.Contains(out, "…; export md at 410,620; first ask of at 860,590\"") || len(out) > maxShownLog+200 {
		t.Errorf("long record: %s", out)
	}
}
