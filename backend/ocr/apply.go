package ocr

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Config switches OCR on or off and picks its languages. The zero value is
// OCR on, in English.
type Config struct {
	Off       bool
	Languages string // tesseract codes joined by '+' ("eng+deu"); "" = eng
}

// Hooks connect Apply to its caller's job; every field is optional.
type Hooks struct {
	Slots    chan struct{}         // shared tesseract slots (Options.Slots)
	Progress func(done, total int) // after each page, and once with done 0 before the first
	// Pause stops the caller's time limit while OCR runs (it has its own
	// per page) and returns the function that restarts it.
	Pause func() func()
	// Cache keeps the pages read from this file (same content, languages
	// and CacheVersion): pages it holds are not read again.
	Cache Cache
}

// Cache holds the words read from the pages of one file.
type Cache interface {
	// Get returns the pages read before, by page number.
	Get() map[int][]pdf.Run
	// Put keeps one page's words (it must copy or encode them: Apply
	// changes the runs it returns).
	Put(page int, runs []pdf.Run)
}

// Outcome is what Apply did to one document.
type Outcome struct {
	Pages     int      // pages whose text is now OCR
	Skipped   int      // pages that needed OCR and kept their layer (OCR off or not installed)
	Failed    int      // pages OCR could not read (a page over its time limit, a tool error)
	Languages string   // languages used ("" when OCR did not run)
	Warnings  []string // for Paper.Warnings
}

// Apply reads the pages of doc that need it (pdf.PlanOCR) with OCR and puts
// their words in place. perr is pdf.Parse's error: a file without any text
// (ENoText) is read from its page geometry (pdf.Geometry on r), any other
// error is returned as it is. Without OCR (switched off, or not installed)
// a document with some usable text is kept as it is, with a warning; one
// without is an error that says what to do.
func Apply(ctx context.Context, path string, r io.ReaderAt, size int64, popts pdf.Options, doc *pdf.Document, perr error,
	cfg Config, h Hooks) (*pdf.Document, Outcome, error) {
	var out Outcome
	if perr != nil {
		if papertree.ErrorCode(perr) != papertree.ENoText || cfg.Off {
			return nil, out, perr
		}
		g, err := pdf.Geometry(ctx, r, size, popts)
		if err != nil {
			return nil, out, perr
		}
		doc = g
	}
	plan := pdf.PlanOCR(doc)
	pages := plan.Pages()
	if len(pages) == 0 {
		return doc, out, nil
	}
	usable := perr == nil && !doc.Garbled // some text to index without OCR
	if cfg.Off {
		if usable && len(plan.Poor) > 0 {
			out.Skipped = len(plan.Poor)
			out.Warnings = append(out.Warnings, fmt.Sprintf("the text layer of %s looks like poor OCR; turn OCR on in Settings to read them again", pageCount(len(plan.Poor))))
		}
		return doc, out, nil // a garbled layer: the tree builder says so
	}
	opts := Options{Languages: cfg.Languages, Slots: h.Slots}.withDefaults()
	if err := Check(ctx, opts.Languages); err != nil {
		if !usable && doc.Garbled && papertree.ErrorMessage(err) == MissingMessage {
			return nil, out, &papertree.Error{Code: papertree.EGarbled, Op: "ocr", Err: err,
				Message: "The PDF's text layer is garbled (its fonts have no usable character map) and OCR, which could read it, is not installed: install tesseract-ocr."}
		}
		if !usable {
			return nil, out, err
		}
		out.Skipped = len(pages)
		out.Warnings = append(out.Warnings, fmt.Sprintf("%s of this PDF need OCR, which is not installed (install tesseract-ocr); their text layer was kept as it is", pageCount(len(pages))))
		return doc, out, nil
	}
	var cached map[int][]pdf.Run
	if h.Cache != nil {
		cached = h.Cache.Get()
		opts.OnPage = h.Cache.Put
	}
	req := make([]Page, 0, len(pages))
	for _, n := range pages {
		if _, ok := cached[n]; ok {
			continue // read before: its words come from the cache
		}
		pg := doc.Pages[n-1]
		req = append(req, Page{Number: n, Width: pg.Width, Height: pg.Height})
	}
	res, err := Result{Runs: map[int][]pdf.Run{}}, error(nil)
	if len(req) > 0 {
		resume := func() {}
		if h.Pause != nil {
			resume = h.Pause()
		}
		if h.Progress != nil {
			h.Progress(0, len(req))
		}
		res, err = Pages(ctx, path, req, opts, h.Progress)
		resume()
	}
	for _, n := range pages {
		if runs, ok := cached[n]; ok && len(runs) > 0 {
			res.Runs[n] = runs
		}
	}
	if err != nil {
		if usable && papertree.ErrorCode(err) == papertree.ETooLarge {
			out.Skipped = len(pages)
			out.Warnings = append(out.Warnings, papertree.ErrorMessage(err)+" Its text layer was kept as it is.")
			return doc, out, nil
		}
		return nil, out, err
	}
	out.Languages = opts.Languages
	poor := map[int]bool{}
	for _, n := range plan.Poor {
		poor[n] = true
	}
	replaced := map[int][]pdf.Run{}
	for _, n := range pages {
		runs, ok := res.Runs[n]
		switch {
		case !ok && doc.Garbled:
			replaced[n] = nil // garbage is worse than nothing
		case !ok:
			// Nothing read (a blank page, a failed page): keep what was there.
		case poor[n] && !doc.Garbled && !betterLayer(runs, doc.Pages[n-1].Runs):
			// Reading again did not help: the scan itself is poor.
		default:
			replaced[n] = runs
		}
	}
	// OCR pages take the typography of the pages that kept their text, so
	// that the tree builder sees one paper, not two.
	font, body := Font, 0.0
	if !doc.Garbled {
		font, body = dominantStyle(doc.Pages, replaced)
	}
	read := map[int][]pdf.Run{}
	for n, runs := range replaced {
		if len(runs) > 0 {
			read[n] = runs
		}
	}
	SnapSizes(read, body)
	for n, runs := range replaced {
		for i := range runs {
			runs[i].Font = font
		}
		doc.Pages[n-1].Runs = runs
		doc.Pages[n-1].TextQuality = 1
		if len(runs) > 0 {
			out.Pages++
		}
	}
	if doc.Garbled {
		doc.Garbled, doc.TextQuality = false, 1
	}
	if len(res.Failed) > 0 {
		out.Failed = len(res.Failed)
		out.Warnings = append(out.Warnings, fmt.Sprintf("OCR could not read %s (%s)", pageCount(len(res.Failed)), res.FailReason))
	}
	if !hasText(doc) {
		msg := "This PDF is a scan and OCR found no text on its pages."
		if len(res.Failed) > 0 {
			msg = fmt.Sprintf("This PDF is a scan and OCR could not read it (%s).", res.FailReason)
		}
		return nil, out, &papertree.Error{Code: papertree.ENoText, Op: "ocr", Message: msg}
	}
	if out.Pages > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("text of %d of %d pages read by OCR (%s); it may contain recognition errors", out.Pages, len(doc.Pages), out.Languages))
	}
	return doc, out, nil
}

