package pdf

import (
	"context"
	"io"
	"sort"
	"strings"
	"unicode"

	lib "github.com/ledongthuc/pdf"

	"github.com/papertree/papertree/backend/papertree"
)

// This file serves OCR (backend/ocr): it tells which pages need it (no
// text, or a text layer too poor to trust) and reads the page geometry of a
// PDF that has no text at all, which Parse refuses with ENoText.

// Layer measures how readable one page's text layer is. Scans that carry an
// OCR layer from the 1990s-2000s often read as "OWHWTMV OMNICTIOH", letter-
// space words ("U N I V E R S A L S") or mix digits and symbols into words;
// their characters are all plausible, so TextQuality does not see it.
type Layer struct {
	Words int // words on the page (runs joined across glued pieces)
	// DictLike is the share of words that look like dictionary words or
	// numbers: letters in one case pattern (lower, Capitalised, UPPER),
	// a vowel, no run of more than five consonants.
	DictLike float64
	// Noise is the share of non-space characters that are implausible
	// (see TextQuality) or break a word's character class (a digit or a
	// symbol inside letters, a letter inside a number).
	Noise float64
	// Spaced is the share of words that are single letters in a row of at
	// least four single letters: letter-spaced words.
	Spaced float64
}

// Thresholds of a poor layer. The median page of a born-digital paper
// scores DictLike 0.85-0.98, Noise under 0.05 and Spaced 0; Type 3 fonts
// without a Unicode map score 0.03-0.15 with Noise near 0.5; OCR layers of
// the scanned classics score 0.88-0.97 on most pages and 0.6-0.7, or
// letter-spaced headings, on their worst.
const (
	poorMinWords = 25
	poorDictLike = 0.70
	poorNoise    = 0.12
	poorSpaced   = 0.08
)

// Poor reports a layer too poor to index as it is (OCR it again).
func (l Layer) Poor() bool {
	if l.Words < poorMinWords {
		return false
	}
	return l.DictLike < poorDictLike || l.Noise > poorNoise || l.Spaced > poorSpaced
}

// MeasureLayer measures the text layer of pg.
func MeasureLayer(pg Page) Layer {
	words := layerWords(pg.Runs)
	var l Layer
	l.Words = len(words)
	if len(words) == 0 {
		return l
	}
	dict, noisy, chars, spaced := 0, 0, 0, 0
	single := 0 // single letters in the current row
	flush := func() {
		if single >= 4 {
			spaced += single
		}
		single = 0
	}
	for _, w := range words {
		if dictLike(w) {
			dict++
		}
		n, c := charNoise(w)
		noisy += n
		chars += c
		if r := []rune(strings.TrimFunc(w, unicode.IsPunct)); len(r) == 1 && unicode.IsLetter(r[0]) {
			single++
		} else {
			flush()
		}
	}
	flush()
	l.DictLike = float64(dict) / float64(len(words))
	l.Spaced = float64(spaced) / float64(len(words))
	if chars > 0 {
		l.Noise = float64(noisy) / float64(chars)
	}
	return l
}

// layerWords joins glued runs into words.
func layerWords(runs []Run) []string {
	var out []string
	for _, r := range runs {
		if r.Rotated {
			continue
		}
		if r.Glued && len(out) > 0 {
			out[len(out)-1] += r.Text
			continue
		}
		out = append(out, r.Text)
	}
	return out
}

// dictLike reports a word that could be in a dictionary (any Latin-script
// language) or a number.
func dictLike(w string) bool {
	w = strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
	if w == "" {
		return false
	}
	letters, digits, vowels, upper, consRun, maxCons := 0, 0, 0, 0, 0, 0
	firstUpper := false
	for i, r := range []rune(w) {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
				if i == 0 {
					firstUpper = true
				}
			}
			if isVowel(r) {
				vowels++
				consRun = 0
			} else {
				consRun++
				maxCons = max(maxCons, consRun)
			}
		case unicode.IsDigit(r):
			digits++
			consRun = 0
		case r == '-' || r == '\'' || r == '’' || r == '.' || r == ',' || r == '/':
			consRun = 0
		default:
			return false
		}
	}
	switch {
	case letters == 0:
		return digits > 0
	case digits > 0:
		return false
	case letters == 1:
		// "a", "I", "A", an initial: fine alone (runs of them are Spaced).
		return true
	case vowels == 0 || maxCons > 5:
		return false
	}
	// One case pattern: lower, Capitalised or UPPER.
	return upper == 0 || upper == letters || (upper == 1 && firstUpper)
}

