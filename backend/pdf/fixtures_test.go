package pdf

// Fixture generator. The PDFs in testdata/ are written by hand-built PDF
// syntax here (standard Type 1 fonts with AFM widths, a synthetic Type0
// font, outline, info, a Form XObject, an inline image) so every byte is
// known and there is no licensing question. Regenerate with
//
//	go test ./backend/pdf/ -run TestGenerateFixtures -update
//
// which needs the URW base35 AFM files (fonts-urw-base35) for the widths
// and qpdf for the encrypted fixture.

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

var update = flag.Bool("update", false, "regenerate testdata fixtures")

// pdfWriter assembles objects and writes a correct cross-reference table.
type pdfWriter struct {
	objs []string // objs[i] is object i+1's body
}

func (w *pdfWriter) add(body string) int {
	w.objs = append(w.objs, body)
	return len(w.objs)
}

// reserve allocates an object number to fill in later with set.
func (w *pdfWriter) reserve() int { return w.add("null") }

func (w *pdfWriter) set(n int, body string) { w.objs[n-1] = body }

func stream(dict, data string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

func flateStream(dict, data string) string {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	zw.Write([]byte(data))
	zw.Close()
	return fmt.Sprintf("<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", dict, b.Len(), b.String())
}

func (w *pdfWriter) bytes(root, info int, trailerExtra string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(w.objs))
	for i, body := range w.objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(w.objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R", len(w.objs)+1, root)
	if info > 0 {
		fmt.Fprintf(&b, " /Info %d 0 R", info)
	}
	fmt.Fprintf(&b, " %s >>\nstartxref\n%d\n%%%%EOF\n", trailerExtra, xref)
	return b.Bytes()
}

// afmWidths reads the WX of codes 32..126 from an AFM file.
func afmWidths(t *testing.T, file string) []int {
	f, err := os.Open(filepath.Join("/usr/share/fonts/type1/urw-base35", file))
	if err != nil {
		t.Fatalf("AFM metrics needed to regenerate fixtures: %v", err)
	}
	defer f.Close()
	w := make([]int, 95)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var code, wx int
		if n, _ := fmt.Sscanf(sc.Text(), "C %d ; WX %d ;", &code, &wx); n == 2 && code >= 32 && code <= 126 {
			w[code-32] = wx
		}
	}
	return w
}

func intsPDF(a []int) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// pdfString escapes s as a PDF literal string.
func pdfString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return "(" + r.Replace(s) + ")"
}

// utf16Text encodes s as a UTF-16BE text string with a BOM, in hex.
func utf16Text(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}

// textWidth is the width of s in points in a font with AFM widths w.
func textWidth(w []int, s string, size float64) float64 {
	total := 0
	for _, c := range []byte(s) {
		if c >= 32 && c <= 126 {
			total += w[c-32]
		}
	}
	return float64(total) * size / 1000
}

