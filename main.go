// Command papertree-app is PaperTree's desktop shell. This file is wiring
// only: flags, the embedded frontend, window options and wails.Run. All
// behaviour lives in package app (the bound services) and backend/.
package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"github.com/papertree/papertree/app"
	"github.com/papertree/papertree/backend/settings"
)

// The built frontend. frontend/dist/.gitkeep is committed so that this
// embed (and so `go vet ./...`) works on a fresh clone before `npm run build`.
//
//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

// version is set at build time: -ldflags "-X main.version=...".
var version = "dev"

type config struct {
	folders      []string // positional: folders of PDFs to add, index and watch
	badFolders   []string // positional arguments that are not folders, each with why: shown in the window
	libraryDir   string
	settingsPath string
	showVersion  bool
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("papertree-app", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: papertree-app [--library DIR] [--settings FILE] [FOLDER | ZOTERO_DIR | FILE.bib ...]\n\n"+
			"Opens PaperTree. Each FOLDER of PDFs is added to the library, indexed and watched;\n"+
			"a Zotero data directory (it holds zotero.sqlite) or a .bib file is imported.\n\n")
		fs.PrintDefaults()
	}
	var c config
	fs.StringVar(&c.libraryDir, "library", "", "folder that holds the PaperTree library (database and caches) (default: the settings' data folder, else "+app.DefaultLibraryDir()+")")
	fs.StringVar(&c.settingsPath, "settings", app.DefaultSettingsPath(), "settings file (LLM server, retrieval, parsing; never the API key)")
	fs.BoolVar(&c.showVersion, "version", false, "print the version and exit")
	// Flags and folders may come in any order (papertree-app ~/Papers --library X).
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return c, err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	if c.libraryDir == "" {
		c.libraryDir = app.LibraryDirFromSettings(c.settingsPath)
	}
	// A bad folder argument is reported in the window, and the valid ones
	// open: one mistyped path must not keep the researcher's library shut.
	for _, f := range positional {
		dir, err := folderArg(f)
		if err != nil {
			c.badFolders = append(c.badFolders, err.Error())
			continue
		}
		c.folders = append(c.folders, dir)
	}
	return c, nil
}

// folderArg checks a positional argument: an existing folder (of PDFs, or a
// Zotero data directory) or a .bib file, made absolute.
func folderArg(arg string) (string, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", fmt.Errorf("%s: %w", arg, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%s: no such folder", arg)
	}
	if !st.IsDir() && !strings.EqualFold(filepath.Ext(abs), ".bib") {
		return "", fmt.Errorf("%s is a file: give the folder that holds your PDFs (papertree-app %s), a Zotero data directory or a .bib file", arg, filepath.Dir(arg))
	}
	return abs, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "papertree-app:", err)
		os.Exit(2)
	}
	if cfg.showVersion {
		fmt.Println("papertree-app", version)
		return
	}
	for _, b := range cfg.badFolders {
		fmt.Fprintln(os.Stderr, "papertree-app:", b) // also shown in the window
	}

	// WebKitGTK's DMA-BUF renderer paints a blank window on machines without
	// a usable GPU (Xvfb, VMs, some NVIDIA drivers). The shared-memory path
	// works everywhere; users who want DMA-BUF can set the variable to 0.
	if runtime.GOOS == "linux" && os.Getenv("WEBKIT_DISABLE_DMABUF_RENDERER") == "" {
		os.Setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
	}

	// The library (cfg.libraryDir/library.db) is opened in the startup hook
	// and closed in the shutdown hook.
	a := app.New(app.Options{Version: version, LibraryDir: cfg.libraryDir, Open: app.OpenWithSettings(cfg.libraryDir, cfg.settingsPath, settings.DefaultSecrets), SettingsPath: cfg.settingsPath, StartFolders: cfg.folders, StartErrors: cfg.badFolders})
	hooks := app.Hooks(a)

	err = wails.Run(&options.App{
		Title:            app.Name,
		Width:            1180,
		Height:           780,
		MinWidth:         760,
		MinHeight:        520,
		BackgroundColour: &options.RGBA{R: 247, G: 246, B: 242, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets, Handler: app.PDFHandler(a)},
		OnStartup:        hooks.Startup,
		OnDomReady:       hooks.DomReady,
		OnShutdown:       hooks.Shutdown,
		ErrorFormatter:   app.FormatError,
		Bind:             []any{a},
		Linux: &linux.Options{
			Icon:        icon,
			ProgramName: "papertree-app",
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "papertree-app:", err)
		os.Exit(1)
	}
}
