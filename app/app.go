package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/settings"
)

// Event names sent to the frontend. The frontend's api module mirrors them.
const (
	EventIndexProgress = "index:progress"
	// EventLibraryChanged says the paper list may have changed (a job
	// ended, the watcher pruned removed files): list the papers again.
	EventLibraryChanged = "library:changed"
	// EventAskDelta carries the streamed answer text so far (AskDelta).
	EventAskDelta = "ask:delta"
)

// Name is the product name shown in the window title and the UI.
const Name = "PaperTree"

// Options configure an App. Zero values get sensible defaults.
type Options struct {
	Version    string  // shown in the status bar; "dev" when empty
	LibraryDir string  // where the library (database, caches) lives
	Library    Library // nil: no backend wired, the UI shows an empty library
	LibraryErr error   // why the library could not be opened; shown by ListPapers
	// Open, when set, opens the library in Startup (not before: wails
	// generate runs main to collect bindings, and must not create a
	// database). It replaces Library/LibraryErr; the closer runs at Shutdown.
	Open     func(ctx context.Context) (Library, io.Closer, error)
	Runtime  Runtime       // nil: WailsRuntime
	Logger   *slog.Logger  // nil: text logs on stderr
	Throttle time.Duration // minimum gap between progress events; 0: 150ms
	// SettingsPath is the settings JSON file ("": settings are not saved).
	SettingsPath string
	// Secrets opens the store of the API key (nil: settings.DefaultSecrets).
	Secrets func(ctx context.Context) (settings.SecretStore, error)
	// StartFolders are folders of PDFs named on the command line: the page
	// adds, indexes and watches them when it first loads.
	StartFolders []string
	// StartErrors are command-line arguments that could not be opened,
	// each with why; the page shows them (StartFolders, kind "error").
	StartErrors []string
	// Debounce is how long the folder watcher waits for changes to settle
	// before re-indexing; 0: 2s. Negative: do not watch folders.
	Debounce time.Duration
	// LLMPoll is how often the configured LLM server's health is checked
	// (llmwatch.go); 0: DefaultLLMPoll. Negative: only at startup.
	LLMPoll time.Duration
}

// App is the service bound to the frontend. Its exported methods (other than
// through Hooks) are what the generated bindings expose, so every exported
// method must be safe to call from JavaScript at any time.
type App struct {
	version    string
	libraryDir string
	open       func(ctx context.Context) (Library, io.Closer, error)
	closer     io.Closer
	rt         Runtime
	log        *slog.Logger
	throttle   time.Duration

	mu      sync.Mutex
	lib     Library // guarded by mu: set by Startup when Open is used
	libErr  error
	ctx     context.Context    // from OnStartup; Background until then
	cancel  context.CancelFunc // cancels the running index job; nil when idle
	jobDone chan struct{}      // closed when the running job has finished

	settingsPath string
	secrets      func(ctx context.Context) (settings.SecretStore, error)
	debounce     time.Duration

	// opened is closed once the library has been opened (or failed to):
	// Wails may load the page and let it call in while OnStartup still
	// runs, and a call must not see "no library" just because it was early.
	opened     chan struct{}
	openedOnce sync.Once

	askCancel context.CancelFunc // cancels the running question; nil when idle (guarded by mu)
	watch     *folderWatcher     // nil until Startup; guarded by mu
	pending   bool               // a watcher re-index is due when the job ends (guarded by mu)
	jobSeq    int                // id of the latest index job (guarded by mu)

	// startFolders are the folders named on the command line; the page
	// asks for them once (StartFolders) and indexes them like a chosen folder.
	startFolders []string
	startErrors  []string

	llmw     llmWatch // the LLM server's health (llmwatch.go)
	llmPoll  time.Duration
	removals removals // removals waiting for their undo time (remove.go)
}

