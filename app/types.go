package app

import "context"

// Library is the facade the desktop shell needs from the backend. It is
// implemented by an adapter over backend/library; a nil Library means "no
// backend wired yet" and the UI shows an empty library.
type Library interface {
	// ListPapers returns the indexed papers in a stable order (newest first
	// is fine; the UI does not re-sort).
	ListPapers(ctx context.Context) ([]PaperView, error)
	// Index parses and stores the given PDF files. It reports progress
	// through progress (which may be called from several goroutines, but
	// never after Index returns). One failing file never fails the whole
	// call: it is listed in Summary.Failures. Index returns a coded
	// ECanceled error when ctx is cancelled.
	Index(ctx context.Context, paths []string, progress func(Progress)) (Summary, error)
}

// PaperView is one paper as the library list shows it.
type PaperView struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Authors []string `json:"authors"`
	Year    int      `json:"year"`    // 0 when unknown
	Pages   int      `json:"pages"`   // physical pages
	File    string   `json:"file"`    // absolute path of the source PDF
	Status  string   `json:"status"`  // "ready" or "failed"
	Code    string   `json:"code"`    // error code when failed (papertree.Code)
	Message string   `json:"message"` // user-safe reason when failed
	Stale   bool     `json:"stale"`   // indexed with other settings: re-index to refresh
}

// Progress reports the state of an indexing job.
type Progress struct {
	Stage  string `json:"stage"`  // "scan" (files found), "index" (working), "done"
	Done   int    `json:"done"`   // files finished (ok, unchanged or failed)
	Total  int    `json:"total"`  // files in the job
	File   string `json:"file"`   // file the latest report is about, may be empty
	Detail string `json:"detail"` // what happens to File: "parsing", "embedding", "failed", ...
}

// FileFailure is one file that could not be indexed.
type FileFailure struct {
	Path    string `json:"path"`
	Code    string `json:"code"`    // papertree.Code, e.g. "encrypted"
	Message string `json:"message"` // user-safe
}

// Summary is the result of an indexing job.
type Summary struct {
	Indexed  int           `json:"indexed"`
	Skipped  int           `json:"skipped"` // already indexed and unchanged
	Failures []FileFailure `json:"failures"`
	Millis   int64         `json:"millis"` // wall time of the job
}

// AppInfo describes the running app for the status bar.
type AppInfo struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	LibraryDir string `json:"libraryDir"`
	Backend    bool   `json:"backend"` // false while no Library is wired
}

// ErrorView is what a failed bound call rejects with in the frontend.
type ErrorView struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
