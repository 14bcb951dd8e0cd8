package app

import (
	"bytes"
	"context"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/compare"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
)

// CompareInput asks for a comparison table.
type CompareInput struct {
	PaperIDs []string `json:"paperIds"` // empty = every indexed paper (at most 40)
	Aspects  []string `json:"aspects"`  // empty = proposed from the papers' headings
}

// CompareView is a cross-paper table: a row per paper, a column per aspect,
// each cell the paper's own sentence with its evidence (or not found).
type CompareView struct {
	Papers          []ComparePaperView `json:"papers"`
	Aspects         []string           `json:"aspects"`
	Cells           []CompareCellView  `json:"cells"`
	AspectsProposed bool               `json:"aspectsProposed"`
	Warnings        []string           `json:"warnings"`
	Millis          float64            `json:"millis"`
}

// ComparePaperView is one row.
type ComparePaperView struct {
	PaperID    string `json:"paperId"`
	PaperTitle string `json:"paperTitle"`
}

// CompareCellView is one cell; Evidence resolves like an answer's citation
// (click: highlight the path, open the page).
type CompareCellView struct {
	PaperID  string         `json:"paperId"`
	Aspect   string         `json:"aspect"`
	Text     string         `json:"text"`
	NotFound bool           `json:"notFound"`
	Evidence []EvidenceView `json:"evidence"`
}

// Comparer is implemented by libraries that can build comparison tables
// (Backend does); kept apart from Library so fakes need not implement it.
type Comparer interface {
	Compare(ctx context.Context, in CompareInput) (CompareView, *compare.Table, error)
}

// Compare builds a comparison table (no model needed).
func (a *App) Compare(in CompareInput) (CompareView, error) {
	c, err := a.comparer()
	if err != nil {
		return CompareView{}, err
	}
	v, _, err := c.Compare(a.context(), in)
	if err != nil {
		return CompareView{}, asCoded(err, "The comparison could not be built.")
	}
	return v, nil
}

// CompareFormats are the export formats of a comparison table.
func (a *App) CompareFormats() []string { return append([]string{"csv"}, report.Formats()...) }

// ExportCompare builds the table again (it is deterministic) and saves it as
// CSV, or as a Markdown / HTML / PDF / DOCX report, where the user chooses.
// It returns the written path, or "" when the user cancelled.
func (a *App) ExportCompare(in CompareInput, format string) (string, error) {
	c, err := a.comparer()
	if err != nil {
		return "", err
	}
	format = strings.ToLower(strings.TrimPrefix(format, "."))
	ok := false
	for _, f := range a.CompareFormats() {
		ok = ok || f == format
	}
	if !ok {
		return "", papertree.Errorf(papertree.EInvalid, "Unknown export format %q (have: %s).", format, strings.Join(a.CompareFormats(), ", "))
	}
	_, t, err := c.Compare(a.context(), in)
	if err != nil {
		return "", asCoded(err, "The comparison could not be built.")
	}
	var buf bytes.Buffer
	if format == "csv" {
		b, err := t.CSV()
		if err != nil {
			return "", asCoded(err, "The table could not be written.")
		}
		buf.Write(b)
	} else if err := report.Write(&buf, format, report.Doc{Tables: []report.Table{t.ReportTable("Comparison")}, Generated: time.Now()}); err != nil {
		return "", asCoded(err, "The report could not be written.")
	}
	return a.saveAs("papertree-comparison-"+time.Now().Format("2006-01-02"), "."+format, buf.Bytes())
}

func (a *App) comparer() (Comparer, error) {
	lib, err := a.ready()
	if err != nil {
		return nil, err
	}
	c, ok := lib.(Comparer)
	if !ok {
		return nil, papertree.Errorf(papertree.EConflict, "Comparison tables are not available in this build.")
	}
	return c, nil
}

// saveAs saves an exported comparison where the user chooses ("" when cancelled).
func (a *App) saveAs(name, ext string, data []byte) (string, error) {
	path, err := a.saveFile("Export comparison", "file", name, ext, data)
	if err != nil || path == "" {
		return path, err
	}
	a.log.Info("exported comparison", "path", path)
	return path, nil
}

// Compare builds the table through the library (Backend implements Comparer).
func (b *Backend) Compare(ctx context.Context, in CompareInput) (CompareView, *compare.Table, error) {
	req := compare.Request{Aspects: in.Aspects}
	for _, s := range in.PaperIDs {
		id, err := parseID(s, "paper")
		if err != nil {
			return CompareView{}, nil, err
		}
		req.PaperIDs = append(req.PaperIDs, id)
	}
	t, err := b.lib.Compare(ctx, req)
	if err != nil {
		return CompareView{}, nil, err
	}
	v := CompareView{Aspects: t.Aspects, AspectsProposed: t.AspectsProposed, Warnings: t.Warnings, Millis: t.Timings["total"],
		Papers: []ComparePaperView{}, Cells: []CompareCellView{}}
	if v.Warnings == nil {
		v.Warnings = []string{}
	}
	title := map[int64]string{}
	for _, p := range t.Papers {
		v.Papers = append(v.Papers, ComparePaperView{PaperID: idString(p.PaperID), PaperTitle: p.PaperTitle})
		title[p.PaperID] = p.PaperTitle
	}
	for _, c := range t.Cells {
		cv := CompareCellView{PaperID: idString(c.PaperID), Aspect: c.Aspect, Text: c.Text, NotFound: c.NotFound, Evidence: []EvidenceView{}}
		for _, e := range c.Evidence {
			pages := e.Pages
			if pages == nil {
				pages = []int{}
			}
			cv.Evidence = append(cv.Evidence, EvidenceView{PaperID: idString(e.PaperID), PaperTitle: title[e.PaperID], NodeID: idString(e.NodeID),
				Kind: string(papertree.KindSegment), Path: e.Path, PathIDs: idStrings(e.PathIDs), Text: e.Text, Pages: pages, Boxes: boxViews(e.Boxes), Score: c.Score})
		}
		v.Cells = append(v.Cells, cv)
	}
	return v, t, nil
}
