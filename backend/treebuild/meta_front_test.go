package treebuild

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Front-matter cases of issue 21's hold-out misses, rebuilt from positioned
// runs: each checks one general signal (type, position, case) rather than a
// file.

func buildPage(t *testing.T, p *pageBuilder, info pdf.Info) *Paper {
	t.Helper()
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}, Info: info}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return &Paper{got.Title, got.Authors, got.Year}
}

// Paper is the part of a built paper these tests look at.
type Paper struct {
	Title   string
	Authors []string
	Year    int
}

func TestTitleLabelsAndSubtitles(t *testing.T) {
	big := style{font: "Times-Bold", size: 20, bold: true}
	cases := []struct {
		name  string
		build func(p *pageBuilder)
		want  string
	}{
		{"a one-word label in capitals under a mixed-case title", func(p *pageBuilder) {
			p.text(120, 100, big, "Cocco, Gomes, and Maenhout (2005)")
			p.text(240, 125, big, "REMARK")
		}, "Cocco, Gomes, and Maenhout (2005)"},
		{"a title in capitals keeps its last word", func(p *pageBuilder) {
			p.text(120, 100, big, "ATTENTION IS ALL YOU")
			p.text(240, 125, big, "NEED")
		}, "Attention Is All You Need"},
		{"a subtitle after a colon further down", func(p *pageBuilder) {
			p.text(250, 90, big, "Firm Entry and Exit:")
			p.text(100, 150, big, "A Replication of Two Models")
		}, "Firm Entry and Exit: A Replication of Two Models"},
		{"a subtitle after a colon in a smaller display size", func(p *pageBuilder) {
			p.text(150, 90, big, "Deep Trees:")
			p.text(120, 118, titleSt, "Reading Papers as Hierarchies")
		}, "Deep Trees: Reading Papers as Hierarchies"},
		{"a thesis's document type over its title", func(p *pageBuilder) {
			p.text(190, 80, style{font: "CMBX12", size: 25, bold: true}, "Bachelorarbeit")
			p.text(100, 125, big, "Optimale Zuordnungen auf Geometrischen")
			p.text(240, 155, big, "Graphen")
		}, "Optimale Zuordnungen auf Geometrischen Graphen"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(1)
			c.build(p)
			p.text(220, 200, body, "Jane Doe")
			p.text(72, 240, sec, "Abstract")
			p.para(72, 256, 460, body, lorem(1, 40))
			if got := buildPage(t, p, pdf.Info{}); got.Title != c.want {
				t.Fatalf("title %q, want %q", got.Title, c.want)
			}
		})
	}
}

// TestTitleInfoDropCapital: the info title lacks the drop capital the page
// prints ("Diosyncratic" for "IDIOSYNCRATIC"): the printed title is found
// and shown.
func TestTitleInfoDropCapital(t *testing.T) {
	p := newPage(1)
	p.text(72, 60, body, "Econometrica, Vol. 76, No. 2 (March, 2008), 395–436")
	p.text(90, 90, body, "IDIOSYNCRATIC SHOCKS AND THE ROLE OF NONCONVEXITIES")
	p.text(110, 102, body, "IN PLANT AND AGGREGATE INVESTMENT DYNAMICS")
	p.page.Runs = append(p.page.Runs,
		pdf.Run{Text: "A", Font: "Times-Roman", Size: 10, X: 225, Y: 130, W: 7.5},
		pdf.Run{Text: "UBHIK", Font: "Times-Roman", Size: 8, X: 232.4, Y: 130, W: 26, Glued: true},
		pdf.Run{Text: "K", Font: "Times-Roman", Size: 10, X: 262, Y: 130, W: 7.5},
		pdf.Run{Text: "HAN", Font: "Times-Roman", Size: 8, X: 269.4, Y: 130, W: 16, Glued: true})
	p.text(100, 142, style{font: "Times-Italic", size: 10, italic: true}, "Federal Reserve Bank of Philadelphia, Philadelphia, PA 19106, U.S.A.")
	p.para(72, 200, 460, body, lorem(1, 60))
	got := buildPage(t, p, pdf.Info{Title: "Diosyncratic Shocks and the Role of Nonconvexities in Plant and Aggregate Investment Dynamics"})
	if got.Title != "Idiosyncratic Shocks and the Role of Nonconvexities in Plant and Aggregate Investment Dynamics" {
		t.Fatalf("title %q", got.Title)
	}
	if strings.Join(got.Authors, "|") != "Aubhik Khan" {
		t.Fatalf("authors %q", got.Authors)
	}
}