// New builds an App. It does not touch the window; Wails calls the hooks.
func New(o Options) *App {
	a := &App{
		version:    o.Version,
		libraryDir: o.LibraryDir,
		lib:        o.Library,
		libErr:     o.LibraryErr,
		open:       o.Open,
		rt:         o.Runtime,
		log:        o.Logger,
		throttle:   o.Throttle,
		ctx:        context.Background(),

		settingsPath: o.SettingsPath,
		secrets:      o.Secrets,
		debounce:     o.Debounce,
		opened:       make(chan struct{}),
		startFolders: slices.Clone(o.StartFolders),
		startErrors:  slices.Clone(o.StartErrors),
		llmw:         llmWatch{kick: make(chan struct{}, 1)},
		llmPoll:      o.LLMPoll,
	}
	if a.llmPoll == 0 {
		a.llmPoll = DefaultLLMPoll
	}
	if a.open == nil {
		a.markOpened()
	}
	if a.secrets == nil {
		a.secrets = settings.DefaultSecrets
	}
	if a.debounce == 0 {
		a.debounce = 2 * time.Second
	}
	if a.version == "" {
		a.version = "dev"
	}
	if a.rt == nil {
		a.rt = WailsRuntime{}
	}
	if a.log == nil {
		a.log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if a.throttle <= 0 {
		a.throttle = 150 * time.Millisecond
	}
	return a
}

// Lifecycle carries the Wails lifecycle hooks. They live on a separate type
// because every exported method of App is bound to JavaScript, and the
// frontend must not be able to call Startup or Shutdown.
type Lifecycle struct{ a *App }

// Hooks returns the lifecycle hooks of a for options.App.
func Hooks(a *App) Lifecycle { return Lifecycle{a} }

// Startup keeps the Wails context (runtime calls need it) and opens the
// library. A library that cannot be opened still gets a window, which shows
// why (ListPapers returns the error).
func (l Lifecycle) Startup(ctx context.Context) {
	a := l.a
	var (
		lib    Library
		closer io.Closer
		err    error
	)
	if a.open != nil {
		lib, closer, err = a.open(ctx)
		if err != nil {
			a.log.Error("open library", "dir", a.libraryDir, "err", err)
		}
	}
	a.mu.Lock()
	a.ctx = ctx
	if a.open != nil {
		a.lib, a.libErr, a.closer = lib, err, closer
	}
	backend := a.lib != nil
	a.mu.Unlock()
	a.markOpened()
	a.log.Info("papertree-app started", "version", a.version, "library", a.libraryDir, "backend", backend)
	if backend {
		// Both run in the background: the window must be interactive at
		// once, and LLM detection or a re-scan of the folders can take a while.
		// The LLM watch configures the LLM, then follows its server.
		go a.watchLLM(ctx, a.llmPoll)
		a.startWatching()
	}
}

// DomReady is logged so that the smoke test can tell that the page loaded
// and the Wails runtime works under the page's content security policy.
func (l Lifecycle) DomReady(ctx context.Context) {
	l.a.log.Info("papertree-app window ready")
}

// Shutdown cancels a running job and waits (briefly) for it to stop, so the
// store is never closed under a writer.
func (l Lifecycle) Shutdown(ctx context.Context) {
	a := l.a
	a.mu.Lock()
	cancel, done := a.cancel, a.jobDone
	askCancel, w := a.askCancel, a.watch
	a.watch = nil
	a.mu.Unlock()
	if w != nil {
		w.close()
	}
	if askCancel != nil {
		askCancel()
	}
	if cancel != nil {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			a.log.Warn("index job did not stop within 10s of shutdown")
		case <-ctx.Done():
		}
	}
	a.flushRemovals() // the undo time ends with the window
	a.mu.Lock()
	closer := a.closer
	a.closer = nil
	a.mu.Unlock()
	if closer != nil {
		if err := closer.Close(); err != nil {
			a.log.Error("close library", "err", err)
		}
	}
}

// FormatError is the options.App ErrorFormatter: a failed bound call rejects
// in the frontend with an ErrorView, never with Go error text.
//
// It returns the ErrorView as a JSON *string*, not as an object: the Wails
// v2 runtime rejects a failed call with `new Error(message.error)`
// (internal/frontend/runtime/desktop/calls.js), and an object there becomes
// the message "[object Object]". A string survives as the Error's message,
// and the frontend's toApiError decodes it.
func FormatError(err error) any {
	b, jerr := json.Marshal(ViewError(err))
	if jerr != nil { // cannot happen for two strings
		return papertree.ErrorMessage(err)
	}
	return string(b)
}

// ViewError is the code and user-safe message of err, as the frontend shows it.
func ViewError(err error) ErrorView {
	return ErrorView{Code: string(papertree.ErrorCode(err)), Message: papertree.ErrorMessage(err)}
}

func (a *App) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

func (a *App) markOpened() { a.openedOnce.Do(func() { close(a.opened) }) }

// openWait bounds how long a call waits for the library to open at start.
const openWait = 60 * time.Second

