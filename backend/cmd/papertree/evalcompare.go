package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/papertree/papertree/backend/compare"
	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/store"
)

// cmdEvalCompare scores the library's comparison tables against a compare
// gold set (tables of papers named by file name x aspects, a gold value or
// "not stated" per cell): each table is built like "papertree compare" on
// its papers and aspects.
func cmdEvalCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval compare", flag.ContinueOnError)
	db := fs.String("db", "", "library database file (with the set's PDFs indexed)")
	set := fs.String("set", "", "compare gold set JSON (e.g. backend/eval/testdata/compare_library150.json)")
	asJSON := fs.Bool("json", false, "print the scores as JSON (with every cell)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{"unexpected arguments"}
	}
	if *set == "" {
		return usageError{"--set is required"}
	}
	ts, err := eval.LoadCompareTables(*set)
	if err != nil {
		return err
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	papers, err := lib.Papers(ctx)
	if err != nil {
		return err
	}
	files := map[string]int64{}
	for _, p := range papers {
		if p.Status == store.StatusReady {
			files[filepath.Base(p.Path)] = p.ID
		}
	}
	s, err := eval.ScoreCompare(ctx, ts, files, func(ctx context.Context, req compare.Request) (*compare.Table, error) {
		return lib.Compare(ctx, req)
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, s)
	}
	tw := tabwriter.NewWriter(stdout, 2, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "table\tcells\tright")
	for _, t := range s.PerTable {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", t.Name, t.Cells, t.Right)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "cells right %d of %d (%.3f); stated %d of %d (%.3f), %d answered not found; not stated %d of %d said not found (%.3f)",
		s.Right, s.Cells, s.Accuracy, s.StatedRight, s.Stated, s.StatedAccuracy, s.FalseNotFound, s.UnstatedRight, s.Unstated, s.UnstatedAccuracy)
	if s.Missing > 0 {
		fmt.Fprintf(stdout, "; %d cells of papers not in the index", s.Missing)
	}
	fmt.Fprintln(stdout)
	return nil
}
