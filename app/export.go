package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/outfile"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
)

// ExportAnswer saves one answer as a report (md, html, pdf or docx) where
// the user chooses in the save dialog. It returns the written path, or ""
// when the user cancelled.
func (a *App) ExportAnswer(id, format string) (string, error) {
	return a.export([]string{id}, format, "papertree-answer-"+id)
}

// ExportHistory saves the whole question history as one report.
func (a *App) ExportHistory(format string) (string, error) {
	return a.export(nil, format, "papertree-history-"+time.Now().Format("2006-01-02"))
}

func (a *App) export(ids []string, format, name string) (string, error) {
	lib, err := a.ready()
	if err != nil {
		return "", err
	}
	ext := report.Ext(format)
	if ext == "." {
		return "", papertree.Errorf(papertree.EInvalid, "Unknown report format %q (have: %s).", format, strings.Join(report.Formats(), ", "))
	}
	// Render first: a failure is reported before the user picks a file.
	var buf bytes.Buffer
	if err := lib.Export(a.context(), ids, format, &buf); err != nil {
		return "", asCoded(err, "The report could not be written.")
	}
	path, err := a.saveFile("Export report", "report", name, ext, buf.Bytes())
	if err != nil || path == "" {
		return path, err
	}
	a.log.Info("exported report", "path", path, "answers", len(ids), "format", format)
	return path, nil
}

// saveFile asks where to save data (dialog title, noun for the file-type
// filter and the messages: "report", "file") and writes it with
// backend/outfile, as the CLI's export does: only onto a regular file or a
// new path (a device, a FIFO or a folder is refused with a coded message),
// atomically, so a failed write never leaves half a file. It returns ""
// when the user cancelled.
func (a *App) saveFile(title, noun, name, ext string, data []byte) (string, error) {
	home, _ := os.UserHomeDir()
	path, err := a.rt.SaveFileDialog(a.context(), title, home, name+ext, strings.ToUpper(strings.TrimPrefix(ext, "."))+" "+noun, "*"+ext)
	if err != nil {
		return "", papertree.Wrap(err, papertree.EInternal, "The save dialog could not be opened.")
	}
	if path == "" {
		return "", nil
	}
	if filepath.Ext(path) == "" {
		path += ext
	}
	if err := outfile.Write(a.context(), path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}
