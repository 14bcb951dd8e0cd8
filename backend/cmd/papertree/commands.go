package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/treebuild"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// parseOutput is the contract of "papertree parse --json".
type parseOutput struct {
	File         string              `json:"file"`
	Title        string              `json:"title"`
	Authors      []string            `json:"authors,omitempty"`
	Affiliations []string            `json:"affiliations,omitempty"`
	Year         int                 `json:"year,omitempty"`
	Venue        string              `json:"venue,omitempty"`
	DOI          string              `json:"doi,omitempty"`
	ArxivID      string              `json:"arxiv_id,omitempty"`
	Pages        int                 `json:"pages"`
	OutlineUsed  bool                `json:"outline_used"`
	Headings     []papertree.Heading `json:"headings"`
	Tree         *papertree.Node     `json:"tree"`
	Warnings     []string            `json:"warnings,omitempty"`
	OCRPages     int                 `json:"ocr_pages,omitempty"` // pages whose text came from OCR
}

func cmdParse(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	noOutline := fs.Bool("no-outline", false, "ignore the PDF bookmarks (typography and text only)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	maxTok := fs.Int("segment-tokens", 0, "maximum tokens per segment (default 512)")
	oc := ocrFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"expected exactly one FILE.pdf"}
	}
	topts := treebuild.DefaultOptions()
	topts.UseOutline = !*noOutline
	if *maxTok > 0 {
		topts.MaxSegmentTokens = *maxTok
	}
	p, err := library.ParseFileOCR(ctx, pos[0], library.DefaultPDFOptions(), topts, oc.config())
	if err != nil {
		return err
	}
	hs := papertree.Headings(p.Root)
	if hs == nil {
		hs = []papertree.Heading{}
	}
	if *asJSON {
		return writeJSON(stdout, parseOutput{File: pos[0], Title: p.Title, Authors: p.Authors, Pages: p.Pages,
			Affiliations: p.Affiliations, Year: p.Year, Venue: p.Venue, DOI: p.DOI, ArxivID: p.ArxivID,
			OutlineUsed: p.OutlineUsed, Headings: hs, Tree: p.Root, Warnings: p.Warnings, OCRPages: p.OCRPages})
	}
	fmt.Fprintf(stdout, "%s\n%d pages, outline used: %v\n\n", termSafe(p.Title), p.Pages, p.OutlineUsed)
	printTree(stdout, p.Root, false)
	return nil
}

// printTree prints an indented outline; with leaves, segments are shown as
// one-line excerpts.
func printTree(w io.Writer, root *papertree.Node, leaves bool) {
	if root == nil {
		return
	}
	root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		indent := strings.Repeat("  ", len(path)-1)
		switch {
		case n.Kind == papertree.KindRoot:
			fmt.Fprintf(w, "%s\n", termSafe(n.Title))
		case n.Kind == papertree.KindSection:
			id := ""
			if n.ID != 0 {
				id = fmt.Sprintf(", node %d", n.ID) // for papertree heading --node
			}
			fmt.Fprintf(w, "%s%s  (p. %d%s)\n", indent, termSafe(n.Title), n.PageStart, id)
		case leaves:
			kind := "¶"
			if n.Kind == papertree.KindCaption {
				kind = "caption"
			}
			id := ""
			if n.ID != 0 {
				id = fmt.Sprintf(", node %d", n.ID) // for papertree heading --promote
			}
			fmt.Fprintf(w, "%s%s [p. %d, %d tok%s] %s\n", indent, kind, n.PageStart, n.Tokens, id, termSafe(excerpt(n.Text, 90)))
		}
		return true
	})
}

func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// openLibrary opens an existing library for a command that reads it: a
// mistyped --db is an error, never a new empty library.
func openLibrary(ctx context.Context, db string, workers int) (*library.Library, error) {
	if db == "" {
		return nil, usageError{"--db FILE.db is required"}
	}
	return library.Open(ctx, library.Config{DBPath: db, Workers: workers, MustExist: true, ReadOnly: forceReadOnly, WarmBudget: cliWarmBudget,
		Upgrading: upgradeNotice})
}