func isVowel(r rune) bool {
	return strings.ContainsRune("aeiouyAEIOUYáéíóúàèìòùäëïöüâêîôûåæøœÁÉÍÓÚÀÈÌÒÙÄËÏÖÜÂÊÎÔÛÅÆØŒ", r)
}

// charNoise counts the implausible characters of a word and the
// characters that break its class: digits or symbols among letters, letters
// among digits. Ordinary punctuation around or inside words is not noise.
func charNoise(w string) (noisy, total int) {
	letters, digits, symbols := 0, 0, 0
	for _, r := range w {
		if unicode.IsSpace(r) {
			continue
		}
		total++
		switch {
		case !plausible(r):
			noisy++
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case unicode.IsSymbol(r) || strings.ContainsRune("#%&*@\\|~^{}[]<>", r):
			symbols++
		}
	}
	if letters > 0 && letters >= digits {
		noisy += digits + symbols
	} else if digits > 0 {
		noisy += min(letters, digits) + symbols
	}
	return noisy, total
}

// Geometry reads the pages (sizes only, no text), the outline and the
// information dictionary of a PDF: what the tree builder needs around the
// words when every word comes from OCR. The same budgets and error codes
// as Parse apply.
func Geometry(ctx context.Context, r io.ReaderAt, size int64, opts Options) (doc *Document, err error) {
	if size <= 0 {
		return nil, coded(papertree.EEmptyFile, "The file is empty (0 bytes).", nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err)
	}
	budget := opts.budget()
	defer func() {
		if x := recover(); x != nil {
			doc = nil
			err = coded(papertree.EMalformed, "The PDF file is damaged and cannot be read.", panicError(x))
		}
	}()
	rd, err := lib.NewReaderLimits(r, size, budget.readerLimits(ctx))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, ctxError(cerr)
		}
		return nil, classifyOpenError(err)
	}
	var pages []lib.Page
	var more bool
	if err := protect(func() { pages, more = rd.PagesLimit(opts.MaxPages) }); err != nil {
		return nil, coded(papertree.EMalformed, "The PDF's page tree cannot be read.", err)
	}
	if e := stopError(ctx, rd.Err()); e != nil {
		return nil, e
	}
	if more && opts.MaxPages > 0 {
		return nil, coded(papertree.ETooLarge, "The PDF has too many pages.", nil)
	}
	if len(pages) == 0 {
		return nil, coded(papertree.EMalformed, "The PDF has no readable pages.", nil)
	}
	doc = &Document{Pages: make([]Page, len(pages)), TextQuality: 1}
	for i, p := range pages {
		pg := Page{Number: i + 1, TextQuality: 1}
		if protect(func() { pg.Width, pg.Height = pageSize(p) }) != nil || pg.Width == 0 {
			pg.Width, pg.Height = 612, 792
		}
		doc.Pages[i] = pg
	}
	_ = protect(func() { doc.Info = readInfo(rd.Trailer().Key("Info")) })
	_ = protect(func() { doc.Outline = readOutline(rd, pages) })
	if e := stopError(ctx, rd.Err()); e != nil && papertree.ErrorCode(e) != papertree.ETooComplex {
		return nil, e
	}
	return doc, nil
}

// OCRPlan is the pages of a document that need OCR and why.
type OCRPlan struct {
	// Empty pages have no text at all (page images), or could not be read.
	Empty []int
	// Poor pages have a text layer too poor to keep: an OCR layer (text
	// drawn invisible over the page image) that Layer.Poor rejects, or
	// every page of a Garbled document.
	Poor []int
}

// Pages is every page of the plan in order.
func (p OCRPlan) Pages() []int {
	out := append(append([]int(nil), p.Empty...), p.Poor...)
	sort.Ints(out)
	return out
}

