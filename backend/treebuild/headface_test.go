package treebuild

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

func TestFontFamily(t *testing.T) {
	cases := []struct {
		name, font, want string
	}{
		{"subset tag and style", "ABCDEF+MyriadPro-Semibold", "myriadpro"},
		{"style after a hyphen", "TimesLTStd-Roman", "timesltstd"},
		{"style glued on", "FormataOTFMdIt", "formataotfmdit"},
		{"comma style", "Arial,Bold", "arial"},
		{"bare name", "Helvetica", "helvetica"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fontFamily(c.font); got != c.want {
				t.Fatalf("fontFamily(%q) = %q, want %q", c.font, got, c.want)
			}
		})
	}
}

func TestSameFamily(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want bool
	}{
		{"equal", "myriadpro", "myriadpro", true},
		{"style glued on", "formataotf", "formataotfmdit", true},
		{"other family", "myriadpro", "warnockpro", false},
		{"too short to tell", "cm", "cmr", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sameFamily(c.a, c.b); got != c.want {
				t.Fatalf("sameFamily(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
			}
		})
	}
}

// smallFacePaper lays out a journal article whose sections are set in
// headFont at 10.5 pt bold and whose subsections are set at 9 pt (bold, and
// bold italic one level further down) over a 10 pt serif body, as BMC,
// Springer and IEEE Access do. subFont sets the small lines.
func smallFacePaper(headFont, subFont string) *pdf.Document {
	serif := style{font: "WarnockPro-Regular", size: 10}
	head := style{font: headFont, size: 10.5, bold: true}
	sub := style{font: subFont, size: 9, bold: true}
	subsub := style{font: subFont, size: 9, bold: true, italic: true}
	items := []struct {
		st   style
		text string
	}{
		{head, "Background"}, {head, "Results"}, {sub, "Classifier performance"}, {sub, "Enrichment of gene sets"},
		{head, "Discussion"}, {head, "Methods"}, {sub, "Methylation datasets"}, {subsub, "Derived classification scores"},
		{subsub, "Scores from the literature"}, {sub, "Evaluating the classifiers"}, {head, "Conclusions"},
	}
	var pages []pdf.Page
	p := newPage(1)
	p.text(72, 80, style{font: "MyriadPro-Regular", size: 20}, "A Journal Article With Small Subheadings")
	y := 130.0
	for i, it := range items {
		if y > 640 {
			pages = append(pages, p.page)
			p = newPage(len(pages) + 1)
			y = 80
		}
		p.text(72, y, it.st, it.text)
		y = p.para(72, y+12, 460, serif, lorem(20+i, 8))
		y += 12
	}
	pages = append(pages, p.page)
	return &pdf.Document{Pages: pages}
}

func sectionList(t *testing.T, doc *pdf.Document) string {
	t.Helper()
	p, err := Build(context.Background(), doc, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.Kind == papertree.KindSection {
			out = append(out, fmt.Sprintf("%d %s", len(path)-1, n.Title))
		}
		return true
	})
	return strings.Join(out, "|")
}

