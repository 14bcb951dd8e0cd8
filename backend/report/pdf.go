package report

import (
	"embed"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"codeberg.org/go-pdf/fpdf"
)

// The PDF embeds DejaVu Sans (Latin, Greek, Cyrillic) and, only when a
// report contains CJK text, Droid Sans Fallback; see fonts/README.md for the
// licences. fpdf subsets both, so a report carries only the glyphs it uses.
//
//go:embed fonts/DejaVuSans.ttf fonts/DejaVuSans-Bold.ttf fonts/DejaVuSans-Oblique.ttf fonts/DroidSansFallbackFull.ttf
var fontFS embed.FS

const (
	fontMain = "dejavu"
	fontCJK  = "droidcjk" // one face: bold and italic CJK fall back to regular
)

type rgb struct{ r, g, b int }

var (
	colInk    = rgb{29, 35, 48}
	colMuted  = rgb{93, 103, 120}
	colRule   = rgb{210, 216, 226}
	colAccent = rgb{47, 93, 158}
	colQuote  = rgb{244, 246, 250}
	colGreen  = rgb{45, 106, 62}
	colGreenB = rgb{231, 243, 234}
	colBlueB  = rgb{228, 236, 247}
	colWarn   = rgb{154, 91, 0}
	colWarnB  = rgb{251, 238, 221}
)

const (
	marginL, marginT, marginR = 20.0, 18.0, 20.0
	marginB                   = 20.0 // text never goes below pageH-marginB
)

// PDF writes d as an A4 PDF with a clickable outline (one entry per
// question), citation numbers linked to their sources, and page numbers.
// Text is laid out by flow (not fpdf's MultiCell) so that one line can mix
// fonts (CJK fallback), colours and links, and citation markers never break.
func PDF(w io.Writer, d Doc) error {
	v := buildView(d)
	f := fpdf.New("P", "mm", "A4", "")
	for _, ff := range []struct{ style, file string }{
		{"", "fonts/DejaVuSans.ttf"}, {"B", "fonts/DejaVuSans-Bold.ttf"}, {"I", "fonts/DejaVuSans-Oblique.ttf"},
	} {
		b, err := fontFS.ReadFile(ff.file)
		if err != nil {
			return fmt.Errorf("pdf font %s: %w", ff.file, err)
		}
		f.AddUTF8FontFromBytes(fontMain, ff.style, b)
	}
	gen := d.Generated
	if gen.IsZero() {
		gen = time.Now()
	}
	f.SetCreationDate(gen)
	f.SetModificationDate(gen)
	f.SetCatalogSort(true)
	f.SetCompression(true)
	f.SetTitle(v.Title, true)
	f.SetCreator("PaperTree", true)
	f.SetProducer("PaperTree", true)
	f.SetMargins(marginL, marginT, marginR)
	f.SetCellMargin(0) // labels and flowed text share one left edge
	f.SetAutoPageBreak(true, marginB)
	f.AliasNbPages("{nb}")
	r := &pdfR{f: f, v: v}
	f.SetFooterFunc(r.footer)
	if err := r.render(); err != nil {
		return err
	}
	if err := f.Output(w); err != nil {
		return fmt.Errorf("write pdf: %w", err)
	}
	return nil
}

type pdfR struct {
	f      *fpdf.Fpdf
	v      view
	links  map[string]int // source anchor -> fpdf link id
	cjk    bool           // fontCJK is loaded
	cjkErr error
	// cur is the font and colour last set: fpdf's SetFont copies a large
	// struct and writes a Tf operator on every call, so unchanged fonts are
	// not set again.
	cur struct {
		family, style string
		size          float64
		color         rgb
		ok            bool
	}
}

func (r *pdfR) font(style string, size float64, c rgb) { r.use(fontMain, style, size, c) }

func (r *pdfR) use(family, style string, size float64, c rgb) {
	k := &r.cur
	if !k.ok || k.family != family || k.style != style || k.size != size {
		r.f.SetFont(family, style, size)
		k.family, k.style, k.size = family, style, size
	}
	if !k.ok || k.color != c {
		r.f.SetTextColor(c.r, c.g, c.b)
		k.color = c
	}
	k.ok = true
}

