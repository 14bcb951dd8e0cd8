// Package hostile generates small PDFs (and file-system oddities) that
// expand when they are read: the attack classes of the reliability audit
// (issue 13). Tests of backend/pdf and backend/library index them and
// assert a coded error or a successful index; FuzzParse seeds from them;
// cmd/genhostile writes a folder of them at full size for measuring
// `papertree index` (peak memory, wall time).
//
// Every generator streams its expanding part through zlib, so a file that
// inflates to 1 GiB is about 1 MB on disk and is written without holding
// the gigabyte in memory.
package hostile

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
)

// Writer assembles a PDF with a correct cross-reference table.
type Writer struct {
	objs [][]byte // objs[i] is object i+1's body
}

// Add appends an object and returns its number.
func (w *Writer) Add(body string) int { return w.AddBytes([]byte(body)) }

// AddBytes appends an object given as bytes.
func (w *Writer) AddBytes(body []byte) int {
	w.objs = append(w.objs, body)
	return len(w.objs)
}

// Reserve allocates an object number to fill in later with Set.
func (w *Writer) Reserve() int { return w.Add("null") }

// Set replaces object n's body.
func (w *Writer) Set(n int, body string) { w.objs[n-1] = []byte(body) }

// Bytes writes the file with the given catalog object.
func (w *Writer) Bytes(root int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(w.objs))
	for i, o := range w.objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		b.Write(o)
		b.WriteString("\nendobj\n")
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(w.objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(w.objs)+1, root, x)
	return b.Bytes()
}

// Stream is an uncompressed stream object.
func Stream(dict, data string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// FlateRepeat is a Flate stream object whose data is head, then unit
// repeated until at least n bytes (whole units), then tail, compressed as it is generated.
func FlateRepeat(dict, head, unit, tail string, n int64) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	io.WriteString(zw, head)
	reps := (n + int64(len(unit)) - 1) / int64(len(unit))
	per := int64(max(1, (1<<16)/len(unit)))
	chunk := strings.Repeat(unit, int(per))
	for ; reps >= per; reps -= per {
		io.WriteString(zw, chunk)
	}
	io.WriteString(zw, strings.Repeat(unit, int(reps)))
	io.WriteString(zw, tail)
	zw.Close()
	var b bytes.Buffer
	fmt.Fprintf(&b, "<< %s /Filter /FlateDecode /Length %d >>\nstream\n", dict, z.Len())
	b.Write(z.Bytes())
	b.WriteString("\nendstream")
	return b.Bytes()
}

const helv = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

// page adds a Page object with font F1 and the given content reference(s).
func page(w *Writer, parent, font int, contents string) int {
	return w.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %s >>", parent, font, contents))
}

// singlePage builds a one-page PDF around the content object made by mk.
func singlePage(mk func(w *Writer) int, fontObj string) []byte {
	var w Writer
	font := w.Add(fontObj)
	pages := w.Reserve()
	c := mk(&w)
	p := page(&w, pages, font, fmt.Sprintf("%d 0 R", c))
	w.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.Bytes(root)
}

// paperText is a page of ordinary text: a heading and sentences.
func paperText(title string, lines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "BT /F1 16 Tf 72 720 Td (%s) Tj ET\n", title)
	y := 690
	for _, l := range lines {
		fmt.Fprintf(&b, "BT /F1 10 Tf 72 %d Td (%s) Tj ET\n", y, l)
		y -= 13
	}
	return b.String()
}

// Good is a small valid paper: a title, a heading and a few sentences.
func Good(title string) []byte {
	lines := []string{
		"1 Introduction",
		"Structure-aware retrieval keeps the sections of a paper together.",
		"We index each paper as a tree of sections and segments.",
		"Questions are answered from the segments that support them best.",
		"2 Method",
		"The method scores sections first and then the leaves under them.",
		"Evidence paths lead from the paper to the exact segment.",
	}
	return singlePage(func(w *Writer) int { return w.Add(Stream("", paperText(title, lines))) }, helv)
}

// NumberBomb is one page whose content stream inflates to about n bytes of
// number operands with no operator ("1 1 1 ..."): upstream pushed them all
// on an operand stack that only grows.
func NumberBomb(n int64) []byte {
	return singlePage(func(w *Writer) int { return w.AddBytes(FlateRepeat("", "BT /F1 10 Tf ", "1 ", " Tj ET", n)) }, helv)
}

// ArrayBomb is a content stream with one array that never closes, about n
// bytes long ("[1 1 1 ...").
func ArrayBomb(n int64) []byte {
	return singlePage(func(w *Writer) int { return w.AddBytes(FlateRepeat("", "BT /F1 10 Tf [", "1 ", "", n)) }, helv)
}

// StringBomb is a content stream with one literal string that never
// closes, about n bytes long.
func StringBomb(n int64) []byte {
	return singlePage(func(w *Writer) int { return w.AddBytes(FlateRepeat("", "BT /F1 10 Tf 72 700 Td (", "a", "", n)) }, helv)
}

// CMapBomb is a page whose font has a ToUnicode CMap that inflates to about
// n bytes of bfchar entries.
func CMapBomb(n int64) []byte {
	var w Writer
	cmap := w.AddBytes(FlateRepeat("",
		"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> endcodespacerange\n",
		"100 beginbfchar "+strings.Repeat("<41> <0041> ", 100)+"endbfchar\n",
		"endcmap CMapName currentdict /CMap defineresource pop end end", n))
	font := w.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode %d 0 R >>", cmap))
	pages := w.Reserve()
	c := w.Add(Stream("", paperText("Character map", []string{"A page whose font has a very large character map."})))
	p := page(&w, pages, font, fmt.Sprintf("%d 0 R", c))
	w.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.Bytes(root)
}