// TestSmallFaceHeadings: lines set below body size are subsection headings
// only in the paper's heading typeface, the family of its conventionally
// named sections; in the body family, or in a sans the sections do not use,
// they stay text (bold table heads, figure labels).
func TestSmallFaceHeadings(t *testing.T) {
	cases := []struct {
		name, headFont, subFont string
		want                    string
	}{
		{"sans heading face", "MyriadPro-Bold", "MyriadPro-Semibold",
			"1 Background|1 Results|2 Classifier performance|2 Enrichment of gene sets|1 Discussion|1 Methods|2 Methylation datasets|3 Derived classification scores|3 Scores from the literature|2 Evaluating the classifiers|1 Conclusions"},
		{"small lines in the body family", "MyriadPro-Bold", "WarnockPro-Bold",
			"1 Background|1 Results|1 Discussion|1 Methods|1 Conclusions"},
		{"small sans lines, serif sections", "WarnockPro-Bold", "MyriadPro-Semibold",
			"1 Background|1 Results|1 Discussion|1 Methods|1 Conclusions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sectionList(t, smallFacePaper(c.headFont, c.subFont)); got != c.want {
				t.Fatalf("sections\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// spaced lays out text one letter per run, letter-spaced, starting at x.
func spaced(x float64, text string) []pdf.Run {
	var rs []pdf.Run
	for _, w := range strings.Fields(text) {
		for _, r := range w {
			rs = append(rs, pdf.Run{Text: string(r), Font: "AdvGulliv-F", X: x})
			x += 9 * 0.5 * 1.6
		}
		x += 9
	}
	return rs
}

func TestSpacedName(t *testing.T) {
	cases := []struct {
		name string
		runs []pdf.Run
		want string
	}{
		{"two labels over two columns", append(spaced(40, "article info"), spaced(200, "abstract")...), "Abstract"},
		{"alone", spaced(40, "references"), "References"},
		{"letter-spaced but no section name", spaced(40, "article info"), ""},
		{"ordinary words", []pdf.Run{{Text: "Abstract"}, {Text: "and"}, {Text: "more"}, {Text: "words"}, {Text: "here"}}, ""},
		{"a row of one-letter table cells", append(spaced(40, "a b"), spaced(200, "c d e")...), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := runsLine(9, c.runs...)
			st := stats{bodySize: 8, lineSpacing: 10}
			got := ""
			if h := spacedName([]*line{l}, 0, st); h != nil {
				got = h.text
			}
			if got != c.want {
				t.Fatalf("spacedName(%q) = %q, want %q", l.text, got, c.want)
			}
		})
	}
}

func TestDropDrawnTwice(t *testing.T) {
	run := func(text string, x, y, w float64) pdf.Run {
		return pdf.Run{Text: text, X: x, Y: y, W: w, Size: 10}
	}
	cases := []struct {
		name string
		runs []pdf.Run
		want string
	}{
		{"a layer laid over another", []pdf.Run{run("5.6.", 161.4, 410.6, 15), run("Ablation", 178.9, 410.6, 35), run("5.6.", 166.4, 409.2, 15), run("Ablation", 184.4, 409.2, 35)}, "5.6. Ablation"},
		{"fake bold by overprinting", []pdf.Run{run("Results", 72, 100, 30), run("Results", 72.3, 100, 30)}, "Results"},
		{"adjacent equal glyphs", []pdf.Run{run("1", 72, 100, 5), run("1", 77, 100, 5)}, "1 1"},
		{"the same word on the next line", []pdf.Run{run("model", 72, 100, 25), run("model", 72, 112, 25)}, "model model"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, r := range dropDrawnTwice(c.runs) {
				got = append(got, r.Text)
			}
			if strings.Join(got, " ") != c.want {
				t.Fatalf("kept %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
}

func TestNumberedListNotHeading(t *testing.T) {
	cases := []struct {
		name string
		next string
		nx   float64
		want bool // "1 Training:" stays a heading
	}{
		{"followed by the next item", "2 A dataset consists of x and y is established", 72, false},
		{"followed by its text", "A dataset consists of x and y is established", 72, true},
		{"followed by a subsection number", "1.1 A dataset consists of x and y", 72, true},
		{"next number elsewhere on the line", "2 A dataset consists of x and y is established", 200, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(1)
			y := p.para(72, 100, 460, body, lorem(1, 6))
			p.text(72, y+14, boldB, "1 Training:")
			p.text(c.nx, y+26, body, c.next)
			p.para(72, y+38, 460, body, lorem(2, 6))
			lines := linesOf(p)
			st := computeStats(lines)
			got := false
			for i := range lines {
				if h := classifyLine(lines, i, st); h != nil && strings.HasPrefix(h.text, "1 Training") {
					got = true
				}
			}
			if got != c.want {
				t.Fatalf("heading %v, want %v", got, c.want)
			}
		})
	}
}

func TestCitationTailNotHeading(t *testing.T) {
	cases := map[string]bool{
		"B (Statistical Methodology), 34(2): 187–202.": false,
		"Biometrika 62 (2):269":                        false,
		"Results of the Second Study (Part 2)":         true,
		"A Study of 12 (Small) Models":                 true,
	}
	for in, want := range cases {
		if got := plausibleHeadingText(in); got != want {
			t.Errorf("plausibleHeadingText(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestRunInLineTypewriterTail(t *testing.T) {
	bold := func(s string) pdf.Run { return pdf.Run{Text: s, Font: "CMBX12", Bold: true} }
	cases := []struct {
		name string
		runs []pdf.Run
		want bool
	}{
		{"function name ends the heading", []pdf.Run{bold("3.1."), bold("C++"), bold("to"), bold("R:"), {Text: "wrap", Font: "CMTT10"}}, false},
		{"prose after the label", []pdf.Run{bold("Training."), {Text: "We", Font: "CMR10"}, {Text: "train", Font: "CMR10"}, {Text: "the", Font: "CMR10"}, {Text: "model", Font: "CMR10"}}, true},
		{"code in a run-in paragraph", []pdf.Run{bold("Usage."), {Text: "Call", Font: "CMR10"}, {Text: "wrap()", Font: "CMTT10"}, {Text: "on", Font: "CMR10"}, {Text: "it", Font: "CMR10"}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := runInLine(runsLine(11, c.runs...)); got != c.want {
				t.Fatalf("runInLine = %v, want %v", got, c.want)
			}
		})
	}
}