func (r *pdfR) width() float64 {
	pw, _ := r.f.GetPageSize()
	return pw - marginL - marginR
}

func (r *pdfR) bottom() float64 {
	_, ph := r.f.GetPageSize()
	return ph - marginB
}

// need starts a new page unless h millimetres remain above the bottom margin.
func (r *pdfR) need(h float64) {
	if r.f.GetY()+h > r.bottom() {
		r.f.AddPage()
	}
}

func (r *pdfR) footer() {
	f := r.f
	// fpdf restores the page's font after the footer; so does the cache.
	saved := r.cur
	defer func() { r.cur = saved }()
	_, ph := f.GetPageSize()
	y := ph - 13
	w := r.width()
	f.SetDrawColor(colRule.r, colRule.g, colRule.b)
	f.SetLineWidth(0.2)
	f.Line(marginL, y-1, marginL+w, y-1)
	f.SetXY(marginL, y)
	r.flowOpts(w*0.75, 5, []span{{text: clip(oneLine(r.v.Title), 90), size: 7.5, color: colMuted}}, flowOpt{noBreak: true})
	f.SetXY(marginL+w*0.75, y)
	r.font("", 7.5, colMuted)
	f.CellFormat(w*0.25, 5, fmt.Sprintf("Page %d of {nb}", f.PageNo()), "", 0, "R", false, 0, "")
}

func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

func (r *pdfR) render() error {
	f := r.f
	r.links = map[string]int{}
	for _, a := range r.v.Answers {
		for _, s := range a.Sources {
			r.links[s.Anchor] = f.AddLink()
		}
	}
	f.AddPage()
	w := r.width()
	l := marginL

	// Document header.
	r.flow(w, 8.5, span{text: r.v.Title, style: "B", size: 19, color: colInk})
	sub := r.v.Count
	if r.v.Generated != "" {
		sub += " · generated " + r.v.Generated
	}
	r.flow(w, 5, span{text: sub + " by PaperTree", size: 9, color: colMuted})
	f.Ln(2)
	f.SetDrawColor(colInk.r, colInk.g, colInk.b)
	f.SetLineWidth(0.6)
	f.Line(l, f.GetY(), l+w, f.GetY())
	f.Ln(5)

	if len(r.v.Answers) > 1 {
		r.label("Questions")
		for _, a := range r.v.Answers {
			r.need(5)
			y := f.GetY()
			r.font("", 9.5, colMuted)
			f.CellFormat(8, 5, fmt.Sprintf("%d.", a.N), "", 0, "R", false, 0, "")
			f.SetXY(l+10, y)
			r.flowAt(l+10, w-10, 5, []span{{text: oneLine(a.Question), size: 9.5, color: colInk}}, flowOpt{})
		}
		f.Ln(4)
	}

	for i, a := range r.v.Answers {
		if i > 0 {
			page := f.PageNo()
			r.need(70)
			if f.PageNo() == page { // a rule only between answers on one page
				f.Ln(3)
				f.SetDrawColor(colRule.r, colRule.g, colRule.b)
				f.SetLineWidth(0.3)
				f.Line(l, f.GetY(), l+w, f.GetY())
				f.Ln(6)
			}
		}
		r.answer(a, w, l)
	}

	r.tables(w, l)
	if len(r.v.Biblio) > 0 {
		r.need(40)
		f.Ln(4)
		f.Bookmark("Bibliography", 0, -1)
		r.flow(w, 7, span{text: "Bibliography", style: "B", size: 14, color: colInk})
		f.Ln(2)
		for _, e := range r.v.Biblio {
			r.need(12)
			y := f.GetY()
			r.font("", 9.5, colMuted)
			f.CellFormat(8, 5, fmt.Sprintf("%d.", e.N), "", 0, "R", false, 0, "")
			f.SetXY(l+10, y)
			var sp []span
			if e.Authors != "" {
				s := oneLine(e.Authors)
				if e.Year != "" {
					s += " (" + e.Year + ")"
				}
				sp = append(sp, span{text: s + ". ", size: 9.5, color: colInk})
			} else if e.Year != "" {
				sp = append(sp, span{text: "(" + e.Year + "). ", size: 9.5, color: colInk})
			}
			sp = append(sp, span{text: oneLine(e.Title) + ".", style: "I", size: 9.5, color: colInk})
			if e.Key != "" {
				sp = append(sp, span{text: " [" + e.Key + "]", size: 9.5, color: colMuted})
			}
			r.flowAt(l+10, w-10, 5, sp, flowOpt{})
			f.Ln(2)
		}
	}
	return r.cjkErr
}

