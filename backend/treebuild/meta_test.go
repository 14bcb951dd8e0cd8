package treebuild

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/pdf"
)

func TestTitleCaseCaps(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ITEM2VEC: NEURAL ITEM EMBEDDING FOR COLLABORATIVE FILTERING", "ITEM2VEC: Neural Item Embedding for Collaborative Filtering"},
		{"COMPUTATIONAL NATURAL LANGUAGE INFERENCE: ROBUST AND INTERPRETABLE QUESTION ANSWERING", "Computational Natural Language Inference: Robust and Interpretable Question Answering"},
		{"A STUDY OF LSTM AND CNN MODELS", "A Study of LSTM and CNN Models"},
		{"THE STATE-OF-THE-ART IN THE BRAIN", "The State-of-the-Art in the Brain"},
		{"Deep Learning", "Deep Learning"},
		{"BERT", "BERT"},
		{"GloVe: Global Vectors", "GloVe: Global Vectors"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := titleCaseCaps(c.in); got != c.want {
				t.Fatalf("titleCaseCaps(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestArticleLabel(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"REVIEW", true}, {"ARTICLE", true}, {"Original Articles", true}, {"Brief article", true},
		{"LETTERS", true}, {"RESEARCH Open Access", true}, {"Research Article", true},
		{"Deep learning", false}, {"A Review of Deep Learning", false}, {"Review of ROC and Precision-Recall", false},
	}
	for _, c := range cases {
		if got := isArticleLabel(c.in); got != c.want {
			t.Errorf("isArticleLabel(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestTitleLineText(t *testing.T) {
	cases := []struct {
		name string
		l    *line
		want string
	}{
		{"superscript digit", runsLine(16, pdf.Run{Text: "IN THE BRAIN", Y: 100}, pdf.Run{Text: "1", Size: 9, Y: 94, Glued: true}), "IN THE BRAIN"},
		{"mark symbol", runsLine(16, pdf.Run{Text: "Automated Hate Speech Detection∗"}), "Automated Hate Speech Detection"},
		{"separate star run", runsLine(16, pdf.Run{Text: "Distance measures for embedded graphs"}, pdf.Run{Text: "✩", Size: 16}), "Distance measures for embedded graphs"},
		{"digit in full size stays", runsLine(16, pdf.Run{Text: "Web 2"}), "Web 2"},
		{"subscript stays", runsLine(16, pdf.Run{Text: "Cuprate Superconductors La2−xMxCuO"}, pdf.Run{Text: "4", Size: 10, Y: 103, Glued: true}), "Cuprate Superconductors La2−xMxCuO 4"},
		{"question mark stays", runsLine(16, pdf.Run{Text: "Deal or No Deal?"}), "Deal or No Deal?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := titleLineText(c.l); got != c.want {
				t.Fatalf("titleLineText = %q, want %q", got, c.want)
			}
		})
	}
}

func TestComposeAccents(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Samuel R¨onnqvist", "Samuel Rönnqvist"},
		{"University of T¨ubingen", "University of Tübingen"},
		{"Inria Rhˆone-Alps", "Inria Rhône-Alps"},
		{"Jos´e and Ram´ırez", "José and Ramírez"},
		{"a lone ¨ accent", "a lone ¨ accent"},
		{"plain text", "plain text"},
	}
	for _, c := range cases {
		if got := cleanText(c.in); got != c.want {
			t.Errorf("cleanText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestProseLine(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"We propose a question answering approach for standardized science exams that both", true},
		{"Department of Computer Science, University of Texas at Austin", false},
		{"Madeleine van Zuylen, and Oren Etzioni", false},
		{"I. Introduction. In his celebrated paper [1], A. M. Turing investigated the", true},
		{"Suncong Zheng a, Yuexing Hao a, Dongyuan Lu b, Hongyun Bao a,∗, Jiaming Xu a,", false},
		{"Waleed Ammar, Dirk Groeneveld, Chandra Bhagavatula, Iz Beltagy, Miles Crawford,", false},
		{"Dipartimento di Fisica e Astronomia, Universitá degli Studi di Firenze, Via G. Sansone 1, I-50019 Sesto Fiorentino, Italy", false},
		{"Allen Institute for Artificial Intelligence, Seattle WA 98103, USA", false},
	}
	for _, c := range cases {
		if got := proseLine(c.in); got != c.want {
			t.Errorf("proseLine(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestLineNamesSpacing(t *testing.T) {
	cases := []struct {
		name string
		l    *line
		want string
	}{
		{"wide gap between names without commas",
			makeLine([]pdf.Run{{Text: "Samuel", X: 122, W: 38, Size: 12}, {Text: "Rönnqvist", X: 163, W: 52, Size: 12},
				{Text: "Tapio", X: 224, W: 29, Size: 12}, {Text: "Salakoski", X: 256, W: 49, Size: 12},
				{Text: "Filip", X: 314, W: 24, Size: 12}, {Text: "Ginter", X: 341, W: 34, Size: 12}}, 1, 612, 792),
			"Samuel Rönnqvist|Tapio Salakoski|Filip Ginter"},
		{"comma without a space", runsLine(11, pdf.Run{Text: "Yuexing Hao,Peng Zhou, Bo Xu"}), "Yuexing Hao|Peng Zhou|Bo Xu"},
		{"a name in capitals", runsLine(11, pdf.Run{Text: "J. J. HOPFIELD"}), "J. J. Hopfield"},
		{"capitals on a mixed line are acronyms", runsLine(11, pdf.Run{Text: "SARS CoV Study Group"}), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(lineNames(c.l), "|"); got != c.want {
				t.Fatalf("lineNames = %q, want %q", got, c.want)
			}
		})
	}
}

func TestNamePrefixInstitutions(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{"INRIA Rhône-Alps, 655 avenue de l’Europe, Montbonnot 38334, France", false},
		{"Technologiepark Zwijnaarde 15, 9052 Ghent, Belgium", false},
		{"KYLE LO, Allen Institute for Artificial Intelligence, USA", true},
	}
	for _, c := range cases {
		if _, ok := namePrefix(c.in); ok != c.ok {
			t.Errorf("namePrefix(%q) ok = %v, want %v", c.in, ok, c.ok)
		}
	}
}

// TestAuthorGrid: a grid of authors in two columns whose reading order puts
// the abstract (left column) before the right column's authors still
// yields every author, and the affiliations under them are not names.
func TestAuthorGrid(t *testing.T) {
	p := newPage(1)
	p.text(120, 70, titleSt, "A Scalable Tree Boosting System for Everyone")
	name := style{font: "Times-Bold", size: 11, bold: true}
	p.text(150, 110, name, "Tianqi Chen")
	p.text(150, 122, body, "University of Washington")
	p.text(150, 134, body, "Computer Science Department")
	p.text(360, 110, name, "Carlos Guestrin")
	p.text(360, 122, body, "University of Washington")
	p.text(360, 134, body, "Seattle Campus")
	p.text(72, 170, sec, "Abstract")
	p.para(72, 186, 220, body, lorem(1, 40))
	p.para(320, 170, 220, body, lorem(2, 40))
	p.text(72, 420, sec, "1 Introduction")
	p.para(72, 436, 220, body, lorem(3, 40))
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Authors, "|") != "Tianqi Chen|Carlos Guestrin" {
		t.Fatalf("authors %q", got.Authors)
	}
	// The same grid set in one style: institution words still tell the
	// affiliation lines from names.
	for _, aff := range []string{"Computer Science Division", "Technion City"} {
		q := newPage(1)
		q.text(120, 70, titleSt, "A Scalable Tree Boosting System for Everyone")
		q.text(150, 110, body, "Tianqi Chen")
		q.text(150, 122, body, aff)
		q.text(72, 170, sec, "Abstract")
		q.para(72, 186, 460, body, lorem(1, 40))
		got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{q.page}}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got.Authors, "|") != "Tianqi Chen" {
			t.Fatalf("authors %q with %q", got.Authors, aff)
		}
	}
}

func TestFrontYear(t *testing.T) {
	page := func(extra func(p *pageBuilder)) *pdf.Document {
		p := newPage(1)
		p.text(150, 80, titleSt, "A Study of Something Interesting")
		p.text(200, 110, body, "Jane Doe, John Roe")
		p.text(72, 170, sec, "Abstract")
		p.para(72, 186, 460, body, lorem(1, 5))
		extra(p)
		return &pdf.Document{Pages: []pdf.Page{p.page}}
	}
	stamp := func(p *pageBuilder) {
		y := 600.0
		for _, w := range strings.Fields("arXiv:1706.03762v5 [cs.CL] 6 Dec 2017") {
			p.page.Runs = append(p.page.Runs, pdf.Run{Text: w, Font: "Times-Roman", Size: 20, X: 32, Y: y, W: float64(len(w)) * 10, Rotated: true})
			y -= float64(len(w))*10 + 5
		}
	}
	cases := []struct {
		name  string
		doc   *pdf.Document
		year  int
		arxiv string
		doi   string
	}{
		{"rotated arXiv stamp", page(stamp), 2017, "1706.03762v5", ""},
		{"journal line in the head band", page(func(p *pageBuilder) {
			p.text(72, 30, small, "Cognition 157 (2016) 139–145")
		}), 2016, "", ""},
		{"running header with the DOI", page(func(p *pageBuilder) {
			p.text(72, 30, small, "Journal of Physics: Conference Series 2188 (2022) 012011 doi:10.1088/1742-6596/2188/1/012011")
		}), 2022, "", "10.1088/1742-6596/2188/1/012011"},
		{"a reference in the band is not the journal line", page(func(p *pageBuilder) {
			p.text(72, 40, small, "IEEE Trans. Microw. Theory Tech. 47, 2075 (1999).")
			p.text(72, 770, small, "www.sciencemag.org SCIENCE VOL 313 28 JULY 2006")
		}), 2006, "", ""},
		{"venue footnote", page(func(p *pageBuilder) {
			p.text(72, 740, small, "32nd Conference on Neural Information Processing Systems (NeurIPS 2018), Montréal, Canada.")
		}), 2018, "", ""},
		{"dated title page", page(func(p *pageBuilder) {
			p.text(250, 140, body, "November 24, 2020")
		}), 2020, "", ""},
		{"copyright", page(func(p *pageBuilder) {
			p.text(72, 600, small, "Copyright © 2015, Association for the Advancement of Artificial Intelligence. All rights reserved.")
		}), 2015, "", ""},
		{"no evidence, no year", page(func(p *pageBuilder) {}), 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Build(context.Background(), c.doc, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if got.Year != c.year || got.ArxivID != c.arxiv || got.DOI != c.doi {
				t.Fatalf("year %d arxiv %q doi %q, want %d %q %q", got.Year, got.ArxivID, got.DOI, c.year, c.arxiv, c.doi)
			}
		})
	}
}

func TestTrimVenueHistory(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Journal of Machine Learning Research 11 (2010) 3371-3408 Submitted 3/10; Revised 11/10; Published 12/10", "Journal of Machine Learning Research 11 (2010) 3371-3408"},
		{"Proceedings of NAACL-HLT 2018, pages 84–91", "Proceedings of NAACL-HLT 2018"},
		{"ICLR 2021", "ICLR 2021"},
	}
	for _, c := range cases {
		if got := trimVenue(c.in); got != c.want {
			t.Errorf("trimVenue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTitleSkipsArticleLabel: a journal's article-type label printed larger
// than the title is not the title (a Nature review's title is "Deep
// learning", not "REVIEW").
func TestTitleSkipsArticleLabel(t *testing.T) {
	p := newPage(1)
	p.text(72, 50, style{font: "Helvetica-Bold", size: 24, bold: true}, "REVIEW")
	p.text(72, 100, titleSt, "Deep learning")
	p.text(72, 130, body, "Yann LeCun, Yoshua Bengio & Geoffrey Hinton")
	p.para(72, 160, 460, body, lorem(1, 40))
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Deep learning" {
		t.Fatalf("title %q", got.Title)
	}
}

// TestTitleSizeWobble: a two-line title whose lines an OCR layer gives
// slightly different sizes (19.5 and 20 pt) is one title.
func TestTitleSizeWobble(t *testing.T) {
	p := newPage(1)
	p.text(72, 100, style{font: "Courier", size: 19.5}, "Neural networks and physical systems with emergent collective")
	p.text(72, 120, style{font: "Courier", size: 20}, "computational abilities")
	p.text(72, 150, body, "J. J. HOPFIELD")
	p.text(72, 180, sec, "Abstract")
	p.para(72, 196, 460, body, lorem(1, 40))
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Neural networks and physical systems with emergent collective computational abilities" {
		t.Fatalf("title %q", got.Title)
	}
	if strings.Join(got.Authors, "|") != "J. J. Hopfield" {
		t.Fatalf("authors %q", got.Authors)
	}
}

// TestTitleNotCitation: a cover sheet's citation line in larger type than
// the title on the next page is not the title.
func TestTitleNotCitation(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"Group Decision and Negotiation, 2001, Vol. 10, No. 6, (493-514).", true},
		{"Cognition 157 (2016) 139–145", true},
		{"Volume Rendering of Large Datasets", false},
		{"Deep Learning in 2016: A Review", false},
	}
	for _, c := range cases {
		if got := citationLine(c.in); got != c.want {
			t.Errorf("citationLine(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