// wrap breaks words into lines no wider than width.
func wrap(w []int, text string, size, width float64) []string {
	var lines []string
	var cur string
	for _, word := range strings.Fields(text) {
		cand := word
		if cur != "" {
			cand = cur + " " + word
		}
		if cur != "" && textWidth(w, cand, size) > width {
			lines = append(lines, cur)
			cand = word
		}
		cur = cand
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// texLine renders a line TeX-style: one TJ array, no space glyphs, words
// separated by -333 offsets and a kerning pair inside "Word" ("W" 80 "ord").
func texLine(words []string) string {
	var b strings.Builder
	b.WriteString("[")
	for i, wd := range words {
		if i > 0 {
			b.WriteString(" -333 ")
		}
		if strings.HasPrefix(wd, "W") && len(wd) > 1 {
			b.WriteString("(W) 80 " + pdfString(wd[1:]))
			continue
		}
		b.WriteString(pdfString(wd))
	}
	b.WriteString("] TJ")
	return b.String()
}

const lorem = "Structured documents carry their own outline in the sizes and weights of their headings. " +
	"We parse positioned glyphs and group them into words on one baseline. Each word keeps its font, " +
	"its size and its position so that later stages can recover sections, subsections and reading order " +
	"across two columns without guessing."

// buildTwoColumn writes the multi-page, two-column fixture with headings of
// different sizes and weights, TJ arrays, an outline and an info dictionary.
func buildTwoColumn(t *testing.T) []byte {
	times := afmWidths(t, "NimbusRoman-Regular.afm")
	timesB := afmWidths(t, "NimbusRoman-Bold.afm")
	timesI := afmWidths(t, "NimbusRoman-Italic.afm")
	helvB := afmWidths(t, "NimbusSans-Bold.afm")

	w := &pdfWriter{}
	catalog := w.reserve()
	pagesID := w.reserve()
	// F1 Times-Roman with a Differences encoding: code 10 (the byte upstream
	// emitted after every TJ) maps to a visible glyph, 0xAE to "fi" and 0xAF
	// to "ffl", so a junk glyph or an unmapped ligature would be visible.
	f1 := w.add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Times-Roman /FirstChar 32 /LastChar 126 /Widths %s "+
		"/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [10 /asterisk 174 /fi /ffl] >> >>", intsPDF(times)))
	f2 := w.add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /GHIJKL+Times-Bold /FirstChar 32 /LastChar 126 /Widths %s /Encoding /WinAnsiEncoding >>", intsPDF(timesB)))
	f3 := w.add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Times-Italic /FirstChar 32 /LastChar 126 /Widths %s /Encoding /WinAnsiEncoding >>", intsPDF(timesI)))
	f4 := w.add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /FirstChar 32 /LastChar 126 /Widths %s /Encoding /WinAnsiEncoding >>", intsPDF(helvB)))
	// F5: a Type0 (Identity-H) font with a ToUnicode CMap and a /W array;
	// F6: the same without /W (widths must still advance).
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n" +
		"1 begincodespacerange <0000> <FFFF> endcodespacerange\n" +
		"1 beginbfchar <0003> <0020> endbfchar\n" +
		"1 beginbfrange <0024> <005D> <0041> endbfrange\n" +
		"endcmap CMapName currentdict /CMap defineresource pop end end"
	tu := w.add(stream("", cmap))
	cid := func(withW bool) int {
		wArr := ""
		if withW {
			wArr = "/W [3 [250] 36 [722 667 667 722 611 556 722 722 333 389 722 611 889 722 722 556 722 667 556 611 722 722 944 722 722 611] 68 93 480]"
		}
		desc := w.add(fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /MNOPQR+NotoSerif-Bold /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "+
			"/FontDescriptor << /Type /FontDescriptor /FontName /NotoSerif-Bold /Flags 262178 /FontWeight 700 /ItalicAngle 0 /FontBBox [0 -200 1000 900] /Ascent 900 /Descent -200 /CapHeight 700 /StemV 120 >> %s >>", wArr))
		return w.add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /MNOPQR+NotoSerif-Bold /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", desc, tu))
	}
	f5 := cid(true)
	f6 := cid(false)
	// A Form XObject with the running footer, drawn by "Do" on every page.
	footer := w.add(stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 612 50] /Matrix [1 0 0 1 0 20] /Resources << /Font << /F3 %d 0 R >> >>", f3),
		"BT /F3 8 Tf 280 10 Td (PaperTree fixture) Tj ET"))
	res := fmt.Sprintf("<< /Font << /F1 %d 0 R /F2 %d 0 R /F3 %d 0 R /F4 %d 0 R /F5 %d 0 R /F6 %d 0 R >> /XObject << /Footer %d 0 R >> >>", f1, f2, f3, f4, f5, f6, footer)

	// cidHex encodes ASCII letters and spaces in the synthetic CID font:
	// space -> 3, 'A'..'Z' -> 36.., 'a'..'z' -> 68.. (ToUnicode maps back).
	cidHex := func(s string) string {
		var b strings.Builder
		b.WriteString("<")
		for _, c := range s {
			switch {
			case c == ' ':
				b.WriteString("0003")
			case c >= 'A' && c <= 'Z':
				fmt.Fprintf(&b, "%04X", 36+c-'A')
			case c >= 'a' && c <= 'z':
				fmt.Fprintf(&b, "%04X", 68+c-'a')
			}
		}
		b.WriteString(">")
		return b.String()
	}

	var page1, page2 strings.Builder
	// Page 1: title, authors, abstract heading, two columns.
	title := "Recovering Paper Structure from Glyphs"
	fmt.Fprintf(&page1, "BT /F4 17 Tf %.2f 720 Td (%s) Tj ET\n", (612-textWidth(helvB, title, 17))/2, title)
	authors := "Ada Lovelace and Alan Turing"
	fmt.Fprintf(&page1, "BT /F1 11 Tf %.2f 700 Td (%s) Tj ET\n", (612-textWidth(times, authors, 11))/2, authors)
	fmt.Fprintf(&page1, "BT /F2 12 Tf 72 670 Td (Abstract) Tj ET\n")
	// Left column: abstract with Tj lines, leading via TL/T*, plus a
	// ligature line and an italic word.
	page1.WriteString("BT /F1 10 Tf 12 TL 72 652 Td\n")
	for _, l := range wrap(times, lorem, 10, 224) {
		fmt.Fprintf(&page1, "%s Tj T*\n", pdfString(l))
	}
	page1.WriteString("(We \\256nd the ba\\257ing cases.) Tj T*\nET\n")
	page1.WriteString("BT /F3 10 Tf 72 556 Td (Italic words matter.) Tj ET\n")
	// An inline image whose data contains operator-like bytes.
	page1.WriteString("q 20 0 0 20 72 500 cm BI /W 4 /H 1 /CS /G /BPC 8 ID (Tj) TJ\xff EI Q\n")
	fmt.Fprintf(&page1, "BT /F2 12 Tf 72 480 Td (1 Introduction) Tj ET\n")
	page1.WriteString("BT /F1 10 Tf 72 462 Td\n")
	for i, l := range wrap(times, lorem, 10, 224) {
		if i > 0 {
			page1.WriteString("0 -12 Td ")
		}
		page1.WriteString(texLine(strings.Fields(l)) + "\n")
	}
	page1.WriteString("ET\n")
	// Right column.
	fmt.Fprintf(&page1, "BT /F2 12 Tf 316 670 Td (2 Method) Tj ET\n")
	page1.WriteString("BT /F1 10 Tf 316 652 Td\n")
	for i, l := range wrap(times, "Words follow in the right column. "+lorem, 10, 224) {
		if i > 0 {
			page1.WriteString("0 -12 Td ")
		}
		page1.WriteString(texLine(strings.Fields(l)) + "\n")
	}
	page1.WriteString("ET\n/Footer Do\n")

	// Page 2: subsection heading, a scaled text matrix (effective size),
	// the Type0 fonts, references.
	page2.WriteString("BT /F2 11 Tf 72 720 Td (2.1 Glyph Grouping) Tj ET\n")
	page2.WriteString("BT /F1 1 Tf 10 0 0 10 72 700 Tm (Scaled text matrix words.) Tj ET\n")
	fmt.Fprintf(&page2, "BT /F5 12 Tf 72 670 Td %s Tj ET\n", cidHex("Composite Font Heading"))
	fmt.Fprintf(&page2, "BT /F6 10 Tf 72 650 Td %s Tj ET\n", cidHex("No Width Array Here"))
	page2.WriteString("BT /F4 14 Tf 316 720 Td (References) Tj ET\n")
	page2.WriteString("BT /F1 9 Tf 316 700 Td [(Lovelace, A.) -250 (1843.) -250 (Notes.)] TJ ET\n")
	page2.WriteString("/Footer Do\n")

	p1 := w.reserve()
	p2 := w.reserve()
	w.set(p1, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", pagesID, w.add(flateStream("", page1.String()))))
	w.set(p2, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R /CropBox [0 0 612 792] >>", pagesID, w.add(stream("", page2.String()))))
	w.set(pagesID, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R %d 0 R] /Count 2 /MediaBox [0 0 612 792] /Resources %s >>", p1, p2, res))

	// Outline: explicit destination, a GoTo action with a named
	// destination (name tree), a PDF 1.1 /Dests name, a UTF-16 title.
	outlines := w.reserve()
	o1, o2, o21, o3 := w.reserve(), w.reserve(), w.reserve(), w.reserve()
	w.set(o1, fmt.Sprintf("<< /Title (1 Introduction) /Parent %d 0 R /Next %d 0 R /Dest [%d 0 R /XYZ 72 480 0] >>", outlines, o2, p1))
	w.set(o2, fmt.Sprintf("<< /Title (2 Method) /Parent %d 0 R /Prev %d 0 R /Next %d 0 R /First %d 0 R /Last %d 0 R /Count 1 /A << /S /GoTo /D (sec.method) >> >>", outlines, o1, o3, o21, o21))
	w.set(o21, fmt.Sprintf("<< /Title (2.1 Glyph Grouping) /Parent %d 0 R /Dest /subsec >>", o2))
	w.set(o3, fmt.Sprintf("<< /Title %s /Parent %d 0 R /Prev %d 0 R /Dest [%d 0 R /Fit] >>", utf16Text("Références"), outlines, o2, p2))
	w.set(outlines, fmt.Sprintf("<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count 4 >>", o1, o3))
	dests := w.add(fmt.Sprintf("<< /Names [(sec.method) [%d 0 R /XYZ 316 670 0]] >>", p1))
	w.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /Outlines %d 0 R /Names << /Dests %d 0 R >> /Dests << /subsec << /D [%d 0 R /XYZ 72 720 0] >> >> >>",
		pagesID, outlines, dests, p2))
	info := w.add(fmt.Sprintf("<< /Title %s /Author (Ada Lovelace) /Subject (Fixture \\215quoted\\216) /Producer (papertree fixtures) >>",
		utf16Text("PaperTree Fixture – Two Columns")))
	return w.bytes(catalog, info, "")
}

