package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/zotero"
)

// cmdImport imports references with their PDFs from a reference manager:
//
//	papertree import zotero --db FILE.db [--base-dir DIR] [--library ID|NAME] [--json] ZOTERO_DIR
//	papertree import zotero --list-libraries [--json] ZOTERO_DIR
//	papertree import bibtex --db FILE.db [--json] FILE.bib
//
// The source is only read (zotero.sqlite is opened immutable, so Zotero may
// be running). The JSON output is {"imported","unchanged","skipped":[{"item",
// "reason"}],"collections"} plus "index", the indexing job's summary.
func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"expected a source: zotero or bibtex"}
	}
	source, rest := args[0], args[1:]
	fs := flag.NewFlagSet("import "+source, flag.ContinueOnError)
	db := fs.String("db", "", "library database file (created if missing)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	baseDir := fs.String("base-dir", "", "zotero: Zotero's linked attachment base directory (for attachments: paths)")
	which := fs.String("library", "", "zotero: import only this library, by id or name (\"My Library\" or a group's name; see --list-libraries)")
	listLibs := fs.Bool("list-libraries", false, "zotero: list the libraries (yours and each group's) with their item counts, import nothing")
	pos, err := parseFlags(fs, rest)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{fmt.Sprintf("expected one %s", map[string]string{"zotero": "Zotero data directory", "bibtex": ".bib file"}[source])}
	}
	if *listLibs {
		if source != "zotero" {
			return usageError{"--list-libraries is for zotero"}
		}
		return listZoteroLibraries(ctx, pos[0], *asJSON, stdout)
	}
	if *which != "" && source != "zotero" {
		return usageError{"--library is for zotero"}
	}
	progress := func(ev library.Event) {
		if *quiet {
			return
		}
		switch ev.Status {
		case library.StatusFailed:
			fmt.Fprintf(stderr, "[%d/%d] FAILED %s: %s\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)), termSafe(ev.ErrMsg))
		case library.StatusReady:
			fmt.Fprintf(stderr, "[%d/%d] indexed %s\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)))
		}
	}
	var run func(lib *library.Library) (library.ImportSummary, error)
	switch source {
	case "zotero":
		run = func(lib *library.Library) (library.ImportSummary, error) {
			return lib.ImportZoteroLibrary(ctx, pos[0], *baseDir, *which, progress)
		}
	case "bibtex", "bib":
		run = func(lib *library.Library) (library.ImportSummary, error) {
			return lib.ImportBibTeX(ctx, pos[0], progress)
		}
	default:
		return usageError{fmt.Sprintf("unknown source %q (have: zotero, bibtex)", source)}
	}
	if *db == "" {
		return usageError{"--db FILE.db is required"}
	}
	// Like index, an import writes papers, so it may create the library.
	lib, err := library.Open(ctx, library.Config{DBPath: *db, WarmBudget: cliWarmBudget, Upgrading: upgradeNotice})
	if err != nil {
		return err
	}
	defer lib.Close()
	sum, err := run(lib)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "imported %d, unchanged %d, skipped %d", sum.Imported, sum.Unchanged, len(sum.Skipped))
	if len(sum.Collections) > 0 {
		fmt.Fprintf(stdout, ", %d collections", len(sum.Collections))
	}
	fmt.Fprintln(stdout)
	for _, s := range sum.Skipped {
		fmt.Fprintf(stdout, "  skipped: %s: %s\n", termSafe(s.Item), termSafe(s.Reason))
	}
	return nil
}

// listZoteroLibraries prints the libraries of a Zotero data directory (read
// only; no --db needed): id, kind, item count and name, or JSON
// [{"id","type","name","group_id","items"}].
func listZoteroLibraries(ctx context.Context, dir string, asJSON bool, stdout io.Writer) error {
	libs, err := zotero.Libraries(ctx, dir)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, libs)
	}
	for _, l := range libs {
		fmt.Fprintf(stdout, "%d\t%s\t%d items\t%s\n", l.ID, l.Type, l.Items, termSafe(l.Name))
	}
	return nil
}
