package pdf

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	lib "github.com/ledongthuc/pdf"
)

// Word-breaking thresholds, in units of the font size. A gap wider than
// wordGap between two glyphs on one baseline starts a new run: TeX puts
// no space glyph between words, only a positioning offset of about a
// third of an em (less on tight lines), while kerning moves glyphs by a few
// hundredths of an em.
const (
	wordGap       = 0.15
	baselineSlack = 0.2 // |dy| beyond this fraction of the size is a new line
	backtrack     = 0.5 // moving left by more than this is a new run
)

// pageSize returns the displayed page size: the crop box (else media box,
// else US Letter), swapped for pages with /Rotate 90 or 270.
func pageSize(p lib.Page) (w, h float64) {
	x0, y0, x1, y1 := pageBox(p)
	if r := pageRotation(p); r == 90 || r == 270 {
		return y1 - y0, x1 - x0
	}
	return x1 - x0, y1 - y0
}

// pageRotation returns the page's inherited /Rotate as 0, 90, 180 or 270
// (clockwise, as PDF defines it).
func pageRotation(p lib.Page) int {
	v := p.V
	for i := 0; i < 32 && v.Kind() == lib.Dict; i++ {
		if r := v.Key("Rotate"); r.Kind() == lib.Integer || r.Kind() == lib.Real {
			deg := int(r.Float64()) % 360
			if deg < 0 {
				deg += 360
			}
			return deg / 90 * 90
		}
		v = v.Key("Parent")
	}
	return 0
}

// view maps user space to the displayed page: top-left origin, y down,
// after the page rotation.
type view struct {
	x0, y0, x1, y1 float64
	rot            int
}

func (v view) point(x, y float64) (float64, float64) {
	switch v.rot {
	case 90:
		return y - v.y0, x - v.x0
	case 180:
		return v.x1 - x, y - v.y0
	case 270:
		return v.y1 - y, v.x1 - x
	}
	return x - v.x0, v.y1 - y
}

// dir maps a text direction from user space to the displayed page (x right,
// y down).
func (v view) dir(dx, dy float64) (float64, float64) {
	switch v.rot {
	case 90:
		return dy, dx
	case 180:
		return -dx, dy
	case 270:
		return -dy, -dx
	}
	return dx, -dy
}

func pageBox(p lib.Page) (x0, y0, x1, y1 float64) {
	for _, b := range []lib.Value{p.CropBox(), p.MediaBox()} {
		if b.Len() != 4 {
			continue
		}
		a, c := b.Index(0).Float64(), b.Index(2).Float64()
		d, e := b.Index(1).Float64(), b.Index(3).Float64()
		x0, x1 = math.Min(a, c), math.Max(a, c)
		y0, y1 = math.Min(d, e), math.Max(d, e)
		if x1-x0 >= 1 && y1-y0 >= 1 && x1-x0 < 1e5 && y1-y0 < 1e5 {
			return x0, y0, x1, y1
		}
	}
	return 0, 0, 612, 792
}

// runLimit is the run budget of one page: at most page runs on it and at
// most doc runs in the document, of which used are already taken.
type runLimit struct{ page, doc, used int }

// runsError reports a page or document over its run budget.
type runsError struct {
	page  bool // the page budget (else the document's)
	limit int
}

func (e *runsError) Error() string {
	if e.page {
		return fmt.Sprintf("more than %d runs on one page", e.limit)
	}
	return fmt.Sprintf("more than %d runs in the document", e.limit)
}

func (e *runsError) message() string {
	if e.page {
		return fmt.Sprintf("The PDF is too complex to read safely, so it was skipped: a page has more than %d words.", e.limit)
	}
	return fmt.Sprintf("The PDF is too complex to read safely, so it was skipped: it has more than %d words.", e.limit)
}