// PlanOCR decides which pages of doc to read with OCR.
//
// Only text that is itself OCR is judged poor: a born-digital page of
// formulas, code, slides or another script measures like noise but is the
// best text there is (119 of the 2,497 pages with a visible text layer in
// the shared library, pdfs and silver sets score as poor; re-reading them
// from pixels would lose their math and their Chinese). A Garbled document (fonts without a
// Unicode map) is the exception: its text is unusable, so all of it is
// read again. When half or more of a document's OCR-layer pages are poor,
// all of them are read again, so that one paper's pages share one
// typography for the tree builder.
//
// Empty pages are read in a document that has no text at all, or an OCR
// layer on other pages (a scan with pages the scanner's OCR skipped), or
// no text on most pages. In a born-digital paper an empty page is a
// full-page figure or a blank page and is left alone.
func PlanOCR(doc *Document) OCRPlan {
	var plan OCRPlan
	if doc == nil {
		return plan
	}
	if doc.Garbled {
		for _, pg := range doc.Pages {
			plan.Poor = append(plan.Poor, pg.Number)
		}
		return plan
	}
	var empty, ocrLayer, poor []int
	for _, pg := range doc.Pages {
		if len(pg.Runs) == 0 {
			empty = append(empty, pg.Number)
			continue
		}
		if !invisibleLayer(pg) {
			continue
		}
		ocrLayer = append(ocrLayer, pg.Number)
		if MeasureLayer(pg).Poor() {
			poor = append(poor, pg.Number)
		}
	}
	switch {
	case len(poor) > 0 && 2*len(poor) >= len(ocrLayer):
		plan.Poor = ocrLayer
	default:
		plan.Poor = poor
	}
	if len(empty) == len(doc.Pages) || len(ocrLayer) > 0 || 2*len(empty) > len(doc.Pages) {
		plan.Empty = empty
	}
	return plan
}

// invisibleLayer reports a page whose text is mostly drawn invisible: the
// OCR layer over a scanned page image.
func invisibleLayer(pg Page) bool {
	inv := 0
	for _, r := range pg.Runs {
		if r.Invisible {
			inv++
		}
	}
	return 2*inv > len(pg.Runs)
}

// minLineWords is the share of a line's words that must be words of two
// or more letters for the line to read as language (see ReadableLine).
// Half, not poorDictLike: a title or heading is a handful of words, and an
// acronym, an initial, a model name or a year ("GPT-4 Technical Report",
// "LSTM: A Search Space Odyssey") is a large share of so few.
const minLineWords = 0.5

// ReadableLine reports whether a short text (a title, a heading) reads as
// language rather than symbol soup: the measure that decides OCR for a page
// (Layer), applied to one line. At least half of its words are words of two
// or more letters that could be in a dictionary (dictLike; a word in a
// script other than Latin counts as such a word, as dictLike knows only
// Latin vowels), and its character-class noise is within the page
// threshold. "dE=- 'in23 hC~RI~2." (a formula read by a scanner's OCR) and
// "18 - &. A. Schelkunoff pop ma a]" (a routing list entry with a stamp)
// fail; "Attention Is All You Need" and "深度学习综述" pass.
func ReadableLine(s string) bool {
	// Brackets part words: "Aiyagari(1994)" is a name and a year.
	fields := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("()[]{}", r) })
	if len(fields) == 0 {
		return false
	}
	words, noisy, chars := 0, 0, 0
	for _, w := range fields {
		if lineWord(w) {
			words++
		}
		n, c := charNoise(w)
		noisy += n
		chars += c
	}
	if chars == 0 {
		return false
	}
	return float64(words) >= minLineWords*float64(len(fields)) && float64(noisy) <= poorNoise*float64(chars)
}

// lineWord reports a word of two or more letters that could be in a
// dictionary: dictLike for Latin script, any run of letters (with the
// punctuation dictLike allows) for other scripts.
func lineWord(w string) bool {
	w = strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
	letters, latin := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.Is(unicode.Latin, r) {
				latin++
			}
		case unicode.IsMark(r) || r == '-' || r == '\'' || r == '’' || r == '.':
		default:
			return false
		}
	}
	if letters < 2 {
		return false
	}
	if latin == 0 {
		return true
	}
	return latin == letters && dictLike(w)
}