// label writes a small upper-case section label with a hairline under it.
func (r *pdfR) label(s string) {
	f := r.f
	r.need(20)
	r.font("B", 7.5, colMuted)
	f.CellFormat(r.width(), 4.5, strings.ToUpper(s), "", 1, "L", false, 0, "")
	f.SetDrawColor(colRule.r, colRule.g, colRule.b)
	f.SetLineWidth(0.2)
	f.Line(marginL, f.GetY()+0.3, marginL+r.width(), f.GetY()+0.3)
	f.Ln(2.5)
}

func (r *pdfR) answer(a answerView, w, l float64) {
	f := r.f
	r.need(40)
	f.Bookmark(clip(oneLine(a.Question), 120), 0, -1)
	lab := "Question"
	if len(r.v.Answers) > 1 {
		lab = fmt.Sprintf("Question %d", a.N)
	}
	r.font("B", 8, colAccent)
	f.CellFormat(w, 5, strings.ToUpper(lab), "", 1, "L", false, 0, "")
	r.flow(w, 6.6, span{text: oneLine(a.Question), style: "B", size: 14, color: colInk})
	f.Ln(1.5)

	// Kind badge and date.
	fg, bg := colAccent, colBlueB
	switch {
	case a.NotFound:
		fg, bg = colWarn, colWarnB
	case a.Extract:
		fg, bg = colGreen, colGreenB
	}
	r.font("B", 8, fg)
	bw := f.GetStringWidth(a.Kind) + 5
	y := f.GetY()
	f.SetFillColor(bg.r, bg.g, bg.b)
	f.RoundedRect(l, y, bw, 5, 2.2, "1234", "F")
	f.SetXY(l, y)
	f.CellFormat(bw, 5, a.Kind, "", 0, "C", false, 0, "")
	if a.Date != "" {
		r.font("", 8.5, colMuted)
		f.CellFormat(0, 5, "  "+a.Date, "", 0, "L", false, 0, "")
	}
	f.Ln(6.5)
	r.flow(w, 4.3, span{text: a.KindNote, style: "I", size: 8.5, color: colMuted})
	f.Ln(3)

	// The answer, with linked citation numbers; a not-found answer gets a
	// warning bar.
	var sp []span
	for _, s := range a.Text {
		switch {
		case s.Ref > 0:
			sp = append(sp, span{text: s.Text, style: "B", size: 10.5, color: colAccent, link: r.links[s.Anchor], keep: true})
		case s.Mark:
			sp = append(sp, span{text: s.Text, size: 10.5, color: colInk, keep: true})
		default:
			sp = append(sp, span{text: s.Text, size: 10.5, color: colInk})
		}
	}
	if len(sp) == 0 {
		sp = []span{{text: "(empty answer)", style: "I", size: 10.5, color: colMuted}}
	}
	opt := flowOpt{}
	if a.NotFound {
		opt = flowOpt{bar: &colWarn, padX: 4}
	}
	r.flowOpts(w, 5.6, sp, opt)
	f.Ln(3)

	if len(a.Sources) > 0 {
		r.label("Sources")
	}
	for _, s := range a.Sources {
		r.need(24)
		f.SetLink(r.links[s.Anchor], -1, -1)
		r.flow(w, 5,
			span{text: fmt.Sprintf("[%d]  ", s.N), style: "B", size: 9.5, color: colAccent},
			span{text: oneLine(s.Paper), style: "B", size: 9.5, color: colInk})
		if s.Path != "" {
			r.flow(w, 4.2, span{text: oneLine(s.Path), size: 8, color: colMuted})
		}
		var meta []string
		if s.Pages != "" {
			meta = append(meta, s.Pages)
		}
		if s.Score != "" {
			meta = append(meta, "score "+s.Score)
		}
		if !s.Cited {
			meta = append(meta, "retrieved, not cited")
		}
		if len(meta) > 0 {
			r.flow(w, 4, span{text: strings.Join(meta, "  ·  "), size: 7.5, color: colMuted})
		}
		f.Ln(1.2)
		r.flowOpts(w, 4.6, []span{{text: s.Excerpt, size: 9, color: colInk}},
			flowOpt{fill: &colQuote, bar: &colAccent, padX: 3.2, padY: 1.6})
		f.Ln(4)
	}

	r.label("Settings and diagnostics")
	for _, x := range append(append([]kv(nil), a.Settings...), a.Diag...) {
		r.need(6)
		y := f.GetY()
		r.font("B", 8, colMuted)
		f.CellFormat(38, 4.4, x.K, "", 0, "L", false, 0, "")
		f.SetXY(l+38, y)
		r.flowAt(l+38, w-38, 4.4, []span{{text: oneLine(x.V), size: 8, color: colInk}}, flowOpt{})
	}
	f.Ln(2)
}