// extractPage reads one page's glyphs and groups them into runs, streaming
// (a page's glyphs are never all in memory). styles caches bold/italic per
// font name across the document; q accumulates text quality. A page over
// its run budget stops the Reader (rd.Err reports it).
func extractPage(rd *lib.Reader, p lib.Page, number int, styles map[string]fontStyle, q *qualityCounter, lim runLimit) Page {
	x0, y0, x1, y1 := pageBox(p)
	pg := Page{Number: number}
	pg.Width, pg.Height = pageSize(p)
	var pq qualityCounter
	gr := grouper{view: view{x0, y0, x1, y1, pageRotation(p)}, styles: styles, max: lim.page}
	var over *runsError
	if lim.doc > 0 && (lim.page <= 0 || lim.doc-lim.used < lim.page) {
		gr.max = max(lim.doc-lim.used, 0)
		over = &runsError{limit: lim.doc}
	} else if lim.page > 0 {
		over = &runsError{page: true, limit: lim.page}
	}
	var umFonts map[string]bool
	p.WalkText(func(g lib.Text) {
		if gr.over {
			return
		}
		pq.addGlyph(g.S, g.Unmapped)
		if g.Unmapped && !umFonts[g.Font] {
			if umFonts == nil {
				umFonts = map[string]bool{}
			}
			umFonts[g.Font] = true
		}
		gr.add(g)
		if gr.over {
			rd.Abort(over)
		}
	})
	pg.Runs = gr.finish()
	if umFonts != nil {
		pq.addWords(pg.Runs, umFonts)
	}
	pg.TextQuality = 1
	if pq.total > 0 {
		pg.TextQuality = math.Round(pq.quality()*1000) / 1000
	}
	q.merge(pq) // only once the page is known to be readable
	return pg
}

// grouper turns glyphs into runs (top-left origin): consecutive glyphs in
// one font and size on one baseline with no word gap between them.
// Whitespace glyphs end a run and are dropped. The open run's text is
// built in a strings.Builder (appending glyph by glyph to a string was
// quadratic in the length of a word) and is cut at maxWordBytes.
type grouper struct {
	view   view
	styles map[string]fontStyle
	runs   []Run
	cur    Run
	text   strings.Builder // text of cur
	open   bool
	endX   float64 // right edge of the current run
	max    int     // runs allowed (0 = no limit)
	over   bool    // max was exceeded
}

func (gr *grouper) flush() {
	if gr.open && gr.text.Len() > 0 {
		if gr.max > 0 && len(gr.runs) >= gr.max {
			gr.over = true
		} else {
			gr.cur.W = round2(gr.cur.W)
			gr.cur.Text = gr.text.String()
			gr.runs = append(gr.runs, gr.cur)
		}
	}
	gr.text.Reset()
	gr.open = false
}

func (gr *grouper) finish() []Run {
	gr.flush()
	return gr.runs
}

func (gr *grouper) add(g lib.Text) {
	text := normalizeGlyph(g.S)
	if isBlank(text) {
		gr.flush()
		return
	}
	size := round2(g.FontSize)
	if size <= 0 || math.IsNaN(g.X) || math.IsNaN(g.Y) || math.IsInf(g.X, 0) || math.IsInf(g.Y, 0) {
		return
	}
	x, y := gr.view.point(g.X, g.Y)
	// Rotated means "not left-to-right as displayed": upright text on a
	// /Rotate 90 page runs along user-space y but reads normally.
	dx, dy := gr.view.dir(g.DirX, g.DirY)
	rotated := dx <= 0 || math.Abs(dy) > 0.1*dx
	w := g.W
	if (w <= 0 || math.IsNaN(w) || math.IsInf(w, 0)) && !isMark(text) {
		w = size * 0.5
	}
	cur := &gr.cur
	long := gr.text.Len()+len(text) > maxWordBytes
	if gr.open && !long && cur.Font == g.Font && math.Abs(cur.Size-size) <= 0.01*size &&
		cur.Rotated == rotated && cur.Invisible == g.Invisible {
		if rotated {
			// No direction to measure gaps along: rely on whitespace.
			gr.text.WriteString(text)
			cur.W += w
			return
		}
		if math.Abs(y-cur.Y) <= baselineSlack*size && x >= gr.endX-backtrack*size && x-gr.endX <= wordGap*size {
			gr.text.WriteString(text)
			gr.endX = math.Max(gr.endX, x+w)
			cur.W = gr.endX - cur.X
			return
		}
	}
	// A new run that starts right where the open one ends (a font or size
	// change inside a word: "B"+"idirectional", "BERT"+",", a footnote
	// mark) is glued to it; whitespace or a word gap closes a run first.
	// A word cut at maxWordBytes goes on in a glued run.
	glued := gr.open && !rotated && !cur.Rotated &&
		math.Abs(y-cur.Y) <= 0.5*math.Max(size, cur.Size) &&
		x >= gr.endX-backtrack*size && x-gr.endX <= wordGap*math.Min(size, cur.Size)
	gr.flush()
	st, ok := gr.styles[g.Font]
	if !ok {
		st = styleFromName(g.Font)
		gr.styles[g.Font] = st
	}
	bold, italic := st.bold, st.italic
	if g.FontFlags&(1<<18) != 0 || g.FontWeight >= 600 {
		bold = true
	}
	// ItalicAngle is trusted only for non-symbolic fonts: math symbol
	// fonts (CMSY) are slanted without being "italic text".
	if g.FontFlags&(1<<6) != 0 || (g.FontFlags&(1<<2) == 0 && g.ItalicAngle != 0 && math.Abs(g.ItalicAngle) < 45) {
		italic = true
	}
	*cur = Run{
		Font: g.Font, Size: size, Bold: bold, Italic: italic,
		X: round2(x), Y: round2(y), W: w,
		Rotated: rotated, Invisible: g.Invisible, Glued: glued,
	}
	gr.text.WriteString(text)
	gr.open = true
	gr.endX = x + w
}

