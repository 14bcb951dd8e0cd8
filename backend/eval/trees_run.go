package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
	"github.com/papertree/papertree/backend/treebuild"
)

// RunTrees parses every PDF that has a gold tree in goldDir (files are
// looked up in pdfDir by the gold "file" name), builds its tree with opts
// and scores the headings. A file that fails to parse or build is scored as
// an empty prediction and listed in ParseFailures, so one bad file never
// hides the others' numbers. Families come from pdfDir/MANIFEST.md.
func RunTrees(ctx context.Context, goldDir, pdfDir string, opts treebuild.Options) (TreesReport, error) {
	golds, err := LoadGold(goldDir)
	if err != nil {
		return TreesReport{}, err
	}
	fams, err := LoadManifestFamilies(pdfDir)
	if err != nil {
		return TreesReport{}, err
	}
	rep := TreesReport{UseOutline: opts.UseOutline}
	for _, g := range golds {
		if err := ctx.Err(); err != nil {
			return rep, papertree.Wrap(err, papertree.ECanceled, "evaluation cancelled")
		}
		f := FileTreeScore{File: g.File, Family: fams[g.File], Hard: g.Hard(), Gold: g.Headings}
		if f.Family == "" {
			f.Family = FamilyJournal
		}
		if f.Hard {
			f.Family = FamilyHard
		}
		pred, pages, perr := buildHeadings(ctx, filepath.Join(pdfDir, g.File), opts)
		if perr != nil {
			f.ParseError = fmt.Sprintf("[%s] %v", papertree.ErrorCode(perr), perr)
			rep.ParseFailures = append(rep.ParseFailures, g.File+": "+f.ParseError)
		}
		f.Pages = pages
		f.Predicted = pred
		f.Score = ScoreHeadings(g, pred)
		rep.Files = append(rep.Files, f)
	}
	rep.Summarise()
	return rep, nil
}

func buildHeadings(ctx context.Context, path string, opts treebuild.Options) ([]papertree.Heading, int, error) {
	doc, err := pdf.Open(ctx, path, pdf.Options{})
	if err != nil {
		return nil, 0, err
	}
	p, err := treebuild.Build(ctx, doc, opts)
	if err != nil {
		return nil, len(doc.Pages), err
	}
	return papertree.Headings(p.Root), len(doc.Pages), nil
}

// WriteJSON writes the report as indented JSON.
func (r *TreesReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
