package report

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"html"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/papertree/papertree/backend/papertree"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const (
	hostileImg    = `<img src=x onerror=alert(1)>`
	hostileScript = `<script>alert(1)</script>`
	hostileQuotes = `"quotes" & ampersands`
)

var genTime = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

// fixture is a two-question history with non-Latin and hostile text in
// every place untrusted text can reach: question, answer, titles, paths,
// excerpts, authors, model name, fallbacks and timing keys.
func fixture() Doc {
	llm := papertree.Answer{
		ID:       7,
		Question: "How does β-VAE relate to the α-divergence? " + hostileQuotes,
		Text: "β-VAE reweights the KL term [1], which Tiedemann links to the α-divergence [2, 3]. " +
			"Reference [9] is not evidence and [0] neither. " + hostileScript + "\nSecond line with 中文 text.",
		Mode:     "llm",
		Strategy: "ptrag",
		Model:    "qwen2.5:7b " + hostileImg,
		Evidence: []papertree.Evidence{
			{PaperID: 1, PaperTitle: "β-VAE and the α-divergence", NodeID: 11,
				Path:  []string{"β-VAE and the α-divergence", "3 Method", "3.2 Weighting the KL term"},
				Text:  "We weight the KL term by β > 1 " + hostileImg + " to encourage disentangling.",
				Pages: []int{4, 3, 4}, Score: 0.8123, Tokens: 20},
			{PaperID: 2, PaperTitle: "Divergences " + hostileScript, NodeID: 21,
				Path:  []string{"Divergences " + hostileScript, "2 Background"},
				Text:  "The α-divergence interpolates between KL(p‖q) and KL(q‖p).\nIt is \"tunable\" & smooth.",
				Pages: []int{2}, Score: 0.7, Tokens: 18},
			{PaperID: 2, PaperTitle: "Divergences " + hostileScript, NodeID: 22,
				Path:  []string{"Divergences " + hostileScript, "4 Experiments", "4.1 中文 corpus"},
				Text:  "# Not a heading *not emphasis* [not a link](http://evil.example) 1. not a list",
				Pages: []int{5, 6, 7, 9}, Score: 0.5, Tokens: 25},
			{PaperID: 3, PaperTitle: "", NodeID: 31, Path: []string{"Uncited paper"},
				Text: "Retrieved but not cited.", Pages: nil, Tokens: 5},
		},
		Diag: papertree.Diagnostics{SectionEntropy: 1.2345, TokensUsed: 68, Budget: 1500, Sections: 3,
			Timings:   map[string]float64{"retrieve": 12.34, "answer": 850, "embed": 3.5},
			LLMTokens: map[string]int{"answer_prompt": 900, "answer_completion": 120},
			Fallbacks: []string{"summarize: timeout " + hostileImg}},
		PaperIDs:  []int64{1, 2},
		CreatedAt: time.Date(2026, 11, 21, 16, 5, 0, 0, time.UTC),
	}
	ext := papertree.Answer{
		ID:       8,
		Question: "What is the learning rate of 中文 BERT?",
		Text:     "No passage in the library answers this question. The closest passage is: We use Adam. [1]",
		Mode:     "extractive",
		Strategy: "naive",
		NotFound: true,
		Evidence: []papertree.Evidence{
			{PaperID: 1, PaperTitle: "β-VAE and the α-divergence", NodeID: 12,
				Path: []string{"β-VAE and the α-divergence", "5 Training"}, Text: "We use Adam.", Pages: []int{8}, Score: 0.21},
		},
		Diag:      papertree.Diagnostics{SectionEntropy: 0, TokensUsed: 4, Budget: 800},
		CreatedAt: time.Date(2026, 11, 21, 17, 0, 0, 0, time.UTC),
	}
	found := papertree.Answer{
		Question: "Which optimiser is used?",
		Text:     "We use Adam. [1]",
		Mode:     "extractive",
		Strategy: "ptrag",
		Evidence: []papertree.Evidence{
			{PaperID: 9, PaperTitle: "Zoë's unindexed paper", NodeID: 91,
				Path: []string{"Zoë's unindexed paper", "Training"}, Text: "We use Adam.", Pages: []int{2}, Score: 1.5},
		},
		Diag:      papertree.Diagnostics{SectionEntropy: 0, TokensUsed: 4, Budget: 800, Timings: map[string]float64{"total": 1.25}},
		CreatedAt: time.Date(2026, 11, 21, 17, 5, 0, 0, time.UTC),
	}
	return Doc{
		Answers: []papertree.Answer{llm, ext, found},
		Papers: map[int64]PaperMeta{
			1: {Title: "β-VAE and the α-divergence", Authors: []string{"Jörg Tiedemann", "Zoë Ó Briain", "李华"}, Year: 2017, CitationKey: "tiedemann2017beta"},
			2: {Title: "Divergences " + hostileScript, Authors: []string{hostileImg, "Ana " + hostileQuotes}, CitationKey: "ana2020<b>x`y"},
		},
		Title:     "Report on β-VAE " + hostileScript,
		Generated: genTime,
	}
}