func (a *App) library() (Library, error) {
	select {
	case <-a.opened:
	case <-time.After(openWait):
		return nil, papertree.Errorf(papertree.EConflict, "The library is still being opened. Try again in a moment.")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lib, a.libErr
}

// Version returns the app version.
func (a *App) Version() string { return a.version }

// Info describes the running app for the status bar.
func (a *App) Info() (AppInfo, error) {
	// Never waits for the library (the status bar shows at once).
	a.mu.Lock()
	lib := a.lib
	a.mu.Unlock()
	return AppInfo{Name: Name, Version: a.version, LibraryDir: a.libraryDir, Backend: lib != nil}, nil
}

// ListPapers returns the papers in the library; an empty list (never null)
// when nothing is indexed or no backend is wired.
func (a *App) ListPapers() ([]PaperView, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return nil, asCoded(libErr, "The library could not be opened.")
	}
	if lib == nil {
		a.log.Info("listed papers", "count", 0, "backend", false)
		return []PaperView{}, nil
	}
	papers, err := lib.ListPapers(a.context())
	if err != nil {
		a.log.Error("list papers", "err", err)
		return nil, asCoded(err, "The library could not be read.")
	}
	if papers == nil {
		papers = []PaperView{}
	}
	papers = a.hidePapers(papers)
	edited := 0 // papers with corrections (app/edit.go): scripts/smoke.sh step 5 reads it
	for _, p := range papers {
		if len(p.Edited) > 0 || p.HeadingEdits > 0 {
			edited++
		}
	}
	a.log.Info("listed papers", "count", len(papers), "edited", edited)
	return papers, nil
}

// ChooseFolder shows the folder picker and returns the chosen folder, or ""
// when the user cancelled.
func (a *App) ChooseFolder() (string, error) {
	home, _ := os.UserHomeDir()
	dir, err := a.rt.OpenDirectoryDialog(a.context(), "Open a folder of PDFs", home)
	if err != nil {
		a.log.Error("folder dialog", "err", err)
		return "", papertree.Wrap(err, papertree.EInternal, "The folder picker could not be opened.")
	}
	return dir, nil
}

// IndexFolder indexes every PDF under dir. It runs as the one index job:
// a second call while one runs fails with EConflict, CancelIndex stops it
// (ECanceled), and progress arrives as throttled EventIndexProgress events.
// The folder is remembered (Folders) and watched for changes afterwards.
func (a *App) IndexFolder(dir string) (Summary, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return Summary{}, asCoded(libErr, "The library could not be opened.")
	}
	if lib == nil {
		return Summary{}, papertree.Errorf(papertree.EConflict, "Indexing is not available in this build yet.")
	}
	paths, err := FindPDFs(dir)
	if err != nil {
		return Summary{}, err
	}
	if abs, err := filepath.Abs(dir); err == nil {
		a.rememberFolder(abs)
	}
	return a.runIndex(lib, paths, false)
}

// runIndex runs one index job over paths (see IndexFolder). background
// marks jobs the folder watcher started, so the UI can say so.
func (a *App) runIndex(lib Library, paths []string, background bool) (Summary, error) {
	var sum Summary
	start := time.Now()
	err := a.runJob(paths, background, func(ctx context.Context, progress func(Progress)) (err error) {
		sum, err = lib.Index(ctx, paths, progress)
		return err
	})
	if err != nil {
		return Summary{}, err
	}
	if sum.Failures == nil {
		sum.Failures = []FileFailure{}
	}
	if sum.Millis == 0 {
		sum.Millis = time.Since(start).Milliseconds()
	}
	a.log.Info("indexed", "files", len(paths), "indexed", sum.Indexed, "failed", len(sum.Failures), "background", background)
	return sum, nil
}

// runJob runs work as the one job (one at a time, cancellable, with
// throttled progress events that carry only the files that changed). paths
// are the files known up front (they are listed as queued); work may report
// others. The library-changed event follows the job.
func (a *App) runJob(paths []string, background bool, work func(ctx context.Context, progress func(Progress)) error) error {
	a.mu.Lock()
	if a.cancel != nil {
		a.mu.Unlock()
		return papertree.Errorf(papertree.EConflict, "A folder is already being indexed.")
	}
	ctx, cancel := context.WithCancel(a.ctx)
	done := make(chan struct{})
	a.cancel, a.jobDone = cancel, done
	a.jobSeq++
	job := a.jobSeq
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.cancel, a.jobDone = nil, nil
		a.mu.Unlock()
		cancel()
		close(done)
		a.rt.EventsEmit(a.context(), EventLibraryChanged)
		a.jobFinished()
	}()

	files := newFileTracker(paths)
	emit := func(p Progress) {
		p.Files, p.Background, p.Job = files.changes(), background, job
		a.rt.EventsEmit(ctx, EventIndexProgress, p)
	}
	th := newThrottle(a.throttle, time.Now, time.AfterFunc, emit)
	th.report(Progress{Stage: "scan", Total: len(paths)})
	total := len(paths)
	var totalMu sync.Mutex
	err := work(ctx, func(p Progress) {
		files.update(p)
		totalMu.Lock()
		if p.Total > total {
			total = p.Total
		}
		totalMu.Unlock()
		th.report(p)
	})
	th.close()
	if err != nil {
		if ctx.Err() != nil && papertree.ErrorCode(err) != papertree.ECanceled {
			err = papertree.Wrap(err, papertree.ECanceled, "Indexing was cancelled.")
		}
		a.log.Error("index", "files", len(paths), "err", err)
		return asCoded(err, "The folder could not be indexed.")
	}
	totalMu.Lock()
	n := total
	totalMu.Unlock()
	emit(Progress{Stage: "done", Done: n, Total: n})
	return nil
}