// SharedContent is a document of pages pages that all draw one content
// stream of about perPage bytes of words.
func SharedContent(pages int, perPage int64) []byte {
	var w Writer
	font := w.Add(helv)
	parent := w.Reserve()
	c := w.AddBytes(FlateRepeat("", "BT /F1 8 Tf 8 TL 20 780 Td ", "(shared words on every page of it) ' ", " ET", perPage))
	kids := make([]string, pages)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", page(&w, parent, font, fmt.Sprintf("%d 0 R", c)))
	}
	w.Set(parent, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", parent))
	return w.Bytes(root)
}

// RepeatedContents is one page whose /Contents array lists one stream n
// times.
func RepeatedContents(n int) []byte {
	var w Writer
	font := w.Add(helv)
	parent := w.Reserve()
	c := w.AddBytes(FlateRepeat("", "", "BT /F1 10 Tf 72 700 Td (repeated words on the page) Tj ET\n", "", 1))
	ref := fmt.Sprintf("%d 0 R ", c)
	p := page(&w, parent, font, "["+strings.Repeat(ref, n)+"]")
	w.Set(parent, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", parent))
	return w.Bytes(root)
}

// ManyPages is a document of n (empty-content) pages, each its own object.
func ManyPages(n int) []byte {
	var w Writer
	font := w.Add(helv)
	parent := w.Reserve()
	c := w.Add(Stream("", "BT /F1 10 Tf 72 700 Td (one of many pages) Tj ET"))
	var kids strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&kids, "%d 0 R ", page(&w, parent, font, fmt.Sprintf("%d 0 R", c)))
	}
	w.Set(parent, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", parent))
	return w.Bytes(root)
}

// LongWord is one page showing one word of n characters (no space, no gap).
func LongWord(n int) []byte {
	return singlePage(func(w *Writer) int {
		return w.AddBytes(FlateRepeat("", "BT /F1 10 Tf 72 700 Td (", "a", ") Tj ET", int64(n)))
	}, helv)
}

// TextOperators is one page of about n bytes of text-showing operators,
// each word at its own position.
func TextOperators(n int64) []byte {
	return singlePage(func(w *Writer) int {
		return w.AddBytes(FlateRepeat("", "BT /F1 1 Tf 0 0 Td ", "(w) Tj 3 0 Td ", " ET", n))
	}, helv)
}

// NoPunctuation is a document of pages pages of ordinary words with no
// sentence punctuation at all (one "sentence" as long as the document).
func NoPunctuation(pages int) []byte {
	var w Writer
	font := w.Add(helv)
	parent := w.Reserve()
	var b strings.Builder
	b.WriteString("BT /F1 10 Tf 12 TL 72 740 Td ")
	for i := 0; i < 55; i++ {
		b.WriteString("(words without any sentence punctuation follow one another here and go on) '\n")
	}
	b.WriteString("ET")
	c := w.Add(Stream("", b.String()))
	kids := make([]string, pages)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", page(&w, parent, font, fmt.Sprintf("%d 0 R", c)))
	}
	w.Set(parent, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", parent))
	return w.Bytes(root)
}

// FormRepeat is one page that draws one Form XObject n times; the form
// holds about formBytes of path operators (no text). Each drawing reads
// the form's stream again.
func FormRepeat(n int, formBytes int64) []byte {
	var w Writer
	font := w.Add(helv)
	parent := w.Reserve()
	form := w.AddBytes(FlateRepeat("/Type /XObject /Subtype /Form /BBox [0 0 612 792]", "", "10 10 m 20 20 l S\n", "", formBytes))
	c := w.AddBytes(FlateRepeat("", "BT /F1 10 Tf 72 700 Td (A form drawn many times) Tj ET\n", "/Fm1 Do\n", "", int64(n)*8))
	p := w.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> /XObject << /Fm1 %d 0 R >> >> /Contents %d 0 R >>", parent, font, form, c))
	w.Set(parent, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", parent))
	return w.Bytes(root)
}

// LongTextLine is one page showing one line of text of about n bytes as a
// single string ("word word word ..."): longer than the library reads as
// one piece, it is dropped whole.
func LongTextLine(n int64) []byte {
	return singlePage(func(w *Writer) int {
		return w.AddBytes(FlateRepeat("", "BT /F1 10 Tf 72 700 Td (", "word ", ") Tj ET", n))
	}, helv)
}

// DeepPageTree is a document whose one page sits under depth nested
// /Pages nodes, each with a single kid.
func DeepPageTree(depth int) []byte {
	var w Writer
	font := w.Add(helv)
	c := w.Add(Stream("", "BT /F1 10 Tf 72 700 Td (A page at the bottom of a deep tree.) Tj ET"))
	first := w.Reserve()
	parent := first
	for i := 1; i < depth; i++ {
		n := w.Reserve()
		w.Set(parent, pagesNode(parent, first, n))
		parent = n
	}
	p := page(&w, parent, font, fmt.Sprintf("%d 0 R", c))
	w.Set(parent, pagesNode(parent, first, p))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", first))
	return w.Bytes(root)
}

// pagesNode is a /Pages node (object n) with one kid; the tree's first
// node has no parent.
func pagesNode(n, first, kid int) string {
	if n == first {
		return fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", kid)
	}
	return fmt.Sprintf("<< /Type /Pages /Parent %d 0 R /Kids [%d 0 R] /Count 1 >>", n-1, kid)
}

// PageTreeLoop is a document whose /Pages node lists itself as its only
// kid: no page is ever reached.
func PageTreeLoop() []byte {
	var w Writer
	w.Add(helv)
	pages := w.Reserve()
	w.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", pages))
	root := w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	return w.Bytes(root)
}