// isBlank reports whether s is empty or only whitespace.
func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// isMark reports whether s is only combining marks (legitimately zero width).
func isMark(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

// ligatures maps presentation-form ligature glyphs to their letters.
var ligatures = strings.NewReplacer(
	"\uFB00", "ff", "\uFB01", "fi", "\uFB02", "fl", "\uFB03", "ffi", "\uFB04", "ffl",
	"\uFB05", "st", "\uFB06", "st",
)

func normalizeGlyph(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ligatures.Replace(s)
		}
	}
	return s
}

type fontStyle struct{ bold, italic bool }

// styleFromName infers weight and slant from a base font name (subset
// prefix already removed), covering PostScript names ("Times-Bold",
// "Arial-BoldItalicMT"), URW names ("NimbusRomNo9L-Medi", "-ReguItal"),
// TeX Computer Modern ("CMBX10", "CMTI10", "CMMI10") and TeX's Berry names
// for PostScript fonts ("ptmb8r", "ptmri8r").
func styleFromName(name string) fontStyle {
	n := strings.ToLower(name)
	var st fontStyle
	for _, k := range []string{"bold", "black", "heavy", "semibold", "demibold", "demi", "medi", "extrabold", "ultrabold", "-bd", ",bd", "-sb"} {
		if strings.Contains(n, k) {
			st.bold = true
			break
		}
	}
	for _, k := range []string{"italic", "oblique", "ital", "-it", ",it", "slant", "kursiv", "-ita", "-obl"} {
		if strings.Contains(n, k) {
			st.italic = true
			break
		}
	}
	// TeX Computer Modern names.
	switch {
	case strings.HasPrefix(n, "cmbx"), strings.HasPrefix(n, "cmb1"), strings.HasPrefix(n, "cmssbx"), strings.HasPrefix(n, "cmbsy"):
		st.bold = true
	}
	switch {
	case strings.HasPrefix(n, "cmti"), strings.HasPrefix(n, "cmmi"), strings.HasPrefix(n, "cmsl"),
		strings.HasPrefix(n, "cmbxti"), strings.HasPrefix(n, "cmbxsl"), strings.HasPrefix(n, "cmssi"):
		st.italic = true
	}
	// Berry names of PostScript fonts in TeX: family (3 letters), weight,
	// variant, encoding: ptmr8r (Times), ptmb8r (bold), ptmri8r (italic),
	// ptmbi8r (bold italic), phvro8r (Helvetica oblique).
	if len(n) >= 6 && len(n) <= 8 && (n[0] == 'p' || n[0] == 'u' || n[0] == 'z') && strings.Contains(n[4:], "8") {
		switch n[3] {
		case 'b', 's', 'd', 'h', 'x':
			st.bold = true
		}
		if n[4] == 'i' || n[4] == 'o' {
			st.italic = true
		}
	}
	return st
}