// span is a piece of text in one style. keep spans are glued to their
// neighbours: no line break inside or between them (citation markers).
type span struct {
	text  string
	style string // "", "B" or "I"
	size  float64
	color rgb
	link  int // fpdf internal link id, 0 = none
	keep  bool
}

type flowOpt struct {
	fill    *rgb    // background of every line
	bar     *rgb    // vertical bar at the left edge
	padX    float64 // left and right inner padding
	padY    float64 // strips of background above and below
	noBreak bool    // one line, clipped (footer)
}

// tok is a unit of layout: a word, a run of spaces, one CJK character or a
// forced newline.
type tok struct {
	text  string
	sp    int
	cjk   bool
	space bool
	nl    bool
	brk   bool // a line may break before this token
	w     float64
}

func (r *pdfR) flow(w, lh float64, sp ...span) { r.flowAt(r.f.GetX(), w, lh, sp, flowOpt{}) }

func (r *pdfR) flowOpts(w, lh float64, sp []span, o flowOpt) { r.flowAt(r.f.GetX(), w, lh, sp, o) }

// isCJK reports runes DejaVu Sans has no glyph for and the fallback has.
func isCJK(c rune) bool {
	return unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Bopomofo) ||
		(c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef)
}

func (r *pdfR) setFont(s span, cjk bool) {
	if cjk && r.loadCJK() {
		r.use(fontCJK, "", s.size, s.color)
	} else {
		r.use(fontMain, s.style, s.size, s.color)
	}
}

// loadCJK adds the fallback font the first time a report needs it (parsing
// it costs ~0.2 s, paid only by reports with CJK text).
func (r *pdfR) loadCJK() bool {
	if r.cjk {
		return true
	}
	if r.cjkErr != nil {
		return false
	}
	b, err := fontFS.ReadFile("fonts/DroidSansFallbackFull.ttf")
	if err != nil {
		r.cjkErr = fmt.Errorf("pdf font: %w", err)
		return false
	}
	r.f.AddUTF8FontFromBytes(fontCJK, "", b)
	r.cjk = true
	return true
}

func (r *pdfR) tokens(sp []span) []tok {
	var ts []tok
	prevSpace, prevCJK := true, false
	for i, s := range sp {
		var cur strings.Builder
		curSpace := false
		flush := func() {
			if cur.Len() == 0 {
				return
			}
			t := tok{text: cur.String(), sp: i, space: curSpace && !s.keep}
			t.brk = t.space || prevSpace || prevCJK
			if s.keep && !prevSpace {
				t.brk = false
			}
			ts = append(ts, t)
			prevSpace, prevCJK = t.space, false
			cur.Reset()
		}
		for _, c := range s.text {
			switch {
			case c == '\n':
				flush()
				ts = append(ts, tok{nl: true, sp: i})
				prevSpace, prevCJK = true, false
			case isCJK(c):
				flush()
				ts = append(ts, tok{text: string(c), sp: i, cjk: true, brk: !s.keep || prevSpace})
				prevSpace, prevCJK = false, true
			case c == ' ' || c == '\t':
				if !curSpace {
					flush()
				}
				curSpace = true
				cur.WriteRune(' ')
			default:
				if curSpace {
					flush()
				}
				curSpace = false
				cur.WriteRune(c)
			}
		}
		flush()
	}
	for i := range ts {
		if !ts[i].nl {
			r.setFont(sp[ts[i].sp], ts[i].cjk)
			ts[i].w = r.f.GetStringWidth(ts[i].text)
		}
	}
	return ts
}

