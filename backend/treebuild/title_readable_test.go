package treebuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// TestUsableTitle: the check every title passes before it is shown.
func TestUsableTitle(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want bool
	}{
		{"printed title", "On the attraction between two perfectly conducting plates", true},
		{"title in capitals", "REDUCIBILITY AMONG COMBINATORIAL PROBLEMS", true},
		{"short title with a model name", "GPT-4 Technical Report", true},
		{"OCR'd formula set large", "dE=- 'in23 hC~RI~2.", false},
		{"routing list row of a cover sheet", "18 - &. A. Schelkunoff pop ma a]", false},
		{"Word's file name", "Microsoft Word - final_v3.docx", false},
		{"Word's file name without extension", "Microsoft Word - Chapter 2", false},
		{"untitled", "Untitled", false},
		{"untitled with a number", "untitled-1", false},
		{"template document", "Document1", false},
		{"a LaTeX source file", "main.tex", false},
		{"a PDF file name", "paper_final.pdf", false},
		{"layout placeholder", "Layout 1", false},
		{"slides placeholder", "PowerPoint Presentation", false},
		{"title that mentions a document", "Document Image Analysis with Deep Networks", true},
		{"empty", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := usableTitle(c.in); got != c.want {
				t.Errorf("usableTitle(%q) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}

// TestReadableTitlesRealFiles: papers of the shared library whose title by
// size was unreadable or missing. Scans are read with OCR (their first
// pages only), as index does; those cases skip without tesseract or with
// -short.
func TestReadableTitlesRealFiles(t *testing.T) {
	dir := shareddata.Dir(t, "library")
	cases := []struct {
		name, file string
		ocrPages   int // pages to read with OCR (0: the text layer as it is)
		title      string
		author     string // one author that must be found ("" none)
	}{
		// The largest text is an OCR'd formula; the info title is the paper's.
		{"formula set large, info title", "pwl__casimir1948_conducting_plates.pdf", 0, "On the attraction between two perfectly conducting plates", ""},
		// Title in bold at body size, no info title: the first title-like line.
		{"bold title at body size", "desigualdad__es_desigualdad_homicidios_ecuador.pdf", 0,
			"Relación entre la desigualdad y los homicidios en Ecuador durante el período 2014-2024", "Alan Matheo Morales Gualotuña"},
		// Title in capitals at body size under a smaller running head.
		{"capitals at body size", "pwl__turing1936_on_computable_numbers.pdf", 3, "On Computable Numbers, with an Application to the Entscheidungsproblem", ""},
		// A reprint's source block ("Reprinted from: COMPLEXITY OF COMPUTER
		// COMPUTATIONS ...") is set larger than the paper's title.
		{"reprint source block", "pwl__karp1972_reducibility_image_only.pdf", 2, "Reducibility Among Combinatorial Problems", "Richard M. Karp"},
		// A memo's cover sheet: a label, a routing list, a stamp; no line
		// reads as the title, so none is given (the app shows the file).
		{"memo cover sheet", "pwl__shannon1945_cryptography_memo_image_only.pdf", 4, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("skipping: %s is not in the shared library", c.file)
			}
			if c.ocrPages > 0 {
				if testing.Short() {
					t.Skip("skipping OCR in -short mode")
				}
				if _, err := exec.LookPath("tesseract"); err != nil {
					t.Skip("skipping: tesseract is not installed")
				}
			}
			doc := openFirstPages(t, path, c.ocrPages)
			p, err := Build(context.Background(), doc, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if p.Title != c.title {
				t.Errorf("title %q, want %q", p.Title, c.title)
			}
			if c.author != "" && !contains(p.Authors, c.author) {
				t.Errorf("authors %q, want %q among them", p.Authors, c.author)
			}
		})
	}
}

// openFirstPages reads a PDF; with pages > 0 it keeps its first pages only
// and reads them with OCR where index would (pdf.PlanOCR).
func openFirstPages(t *testing.T, path string, pages int) *pdf.Document {
	t.Helper()
	ctx := context.Background()
	if pages == 0 {
		doc, err := pdf.Open(ctx, path, pdf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := pdf.Parse(ctx, f, st.Size(), pdf.Options{})
	if papertree.ErrorCode(err) == papertree.ENoText {
		doc, err = pdf.Geometry(ctx, f, st.Size(), pdf.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) > pages {
		doc.Pages = doc.Pages[:pages]
	}
	doc, _, err = ocr.Apply(ctx, path, f, st.Size(), pdf.Options{}, doc, nil, ocr.Config{Languages: ocr.Langs(ocr.DefaultLanguages)}, ocr.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// TestTitleChoice: the order in which a title is chosen when the one found
// by size does not read as a title, on synthetic pages.
func TestTitleChoice(t *testing.T) {
	bold := style{font: "Times-Bold", size: 10, bold: true}
	formula := style{font: "Helvetica", size: 14}
	page := func(build func(p *pageBuilder), info string) *pdf.Document {
		p := newPage(1)
		build(p)
		p.para(72, 300, 460, body, lorem(4, 12))
		return &pdf.Document{Pages: []pdf.Page{p.page}, Info: pdf.Info{Title: info}}
	}
	withFormula := func(p *pageBuilder) {
		p.para(72, 80, 460, body, lorem(5, 3))
		p.text(200, 200, formula, "dE=- 'in23 hC~RI~2.")
	}
	boldTitle := func(p *pageBuilder) {
		p.text(72, 60, bold, "Inequality and Homicide in the Cantons of Ecuador")
		p.text(200, 80, body, "Ana María Pérez")
	}
	cases := []struct {
		name string
		doc  *pdf.Document
		want string
	}{
		{"unreadable large text gives way to the info title", page(withFormula, "On the attraction between two perfectly conducting plates"), "On the attraction between two perfectly conducting plates"},
		{"unreadable large text, placeholder info title: no title", page(withFormula, "Microsoft Word - casimir.doc"), ""},
		{"no large text, placeholder info title: the bold first line", page(boldTitle, "Microsoft Word - draft3.docx"), "Inequality and Homicide in the Cantons of Ecuador"},
		{"no large text, no info title: the bold first line", page(boldTitle, ""), "Inequality and Homicide in the Cantons of Ecuador"},
		{"prose only: no title", page(func(p *pageBuilder) { p.para(72, 60, 460, body, lorem(6, 6)) }, ""), ""},
		{"a reprint's source block set larger is not the title", page(func(p *pageBuilder) {
			p.text(250, 40, body, "Reprinted from:")
			p.text(230, 54, formula, "COMPLEXITY OF COMPUTER COMPUTATIONS")
			p.text(240, 70, body, "(Plenum Press, 1972)")
			p.text(72, 140, body, "REDUCIBILITY AMONG COMBINATORIAL PROBLEMS")
			p.text(120, 170, body, "Richard M. Karp")
		}, ""), "Reducibility Among Combinatorial Problems"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(context.Background(), c.doc, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if p.Title != c.want {
				t.Errorf("title %q, want %q", p.Title, c.want)
			}
		})
	}
}
