package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/compare"
	"github.com/papertree/papertree/backend/outfile"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
)

// cmdCompare prints a cross-paper comparison table: JSON (--json), CSV
// (--format csv) or Markdown (default).
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	format := fs.String("format", "md", "output without --json: md or csv (the table), or html, pdf, docx (a report with the table)")
	papers := fs.String("papers", "", "comma-separated paper ids (default: every indexed paper, at most 40)")
	aspects := fs.String("aspects", "", `aspects separated by ";" (default: proposed from the papers' headings)`)
	out := fs.String("out", "", "write to this file instead of stdout")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{"unexpected arguments: " + strings.Join(pos, " ")}
	}
	ids, err := parseIDs(*papers)
	if err != nil {
		return err
	}
	fmtName := strings.ToLower(*format)
	switch fmtName {
	case "md", "markdown", "csv", "html", "pdf", "docx":
	default:
		return usageError{fmt.Sprintf("--format: %q is not md, csv, html, pdf or docx", *format)}
	}
	if *out != "" {
		if _, _, err := outfile.Check(*out); err != nil {
			return err
		}
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	t, err := lib.Compare(ctx, compare.Request{PaperIDs: ids, Aspects: compare.ParseAspects(*aspects)})
	if err != nil {
		return err
	}
	// A file is written whole (backend/outfile: regular files and new paths
	// only, atomically), so the table is rendered into memory first.
	var buf bytes.Buffer
	w := io.Writer(stdout)
	if *out != "" {
		w = &buf
	}
	if err := writeComparison(w, stderr, t, *asJSON, fmtName); err != nil {
		return err
	}
	if *out != "" {
		return outfile.Write(ctx, *out, buf.Bytes(), 0o644)
	}
	return nil
}

// writeComparison renders t as JSON or in format fmtName to w; the
// Markdown table's warnings and cell counts go to stderr.
func writeComparison(w, stderr io.Writer, t *compare.Table, asJSON bool, fmtName string) error {
	switch {
	case asJSON:
		return writeJSON(w, t)
	case fmtName == "html" || fmtName == "pdf" || fmtName == "docx":
		return report.Write(w, fmtName, report.Doc{Tables: []report.Table{t.ReportTable("Comparison")}, Generated: time.Now()})
	case fmtName == "csv":
		b, err := t.CSV()
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	fmt.Fprint(w, t.Markdown())
	for _, m := range t.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", m)
	}
	fmt.Fprintf(stderr, "%d of %d cells with evidence, %.0f ms\n", t.Found(), len(t.Cells), t.Timings["total"])
	return nil
}

// printSelection prints which papers a multi-paper strategy chose and why.
func printSelection(w io.Writer, s *papertree.Selection) {
	if s == nil {
		return
	}
	if s.Structure != "" {
		fmt.Fprintf(w, "structure: %s (%s: %s)\n", s.Structure, s.RoutedBy, s.RouteReason)
	}
	for _, p := range s.Papers {
		mark := "-"
		if p.Chosen {
			mark = "+"
		}
		fmt.Fprintf(w, "%s paper %d %s [%s] %s\n", mark, p.PaperID, excerpt(p.PaperTitle, 60), p.By, p.Reason)
	}
}