func render(t testing.TB, format string, d Doc) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, d); err != nil {
		t.Fatalf("Write %s: %v", format, err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct{ name, format, file string }{
		{"markdown", "md", "history.md"},
		{"html", "html", "history.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.format, fixture())
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run with -update after checking the change):\n%s", tc.format, path, firstDiff(got, want))
			}
		})
	}
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return "(same lines, different bytes)"
}

func TestHTMLEscapesUntrustedText(t *testing.T) {
	out := string(render(t, "html", fixture()))
	low := strings.ToLower(out)
	for _, bad := range []string{"<script", "<img", "<iframe", "javascript:"} {
		if strings.Contains(low, bad) {
			i := strings.Index(low, bad)
			t.Errorf("HTML contains unescaped %q near: %s", bad, out[max(0, i-60):min(len(out), i+60)])
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"&lt;img src=x onerror=alert(1)&gt;",
		"&#34;quotes&#34; &amp; ampersands",
		"Jörg Tiedemann", "Zoë Ó Briain", "β-VAE and the α-divergence", "中文",
		"β-VAE and the α-divergence › 3 Method › 3.2 Weighting the KL term",
		`<a class="cite" href="#q1-s1">1</a>`, `[<a class="cite" href="#q1-s2">2</a>, <a class="cite" href="#q1-s3">3</a>]`,
		"Reference [9] is not evidence and [0] neither.",
		`id="q1-s3"`, "pp. 3–4", "pp. 5–7, 9", "retrieved, not cited",
		"Not answered", "Extractive answer", "Generated answer", "extractive (no model)",
		"answer 850.0 ms; embed 3.5 ms; retrieve 12.3 ms", "answer_completion 120; answer_prompt 900",
		"68 of 1500", "1.234",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

func TestHTMLIsSelfContained(t *testing.T) {
	out := strings.ToLower(string(render(t, "html", fixture())))
	for _, bad := range []string{"<link", "<script", "@import", "url(", "src=\"", "src='", "href=\"http", "<iframe", "<object", "<embed"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML loads something external or runs code: %q", bad)
		}
	}
	// Every in-page link resolves.
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(out, -1) {
		if !strings.Contains(out, `id="`+m[1]+`"`) {
			t.Errorf("link #%s has no target", m[1])
		}
	}
}

func TestMarkdownEscapesUntrustedText(t *testing.T) {
	out := string(render(t, "md", fixture()))
	// Markup characters from untrusted text must be backslash-escaped.
	for _, bad := range []string{"<script", "<img", "](http"} {
		for i := 0; ; {
			j := strings.Index(out[i:], bad)
			if j < 0 {
				break
			}
			if k := i + j; k == 0 || out[k-1] != '\\' {
				t.Errorf("Markdown contains live markup %q near: %s", bad, out[max(0, k-40):min(len(out), k+40)])
			}
			i += j + len(bad)
		}
	}
	for _, bad := range []string{"\n# Not a heading", "> # Not"} {
		if strings.Contains(out, bad) {
			t.Errorf("Markdown contains live markup %q", bad)
		}
	}
	for _, want := range []string{
		`\<script\>alert(1)\</script\>`, `\<img src=x onerror=alert(1)\>`, `"quotes" \& ampersands`,
		"[1]", "[2, 3]", `\[9\]`, "> \\# Not a heading \\*not emphasis\\*", "Jörg Tiedemann, Zoë Ó Briain and 李华 (2017)",
		"β-VAE and the α-divergence › 5 Training · p. 8", "| Model | extractive (no model) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
}

func TestSplitMarkers(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		n          int
		want       string // refs shown as {k}
		cited      []int
	}{
		{"single", "a [1] b", 2, "a [{1}] b", []int{1}},
		{"list", "x [1, 2]", 2, "x [{1}, {2}]", []int{1, 2}},
		{"list no space", "x [2,1].", 2, "x [{2},{1}].", []int{1, 2}},
		{"out of range", "x [3]", 2, "x [3]", nil},
		{"zero", "x [0]", 2, "x [0]", nil},
		{"partly out of range", "x [1, 5]", 2, "x [1, 5]", nil},
		{"adjacent", "[1][2]", 2, "[{1}][{2}]", []int{1, 2}},
		{"no evidence", "see [1]", 0, "see [1]", nil},
		{"not a marker", "array[i] and [a1]", 3, "array[i] and [a1]", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cited := map[int]bool{}
			var b strings.Builder
			for _, s := range splitMarkers(tc.text, tc.n, "q1", cited) {
				if s.Ref > 0 {
					fmt.Fprintf(&b, "{%d}", s.Ref)
					if s.Anchor != fmt.Sprintf("q1-s%d", s.Ref) {
						t.Errorf("anchor %q for ref %d", s.Anchor, s.Ref)
					}
				} else {
					b.WriteString(s.Text)
				}
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
			for _, k := range tc.cited {
				if !cited[k] {
					t.Errorf("%d not marked cited", k)
				}
			}
			if len(cited) != len(tc.cited) {
				t.Errorf("cited %v, want %v", cited, tc.cited)
			}
		})
	}
}

func TestPagesString(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pages []int
		want  string
	}{
		{"none", nil, ""},
		{"zero only", []int{0}, ""},
		{"one", []int{3}, "p. 3"},
		{"dup", []int{3, 3}, "p. 3"},
		{"range", []int{4, 3, 5}, "pp. 3–5"},
		{"gaps", []int{1, 2, 4, 7, 8, 9}, "pp. 1–2, 4, 7–9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pagesString(tc.pages); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(io.Discard, "odt", fixture())
	if papertree.ErrorCode(err) != papertree.EInvalid {
		t.Fatalf("got %v, want an EInvalid error", err)
	}
	var pe *papertree.Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "md, html, pdf, docx") {
		t.Errorf("message should list the formats: %v", err)
	}
}

// TestEdgeDocs renders degenerate documents in every format: nothing may
// crash and every output must be non-empty.
func TestEdgeDocs(t *testing.T) {
	docs := map[string]Doc{
		"no answers":   {},
		"empty answer": {Answers: []papertree.Answer{{}}},
		"no evidence":  {Answers: []papertree.Answer{{Question: "Q?", Text: "A [1].", Mode: "llm"}}},
		"bad utf8 and controls": {Answers: []papertree.Answer{{Question: "Q\x00\x1b[31m?\xff", Text: "a\r\nb\x07",
			Evidence: []papertree.Evidence{{Text: "\xfe\xff\u202e", Path: []string{"", "  "}}}}}},
		"long unbroken excerpt": {Answers: []papertree.Answer{{Question: "Q", Text: "A [1]",
			Evidence: []papertree.Evidence{{PaperID: 4, Text: strings.Repeat("x", 5000), Path: []string{strings.Repeat("T", 400)}}}}}},
	}
	for name, d := range docs {
		for _, f := range Formats() {
			t.Run(name+"/"+f, func(t *testing.T) {
				if out := render(t, f, d); len(out) == 0 {
					t.Error("empty output")
				}
			})
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f, func(t *testing.T) {
			a, b := render(t, f, fixture()), render(t, f, fixture())
			if !bytes.Equal(a, b) {
				t.Errorf("two renders of the same Doc differ (%d vs %d bytes)", len(a), len(b))
			}
		})
	}
}

func TestDOCX(t *testing.T) {
	out := render(t, "docx", fixture())
	zr, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	parts := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		parts[f.Name] = string(b)
		dec := xml.NewDecoder(bytes.NewReader(b))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s is not well-formed XML: %v", f.Name, err)
			}
		}
	}
	for _, p := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/styles.xml"} {
		if _, ok := parts[p]; !ok {
			t.Errorf("missing part %s", p)
		}
	}
	doc := parts["word/document.xml"]
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "&#34;quotes&#34; &amp; ampersands",
		"Jörg Tiedemann", "β-VAE and the α-divergence", "中文",
		`<w:hyperlink w:anchor="pt_q1_s2">`, `w:name="pt_q1_s2"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document.xml lacks %q", want)
		}
	}
	if strings.Contains(doc, "<script") || strings.Contains(doc, "<img") {
		t.Error("document.xml contains unescaped markup")
	}
	// Word rejects or silently drops references to styles and bookmarks
	// that do not exist.
	for _, m := range regexp.MustCompile(`<w:[pr]Style w:val="([^"]+)"/>`).FindAllStringSubmatch(doc, -1) {
		if !strings.Contains(parts["word/styles.xml"], `w:styleId="`+m[1]+`"`) {
			t.Errorf("style %q is used but not defined", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`w:anchor="([^"]+)"`).FindAllStringSubmatch(doc, -1) {
		if !strings.Contains(doc, `w:name="`+m[1]+`"`) {
			t.Errorf("hyperlink to missing bookmark %q", m[1])
		}
	}
	if a, b := strings.Count(doc, "<w:bookmarkStart "), strings.Count(doc, "<w:bookmarkEnd "); a != b || a == 0 {
		t.Errorf("%d bookmark starts, %d ends", a, b)
	}
}

