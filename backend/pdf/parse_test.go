package pdf

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lib "github.com/ledongthuc/pdf"

	"github.com/papertree/papertree/backend/papertree"
)

func openFixture(t *testing.T, name string, opts Options) (*Document, error) {
	t.Helper()
	return Open(context.Background(), filepath.Join("testdata", name), opts)
}

// TestErrors covers every coded error path with a fixture of its own.
func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		file string
		opts Options
		want papertree.Code
	}{
		{"zero-byte file", "empty.pdf", Options{}, papertree.EEmptyFile},
		{"html saved as .pdf", "notpdf.pdf", Options{}, papertree.ENotPDF},
		{"cut at 60 percent", "truncated.pdf", Options{}, papertree.ETruncated},
		{"startxref points into an object", "badxref.pdf", Options{}, papertree.ETruncated},
		{"user password (AES-128)", "encrypted.pdf", Options{}, papertree.EEncrypted},
		{"AES-256 (unsupported revision)", "encrypted_aes256.pdf", Options{}, papertree.EEncrypted},
		{"image only", "imageonly.pdf", Options{}, papertree.ENoText},
		{"catalog without page tree", "nopages.pdf", Options{}, papertree.EMalformed},
		{"over the page limit", "twocolumn.pdf", Options{MaxPages: 1}, papertree.ETooLarge},
		{"over the byte limit", "twocolumn.pdf", Options{MaxBytes: 1000}, papertree.ETooLarge},
		{"missing file", "does-not-exist.pdf", Options{}, papertree.ENotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := openFixture(t, c.file, c.opts)
			if err == nil {
				t.Fatalf("got a document with %d pages, want error %s", len(doc.Pages), c.want)
			}
			var pe *papertree.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *papertree.Error", err)
			}
			if pe.Code != c.want {
				t.Fatalf("code = %s, want %s (%v)", pe.Code, c.want, err)
			}
			if pe.Message == "" || strings.Contains(pe.Message, "panic") || strings.Contains(pe.Message, ".go:") {
				t.Errorf("message is not user-safe: %q", pe.Message)
			}
		})
	}
}