// TestTitleNotUnderAddresses: large lettering under the authors' e-mail
// addresses (a logo in a figure) is not the title.
func TestTitleNotUnderAddresses(t *testing.T) {
	p := newPage(1)
	p.text(95, 80, style{font: "Times-Bold", size: 14.5, bold: true}, "PaSa: An LLM Agent for Paper Search")
	p.text(150, 100, style{font: "Times-Bold", size: 12, bold: true}, "Yichen He, Guanhua Huang")
	p.text(150, 160, body, "{hyc,huangguanhua}@bytedance.com")
	p.text(240, 300, style{font: "Rockwell-Bold", size: 20, bold: true}, "Paper Search")
	p.text(72, 340, sec, "Abstract")
	p.para(72, 356, 460, body, lorem(1, 40))
	got := buildPage(t, p, pdf.Info{})
	if got.Title != "PaSa: An LLM Agent for Paper Search" {
		t.Fatalf("title %q", got.Title)
	}
	if strings.Join(got.Authors, "|") != "Yichen He|Guanhua Huang" {
		t.Fatalf("authors %q", got.Authors)
	}
}

func TestLineNamesCapitals(t *testing.T) {
	cases := []struct {
		name string
		l    *line
		want string
	}{
		{"surname in capitals after a given name", runsLine(9.5, pdf.Run{Text: "Timothée POISOT"}), "Timothée Poisot"},
		{"given name and initial before the surname", runsLine(9.5, pdf.Run{Text: "Benjamin B. MERCIER"}), "Benjamin B. Mercier"},
		{"two given names do not take an acronym", runsLine(9.5, pdf.Run{Text: "Alice Smith MIT"}), "Alice Smith"},
		{"small capitals in runs", makeLine([]pdf.Run{
			{Text: "J", Size: 10.5, X: 217.6, W: 4.6}, {Text: "ULIA", Size: 8.4, X: 222.1, W: 21.8, Glued: true},
			{Text: "K.", Size: 10.5, X: 246.6, W: 10.3},
			{Text: "T", Size: 10.5, X: 259.6, W: 6.9}, {Text: "HOMAS", Size: 8.4, X: 266.4, W: 32.4, Glued: true}}, 1, 612, 792),
			"Julia K. Thomas"},
		{"a list in capitals with member notes", runsLine(10, pdf.Run{Text: "HUAN LIU"}, pdf.Run{Text: "1,2", Size: 6, Glued: true},
			pdf.Run{Text: ", (Member, IEEE), ZHENG LIU"}, pdf.Run{Text: "4", Size: 6, Glued: true}, pdf.Run{Text: ", (Senior Member, IEEE), JIAN GE, ZHIWEN YUAN, AND XUMING ZENG"}),
			"Huan Liu|Zheng Liu|Jian Ge|Zhiwen Yuan|Xuming Zeng"},
		{"chained initials", runsLine(10.5, pdf.Run{Text: "Aiden E.G.F. Arnold a,b, Giuseppe Iaria a"}), "Aiden E.G.F. Arnold|Giuseppe Iaria"},
		{"particles do not count towards the length", runsLine(11, pdf.Run{Text: "Mathieu de Bony de Lavergne, José Vinícius de Miranda Cardoso"}),
			"Mathieu de Bony de Lavergne|José Vinícius de Miranda Cardoso"},
		{"cedilla drawn as a spacing accent", runsLine(12, pdf.Run{Text: "Romain Fran¸cois"}), "Romain François"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(lineNames(c.l), "|"); got != c.want {
				t.Fatalf("lineNames = %q, want %q", got, c.want)
			}
		})
	}
}

// TestAuthorListOverLines: a list of names that runs over several lines,
// broken inside names, yields every name whole.
func TestAuthorListOverLines(t *testing.T) {
	p := newPage(1)
	p.text(100, 80, titleSt, "The impact of low input DNA on methylation")
	a := style{font: "OpenSans-Semibold", size: 12, bold: true}
	p.text(97, 110, a, "Sarah Holmes Watkins, Karen Ho, Christian Testa, George")
	p.text(97, 124, a, "Davey Smith, Immaculata De Vivo, Pamela D.")
	p.text(97, 138, a, "Waterman, Nancy Krieger & Caroline Relton")
	p.text(97, 152, body, "University of Bristol, Bristol, UK")
	p.text(72, 190, sec, "Abstract")
	p.para(72, 206, 460, body, lorem(1, 40))
	got := buildPage(t, p, pdf.Info{})
	want := "Sarah Holmes Watkins|Karen Ho|Christian Testa|George Davey Smith|Immaculata De Vivo|Pamela D. Waterman|Nancy Krieger|Caroline Relton"
	if strings.Join(got.Authors, "|") != want {
		t.Fatalf("authors %q", got.Authors)
	}
}

