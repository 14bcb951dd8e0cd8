package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/outfile"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
)

// cmdExport renders saved answers as a report:
//
//	papertree export --db FILE.db --answer ID[,ID...] [--format md|html|pdf|docx] --out FILE
//	papertree export --db FILE.db --history [N] ...
//
// --history without N exports every saved answer; the history is written
// oldest first, as it was asked. Without --format the format follows the
// extension of --out; "--out -" (the default for md and html) writes to
// stdout. Only a regular file or a new path is written (see
// backend/outfile: a device, a FIFO or a folder is refused), through a
// temporary name that is synced and renamed, so a failed export never
// leaves half a report behind.
func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	ids := fs.String("answer", "", "answer id(s) to export, comma-separated (see ask --json: answer_id)")
	history := fs.Int("history", -1, "export the last N saved answers as one report (no N or 0: all)")
	format := fs.String("format", "", "report format: "+strings.Join(report.Formats(), ", ")+", or bib (the cited papers as BibTeX) (default: from --out, else md)")
	out := fs.String("out", "", `output file ("-" = stdout; default stdout for md and html)`)
	title := fs.String("title", "", "report title (default: a generic title)")
	pos, err := parseFlags(fs, historyArgs(args))
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	f := *format
	if f == "" {
		f = "md"
		if ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(*out)), "."); ext != "" && *out != "-" {
			f = ext
		}
	}
	known := f == "bib" || f == "bibtex"
	if known {
		f = "bib"
	}
	for _, k := range report.Formats() {
		if strings.TrimPrefix(report.Ext(f), ".") == k {
			known = true
		}
	}
	if !known {
		return usageError{fmt.Sprintf("unknown format %q (have: %s)", f, strings.Join(report.Formats(), ", "))}
	}
	if f != "bib" {
		f = strings.TrimPrefix(report.Ext(f), ".")
	}
	if (f == "pdf" || f == "docx") && *out == "" {
		return usageError{"--out FILE is required for " + f + ` ("--out -" writes to stdout)`}
	}
	var answerIDs []int64
	switch {
	case *ids != "" && *history >= 0:
		return usageError{"give either --answer or --history, not both"}
	case *ids != "":
		for _, s := range strings.Split(*ids, ",") {
			id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || id <= 0 {
				return usageError{fmt.Sprintf("bad answer id %q", strings.TrimSpace(s))}
			}
			answerIDs = append(answerIDs, id)
		}
	case *history < 0:
		return usageError{"expected --answer ID or --history [N]"}
	}
	if *db == "" {
		return usageError{"--db FILE.db is required"}
	}
	// A device, a FIFO or a folder as --out is refused before any work.
	if *out != "" && *out != "-" {
		if _, _, err := outfile.Check(*out); err != nil {
			return err
		}
	}
	// Exporting never creates a library: a mistyped path is an error, not a
	// new empty database.
	if _, err := os.Stat(*db); err != nil {
		return papertree.Wrap(fmt.Errorf("export: %w", err), papertree.ENotFound, fmt.Sprintf("There is no library database at %s.", *db))
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()

	doc := report.Doc{Title: *title, Generated: time.Now().UTC(), Papers: map[int64]report.PaperMeta{}}
	if *history >= 0 {
		answerIDs, err = historyIDs(ctx, lib, *history)
		if err != nil {
			return err
		}
	}
	for _, id := range answerIDs {
		a, err := lib.Answer(ctx, id)
		if err != nil {
			return err
		}
		doc.Answers = append(doc.Answers, *a)
	}
	var buf bytes.Buffer
	if f == "bib" {
		// The papers the answers cite, as BibTeX (citation keys from the
		// researcher's reference manager where known).
		bib, n, err := lib.BibTeX(ctx, library.CitedByAnswers(doc.Answers))
		if err != nil {
			return err
		}
		if n == 0 {
			return papertree.Errorf(papertree.ENotFound, "The answers cite no paper that is still in the library.")
		}
		buf.Write(bib)
	} else {
		if err := addPapers(ctx, lib, &doc); err != nil {
			return err
		}
		if err := report.Write(&buf, f, doc); err != nil {
			return err
		}
	}
	if *out == "" || *out == "-" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := outfile.Write(ctx, *out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	n := len(doc.Answers)
	noun := "answers"
	if n == 1 {
		noun = "answer"
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %d %s, %d bytes)\n", *out, f, n, noun, buf.Len())
	return nil
}

// historyArgs lets --history stand without a number: "--history" followed
// by nothing or by another flag means "all" (0).
func historyArgs(args []string) []string {
	out := make([]string, 0, len(args)+1)
	for i, a := range args {
		out = append(out, a)
		if a != "--history" && a != "-history" {
			continue
		}
		if i+1 < len(args) {
			if _, err := strconv.Atoi(args[i+1]); err == nil {
				continue
			}
		}
		out = append(out, "0")
	}
	return out
}

// historyIDs returns the ids of the last n saved answers (n == 0: all),
// oldest first.
func historyIDs(ctx context.Context, lib *library.Library, n int) ([]int64, error) {
	const page = 200
	var ids []int64
	for off := 0; n == 0 || len(ids) < n; off += page {
		lim := page
		if n > 0 && n-len(ids) < lim {
			lim = n - len(ids)
		}
		as, err := lib.Answers(ctx, lim, off)
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			ids = append(ids, a.ID)
		}
		if len(as) < lim {
			break
		}
	}
	if len(ids) == 0 {
		return nil, papertree.Errorf(papertree.ENotFound, "There are no saved answers to export.")
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids, nil
}

// addPapers fills doc.Papers with the metadata of every paper the answers
// cite. A paper removed from the library since is left out: the report then
// falls back to the title saved with the evidence.
func addPapers(ctx context.Context, lib *library.Library, doc *report.Doc) error {
	for _, a := range doc.Answers {
		for _, e := range a.Evidence {
			if _, ok := doc.Papers[e.PaperID]; ok || e.PaperID == 0 {
				continue
			}
			// Reference metadata (Zotero, BibTeX) wins, with its citation key.
			pi, err := lib.PaperRefByID(ctx, e.PaperID)
			if papertree.ErrorCode(err) == papertree.ENotFound {
				doc.Papers[e.PaperID] = report.PaperMeta{}
				continue
			}
			if err != nil {
				return err
			}
			doc.Papers[e.PaperID] = report.PaperMeta{Title: pi.Title, Authors: pi.Authors, Year: pi.Year, File: pi.Path, CitationKey: pi.CitationKey}
		}
	}
	return nil
}
