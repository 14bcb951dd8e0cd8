package report

import (
	"embed"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// The PDF embeds DejaVu Sans (Bitstream Vera licence, fonts/LICENSE): a
// Unicode TrueType font, so accented names and Greek letters render without
// any font on the user's machine. fpdf subsets it: a report carries only the
// glyphs it uses.
//
//go:embed fonts/DejaVuSans.ttf fonts/DejaVuSans-Bold.ttf fonts/DejaVuSans-Oblique.ttf
var fontFS embed.FS

const fontFamily = "dejavu"

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

// PDF writes d as an A4 PDF with a clickable outline (one entry per
// question), citation markers linked to their sources, and page numbers.
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
		f.AddUTF8FontFromBytes(fontFamily, ff.style, b)
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
	f.SetMargins(20, 18, 20)
	f.SetAutoPageBreak(true, 20)
	f.AliasNbPages("{nb}")
	r := &pdfR{f: f, v: v}
	f.SetFooterFunc(r.footer)
	r.render()
	if err := f.Output(w); err != nil {
		return fmt.Errorf("write pdf: %w", err)
	}
	return nil
}

type pdfR struct {
	f     *fpdf.Fpdf
	v     view
	links map[string]int // source anchor -> fpdf link id
}

func (r *pdfR) font(style string, size float64, c rgb) {
	r.f.SetFont(fontFamily, style, size)
	r.f.SetTextColor(c.r, c.g, c.b)
}

func (r *pdfR) width() float64 {
	pw, _ := r.f.GetPageSize()
	l, _, rm, _ := r.f.GetMargins()
	return pw - l - rm
}

// need starts a new page unless h millimetres remain above the bottom margin.
func (r *pdfR) need(h float64) {
	_, ph := r.f.GetPageSize()
	if r.f.GetY()+h > ph-20 {
		r.f.AddPage()
	}
}

func (r *pdfR) footer() {
	f := r.f
	f.SetY(-13)
	r.font("", 7.5, colMuted)
	l, _, _, _ := f.GetMargins()
	w := r.width()
	f.SetDrawColor(colRule.r, colRule.g, colRule.b)
	f.SetLineWidth(0.2)
	f.Line(l, f.GetY()-1, l+w, f.GetY()-1)
	f.CellFormat(w*0.75, 5, clip(oneLine(r.v.Title), 90), "", 0, "L", false, 0, "")
	f.CellFormat(w*0.25, 5, fmt.Sprintf("Page %d of {nb}", f.PageNo()), "", 0, "R", false, 0, "")
}

func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