// TestReadable covers inputs that must parse despite oddities.
func TestReadable(t *testing.T) {
	cases := []struct {
		name      string
		file      string
		wantPages int
		skipped   []int
		garbled   bool
	}{
		{"two-column fixture", "twocolumn.pdf", 2, nil, false},
		{"bytes before the header", "leadingjunk.pdf", 2, nil, false},
		{"owner password only (RC4)", "ownerpw.pdf", 2, nil, false},
		{"page whose stream panics the library", "badpage.pdf", 3, []int{2}, false},
		{"type 3 font without unicode", "garbled.pdf", 1, nil, true},
		{"content stream ends inside a hex string", "hexeof.pdf", 1, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := openFixture(t, c.file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Pages) != c.wantPages {
				t.Errorf("pages = %d, want %d", len(doc.Pages), c.wantPages)
			}
			if !equalInts(doc.SkippedPages, c.skipped) {
				t.Errorf("skipped = %v, want %v", doc.SkippedPages, c.skipped)
			}
			if doc.Garbled != c.garbled {
				t.Errorf("garbled = %v (quality %.3f), want %v", doc.Garbled, doc.TextQuality, c.garbled)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBadPageKeepsOthers(t *testing.T) {
	doc, err := openFixture(t, "badpage.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{pageText(doc.Pages[0]), pageText(doc.Pages[1]), pageText(doc.Pages[2])}
	want := []string{"First page survives", "", "Third page survives"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("page %d text = %q, want %q", i+1, got[i], want[i])
		}
	}
}

func pageText(p Page) string {
	var w []string
	for _, r := range p.Runs {
		w = append(w, r.Text)
	}
	return strings.Join(w, " ")
}

// TestTJNoJunkGlyph proves the vendored library fix: upstream emitted one
// glyph per TJ operator by decoding "\n" through the font encoding. The
// fixture's body font maps code 10 to "asterisk", so the junk would show up
// as a "*" at the end of every TeX-style line.
func TestTJNoJunkGlyph(t *testing.T) {
	doc, err := openFixture(t, "twocolumn.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tjLines := 0
	for _, p := range doc.Pages {
		for _, r := range p.Runs {
			if strings.ContainsAny(r.Text, "*\n\r\x00") {
				t.Errorf("page %d: stray character in run %q", p.Number, r.Text)
			}
		}
	}
	// The Introduction paragraph is one TJ array per line; its words must
	// come out exactly, in order, kerning ("W" 80 "ord") not splitting them.
	var intro []string
	for _, r := range doc.Pages[0].Runs {
		if r.Y > 320 && r.Y < 410 && r.X < 300 {
			intro = append(intro, r.Text)
			if r.X == 72 {
				tjLines++
			}
		}
	}
	want := strings.Fields(lorem)
	if strings.Join(intro, " ") != strings.Join(want, " ") {
		t.Errorf("TJ paragraph words:\n got %q\nwant %q", intro, want)
	}
	if tjLines < 5 {
		t.Errorf("expected at least 5 TJ lines, got %d", tjLines)
	}
}

func findRun(p Page, text string) (Run, bool) {
	for _, r := range p.Runs {
		if r.Text == text {
			return r, true
		}
	}
	return Run{}, false
}

// TestRunAttributes checks fonts, sizes, styles and positions of runs.
func TestRunAttributes(t *testing.T) {
	doc, err := openFixture(t, "twocolumn.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		page   int
		text   string
		font   string
		size   float64
		bold   bool
		italic bool
		x, y   float64
	}{
		{"title, Helvetica-Bold 17", 1, "Recovering", "Helvetica-Bold", 17, true, false, 141.2, 72},
		{"subset prefix stripped", 1, "Abstract", "Times-Bold", 12, true, false, 72, 122},
		{"body text", 1, "Structured", "Times-Roman", 10, false, false, 72, 140},
		{"italic", 1, "Italic", "Times-Italic", 10, false, true, 72, 236},
		{"right column heading", 1, "Method", "Times-Bold", 12, true, false, 325, 122},
		{"ligatures fi and ffl mapped to letters", 1, "baffling", "Times-Roman", 10, false, false, 0, 224},
		{"footer from a Form XObject with a Matrix", 1, "fixture", "Times-Italic", 8, false, true, 316.2, 762},
		{"text matrix scale gives the effective size", 2, "Scaled", "Times-Roman", 10, false, false, 72, 92},
		{"Type0 font with /W, bold from FontDescriptor", 2, "Heading", "NotoSerif-Bold", 12, true, false, 156, 122},
		{"Type0 font without /W still advances", 2, "Here", "NotoSerif-Bold", 10, true, false, 222, 142},
		{"CropBox page", 2, "References", "Helvetica-Bold", 14, true, false, 316, 72},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := findRun(doc.Pages[c.page-1], c.text)
			if !ok {
				t.Fatalf("no run %q on page %d: %s", c.text, c.page, pageText(doc.Pages[c.page-1]))
			}
			if r.Font != c.font || r.Size != c.size || r.Bold != c.bold || r.Italic != c.italic {
				t.Errorf("got font %q size %v bold %v italic %v, want %q %v %v %v", r.Font, r.Size, r.Bold, r.Italic, c.font, c.size, c.bold, c.italic)
			}
			if c.x != 0 && (abs(r.X-c.x) > 0.2 || abs(r.Y-c.y) > 0.2) {
				t.Errorf("got x,y = %v,%v want %v,%v", r.X, r.Y, c.x, c.y)
			}
			if r.W <= 0 {
				t.Errorf("width %v, want > 0", r.W)
			}
		})
	}
	// Words in the CID font must not overlap: x advances inside a string.
	var prevEnd float64
	for _, w := range []string{"No", "Width", "Array", "Here"} {
		r, _ := findRun(doc.Pages[1], w)
		if r.X < prevEnd {
			t.Errorf("CID run %q starts at %v before the previous run ends at %v", w, r.X, prevEnd)
		}
		prevEnd = r.X + r.W
	}
}

func TestGlued(t *testing.T) {
	doc, err := openFixture(t, "twocolumn.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Title words are separated by spaces: none is glued.
	for _, r := range doc.Pages[0].Runs[:5] {
		if r.Glued {
			t.Errorf("title run %q is glued", r.Text)
		}
	}
	// "1" and "Introduction" are one bold line with a space between.
	if r, _ := findRun(doc.Pages[0], "Introduction"); r.Glued {
		t.Error("Introduction glued to the section number")
	}
	// A word split by a font change must be glued: build it from glyphs.
	gr := grouper{view: view{0, 0, 612, 792, 0}, styles: map[string]fontStyle{}}
	for i, c := range "Bidir" {
		font := "Times-Roman"
		if i == 0 {
			font = "Times-Bold"
		}
		gr.add(lib.Text{Font: font, FontSize: 10, X: 72 + 5*float64(i), Y: 700, W: 5, S: string(c), DirX: 1})
	}
	gr.add(lib.Text{Font: "Times-Roman", FontSize: 10, X: 97, Y: 700, W: 2.5, S: " ", DirX: 1})
	gr.add(lib.Text{Font: "Times-Bold", FontSize: 10, X: 99.5, Y: 700, W: 5, S: "x", DirX: 1})
	runs := gr.finish()
	if len(runs) != 3 || runs[0].Text != "B" || runs[1].Text != "idir" || !runs[1].Glued || runs[2].Glued || !runs[0].Bold || runs[1].Bold {
		t.Errorf("runs = %+v, want B | idir (glued) | x (not glued)", runs)
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func TestOutlineAndInfo(t *testing.T) {
	doc, err := openFixture(t, "twocolumn.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []OutlineItem{
		{"1 Introduction", 1, 1},     // explicit /Dest array
		{"2 Method", 1, 1},           // /A GoTo with a named destination (name tree)
		{"2.1 Glyph Grouping", 2, 2}, // /Dest name resolved via the catalog /Dests dict
		{"Références", 1, 2},         // UTF-16BE title
	}
	if len(doc.Outline) != len(want) {
		t.Fatalf("outline = %+v, want %+v", doc.Outline, want)
	}
	for i := range want {
		if doc.Outline[i] != want[i] {
			t.Errorf("outline[%d] = %+v, want %+v", i, doc.Outline[i], want[i])
		}
	}
	wantInfo := Info{Title: "PaperTree Fixture – Two Columns", Author: "Ada Lovelace", Subject: "Fixture “quoted”", Producer: "papertree fixtures"}
	if doc.Info != wantInfo {
		t.Errorf("info = %+v, want %+v", doc.Info, wantInfo)
	}
}

// TestGolden compares the whole Document of the two-column fixture with a
// golden JSON file (regenerate with -update).
func TestGolden(t *testing.T) {
	doc, err := openFixture(t, "twocolumn.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "twocolumn.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("document differs from %s (run with -update after checking the change)", golden)
	}
}

// cancelAfter is a context whose Err turns to Canceled after n calls, to
// cancel a parse between pages deterministically.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

func TestCanceledBetweenPages(t *testing.T) {
	for _, n := range []int{1, 2} {
		ctx := &cancelAfter{Context: context.Background(), n: n}
		_, err := Open(ctx, filepath.Join("testdata", "badpage.pdf"), Options{})
		if papertree.ErrorCode(err) != papertree.ECanceled {
			t.Fatalf("cancel after %d checks: err = %v, want code %s", n, err, papertree.ECanceled)
		}
	}
	// Enough budget for every check: the parse completes.
	if _, err := Open(&cancelAfter{Context: context.Background(), n: 100}, filepath.Join("testdata", "badpage.pdf"), Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Open(ctx, filepath.Join("testdata", "twocolumn.pdf"), Options{})
	if papertree.ErrorCode(err) != papertree.ECanceled {
		t.Fatalf("err = %v, want code %s", err, papertree.ECanceled)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err does not wrap context.Canceled: %v", err)
	}
}

func TestStyleFromName(t *testing.T) {
	cases := []struct {
		name         string
		bold, italic bool
	}{
		{"Times-Roman", false, false},
		{"Times-Bold", true, false},
		{"Times-BoldItalic", true, true},
		{"Arial-BoldMT", true, false},
		{"Arial-ItalicMT", false, true},
		{"Helvetica-Oblique", false, true},
		{"NimbusRomNo9L-Medi", true, false},
		{"NimbusRomNo9L-ReguItal", false, true},
		{"NimbusRomNo9L-MediItal", true, true},
		{"CMBX12", true, false},
		{"CMR10", false, false},
		{"CMTI10", false, true},
		{"CMMI10", false, true},
		{"CMBXTI10", true, true},
		{"LMRoman10-Bold", true, false},
		{"SourceSansPro-Semibold", true, false},
		{"Roboto-Black", true, false},
		{"ptmb8r", true, false},
		{"ptmri8r", false, true},
		{"ptmr8r", false, false},
		{"phvb8t", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := styleFromName(c.name)
			if st.bold != c.bold || st.italic != c.italic {
				t.Errorf("bold,italic = %v,%v want %v,%v", st.bold, st.italic, c.bold, c.italic)
			}
		})
	}
}

func TestDecodeTextString(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"ascii", "Plain", "Plain"},
		{"utf-16be with bom", "\xfe\xff\x00R\x00\xe9\x00f", "Réf"},
		{"utf-16be surrogate pair", "\xfe\xff\xd8\x35\xdc\x00", "𝐀"},
		{"utf-8 with bom", "\xef\xbb\xbfna\xc3\xafve", "naïve"},
		{"pdfdoc quotes and dash", "\x8dq\x8e \x84", "“q” —"},
		{"pdfdoc latin-1 range", "caf\xe9", "café"},
		{"odd utf-16 length", "\xfe\xff\x00A\x00", "A"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := decodeTextString(c.in); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestNormalizeGlyph(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\uFB01", "fi"}, {"\uFB02", "fl"}, {"\uFB00", "ff"}, {"\uFB03", "ffi"}, {"\uFB04", "ffl"},
		{"é", "é"}, {"x", "x"}, {"–", "–"},
	}
	for _, c := range cases {
		if got := normalizeGlyph(c.in); got != c.want {
			t.Errorf("normalizeGlyph(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPlausible(t *testing.T) {
	good := "Aé1.,;:()[]∑αβ→ü—"
	for _, r := range good {
		if !plausible(r) {
			t.Errorf("%q should be plausible", r)
		}
	}
	for _, r := range []rune{0x01, 0x1f, 0x85, 0xfffd, 0xe001, 0xf0010} {
		if plausible(r) {
			t.Errorf("%U should not be plausible", r)
		}
	}
}

func TestRotation(t *testing.T) {
	doc, err := openFixture(t, "rotated.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	land, port := doc.Pages[0], doc.Pages[1]
	if land.Width != 792 || land.Height != 612 || port.Width != 612 || port.Height != 792 {
		t.Errorf("sizes %vx%v and %vx%v, want 792x612 and 612x792", land.Width, land.Height, port.Width, port.Height)
	}
	cases := []struct {
		name    string
		page    Page
		text    string
		x, y    float64
		rotated bool
	}{
		{"upright text on a /Rotate 90 page", land, "Landscape", 72, 100, false},
		{"same line continues left to right", land, "caption", 72 + 0.0, 100, false},
		{"arXiv stamp up the margin", port, "arXiv:1234.5678v1", 0, 0, true},
		{"normal text", port, "Portrait", 72, 92, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := findRun(c.page, c.text)
			if !ok {
				t.Fatalf("no run %q: %s", c.text, pageText(c.page))
			}
			if r.Rotated != c.rotated {
				t.Errorf("rotated = %v, want %v", r.Rotated, c.rotated)
			}
			if c.x != 0 && c.text != "caption" && (abs(r.X-c.x) > 0.2 || abs(r.Y-c.y) > 0.2) {
				t.Errorf("x,y = %v,%v want %v,%v", r.X, r.Y, c.x, c.y)
			}
			if c.text == "caption" && (r.X <= 72 || abs(r.Y-c.y) > 0.2) {
				t.Errorf("x,y = %v,%v: want right of 72 on baseline %v", r.X, r.Y, c.y)
			}
		})
	}
}

// TestConcurrentParse: Parse keeps no shared mutable state, so different
// files (or the same one) can be parsed in parallel (run with -race).
func TestConcurrentParse(t *testing.T) {
	want, err := openFixture(t, "twocolumn.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			doc, err := Open(context.Background(), filepath.Join("testdata", "twocolumn.pdf"), Options{})
			if err == nil {
				got, _ := json.Marshal(doc)
				if !bytes.Equal(got, wantJSON) {
					err = errors.New("concurrent parse gave a different document")
				}
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