// upgradeNotice says why opening a library written by an older build takes
// a while (library.Config.Upgrading): its schema is upgraded once.
func upgradeNotice(from, to int) {
	fmt.Fprintf(os.Stderr, "papertree: upgrading the library database from schema %d to %d (once; it can take a minute for thousands of papers)\n", from, to)
}

// cliWarmBudget: a command starts its work as soon as the library is
// open, so the warm-up loads no papers ahead (library.Config.WarmBudget):
// they would only compete with the command for the cores, and under the
// CLI's soft memory limit (memLimit) their 200 MB at 148 papers keep the
// collector busy. The app, opened long before a question is typed, keeps
// the default, and so do bench query's cold runs, which measure it.
const cliWarmBudget = -1

// forceReadOnly opens every library read-only, as a file or folder without
// write permission does; the tests set it (root may write anything).
var forceReadOnly bool

// testIndexOpened, set by tests, sees the library index opened (to cap
// its size, as a full disk would).
var testIndexOpened func(*library.Library)

// noPDFs refuses an index job before the library is opened (so no new
// library file is left behind) when no PDF is found under any path; paths
// that do not exist and folders that cannot be read are reported by the job
// itself, with the reason (permission denied), never as "no PDF files".
func noPDFs(paths []string) error {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil
		}
		if files, unreadable, err := library.FindPDFsReport([]string{p}); err != nil || len(files) > 0 || len(unreadable) > 0 {
			return nil
		}
	}
	return papertree.Errorf(papertree.EInvalid, "No PDF files were found in %s.", strings.Join(paths, ", "))
}

// indexOutput is the contract of "papertree index --json".
type indexOutput struct {
	Indexed   int                 `json:"indexed"`
	Unchanged int                 `json:"unchanged"`
	Failed    []library.FileError `json:"failed"`
	Pruned    []string            `json:"pruned,omitempty"`
	Removed   int                 `json:"removed,omitempty"` // files left out: removed from the library (papertree remove)
	// Files not indexed because the same PDF is a paper already (file
	// repeats of), and papers whose file was moved (from of to file).
	Duplicates []library.SameContent `json:"duplicates,omitempty"`
	Moved      []library.SameContent `json:"moved,omitempty"`
	Pages      int                   `json:"pages"`
	Seconds    float64               `json:"seconds"`
	// Heading corrections of re-indexed files that found no heading.
	UnmatchedCorrections []library.UnmatchedCorrection `json:"unmatched_corrections,omitempty"`
}

func cmdIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	db := fs.String("db", "", "library database file (created if missing)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	prune := fs.Bool("prune", false, "remove papers whose file no longer exists")
	workers := fs.Int("workers", 0, "parallel parse/embed workers (default: min(CPUs, 4))")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fileTimeout := fs.Duration("file-timeout", library.DefaultFileTimeout, "time limit for reading one PDF (e.g. 30s, 2m); a file over it is reported and skipped")
	llmo := llmFlags(fs) // with an LLM, segment summaries are written by it (cached)
	oc := ocrFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"expected at least one PDF file or folder"}
	}
	if *fileTimeout <= 0 {
		return usageError{"--file-timeout must be positive (e.g. 30s)"}
	}
	if *db == "" {
		return usageError{"--db FILE.db is required"}
	}
	if err := noPDFs(pos); err != nil {
		return err
	}
	lib, err := openLibraryLLM(ctx, *db, *workers, llmo, stderr)
	if err != nil {
		return err
	}
	defer lib.Close()
	if testIndexOpened != nil {
		testIndexOpened(lib)
	}
	lib.SetFileTimeout(*fileTimeout)
	lib.SetOCR(oc.config())
	var last, lastOCR time.Time
	progress := func(ev library.Event) {
		if *quiet {
			return
		}
		switch ev.Status {
		case library.StatusFailed:
			fmt.Fprintf(stderr, "[%d/%d] FAILED %s: %s\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)), termSafe(ev.ErrMsg))
		case library.StatusReady:
			fmt.Fprintf(stderr, "[%d/%d] indexed %s (%d pages)\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)), ev.Pages)
		case library.StatusOCR:
			if time.Since(lastOCR) > time.Second || ev.OCRPage == ev.OCRPages {
				fmt.Fprintf(stderr, "[%d/%d] %s: OCR page %d of %d\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)), ev.OCRPage, ev.OCRPages)
				lastOCR = time.Now()
			}
		case library.StatusDuplicate:
			fmt.Fprintf(stderr, "[%d/%d] duplicate %s: the same PDF as %s\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)), termSafe(ev.Of))
		case library.StatusUnchanged:
			if time.Since(last) > 500*time.Millisecond || ev.Done == ev.Total {
				fmt.Fprintf(stderr, "[%d/%d] unchanged %s\n", ev.Done, ev.Total, termSafe(filepath.Base(ev.File)))
				last = time.Now()
			}
		}
	}
	// A file named exactly is the researcher adding it (back): a removal
	// of it is lifted. Files found by walking a folder stay removed.
	if exact := library.ExplicitFiles(pos); len(exact) > 0 && !lib.Store().ReadOnly() {
		abs := make([]string, 0, len(exact))
		for _, f := range exact {
			if a, err := filepath.Abs(f); err == nil {
				abs = append(abs, a)
			}
		}
		if _, err := lib.Store().AddBack(ctx, abs); err != nil {
			return err
		}
	}
	sum, err := lib.Index(ctx, pos, progress)
	out := indexOutput{Indexed: sum.Indexed, Unchanged: sum.Unchanged, Failed: sum.Failed, Removed: sum.Removed, Pages: sum.Pages, Seconds: sum.Seconds,
		Duplicates: sum.Duplicates, Moved: sum.Moved, UnmatchedCorrections: sum.UnmatchedCorrections}
	if err != nil {
		// The job stopped (full disk, damaged or read-only library, no
		// PDF): what it did before is still said, on stderr.
		if sum.Indexed > 0 || sum.Unchanged > 0 {
			fmt.Fprintf(stderr, "indexed %d, unchanged %d before it stopped\n", sum.Indexed, sum.Unchanged)
		}
		for _, f := range sum.Failed {
			fmt.Fprintf(stderr, "  failed: %s: %s [%s]\n", termSafe(f.File), termSafe(f.Error), f.Code)
		}
		return err
	}
	if *prune {
		removed, err := lib.Prune(ctx)
		if err != nil {
			return err
		}
		out.Pruned = removed
	}
	// Every PDF found failed: the summary is printed, and the exit code says
	// that nothing is in the library from this run (a script must not go on
	// to ask). Some failures beside indexed files exit 0: the folder indexed.
	var nothing error
	if len(out.Failed) > 0 && out.Indexed == 0 && out.Unchanged == 0 {
		nothing = papertree.Errorf(papertree.EInvalid, "nothing was indexed: all %d failed (each with its reason in the summary)", len(out.Failed))
	}
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		return nothing
	}
	fmt.Fprintf(stdout, "indexed %d, unchanged %d, failed %d, %d pages in %.1fs\n",
		out.Indexed, out.Unchanged, len(out.Failed), out.Pages, out.Seconds)
	if out.Removed > 0 {
		fmt.Fprintf(stdout, "  left out %d removed file(s); index a file by its exact path to add it back\n", out.Removed)
	}
	for _, f := range out.Failed {
		fmt.Fprintf(stdout, "  failed: %s: %s [%s]\n", termSafe(f.File), termSafe(f.Error), f.Code)
	}
	for _, d := range out.Duplicates {
		fmt.Fprintf(stdout, "  duplicate: %s: the same PDF as %s, not indexed twice\n", termSafe(d.File), termSafe(d.Of))
	}
	for _, m := range out.Moved {
		fmt.Fprintf(stdout, "  moved: %s -> %s (the paper kept, not read again)\n", termSafe(m.Of), termSafe(m.File))
	}
	for _, p := range out.Pruned {
		fmt.Fprintf(stdout, "  pruned: %s\n", termSafe(p))
	}
	for _, u := range out.UnmatchedCorrections {
		fmt.Fprintf(stdout, "  correction not applied: %s: heading #%d (%s %q): no such heading in the file any more\n",
			termSafe(u.File), u.ID, u.Op, termSafe(u.Target))
	}
	return nothing
}

func cmdTree(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tree", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print the paper and its tree as JSON")
	leaves := fs.Bool("leaves", false, "also print segments (text mode)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"expected one PAPER (id or file path)"}
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	p, err := lib.Paper(ctx, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, p)
	}
	fmt.Fprintf(stdout, "[%d] %s\n%s, %d pages\n\n", p.ID, termSafe(p.Title), termSafe(p.Path), p.Pages)
	printTree(stdout, p.Root, *leaves)
	return nil
}

func cmdList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	ps, err := lib.Papers(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		if ps == nil {
			ps = []store.PaperInfo{} // "[]", not "null", for an empty library
		}
		return writeJSON(stdout, ps)
	}
	if len(ps) == 0 {
		fmt.Fprintf(stdout, "The library is empty. Index papers with: papertree index --db %s FOLDER\n", termSafe(*db))
	}
	edits, err := lib.Store().EditedPaths(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.Status != "ready" {
			fmt.Fprintf(stdout, "%4d  FAILED  %s: %s\n", p.ID, termSafe(filepath.Base(p.Path)), termSafe(p.ErrMessage))
			continue
		}
		mark := ""
		if p.OCRPages > 0 {
			mark = "  [text from OCR]"
		}
		if e, ok := edits[p.Path]; ok { // the researcher's corrections (papertree edit, heading)
			mark += "  [edited]"
			if e.Unmatched > 0 {
				mark += fmt.Sprintf(" [%d corrections not applied]", e.Unmatched)
			}
		}
		fmt.Fprintf(stdout, "%4d  %3d pp  %s%s\n", p.ID, p.Pages, termSafe(paperName(p.Title, p.Path)), mark)
	}
	return nil
}

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"expected an evaluation: trees, meta, qasper, library, questions, compare or search"}
	}
	switch args[0] {
	case "search":
		return cmdEvalSearch(ctx, args[1:], stdout)
	case "trees":
		return cmdEvalTrees(ctx, args[1:], stdout)
	case "meta":
		return cmdEvalMeta(ctx, args[1:], stdout)
	case "qasper":
		return cmdEvalQasper(ctx, args[1:], stdout, stderr)
	case "library":
		return cmdEvalLibrary(ctx, args[1:], stdout, stderr)
	case "questions":
		return cmdEvalQuestions(ctx, args[1:], stdout, stderr)
	case "compare":
		return cmdEvalCompare(ctx, args[1:], stdout, stderr)
	default:
		return usageError{fmt.Sprintf("unknown evaluation %q (have: trees, meta, qasper, library, questions, compare)", args[0])}
	}
}