func (r *pdfR) render() {
	f := r.f
	r.links = map[string]int{}
	for _, a := range r.v.Answers {
		for _, s := range a.Sources {
			r.links[s.Anchor] = f.AddLink()
		}
	}
	f.AddPage()
	w := r.width()
	l, _, _, _ := f.GetMargins()

	// Document header.
	r.font("B", 19, colInk)
	f.MultiCell(w, 8.5, r.v.Title, "", "L", false)
	sub := r.v.Count
	if r.v.Generated != "" {
		sub += " · generated " + r.v.Generated
	}
	r.font("", 9, colMuted)
	f.MultiCell(w, 5, sub+" by PaperTree", "", "L", false)
	f.Ln(2)
	f.SetDrawColor(colInk.r, colInk.g, colInk.b)
	f.SetLineWidth(0.6)
	f.Line(l, f.GetY(), l+w, f.GetY())
	f.Ln(5)

	if len(r.v.Answers) > 1 {
		r.label("Questions")
		for _, a := range r.v.Answers {
			r.font("", 9.5, colInk)
			f.CellFormat(8, 5, fmt.Sprintf("%d.", a.N), "", 0, "R", false, 0, "")
			f.SetLeftMargin(l + 10)
			f.SetX(l + 10)
			f.MultiCell(w-10, 5, oneLine(a.Question), "", "L", false)
			f.SetLeftMargin(l)
			f.SetX(l)
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

	if len(r.v.Biblio) > 0 {
		r.need(40)
		f.Ln(4)
		f.Bookmark("Bibliography", 0, -1)
		r.font("B", 14, colInk)
		f.MultiCell(w, 7, "Bibliography", "", "L", false)
		f.Ln(2)
		for _, e := range r.v.Biblio {
			r.need(12)
			r.font("", 9.5, colMuted)
			f.CellFormat(8, 5, fmt.Sprintf("%d.", e.N), "", 0, "R", false, 0, "")
			f.SetLeftMargin(l + 10)
			f.SetX(l + 10)
			r.font("", 9.5, colInk)
			if e.Authors != "" {
				s := oneLine(e.Authors)
				if e.Year != "" {
					s += " (" + e.Year + ")"
				}
				f.Write(5, s+". ")
			} else if e.Year != "" {
				f.Write(5, "("+e.Year+"). ")
			}
			r.font("I", 9.5, colInk)
			f.Write(5, strings.TrimRight(oneLine(e.Title), ".")+".")
			f.Ln(7)
			f.SetLeftMargin(l)
			f.SetX(l)
		}
	}
}

// label writes a small upper-case section label with a hairline under it.
func (r *pdfR) label(s string) {
	f := r.f
	r.need(20)
	l, _, _, _ := f.GetMargins()
	r.font("B", 7.5, colMuted)
	f.CellFormat(r.width(), 4.5, strings.ToUpper(s), "", 1, "L", false, 0, "")
	f.SetDrawColor(colRule.r, colRule.g, colRule.b)
	f.SetLineWidth(0.2)
	f.Line(l, f.GetY()+0.3, l+r.width(), f.GetY()+0.3)
	f.Ln(2.5)
}

func (r *pdfR) answer(a answerView, w, l float64) {
	f := r.f
	f.Bookmark(clip(oneLine(a.Question), 120), 0, -1)
	lab := "Question"
	if len(r.v.Answers) > 1 {
		lab = fmt.Sprintf("Question %d", a.N)
	}
	r.font("B", 8, colAccent)
	f.CellFormat(w, 5, strings.ToUpper(lab), "", 1, "L", false, 0, "")
	r.font("B", 14, colInk)
	f.MultiCell(w, 6.6, oneLine(a.Question), "", "L", false)
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
	r.font("I", 8.5, colMuted)
	f.MultiCell(w, 4.3, a.KindNote, "", "L", false)
	f.Ln(3)

	// The answer, with linked citation numbers.
	top := f.GetY()
	if a.NotFound {
		f.SetLeftMargin(l + 4)
		f.SetX(l + 4)
	}
	r.font("", 10.5, colInk)
	if len(a.Text) == 0 {
		r.font("I", 10.5, colMuted)
		f.Write(5.6, "(empty answer)")
	}
	right := l + w
	for i := 0; i < len(a.Text); i++ {
		s := a.Text[i]
		if s.Ref == 0 && !s.Mark {
			r.font("", 10.5, colInk)
			f.Write(5.6, s.Text)
			continue
		}
		// A citation marker is kept on one line: wrap before it when the
		// whole "[1, 2]" does not fit.
		j := i
		var mw float64
		r.font("B", 10.5, colAccent)
		for ; j < len(a.Text) && (a.Text[j].Ref > 0 || a.Text[j].Mark); j++ {
			mw += f.GetStringWidth(a.Text[j].Text)
		}
		if f.GetX()+mw > right {
			f.Ln(5.6)
		}
		for ; i < j; i++ {
			if s := a.Text[i]; s.Ref > 0 {
				r.font("B", 10.5, colAccent)
				f.WriteLinkID(5.6, s.Text, r.links[s.Anchor])
			} else {
				r.font("", 10.5, colInk)
				f.Write(5.6, s.Text)
			}
		}
		i--
	}
	f.Ln(5.6)
	if a.NotFound {
		f.SetLeftMargin(l)
		if f.GetY() > top {
			f.SetDrawColor(colWarn.r, colWarn.g, colWarn.b)
			f.SetLineWidth(0.8)
			f.Line(l+0.4, top, l+0.4, f.GetY())
		}
	}
	f.Ln(3)

	if len(a.Sources) > 0 {
		r.label("Sources")
	}
	for _, s := range a.Sources {
		r.need(24)
		f.SetLink(r.links[s.Anchor], -1, -1)
		r.font("B", 9.5, colAccent)
		f.Write(5, fmt.Sprintf("[%d]  ", s.N))
		r.font("B", 9.5, colInk)
		f.Write(5, oneLine(s.Paper))
		f.Ln(5)
		if s.Path != "" {
			r.font("", 8, colMuted)
			f.MultiCell(w, 4.2, oneLine(s.Path), "", "L", false)
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
			r.font("", 7.5, colMuted)
			f.MultiCell(w, 4, strings.Join(meta, "  ·  "), "", "L", false)
		}
		f.Ln(1.2)
		r.quote(s.Excerpt, w)
		f.Ln(4)
	}

	r.label("Settings and diagnostics")
	for _, x := range append(append([]kv(nil), a.Settings...), a.Diag...) {
		r.need(6)
		r.font("B", 8, colMuted)
		f.CellFormat(38, 4.4, x.K, "", 0, "L", false, 0, "")
		r.font("", 8, colInk)
		f.MultiCell(w-38, 4.4, oneLine(x.V), "", "L", false)
	}
	f.Ln(2)
}

// quote draws an excerpt as a shaded block with an accent bar on the left;
// it may break across pages.
func (r *pdfR) quote(text string, w float64) {
	f := r.f
	f.SetFillColor(colQuote.r, colQuote.g, colQuote.b)
	f.SetDrawColor(colAccent.r, colAccent.g, colAccent.b)
	f.SetLineWidth(0.7)
	old := f.GetCellMargin()
	f.SetCellMargin(3.2)
	f.CellFormat(w, 1.6, "", "L", 1, "L", true, 0, "")
	r.font("", 9, colInk)
	f.MultiCell(w, 4.6, text, "L", "L", true)
	f.CellFormat(w, 1.6, "", "L", 1, "L", true, 0, "")
	f.SetCellMargin(old)
}