// betterLayer reports whether OCR's words read better than the old layer's.
func betterLayer(ocrRuns, old []pdf.Run) bool {
	score := func(l pdf.Layer) float64 { return l.DictLike - l.Noise - l.Spaced }
	return score(pdf.MeasureLayer(pdf.Page{Runs: ocrRuns})) > score(pdf.MeasureLayer(pdf.Page{Runs: old}))
}

// dominantStyle is the font and size with the most characters on the pages
// that keep their own text (Font and 0 when there are none).
func dominantStyle(pages []pdf.Page, replaced map[int][]pdf.Run) (string, float64) {
	type key struct {
		font string
		size float64
	}
	chars := map[key]int{}
	for _, pg := range pages {
		if _, ok := replaced[pg.Number]; ok {
			continue
		}
		for _, r := range pg.Runs {
			chars[key{r.Font, float64(int(r.Size*2+0.5)) / 2}] += len(r.Text)
		}
	}
	best, k := 0, key{Font, 0}
	for c, n := range chars {
		if n > best || n == best && c.font < k.font {
			best, k = n, c
		}
	}
	return k.font, k.size
}

func hasText(doc *pdf.Document) bool {
	for _, pg := range doc.Pages {
		if len(pg.Runs) > 0 {
			return true
		}
	}
	return false
}

func pageCount(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}

// Langs is the canonical form of a languages setting: codes joined by
// '+' ("eng+deu"; commas and spaces also separate), DefaultLanguages when
// empty.
func Langs(s string) string {
	out := strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ',' || r == ' ' }), "+")
	if out == "" {
		return DefaultLanguages
	}
	return out
}