// lines breaks tokens into lines of at most w: greedily at break
// opportunities; a word longer than a line is cut between characters.
func (r *pdfR) lines(ts []tok, sp []span, w float64) [][]tok {
	var out [][]tok
	var cur []tok
	var curW float64
	push := func() {
		for len(cur) > 0 && cur[len(cur)-1].space {
			curW -= cur[len(cur)-1].w
			cur = cur[:len(cur)-1]
		}
		out = append(out, cur)
		cur, curW = nil, 0
	}
	for i := 0; i < len(ts); {
		if ts[i].nl {
			push()
			i++
			continue
		}
		// The unit starting at i: tokens up to the next break opportunity.
		j := i + 1
		for j < len(ts) && !ts[j].nl && !ts[j].brk {
			j++
		}
		var uw float64
		for _, t := range ts[i:j] {
			uw += t.w
		}
		switch {
		case ts[i].space && len(cur) == 0:
			// no leading spaces
		case curW+uw <= w+1e-6:
			cur = append(cur, ts[i:j]...)
			curW += uw
		case ts[i].space:
			push()
		case uw <= w && len(cur) > 0:
			push()
			cur = append(cur, ts[i:j]...)
			curW = uw
		default:
			// Too long for any line: cut it rune by rune.
			for _, t := range ts[i:j] {
				r.setFont(sp[t.sp], t.cjk)
				for _, c := range t.text {
					ct := t
					ct.text = string(c)
					ct.w = r.f.GetStringWidth(ct.text)
					if curW+ct.w > w && len(cur) > 0 {
						push()
					}
					cur = append(cur, ct)
					curW += ct.w
				}
			}
		}
		i = j
	}
	if len(cur) > 0 || len(out) == 0 {
		push()
	}
	return out
}

// flowAt lays spans out in the column [x, x+w) from the current y, line by
// line, starting new pages as needed (the background and bar are drawn per
// line, so a block may break across pages). It leaves the position at the
// left margin, below the text.
func (r *pdfR) flowAt(x, w, lh float64, sp []span, o flowOpt) {
	f := r.f
	inner := w - 2*o.padX
	ts := r.tokens(sp)
	ls := r.lines(ts, sp, inner)
	if o.noBreak && len(ls) > 1 {
		ls = ls[:1]
	}
	oldMargin := f.GetCellMargin()
	f.SetCellMargin(0)
	defer f.SetCellMargin(oldMargin)
	strip := func(h float64) {
		y := f.GetY()
		if o.fill != nil {
			f.SetFillColor(o.fill.r, o.fill.g, o.fill.b)
			f.Rect(x, y, w, h, "F")
		}
		if o.bar != nil {
			f.SetDrawColor(o.bar.r, o.bar.g, o.bar.b)
			f.SetLineWidth(0.7)
			f.Line(x+0.35, y, x+0.35, y+h)
		}
	}
	newLine := func(h float64) {
		if !o.noBreak && f.GetY()+h > r.bottom() {
			f.AddPage()
		}
		strip(h)
	}
	if o.padY > 0 {
		newLine(o.padY)
		f.SetXY(x, f.GetY()+o.padY)
	}
	for _, line := range ls {
		newLine(lh)
		y := f.GetY()
		cx := x + o.padX
		for k := 0; k < len(line); {
			// Merge neighbouring tokens of one span and font into one cell.
			t := line[k]
			text, tw := t.text, t.w
			k++
			for k < len(line) && line[k].sp == t.sp && line[k].cjk == t.cjk {
				text += line[k].text
				tw += line[k].w
				k++
			}
			s := sp[t.sp]
			r.setFont(s, t.cjk)
			f.SetXY(cx, y)
			f.CellFormat(tw, lh, text, "", 0, "L", false, s.link, "")
			cx += tw
		}
		f.SetXY(x, y+lh)
	}
	if o.padY > 0 {
		newLine(o.padY)
		f.SetXY(x, f.GetY()+o.padY)
	}
	f.SetX(marginL)
}