func cmdEvalTrees(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval trees", flag.ContinueOnError)
	gold := fs.String("gold", "", "folder of hand-checked heading trees (*.json)")
	pdfs := fs.String("pdfs", "", "folder of the PDFs they describe")
	noOutline := fs.Bool("no-outline", false, "ignore the PDF bookmarks")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	silver := fs.String("silver", "", "silver folder (gold/, pdfs/, SOURCES.tsv): also score --no-outline against the outlines, per family")
	diff := fs.String("diff", "", "print gold vs predicted headings of the files whose name contains this (\"all\" for every file)")
	runIn := fs.Bool("runin", treebuild.DefaultOptions().RunInHeadings, "emit run-in paragraph headings as sections")
	ocrOn := fs.Bool("ocr", false, "read scanned pages with tesseract, as index does (to score image-only copies)")
	ocrLang := fs.String("ocr-lang", ocr.DefaultLanguages, "OCR languages with --ocr (e.g. eng+deu)")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*gold == "" || *pdfs == "") && *silver == "" {
		return usageError{"--gold DIR and --pdfs DIR (or --silver DIR) are required"}
	}
	var oc *ocr.Config
	if *ocrOn {
		oc = &ocr.Config{Languages: ocr.Langs(*ocrLang)}
	}
	return evalTreesWithSilver(ctx, stdout, *gold, *pdfs, *silver, *diff, !*noOutline, *runIn, *asJSON, oc)
}

// paperName is how a paper is named in the CLI's lists: its title, else (no
// title read from the PDF) its file name, as in the app's library list,
// never a blank.
func paperName(title, path string) string { return papertree.PaperName(title, path) }
