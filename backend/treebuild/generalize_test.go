package treebuild

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

func TestSuffixStyle(t *testing.T) {
	cases := []struct {
		font         string
		bold, italic bool
	}{
		{"AdvGulliv-B", true, false},
		{"AdvGulliv-I", false, true},
		{"AdvGulliv-R", false, false},
		{"Foo-BI", true, true},
		{"Foo.Bd", true, false},
		{"Times-Roman", false, false},
		{"NimbusRomNo9L-Regu", false, false},
		{"Arial-BoldMT", false, false}, // full words are the PDF layer's job
		{"", false, false},
		{"Foo-", false, false},
	}
	for _, c := range cases {
		t.Run(c.font, func(t *testing.T) {
			b, i := suffixStyle(c.font)
			if b != c.bold || i != c.italic {
				t.Fatalf("suffixStyle(%q) = %v,%v want %v,%v", c.font, b, i, c.bold, c.italic)
			}
		})
	}
}

func TestMathLike(t *testing.T) {
	cases := map[string]bool{
		"X W Z Λ θ X W X R":                      true,
		"2 W (yobs − o) W ZΛθ W X":               true,
		"3.2 Penalized least squares":            false,
		"A Study of Things":                      false,
		"Specifying uncorrelated random effects": false,
	}
	for in, want := range cases {
		if got := mathLike(in); got != want {
			t.Errorf("mathLike(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestHeadingEndingInNumber: a short heading that ends in a number ("2.
// Study 1") is a heading; a table-of-contents entry whose page number sits
// at the column edge is not.
func TestHeadingEndingInNumber(t *testing.T) {
	p := newPage(1)
	p.text(150, 60, titleSt, "A Paper About Studies")
	y := p.para(72, 100, 460, body, lorem(1, 4))
	p.text(72, y+14, boldB, "2. Study 1")
	y = p.para(72, y+30, 460, body, lorem(2, 4))
	// a TOC-like line: words, then a page number pushed to the right edge
	p.text(72, y+14, boldB, "Contents of the appendix")
	p.text(525, y+14, boldB, "12")
	p.para(72, y+30, 460, body, lorem(3, 4))
	lines := linesOf(p)
	st := computeStats(lines)
	var got []string
	for i := range lines {
		if h := classifyLine(lines, i, st); h != nil {
			got = append(got, h.text)
		}
	}
	joined := strings.Join(got, "|")
	if !strings.Contains(joined, "2. Study 1") {
		t.Fatalf("heading ending in a number not found: %q", joined)
	}
	if strings.Contains(joined, "appendix") {
		t.Fatalf("TOC entry taken as a heading: %q", joined)
	}
}

// TestHeadingContinuationLeading: a long heading in body size is not merged
// with the paragraph below it when that paragraph starts further below than
// the body's line spacing.
func TestHeadingContinuationLeading(t *testing.T) {
	p := newPage(1)
	p.text(150, 60, titleSt, "A Paper")
	y := p.para(72, 100, 460, body, lorem(1, 6))
	heading := "2.1. DL3: events and instrument response functions in a rather long heading line"
	p.text(72, y+16, body, heading)
	p.para(72, y+34, 460, body, lorem(2, 6))
	lines := linesOf(p)
	st := computeStats(lines)
	for i, l := range lines {
		if strings.HasPrefix(l.text, "2.1.") {
			h := classifyLine(lines, i, st)
			if h == nil || h.text != heading {
				t.Fatalf("heading = %+v, want %q alone", h, heading)
			}
			return
		}
	}
	t.Fatal("heading line not built")
}

func runsLine(size float64, parts ...pdf.Run) *line {
	x := 72.0
	for i := range parts {
		if parts[i].Size == 0 {
			parts[i].Size = size
		}
		if parts[i].X == 0 {
			parts[i].X = x
		}
		parts[i].W = float64(len([]rune(parts[i].Text))) * parts[i].Size * 0.5
		x = parts[i].X + parts[i].W + size*0.25
	}
	l := makeLine(parts, 1, 612, 792)
	return l
}

func TestLineNames(t *testing.T) {
	cases := []struct {
		name string
		l    *line
		want string
	}{
		{"commas and and", runsLine(11, pdf.Run{Text: "Jacob Devlin, Ming-Wei Chang and Kenton Lee"}), "Jacob Devlin|Ming-Wei Chang|Kenton Lee"},
		{"superscript markers", runsLine(11, pdf.Run{Text: "Shijie Wu"}, pdf.Run{Text: "♠∗", Size: 7}, pdf.Run{Text: "Alexis Conneau"}, pdf.Run{Text: "♥", Size: 7}),
			"Shijie Wu|Alexis Conneau"},
		{"inline symbols and digits", runsLine(11, pdf.Run{Text: "Alec Radford * 1 Jeffrey Wu * 1 Rewon Child 1"}), "Alec Radford|Jeffrey Wu|Rewon Child"},
		{"glued markers in a name grid", runsLine(11, pdf.Run{Text: "Ashish Vaswani∗ Noam Shazeer∗ Niki Parmar∗ Jakob Uszkoreit∗"}),
			"Ashish Vaswani|Noam Shazeer|Niki Parmar|Jakob Uszkoreit"},
		{"initials kept", runsLine(11, pdf.Run{Text: "Geoffrey E. Hinton, Simon Osindero"}), "Geoffrey E. Hinton|Simon Osindero"},
		{"stop words separate", runsLine(11, pdf.Run{Text: "A Dissertation Submitted to the Faculty"}), ""},
		{"by", runsLine(11, pdf.Run{Text: "By Jorge Nocedal"}), "Jorge Nocedal"},
		{"acronyms are not names", runsLine(11, pdf.Run{Text: "SARS- CoV-"}), ""},
		{"initials alone are not a name", runsLine(11, pdf.Run{Text: "J. J."}), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(lineNames(c.l), "|"); got != c.want {
				t.Fatalf("lineNames = %q, want %q", got, c.want)
			}
		})
	}
}

func TestNamePrefix(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"TAL AUGUST, University of Washington, USA", "Tal August", true},
		{"MARTI A. HEARST, University of California, Berkeley, USA", "Marti A. Hearst", true},
		{"Department of Computer Science, Stanford", "", false},
		{"Allen Institute for AI, Seattle", "", false},
		{"no comma here", "", false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, ok := namePrefix(c.in)
			if got != c.want || ok != c.ok {
				t.Fatalf("namePrefix(%q) = %q,%v want %q,%v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

// TestTitleFromInfo: the info title wins over a journal banner in larger
// type when it is printed on the first page, and its spaces repair a title
// whose words the text layer glued together.
func TestTitleFromInfo(t *testing.T) {
	banner := func() *pdf.Document {
		p := newPage(1)
		p.text(250, 60, style{font: "Times-Roman", size: 16}, "Neurocomputing")
		p.text(72, 120, style{font: "Times-Roman", size: 15}, "Joint entity and relation extraction based on a hybrid network")
		p.text(72, 150, body, "Jane Doe, John Roe")
		p.text(72, 200, sec, "1. Introduction")
		p.para(72, 220, 460, body, lorem(1, 8))
		return &pdf.Document{Pages: []pdf.Page{p.page}, Info: pdf.Info{Title: "Joint entity and relation extraction based on a hybrid network"}}
	}
	glued := func() *pdf.Document {
		p := newPage(1)
		p.text(72, 80, titleSt, "COVID-19vaccinationandtreatmentinvulnerable populations")
		p.text(72, 130, sec, "1. Introduction")
		p.para(72, 150, 460, body, lorem(2, 8))
		return &pdf.Document{Pages: []pdf.Page{p.page}, Info: pdf.Info{Title: "COVID&#x02010;19 vaccination and treatment in vulnerable populations"}}
	}
	unprinted := func() *pdf.Document {
		p := newPage(1)
		p.text(72, 80, titleSt, "The Printed Title of the Paper")
		p.text(72, 130, sec, "1. Introduction")
		p.para(72, 150, 460, body, lorem(3, 8))
		return &pdf.Document{Pages: []pdf.Page{p.page}, Info: pdf.Info{Title: "504 504..507"}}
	}
	cases := []struct {
		name string
		doc  *pdf.Document
		want string
	}{
		{"journal banner", banner(), "Joint entity and relation extraction based on a hybrid network"},
		{"glued words", glued(), "COVID‐19 vaccination and treatment in vulnerable populations"},
		{"info title not printed", unprinted(), "The Printed Title of the Paper"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(context.Background(), c.doc, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if p.Title != c.want {
				t.Fatalf("title %q, want %q", p.Title, c.want)
			}
		})
	}
}

func TestFrontMeta(t *testing.T) {
	p := newPage(1)
	p.text(72, 40, small, "Published as a conference paper at ICLR 2021")
	p.text(150, 80, titleSt, "A Study of Something Interesting")
	p.text(200, 110, body, "Jane Doe, John Roe")
	p.text(200, 124, body, "Department of Computer Science, Example University")
	p.text(200, 138, body, "jane@example.edu")
	p.text(72, 170, sec, "Abstract")
	p.para(72, 186, 460, body, lorem(1, 5))
	p.text(72, 700, small, "arXiv:2010.11929v2 [cs.CV] 3 Jun 2021 doi:10.1000/xyz.123.")
	doc := &pdf.Document{Pages: []pdf.Page{p.page}}
	got, err := Build(context.Background(), doc, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got.Venue != "ICLR 2021" || got.Year != 2021 || got.ArxivID != "2010.11929v2" || got.DOI != "10.1000/xyz.123" {
		t.Fatalf("venue %q year %d arxiv %q doi %q", got.Venue, got.Year, got.ArxivID, got.DOI)
	}
	if strings.Join(got.Authors, "|") != "Jane Doe|John Roe" {
		t.Fatalf("authors %v", got.Authors)
	}
	if len(got.Affiliations) != 1 || !strings.Contains(got.Affiliations[0], "Example University") {
		t.Fatalf("affiliations %v", got.Affiliations)
	}
}

// TestFootnotesLeaveBody: a footnote at the foot of the page becomes a
// footnote leaf, and the paragraph around it reads on without it.
func TestFootnotesLeaveBody(t *testing.T) {
	p := newPage(1)
	p.text(150, 60, titleSt, "A Paper With Notes")
	p.text(72, 100, sec, "1 Introduction")
	p.para(72, 120, 460, body, lorem(1, 30))
	p.text(72, 740, small, "1")
	p.text(78, 742, small, "https://example.org/code is where the code lives.")
	doc := &pdf.Document{Pages: []pdf.Page{p.page}}
	got, err := Build(context.Background(), doc, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var notes, bodyHas int
	got.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.Role == papertree.RoleFootnote {
			notes++
		} else if strings.Contains(n.Text, "example.org") {
			bodyHas++
		}
		return true
	})
	if notes != 1 || bodyHas != 0 {
		t.Fatalf("footnote leaves %d, body segments with the note %d", notes, bodyHas)
	}
}

func TestNoteStart(t *testing.T) {
	cases := []struct {
		name string
		l    *line
		want bool
	}{
		{"digit then url", runsLine(8, pdf.Run{Text: "1https://github.com/x"}), true},
		{"superscript marker", runsLine(8, pdf.Run{Text: "2", Size: 5}, pdf.Run{Text: "Code is available."}), true},
		{"symbol", runsLine(8, pdf.Run{Text: "∗Equal contribution."}), true},
		{"year of a reference", runsLine(8, pdf.Run{Text: "2019. A title of a paper."}), false},
		{"prose", runsLine(8, pdf.Run{Text: "The model is trained."}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := noteStart(c.l); got != c.want {
				t.Fatalf("noteStart = %v, want %v", got, c.want)
			}
		})
	}
}

// TestScriptsJoinTheirLine: a superscript raised further than the usual
// baseline tolerance still belongs to its line.
func TestScriptsJoinTheirLine(t *testing.T) {
	p := newPage(1)
	p.text(72, 100, body, "The energy is E = mc and nothing else matters here at all.")
	p.page.Runs = append(p.page.Runs, pdf.Run{Text: "2", Font: "Times-Roman", Size: 6, X: 160, Y: 94.5, W: 3})
	lines := linesOf(p)
	if len(lines) != 1 {
		var ts []string
		for _, l := range lines {
			ts = append(ts, l.text)
		}
		t.Fatalf("got %d lines %q, want the superscript in its line", len(lines), ts)
	}
}

func TestRunInQuadAndHyphen(t *testing.T) {
	mk := func() *pdf.Document {
		p := newPage(1)
		p.text(150, 60, titleSt, "A Paper With Run-in Headings")
		p.text(72, 100, sec, "3 Pre-training")
		y := p.para(72, 116, 460, body, lorem(1, 3))
		y += 6
		// unpunctuated label set off by a quad, the line filling the column
		x := p.text(72, y, boldB, "Task #1: Masked LM")
		p.text(x+8, y, body, "Intuitively, it is reasonable to believe that a deep model is strictly more powerful than either")
		y = p.para(72, y+12, 460, body, lorem(2, 3)) + 6
		// a label whose paragraph starts with a word hyphenated at the line end
		x = p.text(72, y, boldB, "Masked LM and the Masking Procedure")
		p.text(x+8, y, body, "As-")
		p.para(72, y+12, 460, body, "suming the unlabeled sentence is my dog is hairy, and during the random masking procedure we chose the fourth token.")
		return &pdf.Document{Pages: []pdf.Page{p.page}}
	}
	p, err := Build(context.Background(), mk(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range papertree.Headings(p.Root) {
		if h.RunIn {
			got = append(got, h.Text)
		}
	}
	want := "Task #1: Masked LM|Masked LM and the Masking Procedure"
	if strings.Join(got, "|") != want {
		t.Fatalf("run-in headings %q, want %q", got, want)
	}
}

func TestEnsureReferences(t *testing.T) {
	p1 := newPage(1)
	p1.text(150, 60, titleSt, "A Review Without a Styled References Heading")
	p1.text(72, 100, sec, "1 Introduction")
	p1.para(72, 120, 460, body, lorem(1, 30))
	p2 := newPage(2)
	p2.text(72, 80, sec, "2 Conclusion")
	y := p2.para(72, 100, 460, body, lorem(2, 10))
	p2.text(72, y+14, body, "References")
	y += 30
	for i := 0; i < 6; i++ {
		p2.text(72, y, body, "Doe, J. and Roe, R. (2019). A title of a cited paper. Journal of Examples, 12:1-10.")
		y += 12
	}
	doc := &pdf.Document{Pages: []pdf.Page{p1.page, p2.page}}
	got, err := Build(context.Background(), doc, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var refs *papertree.Node
	for _, c := range got.Root.Children {
		if c.Role == papertree.RoleReferences {
			refs = c
		}
	}
	if refs == nil {
		t.Fatalf("no references section: %v", papertree.Headings(got.Root))
	}
	last := got.Root.Children[len(got.Root.Children)-2]
	last.Walk(func(path []*papertree.Node) bool {
		if strings.Contains(path[len(path)-1].Text, "Journal of Examples") {
			t.Fatalf("reference entries merged into %q", last.Title)
		}
		return true
	})
}

// TestFlatOCRHeadings: in a text layer with one font and no weights (OCR of
// a scan), a short title-case line after a finished paragraph and extra
// space is a heading; a line leading into a quotation is not.
func TestFlatOCRHeadings(t *testing.T) {
	ocr := style{font: "Courier", size: 12}
	p := newPage(1)
	y := p.para(72, 80, 460, ocr, lorem(1, 20)+" End of the paragraph.")
	p.text(72, y+8, ocr, "The model system")
	y = p.para(72, y+22, 460, ocr, lorem(2, 20)+" Another end.")
	p.text(72, y+8, ocr, "Thompson (1998) states that")
	p.para(72, y+22, 460, ocr, lorem(3, 20))
	lines := linesOf(p)
	st := computeStats(lines)
	if !st.flat {
		t.Fatal("a one-font text layer is not seen as flat")
	}
	var got []string
	for i := range lines {
		if h := classifyLine(lines, i, st); h != nil {
			got = append(got, h.text)
		}
	}
	if strings.Join(got, "|") != "The model system" {
		t.Fatalf("headings %q, want only \"The model system\"", got)
	}
}

// TestSideBySideCaptions: two captions set next to each other under two
// figures come out as two captions, each in reading order.
func TestSideBySideCaptions(t *testing.T) {
	p := newPage(1)
	p.text(150, 60, titleSt, "A Paper With Two Figures")
	p.text(72, 100, sec, "1 Results")
	y := p.para(72, 120, 460, body, lorem(1, 6))
	y += 120 // the figures
	left := []string{"Figure 3: Transfer to ImageNet.", "While large models perform", "worse on small data."}
	right := []string{"Figure 4: Linear few-shot", "evaluation versus the size", "of the pre-training set."}
	for k := range left {
		p.text(72, y+float64(k)*11, body, left[k])
		p.text(320, y+float64(k)*11, body, right[k])
	}
	p.para(72, y+50, 460, body, lorem(2, 6))
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var caps []string
	got.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.Kind == papertree.KindCaption {
			caps = append(caps, n.Text)
		}
		return true
	})
	want := []string{
		"Figure 3: Transfer to ImageNet. While large models perform worse on small data.",
		"Figure 4: Linear few-shot evaluation versus the size of the pre-training set.",
	}
	if strings.Join(caps, "|") != strings.Join(want, "|") {
		t.Fatalf("captions %q, want %q", caps, want)
	}
}

func TestNumberedRunInLabel(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"3. Gradient Related Methods. The special BFGS matrices given by (4) and (5)", "3. Gradient Related Methods.", true},
		{"1. Introduction. For the problem of minimizing an unconstrained function", "1. Introduction.", true},
		{"2.1 Results on Fig. 3 are shown here", "", false},
		{"4 Experiments", "", false},
		{"5 Related Work by Smith et al. The authors show", "", false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, ok := numberedRunInLabel(c.in)
			if got != c.want || ok != c.ok {
				t.Fatalf("numberedRunInLabel(%q) = %q,%v want %q,%v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestNeverHeadings(t *testing.T) {
	cases := map[string]bool{
		"Lθcu = P Λ⊤θ Z⊤W y (48)": false,
		"E =-2 TijVjVj [7]":       false,
		"A B C D":                 false,
		"Satz 3.5":                false,
		"Data Availability":       true,
		"3.1 Model Fitting":       true,
	}
	for in, want := range cases {
		if got := plausibleHeadingText(in); got != want {
			t.Errorf("plausibleHeadingText(%q) = %v, want %v", in, got, want)
		}
	}
	code := runsLine(10, pdf.Run{Text: "R> as.data.frame(VarCorr(fm1))", Font: "Inconsolata"})
	if monoShare(code) < 0.9 {
		t.Errorf("monoShare of a code line = %.2f", monoShare(code))
	}
}