// buildImageOnly writes a one-page PDF that paints an image and no text.
func buildImageOnly() []byte {
	w := &pdfWriter{}
	catalog := w.reserve()
	pages := w.reserve()
	img := w.add(stream("/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8", "\x00\xff\xff\x00"))
	content := w.add(stream("", "q 200 0 0 200 200 300 cm /Im1 Do Q"))
	page := w.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /XObject << /Im1 %d 0 R >> >> >>", pages, content, img))
	w.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	w.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.bytes(catalog, 0, "")
}

// buildBadPage writes three pages; the second one's content stream uses a
// filter the library does not support, which makes it panic while
// reading that page. The other pages must survive.
func buildBadPage() []byte {
	w := &pdfWriter{}
	catalog := w.reserve()
	pages := w.reserve()
	font := w.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	var kids []string
	for i, body := range []string{
		stream("", "BT /F1 12 Tf 72 700 Td (First page survives) Tj ET"),
		stream("/Filter /JBIG2Decode", "garbage"),
		stream("", "BT /F1 12 Tf 72 700 Td (Third page survives) Tj ET"),
	} {
		c := w.add(body)
		p := w.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", pages, c))
		kids = append(kids, fmt.Sprintf("%d 0 R", p))
		_ = i
	}
	w.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 3 /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> >>", strings.Join(kids, " "), font))
	w.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.bytes(catalog, 0, "")
}