// CancelIndex stops the running index job. It reports whether a job was
// running.
func (a *App) CancelIndex() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel == nil {
		return false
	}
	a.cancel()
	return true
}

// asCoded keeps coded errors as they are and gives any other error a code and
// a user-safe message, so FormatError never shows Go error text.
func asCoded(err error, message string) error {
	var e *papertree.Error
	if errors.As(err, &e) {
		return err
	}
	return papertree.Wrap(err, papertree.EInternal, message)
}

// DefaultLibraryDir is where the library lives when --library is not given:
// $XDG_DATA_HOME/papertree, else ~/.local/share/papertree.
func DefaultLibraryDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "papertree")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "papertree")
	}
	return filepath.Join(home, ".local", "share", "papertree")
}

// StartItem is something named on the command line for the page to open.
type StartItem struct {
	Path string `json:"path"`
	// Kind is "folder" (a folder of PDFs: indexed and watched), "zotero" (a
	// Zotero data directory: imported), "bibtex" (a .bib file: imported) or
	// "error" (an argument that cannot be opened; Error says why).
	Kind  string `json:"kind"`
	Error string `json:"error,omitempty"`
}

// StartFolders returns, once, what was named on the command line
// (`papertree-app ~/Papers ~/Zotero refs.bib`). The page indexes folders with
// IndexFolder, so they are remembered and watched like folders chosen in the
// picker, and imports Zotero data directories and .bib files; later calls
// (a reloaded page) get an empty list.
func (a *App) StartFolders() []StartItem {
	a.mu.Lock()
	paths, bad := a.startFolders, a.startErrors
	a.startFolders, a.startErrors = nil, nil
	a.mu.Unlock()
	out := make([]StartItem, 0, len(paths)+len(bad))
	for _, e := range bad {
		out = append(out, StartItem{Kind: "error", Error: e})
	}
	for _, p := range paths {
		out = append(out, StartItem{Path: p, Kind: startKind(p)})
	}
	return out
}

func startKind(p string) string {
	if strings.EqualFold(filepath.Ext(p), ".bib") {
		return "bibtex"
	}
	if st, err := os.Stat(filepath.Join(p, "zotero.sqlite")); err == nil && !st.IsDir() {
		return "zotero"
	}
	return "folder"
}

// maxShownLog caps one logged message of what the page displayed.
const maxShownLog = 500

// shownMarks matches the places of a view's controls at the end of its
// record ("; search every paper at 812,344; first ask of at 860,590").
var shownMarks = regexp.MustCompile(`(?:; [a-z0-9 ]+ at -?[0-9]+,-?[0-9]+)+$`)

// LogDisplayed records in the app log an error or warning the page has just
// shown to the user ("displayed error" with its text), or a view's record of
// what it rendered ("displayed view": a which-papers list, a comparison
// table with where its first cell sits, an opened page). It is how tests of the
// production binary (scripts/smoke.sh) and support read what a researcher
// saw, e.g. that an error reads as a sentence and never as "[object Object]".
// A view's record ends with where its controls sit ("; export md at
// 410,620", lib/shown.ts); a record cut to length keeps them, cut from the
// middle, so that a long answer's controls can still be found.
func (a *App) LogDisplayed(kind, text string) {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > maxShownLog {
		marks := ""
		if m := shownMarks.FindStringIndex(text); m != nil && m[1]-m[0] < maxShownLog/2 {
			text, marks = text[:m[0]], text[m[0]:]
		}
		cut := maxShownLog - len(marks)
		if cut < len(text) {
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut] + "…"
		}
		text += marks
	}
	if kind != "warning" && kind != "view" {
		kind = "error"
	}
	a.log.Info("displayed "+kind, "text", text)
}