func TestPDF(t *testing.T) {
	out := render(t, "pdf", fixture())
	if !bytes.HasPrefix(out, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", out[:min(len(out), 20)])
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils): skipping the text and rendering checks of the PDF")
	}
	txt, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	flat := strings.Join(strings.Fields(string(txt)), " ")
	for _, want := range []string{
		"How does β-VAE relate to the α-divergence?", hostileQuotes,
		"We weight the KL term by β > 1 " + hostileImg + " to encourage disentangling.",
		"Jörg Tiedemann", "Zoë Ó Briain", "β-VAE and the α-divergence › 3 Method › 3.2 Weighting the KL term",
		"Not answered", "Extractive answer", "extractive (no model)", "Bibliography", "Page 1 of",
		"Second line with 中文 text.", "Zoë Ó Briain and 李华 (2017)",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("PDF text lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("pdftotext output:\n%s", txt)
	}

	// CJK text loads the fallback font; a Latin-only report does not carry it.
	if _, err := exec.LookPath("pdffonts"); err == nil {
		fonts, err := exec.Command("pdffonts", path).Output()
		if err != nil {
			t.Fatalf("pdffonts: %v", err)
		}
		if !strings.Contains(string(fonts), "droidcjk") {
			t.Errorf("the CJK fallback font is not embedded:\n%s", fonts)
		}
		latin := fixture()
		latin.Answers = latin.Answers[2:]
		latin.Papers = nil
		lpath := filepath.Join(dir, "latin.pdf")
		if err := os.WriteFile(lpath, render(t, "pdf", latin), 0o644); err != nil {
			t.Fatal(err)
		}
		if fonts, _ := exec.Command("pdffonts", lpath).Output(); strings.Contains(string(fonts), "droidcjk") {
			t.Errorf("a report without CJK text embeds the CJK font:\n%s", fonts)
		}
	}

	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("pdftoppm not installed (poppler-utils): skipping the rendering check")
	}
	if b, err := exec.Command("pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", path, filepath.Join(dir, "pg")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, b)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "pg*.png"))
	if len(pngs) != 1 {
		t.Fatalf("pdftoppm wrote %v", pngs)
	}
	fh, err := os.Open(pngs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatalf("decode page 1: %v", err)
	}
	bd := img.Bounds()
	ink := 0
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r < 0xe000 || g < 0xe000 || b < 0xe000 {
				ink++
			}
		}
	}
	frac := float64(ink) / float64(bd.Dx()*bd.Dy())
	t.Logf("page 1 at 50 dpi: %dx%d, %.1f%% non-white pixels", bd.Dx(), bd.Dy(), 100*frac)
	if frac < 0.02 {
		t.Errorf("page 1 is (nearly) blank: %.2f%% non-white", 100*frac)
	}
}

