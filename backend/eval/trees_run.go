package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/papertree/papertree/backend/ocr"
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
	return RunTreesOCR(ctx, goldDir, pdfDir, opts, nil)
}

// RunTreesOCR is RunTrees that reads scanned pages with OCR when oc is set
// (to score image-only copies of the gold PDFs); nil: the text layer only.
func RunTreesOCR(ctx context.Context, goldDir, pdfDir string, opts treebuild.Options, oc *ocr.Config) (TreesReport, error) {
	golds, err := LoadGold(goldDir)
	if err != nil {
		return TreesReport{}, err
	}
	fams, err := LoadManifestFamilies(pdfDir)
	if err != nil {
		return TreesReport{}, err
	}
	// A silver folder labels its families in SOURCES.tsv; those labels win
	// and split the families into a dev and a check half.
	srcFams, err := LoadSourceFamilies(pdfDir)
	if err != nil {
		return TreesReport{}, err
	}
	splits := SplitFamilies(srcFams)
	for f, fam := range srcFams {
		fams[f] = fam
	}
	rep := TreesReport{UseOutline: opts.UseOutline}
	for _, g := range golds {
		if err := ctx.Err(); err != nil {
			return rep, papertree.Wrap(err, papertree.ECanceled, "evaluation cancelled")
		}
		f := FileTreeScore{File: g.File, Family: fams[g.File], Hard: g.Hard(), Gold: g.Headings, GoldTitle: g.Title}
		if fam, ok := srcFams[g.File]; ok {
			f.Split = splits[fam]
		}
		if f.Family == "" {
			f.Family = FamilyJournal
		}
		if f.Hard {
			f.Family = FamilyHard
		}
		paper, pages, perr := buildPaper(ctx, filepath.Join(pdfDir, g.File), opts, oc)
		var pred []papertree.Heading
		if paper != nil {
			pred = papertree.Headings(paper.Root)
			if len(srcFams) > 0 {
				// Silver trees come from outlines, which never carry run-in
				// paragraph headings: leave those predictions out (counted).
				kept := pred[:0]
				for _, h := range pred {
					if h.RunIn {
						f.RunInLeftOut++
						continue
					}
					kept = append(kept, h)
				}
				pred = kept
			}
			f.Title, f.Authors = paper.Title, paper.Authors
		}
		f.TitleOK = TitleMatch(f.GoldTitle, f.Title)
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

func buildPaper(ctx context.Context, path string, opts treebuild.Options, oc *ocr.Config) (*papertree.Paper, int, error) {
	var doc *pdf.Document
	var err error
	if oc == nil {
		doc, err = pdf.Open(ctx, path, pdf.Options{})
	} else {
		doc, err = openOCR(ctx, path, *oc)
	}
	if err != nil {
		return nil, 0, err
	}
	p, err := treebuild.Build(ctx, doc, opts)
	if err != nil {
		return nil, len(doc.Pages), err
	}
	return p, len(doc.Pages), nil
}

func openOCR(ctx context.Context, path string, oc ocr.Config) (*pdf.Document, error) {
	f, size, err := pdf.OpenRegular(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := pdf.Parse(ctx, f, size, pdf.Options{})
	doc, _, err = ocr.Apply(ctx, path, f, size, pdf.Options{}, doc, err, oc, ocr.Hooks{})
	return doc, err
}

// WriteJSON writes the report as indented JSON.
func (r *TreesReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
