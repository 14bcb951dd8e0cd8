package treebuild

import (
	"fmt"
	"strings"

	"github.com/papertree/papertree/backend/pdf"
)

// pageBuilder lays out hand-made text the way a PDF content stream would
// arrive from backend/pdf: one run per word, baselines top-left origin.
type pageBuilder struct {
	page pdf.Page
}

func newPage(n int) *pageBuilder {
	return &pageBuilder{page: pdf.Page{Number: n, Width: 612, Height: 792}}
}

type style struct {
	font   string
	size   float64
	bold   bool
	italic bool
}

var (
	body    = style{font: "Times-Roman", size: 10}
	boldB   = style{font: "Times-Bold", size: 10, bold: true}
	sec     = style{font: "Times-Bold", size: 12, bold: true}
	titleSt = style{font: "Times-Bold", size: 16, bold: true}
	small   = style{font: "Times-Roman", size: 8}
)

// text adds one line of words at (x, y) and returns the x after it.
func (p *pageBuilder) text(x, y float64, s style, text string) float64 {
	for _, w := range strings.Fields(text) {
		width := float64(len([]rune(w))) * s.size * 0.5
		p.page.Runs = append(p.page.Runs, pdf.Run{Text: w, Font: s.font, Size: s.size, Bold: s.bold, Italic: s.italic, X: x, Y: y, W: width})
		x += width + s.size*0.25
	}
	return x
}

// para lays out words of text into lines of at most width points starting at
// (x, y) and returns the baseline after the paragraph.
func (p *pageBuilder) para(x, y, width float64, s style, text string) float64 {
	var cur []string
	curW := 0.0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		p.text(x, y, s, strings.Join(cur, " "))
		y += s.size * 1.2
		cur, curW = nil, 0
	}
	for _, w := range strings.Fields(text) {
		ww := float64(len([]rune(w)))*s.size*0.5 + s.size*0.25
		if curW+ww > width && len(cur) > 0 {
			flush()
		}
		cur = append(cur, w)
		curW += ww
	}
	flush()
	return y
}

// lorem returns n deterministic sentences of plausible prose.
func lorem(seed, n int) string {
	words := []string{"the", "model", "learns", "structure", "from", "data", "and", "we", "evaluate", "it", "on", "several", "benchmarks", "with", "careful", "ablations", "of", "each", "component", "results", "show", "consistent", "gains", "over", "strong", "baselines"}
	var b strings.Builder
	k := seed
	for i := 0; i < n; i++ {
		l := 8 + (k % 9)
		for j := 0; j < l; j++ {
			w := words[(k*7+j*3)%len(words)]
			if j == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			if j < l-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(". ")
		k = k*31 + 17
		k %= 1000003
	}
	return strings.TrimSpace(b.String())
}

// twoColumnPaper is a small synthetic two-column paper: title, authors,
// abstract, numbered sections and subsections, a caption, a running header,
// page numbers and a reference list.
func twoColumnPaper() *pdf.Document {
	const left, right, colW = 72.0, 320.0, 220.0
	var pages []pdf.Page
	p1 := newPage(1)
	p1.text(150, 90, titleSt, "Structured Trees for Scientific Papers")
	p1.text(220, 115, body, "Ada Lovelace and Alan Turing")
	p1.text(230, 128, body, "University of Examples")
	y := 170.0
	p1.text(left+80, y, sec, "Abstract")
	y = p1.para(left, y+16, colW, body, lorem(1, 5))
	y += 12
	p1.text(left, y, sec, "1 Introduction")
	y = p1.para(left, y+16, colW, body, lorem(2, 8))
	y = p1.para(left, y+4, colW, body, lorem(3, 6))
	y2 := 170.0
	p1.text(right, y2, sec, "2 Method")
	y2 = p1.para(right, y2+16, colW, body, lorem(4, 5))
	y2 += 10
	p1.text(right, y2, boldB, "2.1 Segment Packing")
	y2 = p1.para(right, y2+14, colW, body, lorem(5, 6)+" The compu-")
	p1.text(right, y2, body, "tation is linear in the number of lines.")
	y2 += 14
	p1.text(right, y2, small, "Figure 1: Overview of the pipeline.")
	p1.text(300, 760, body, "1")
	pages = append(pages, p1.page)

	p2 := newPage(2)
	p2.text(200, 40, small, "Structured Trees for Scientific Papers")
	y = 80
	p2.text(left, y, boldB, "2.2 Hierarchy")
	y = p2.para(left, y+14, colW, body, lorem(6, 10))
	y += 12
	p2.text(left, y, sec, "3 Experiments")
	y = p2.para(left, y+16, colW, body, lorem(7, 8))
	y2 = 80
	p2.text(right, y2, sec, "4 Conclusion")
	y2 = p2.para(right, y2+16, colW, body, lorem(8, 4))
	y2 += 12
	p2.text(right, y2, sec, "References")
	y2 += 16
	for i := 1; i <= 3; i++ {
		y2 = p2.para(right, y2, colW, small, fmt.Sprintf("[%d] A. Author. A study of trees number %d. In Proceedings of the Conference, 2020.", i, i))
		y2 += 2
	}
	p2.text(300, 760, body, "2")
	pages = append(pages, p2.page)
	return &pdf.Document{Pages: pages, Info: pdf.Info{Title: "Structured Trees for Scientific Papers"}}
}

// unnumberedPaper has unnumbered headings whose levels come from the style
// ladder only (AAAI-like): 12pt section, 10pt bold subsection.
func unnumberedPaper() *pdf.Document {
	p := newPage(1)
	p.text(150, 80, titleSt, "A Paper Without Section Numbers")
	y := 130.0
	for i, s := range []struct {
		sub  bool
		text string
	}{{false, "Introduction"}, {false, "Related Work"}, {true, "Text Classification"}, {true, "Neural Networks"}, {false, "Model"}, {true, "Training"}, {false, "Conclusion"}} {
		st := sec
		if s.sub {
			st = boldB
		}
		p.text(72, y, st, s.text)
		y = p.para(72, y+15, 460, body, lorem(10+i, 2))
		y += 10
	}
	return &pdf.Document{Pages: []pdf.Page{p.page}}
}