// TestStackedAuthorsNotJoined: names stacked over their affiliations in
// one type are not read as one list running over lines, and an address
// line over a title (a journal banner's contact) does not end the search
// for the title.
func TestStackedAuthorsNotJoined(t *testing.T) {
	p := newPage(1)
	p.text(72, 40, style{font: "Times-Roman", size: 12}, "Journal of Things")
	p.text(72, 55, small, "Correspondence: jane@uni-x.edu")
	p.text(100, 90, titleSt, "A Study of Stacked Author Blocks")
	p.text(200, 120, body, "Jane Doe")
	p.text(200, 132, body, "Dept. of Computer Science, University X, Berlin, Germany")
	p.text(200, 144, body, "John Roe")
	p.text(200, 156, body, "Dept. of Physics, University Y, Paris, France")
	p.text(72, 190, sec, "Abstract")
	p.para(72, 206, 460, body, lorem(1, 40))
	got := buildPage(t, p, pdf.Info{})
	if got.Title != "A Study of Stacked Author Blocks" || strings.Join(got.Authors, "|") != "Jane Doe|John Roe" {
		t.Fatalf("got %+v", got)
	}
}

func TestBrokenName(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"Axel Donath 1, Cosimo Nigro 5, Fabio Pintore 6, Bruno", "Khélifi2, Laura Olivera-Nieto3", true},
		{"Kai Brügge 8, Maximilian Linhoff 9, Jose Louis", "Contreras4, Fabio Acero10", true},
		{"Andrew Chen21, Mathieu de Bony de", "Lavergne17, José Vinícius", true},
		{"Alice Smith, Bob Jones, Carol White", "Dan Brown, Eve Black", false},
		{"Alice Smith, Bob Jones, Carol White,", "Dan Brown, Eve Black", false},
	}
	for _, c := range cases {
		if got := brokenName(c.a, c.b); got != c.want {
			t.Errorf("brokenName(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestAuthorGridEvenSpacing: four names set with even word spacing over
// four affiliations (JSS): the affiliations' columns cut the names apart.
func TestAuthorGridEvenSpacing(t *testing.T) {
	p := newPage(1)
	p.text(100, 80, titleSt, "Fitting Linear Mixed-Effects Models using lme4")
	nb := style{font: "LMRoman12-Bold", size: 12, bold: true}
	x := 87.0
	for _, w := range strings.Fields("Douglas Bates Martin Mächler Benjamin M. Bolker Steven C. Walker") {
		x = p.text(x, 120, nb, w) + 2
	}
	for _, a := range []struct {
		x float64
		t string
	}{{90, "U. of Wisconsin"}, {186, "ETH Zurich"}, {264, "McMaster University"}, {369, "McMaster University"}} {
		p.text(a.x, 134, body, a.t)
	}
	p.text(280, 180, sec, "Abstract")
	p.para(72, 196, 460, body, lorem(1, 40))
	got := buildPage(t, p, pdf.Info{})
	if strings.Join(got.Authors, "|") != "Douglas Bates|Martin Mächler|Benjamin M. Bolker|Steven C. Walker" {
		t.Fatalf("authors %q", got.Authors)
	}
}

// TestThesisTitlePage: the author of a thesis is named plainly; the
// supervisors under him with academic titles or after "Sous la direction
// de" are not authors; the date in figures gives the year.
func TestThesisTitlePage(t *testing.T) {
	p := newPage(1)
	p.text(190, 170, style{font: "CMBX12", size: 25, bold: true}, "Bachelorarbeit")
	big := style{font: "CMR17", size: 20.5}
	p.text(100, 215, big, "Optimale Zuordnungen auf Geometrischen Graphen")
	name := style{font: "CMR12", size: 14.5}
	p.text(220, 300, name, "Sebastian Koletzko")
	p.text(220, 320, name, "Sous la direction de Lucie Barque")
	p.text(230, 350, name, "Datum: 28.12.23")
	p.text(200, 580, name, "Ruhr-Universität Bochum")
	p.text(205, 620, name, "Prof. Dr. Maike Buchin")
	p.text(220, 640, name, "Dr. Daniela Kacso")
	got := buildPage(t, p, pdf.Info{})
	if got.Title != "Optimale Zuordnungen auf Geometrischen Graphen" || strings.Join(got.Authors, "|") != "Sebastian Koletzko" || got.Year != 2023 {
		t.Fatalf("got %+v", got)
	}
}

func TestFrontYearMore(t *testing.T) {
	page := func(extra func(p *pageBuilder)) *pageBuilder {
		p := newPage(1)
		p.text(150, 80, titleSt, "A Study of Something Interesting")
		p.text(200, 110, body, "Jane Doe, John Roe")
		p.text(72, 170, sec, "Abstract")
		p.para(72, 186, 460, body, lorem(1, 5))
		extra(p)
		return p
	}
	cases := []struct {
		name string
		p    *pageBuilder
		year int
	}{
		{"copyright with the publisher before the year", page(func(p *pageBuilder) {
			p.text(72, 600, small, "© Springer International Publishing Switzerland 2016")
		}), 2016},
		{"venue with a two-digit year", page(func(p *pageBuilder) {
			p.text(150, 95, body, "Anonymous submission #303 to Security & Privacy ’21")
		}), 2021},
		{"ACM permission block", page(func(p *pageBuilder) {
			p.text(54, 700, small, "CSCW’14, February 15–19, Baltimore, Maryland, USA.")
		}), 2014},
		{"numbered venue footnote ending in a period", page(func(p *pageBuilder) {
			p.text(108, 740, small, "35th Conference on Neural Information Processing Systems (NeurIPS 2021).")
		}), 2021},
		{"date beside a badge in the footer", page(func(p *pageBuilder) {
			p.text(36, 750, small, "March 4, 2021")
			p.text(400, 750, small, "cb")
		}), 2021},
		{"a year in the running text is no evidence", page(func(p *pageBuilder) {
			p.text(72, 400, body, "as shown by the CoNLL’03 shared task and Smith (2019), the results hold")
		}), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := buildPage(t, c.p, pdf.Info{}); got.Year != c.year {
				t.Fatalf("year %d, want %d", got.Year, c.year)
			}
		})
	}
}

func TestFullYear(t *testing.T) {
	for in, want := range map[int]int{23: 2023, 0: 2000, 97: 1997, 2016: 2016} {
		if got := fullYear(in); got != want {
			t.Errorf("fullYear(%d) = %d, want %d", in, got, want)
		}
	}
}

// FuzzFrontMatter builds title pages whose title and author lines come from
// fuzz text (words become runs; the bytes choose sizes, gaps, glued runs and
// capitals) and checks what the front-matter rules promise: no panic, names
// of two to six words without separators, a trimmed title, a year of four
// digits or none.
func FuzzFrontMatter(f *testing.F) {
	f.Add("Firm Entry and Exit:\nA Replication\nTimothée POISOT, Bruno\nKhélifi2, Jose Louis\nContreras4, A. B. C.", []byte{3, 9, 200, 17, 4})
	f.Add("ATTENTION IS ALL YOU\nNEED\nHUAN LIU1, (Member, IEEE), ZHENG LIU4\nDatum: 28.12.23\nCSCW’14, ©  Springer 2016", []byte{250, 1, 2, 3})
	f.Add("REMARK\n\n,,,\n& and ¸c ¨\nProf. Dr. x\nSous la direction de Y", []byte{0})
	f.Fuzz(func(t *testing.T, text string, style []byte) {
		if len(text) > 2000 {
			return
		}
		got := runFront(text, style)
		if got == nil {
			return
		}
		if got.Title != strings.TrimSpace(got.Title) {
			t.Fatalf("title %q not trimmed", got.Title)
		}
		for _, a := range got.Authors {
			if n := len(strings.Fields(a)); n < 2 || n > 6 || strings.ContainsAny(a, ",&") {
				t.Fatalf("author %q", a)
			}
		}
		if got.Year != 0 && (got.Year < 1900 || got.Year > 2100) {
			t.Fatalf("year %d", got.Year)
		}
	})
}

// runFront builds the fuzzed title page (see FuzzFrontMatter).
func runFront(text string, style []byte) *papertree.Paper {
	b := func(i int) byte {
		if len(style) == 0 {
			return 0
		}
		return style[i%len(style)]
	}
	p := newPage(1)
	y, k := 60.0, 0
	for li, ln := range strings.Split(text, "\n") {
		size := 8 + float64(b(li)%16)
		x := 60 + float64(b(li+1)%80)
		for _, w := range strings.Fields(ln) {
			k++
			sz := size
			if b(k)%7 == 0 {
				sz = size * 0.75
			}
			width := float64(len([]rune(w))) * sz * 0.5
			p.page.Runs = append(p.page.Runs, pdf.Run{Text: w, Font: "Times-Roman", Size: sz, Bold: b(k)%5 == 0, X: x, Y: y, W: width, Glued: b(k)%3 == 0})
			gap := sz * 0.25
			if b(k)%11 == 0 {
				gap = sz * 3
			}
			if b(k)%3 == 0 {
				gap = 0
			}
			x += width + gap
		}
		y += size * (1.2 + float64(b(li+2)%4))
	}
	p.para(72, y+20, 460, body, lorem(1, 30))
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}, Info: pdf.Info{Title: strings.SplitN(text, "\n", 2)[0]}}, DefaultOptions())
	if err != nil {
		return nil
	}
	return got
}
