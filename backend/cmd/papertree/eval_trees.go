package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/treebuild"
)

// evalTreesWithSilver scores the gold trees (when given) and then, when a
// silver folder is given, the silver trees with the outline switched off:
// the silver PDFs' own outlines are the answer, so using them would score
// the outline against itself.
func evalTreesWithSilver(ctx context.Context, stdout io.Writer, gold, pdfs, silver, diff string, useOutline, runIn, asJSON bool, oc *ocr.Config) error {
	type both struct {
		Gold   *eval.TreesReport `json:"gold,omitempty"`
		Silver *eval.TreesReport `json:"silver,omitempty"`
	}
	var out both
	if gold != "" && pdfs != "" {
		opts := treebuild.DefaultOptions()
		opts.UseOutline = useOutline
		opts.RunInHeadings = runIn
		rep, err := eval.RunTreesOCR(ctx, gold, pdfs, opts, oc)
		if err != nil {
			return err
		}
		out.Gold = &rep
	}
	if silver != "" {
		opts := treebuild.DefaultOptions()
		opts.UseOutline = false
		opts.RunInHeadings = runIn
		rep, err := eval.RunTrees(ctx, filepath.Join(silver, "gold"), filepath.Join(silver, "pdfs"), opts)
		if err != nil {
			return err
		}
		out.Silver = &rep
	}
	if asJSON {
		if out.Silver == nil {
			return writeJSON(stdout, out.Gold)
		}
		return writeJSON(stdout, out)
	}
	for i, rep := range []*eval.TreesReport{out.Gold, out.Silver} {
		if rep == nil {
			continue
		}
		if i == 1 {
			fmt.Fprintln(stdout, "\nSilver (outline off, scored against each PDF's own outline; titles are script-made, see the silver README)")
		}
		if err := rep.WriteTable(stdout); err != nil {
			return err
		}
		if diff != "" {
			for _, f := range rep.Files {
				if diff == "all" || strings.Contains(f.File, diff) {
					f.WriteDiff(stdout)
				}
			}
		}
	}
	return nil
}