// buildNoPages writes a structurally valid file whose catalog has no page
// tree.
func buildNoPages() []byte {
	w := &pdfWriter{}
	catalog := w.add("<< /Type /Catalog >>")
	return w.bytes(catalog, 0, "")
}

// buildGarbled writes a page in a Type 3 font whose glyph names carry no
// Unicode meaning (as dvips bitmap fonts do), so the text decodes to
// control codes and raw bytes.
func buildGarbled() []byte {
	w := &pdfWriter{}
	catalog := w.reserve()
	pages := w.reserve()
	glyph := w.add(stream("", "500 0 0 0 400 600 d1 0 0 400 600 re f"))
	font := w.add(fmt.Sprintf("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0] "+
		"/CharProcs << /g1 %d 0 R /g2 %d 0 R /g3 %d 0 R >> /Encoding << /Type /Encoding /Differences [1 /g1 /g2 /g3] >> "+
		"/FirstChar 1 /LastChar 3 /Widths [500 500 500] /Resources << >> >>", glyph, glyph, glyph))
	var body strings.Builder
	body.WriteString("BT /T3 10 Tf 72 700 Td 12 TL\n")
	for i := 0; i < 20; i++ {
		body.WriteString("<0102030201 03020103> Tj T*\n")
	}
	body.WriteString("ET")
	content := w.add(stream("", body.String()))
	page := w.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /T3 %d 0 R >> >> >>", pages, content, font))
	w.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	w.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.bytes(catalog, 0, "")
}