// history50 is a question history of 50 answers with 6 evidence items each.
func history50() Doc {
	base := fixture()
	var d Doc
	d.Papers = base.Papers
	d.Generated = genTime
	for i := 0; i < 50; i++ {
		a := base.Answers[0]
		a.ID = int64(i + 1)
		a.Question = fmt.Sprintf("Question %d: %s", i+1, a.Question)
		a.Text = strings.Repeat(a.Text+" ", 3)
		var ev []papertree.Evidence
		for j := 0; j < 6; j++ {
			e := a.Evidence[j%len(a.Evidence)]
			e.Text = strings.Repeat(e.Text+" ", 4)
			ev = append(ev, e)
		}
		a.Evidence = ev
		d.Answers = append(d.Answers, a)
	}
	return d
}

func BenchmarkHistory50(b *testing.B) {
	d := history50()
	for _, f := range Formats() {
		b.Run(f, func(b *testing.B) {
			var size int
			for b.Loop() {
				var w bytes.Buffer
				if err := Write(&w, f, d); err != nil {
					b.Fatal(err)
				}
				size = w.Len()
			}
			b.ReportMetric(float64(size)/1024, "KiB")
		})
	}
}

// TestPDFLineBreaking checks the PDF layout at many column widths: every
// character is laid out exactly once, no line is wider than the column
// (unless it is a single character), and a citation marker such as "[2, 3]"
// is never split across lines.
func TestPDFLineBreaking(t *testing.T) {
	r := &pdfR{f: fpdf.New("P", "mm", "A4", "")}
	for _, ff := range []struct{ style, file string }{
		{"", "fonts/DejaVuSans.ttf"}, {"B", "fonts/DejaVuSans-Bold.ttf"}, {"I", "fonts/DejaVuSans-Oblique.ttf"},
	} {
		b, err := fontFS.ReadFile(ff.file)
		if err != nil {
			t.Fatal(err)
		}
		r.f.AddUTF8FontFromBytes(fontMain, ff.style, b)
	}
	text := "β-VAE reweights the KL term [1], which links to the α-divergence [2, 3]. 中文中文中文 and a verylongunbreakablewordthatexceedsnarrowcolumns end [1]."
	var sp []span
	for _, s := range splitMarkers(text, 3, "q1", map[int]bool{}) {
		sp = append(sp, span{text: s.Text, size: 10, style: map[bool]string{true: "B"}[s.Ref > 0], keep: s.Ref > 0 || s.Mark})
	}
	want := strings.ReplaceAll(text, " ", "")
	for w := 8.0; w <= 120; w += 0.5 {
		ls := r.lines(r.tokens(sp), sp, w)
		var all strings.Builder
		for _, line := range ls {
			var lw float64
			var lt strings.Builder
			for _, tk := range line {
				lw += tk.w
				lt.WriteString(tk.text)
			}
			if lw > w+1e-6 && len([]rune(strings.TrimSpace(lt.String()))) > 1 {
				t.Errorf("width %.1f: line %q is %.1f wide", w, lt.String(), lw)
			}
			s := lt.String()
			if w >= 30 && (strings.HasSuffix(s, "[") || strings.HasPrefix(s, "]") || strings.HasPrefix(s, ",") || strings.HasPrefix(s, "3]")) {
				t.Errorf("width %.1f: citation marker split at line %q", w, s)
			}
			all.WriteString(strings.ReplaceAll(s, " ", ""))
		}
		if all.String() != want {
			t.Fatalf("width %.1f: laid out %q, want %q", w, all.String(), want)
		}
	}
}

// An answer read from the paper's details says so in every format, with
// the settings' model line saying no model wrote it.
func TestDetailsAnswerLabelled(t *testing.T) {
	d := Doc{Answers: []papertree.Answer{{Question: "Who wrote this paper?", Mode: papertree.ModeDetails,
		Text: "“GloVe: Global Vectors for Word Representation” (2014) is by Jeffrey Pennington, Richard Socher and Christopher D. Manning. (Read from the PDF.)"}}}
	for _, f := range []string{"md", "html"} {
		out := html.UnescapeString(string(render(t, f, d)))
		for _, want := range []string{"From the paper's details", "the paper's details (no model)", "is by Jeffrey Pennington"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", f, want)
			}
		}
		if strings.Contains(out, "Extractive answer") {
			t.Errorf("%s calls it an extractive answer", f)
		}
	}
}
