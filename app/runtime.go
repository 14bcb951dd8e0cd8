package app

import (
	"context"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// Runtime is the part of the Wails runtime that App uses. It exists so that
// App's logic can be tested without a window; WailsRuntime is the real one.
type Runtime interface {
	EventsEmit(ctx context.Context, name string, data ...any)
	// OpenDirectoryDialog shows a folder picker; "" means the user cancelled.
	OpenDirectoryDialog(ctx context.Context, title, defaultDir string) (string, error)
	// SaveFileDialog asks where to save a file; "" means the user cancelled.
	SaveFileDialog(ctx context.Context, title, defaultDir, defaultName, filterName, pattern string) (string, error)
	// OpenURL opens a URL (here: a file:// URL) with the system's handler.
	OpenURL(ctx context.Context, url string)
}

// WailsRuntime forwards to github.com/wailsapp/wails/v2/pkg/runtime. Its
// methods need the context that Wails passes to OnStartup.
type WailsRuntime struct{}

// EventsEmit sends an event to the frontend.
func (WailsRuntime) EventsEmit(ctx context.Context, name string, data ...any) {
	wruntime.EventsEmit(ctx, name, data...)
}

// OpenDirectoryDialog shows the native folder picker.
func (WailsRuntime) OpenDirectoryDialog(ctx context.Context, title, defaultDir string) (string, error) {
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{
		Title:                title,
		DefaultDirectory:     defaultDir,
		CanCreateDirectories: false,
	})
}

// SaveFileDialog shows the native save dialog.
func (WailsRuntime) SaveFileDialog(ctx context.Context, title, defaultDir, defaultName, filterName, pattern string) (string, error) {
	return wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{
		Title:            title,
		DefaultDirectory: defaultDir,
		DefaultFilename:  defaultName,
		Filters:          []wruntime.FileFilter{{DisplayName: filterName, Pattern: pattern}},
	})
}

// OpenURL opens url with the desktop's default handler (xdg-open on Linux).
func (WailsRuntime) OpenURL(ctx context.Context, url string) {
	wruntime.BrowserOpenURL(ctx, url)
}
