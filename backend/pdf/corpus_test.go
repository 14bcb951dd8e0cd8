package pdf

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

func corpusFiles(tb testing.TB) []string {
	tb.Helper()
	dir := shareddata.Dir(tb, "pdfs")
	files, err := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if err != nil || len(files) == 0 {
		tb.Skipf("no PDFs in %s", dir)
	}
	sort.Strings(files)
	return files
}

// TestCorpus parses every shared PDF: each must give a Document with text
// or a coded error, never a panic (Parse recovers, so a panic would show
// up as an uncoded error or a crash of the test binary).
func TestCorpus(t *testing.T) {
	for _, f := range corpusFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc, err := Open(context.Background(), f, Options{})
			if err != nil {
				var pe *papertree.Error
				if !errors.As(err, &pe) {
					t.Fatalf("uncoded error: %v", err)
				}
				t.Logf("coded error %s: %s", pe.Code, pe.Message)
				return
			}
			runs := 0
			for _, p := range doc.Pages {
				runs += len(p.Runs)
				for _, r := range p.Runs {
					if r.Text == "" || strings.TrimSpace(r.Text) != r.Text {
						t.Fatalf("page %d: run with empty or padded text %q", p.Number, r.Text)
					}
					if r.Size <= 0 || math.IsNaN(r.X) || math.IsNaN(r.Y) {
						t.Fatalf("page %d: bad run %+v", p.Number, r)
					}
				}
			}
			if runs == 0 {
				t.Fatal("document without runs returned without ENoText")
			}
			t.Logf("%d pages, %d runs, quality %.3f, outline %d, skipped %v",
				len(doc.Pages), runs, doc.TextQuality, len(doc.Outline), doc.SkippedPages)
		})
	}
}

// TestCorpusGarbled checks the text-quality signal on the two papers whose
// text layer is known to be garbage (Type 3 fonts without Unicode) and on
// ordinary papers.
func TestCorpusGarbled(t *testing.T) {
	dir := shareddata.Dir(t, "pdfs")
	cases := []struct {
		file    string
		garbled bool
	}{
		{"lecun1998_lenet_proc_ieee_type3_garbled.pdf", true},
		{"friedman2001_gradient_boosting_type3_garbled_text.pdf", true},
		{"bert_1810.04805.pdf", false},
		{"thesis_sharp2017_phd_dissertation.pdf", false},
		{"nocedal1980_lbfgs_scanned_ocr.pdf", false},
		{"papermage_svm_index-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf", false},
		// A dvips bitmap font whose glyph names ("/a70") carry the
		// character code: no Unicode map, but its words read as text.
		{"../silver/pdfs/remark__cgmportfolio_noappendix.pdf", false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("skipping: %s is missing", path)
			}
			doc, err := Open(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Garbled != c.garbled {
				t.Errorf("Garbled = %v (quality %.3f), want %v", doc.Garbled, doc.TextQuality, c.garbled)
			}
		})
	}
}

// TestCorpusVsPdftotext compares the words of our runs with pdftotext's
// for ordinary papers: we must neither lose nor duplicate text.
func TestCorpusVsPdftotext(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) not installed")
	}
	dir := shareddata.Dir(t, "pdfs")
	for _, name := range []string{
		"bert_1810.04805.pdf",
		"kim2014_cnn_sentence_classification_emnlp.pdf",
		"papermage_2020.acl-main.447.pdf",
		"lai2015_rcnn_text_classification_aaai.pdf",
		"dalal2005_hog_cvpr_hal_cover.pdf",
		"papermage_svm_index-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if _, err := os.Stat(path); err != nil {
				t.Skip(err)
			}
			out, err := exec.Command("pdftotext", "-raw", "-enc", "UTF-8", path, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			doc, err := Open(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ours := wordBag(documentText(doc))
			theirs := wordBag(string(out))
			recall, precision := overlap(ours, theirs)
			t.Logf("words: ours %d, pdftotext %d, recall %.3f, precision %.3f", total(ours), total(theirs), recall, precision)
			if recall < 0.95 || precision < 0.95 {
				t.Errorf("word overlap with pdftotext too low: recall %.3f precision %.3f", recall, precision)
			}
		})
	}
}

// documentText joins runs into text: no space before a glued run (a word
// split by a font change), a space otherwise.
func documentText(doc *Document) string {
	var b strings.Builder
	for _, p := range doc.Pages {
		for i, r := range p.Runs {
			if i > 0 && !r.Glued {
				b.WriteByte(' ')
			}
			b.WriteString(r.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func wordBag(s string) map[string]int {
	// Hyphens and soft hyphens separate words in both extractions alike:
	// pdftotext breaks at U+00AD, we keep it inside the run.
	s = strings.NewReplacer("\u00ad", " ", "-", " ", "\u2010", " ").Replace(ligatures.Replace(s))
	bag := make(map[string]int)
	for _, w := range strings.Fields(s) {
		w = strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if w != "" {
			bag[w]++
		}
	}
	return bag
}

func total(bag map[string]int) int {
	n := 0
	for _, c := range bag {
		n += c
	}
	return n
}

// overlap returns the share of their words we have (recall) and of our
// words they have (precision), counting multiplicity.
func overlap(ours, theirs map[string]int) (recall, precision float64) {
	common := 0
	for w, c := range ours {
		common += min(c, theirs[w])
	}
	return float64(common) / float64(max(1, total(theirs))), float64(common) / float64(max(1, total(ours)))
}