// buildRotated writes a landscape page (/Rotate 90) with upright text and
// a portrait page with an arXiv-style identifier stamped up the margin.
func buildRotated() []byte {
	w := &pdfWriter{}
	catalog := w.reserve()
	pages := w.reserve()
	font := w.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding " +
		"/FirstChar 32 /LastChar 122 /Widths [278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 1015 " +
		"667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 " +
		"556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500] >>")
	c1 := w.add(stream("", "BT /F1 12 Tf 0 1 -1 0 100 72 Tm (Landscape table caption) Tj ET"))
	c2 := w.add(stream("", "BT /F1 20 Tf 0 1 -1 0 30 300 Tm (arXiv:1234.5678v1) Tj ET\nBT /F1 10 Tf 72 700 Td (Portrait body text) Tj ET"))
	p1 := w.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Rotate 90 /Contents %d 0 R >>", pages, c1))
	p2 := w.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", pages, c2))
	w.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R %d 0 R] /Count 2 /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> >>", p1, p2, font))
	w.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.bytes(catalog, 0, "")
}

// buildHexEOF writes a page whose content stream ends inside a hex string:
// the lexer used to loop forever there (found by FuzzParse).
func buildHexEOF() []byte {
	w := &pdfWriter{}
	catalog := w.reserve()
	pages := w.reserve()
	font := w.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	c := w.add(stream("", "BT /F1 12 Tf 72 700 Td (Visible) Tj <4142"))
	p := w.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", pages, c, font))
	w.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	w.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.bytes(catalog, 0, "")
}

// TestGenerateFixtures rewrites testdata/*.pdf when run with -update.
func TestGenerateFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate the fixtures")
	}
	two := buildTwoColumn(t)
	files := map[string][]byte{
		"twocolumn.pdf":   two,
		"empty.pdf":       {},
		"notpdf.pdf":      []byte("<html><body>This is a web page saved with a .pdf name.</body></html>\n"),
		"truncated.pdf":   two[:len(two)*6/10],
		"imageonly.pdf":   buildImageOnly(),
		"badpage.pdf":     buildBadPage(),
		"nopages.pdf":     buildNoPages(),
		"garbled.pdf":     buildGarbled(),
		"rotated.pdf":     buildRotated(),
		"hexeof.pdf":      buildHexEOF(),
		"badxref.pdf":     corruptXref(two),
		"leadingjunk.pdf": append([]byte("Content-Type: application/pdf\r\n\r\n"), two...),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Fatalf("qpdf is needed for the encrypted fixtures: %v", err)
	}
	for name, args := range map[string][]string{
		// A user password: cannot be opened without it.
		"encrypted.pdf": {"--static-id", "--static-aes-iv", "--encrypt", "secret", "owner", "128", "--use-aes=y", "--"},
		// AES-256 with an empty user password: the library does not
		// support revision 6, so this is also reported as encrypted.
		"encrypted_aes256.pdf": {"--static-id", "--static-aes-iv", "--encrypt", "", "owner", "256", "--"},
		// RC4 with only an owner password: readable by everyone.
		"ownerpw.pdf": {"--static-id", "--allow-weak-crypto", "--encrypt", "", "owner", "128", "--use-aes=n", "--"},
	} {
		cmd := exec.Command("qpdf", append(append(args, "testdata/twocolumn.pdf"), filepath.Join("testdata", name))...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("qpdf %s: %v\n%s", name, err, out)
		}
	}
}

// corruptXref points startxref at the middle of an object.
func corruptXref(pdf []byte) []byte {
	out := append([]byte(nil), pdf...)
	i := bytes.LastIndex(out, []byte("startxref\n"))
	j := bytes.Index(out[i+10:], []byte("\n"))
	num := out[i+10 : i+10+j]
	repl := []byte(fmt.Sprintf("%0*d", len(num), 200))
	copy(num, repl)
	return out
}
