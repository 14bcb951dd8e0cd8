package report

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// DOCX writes d as a minimal WordprocessingML package (document, styles,
// core properties) built with archive/zip: Word, LibreOffice and Pages open
// it. Citation numbers are internal hyperlinks to bookmarks on the sources.
// All text is XML-escaped; zip entries carry Doc.Generated as their time so
// the bytes are reproducible.
func DOCX(w io.Writer, d Doc) error {
	v := buildView(d)
	mod := d.Generated.UTC()
	if d.Generated.IsZero() {
		mod = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	parts := []struct{ name, body string }{
		{"[Content_Types].xml", docxContentTypes},
		{"_rels/.rels", docxRels},
		{"docProps/core.xml", docxCore(v.Title, mod)},
		{"word/_rels/document.xml.rels", docxDocRels},
		{"word/styles.xml", docxStyles},
		{"word/document.xml", docxDocument(v)},
	}
	zw := zip.NewWriter(w)
	for _, p := range parts {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: mod})
		if err != nil {
			return fmt.Errorf("write docx %s: %w", p.name, err)
		}
		if _, err := io.WriteString(fw, p.body); err != nil {
			return fmt.Errorf("write docx %s: %w", p.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write docx: %w", err)
	}
	return nil
}

func xmlEsc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // writes to memory: cannot fail
	return b.String()
}

// docxW builds document.xml.
type docxW struct {
	b      strings.Builder
	markID int
}

// run writes one text run; newlines become line breaks.
func (x *docxW) run(text, rpr string) {
	x.b.WriteString("<w:r>")
	if rpr != "" {
		x.b.WriteString("<w:rPr>" + rpr + "</w:rPr>")
	}
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			x.b.WriteString("<w:br/>")
		}
		x.b.WriteString(`<w:t xml:space="preserve">` + xmlEsc(line) + "</w:t>")
	}
	x.b.WriteString("</w:r>")
}

func (x *docxW) para(style, text, rpr string) {
	x.b.WriteString("<w:p>")
	if style != "" {
		x.b.WriteString(`<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`)
	}
	x.run(text, rpr)
	x.b.WriteString("</w:p>")
}

func (x *docxW) bookmark(name string) (start, end string) {
	x.markID++
	return fmt.Sprintf(`<w:bookmarkStart w:id="%d" w:name="%s"/>`, x.markID, name),
		fmt.Sprintf(`<w:bookmarkEnd w:id="%d"/>`, x.markID)
}

// docxMark turns an HTML anchor ("q1-s2") into a Word bookmark name
// (letters, digits and underscores).
func docxMark(anchor string) string { return "pt_" + strings.ReplaceAll(anchor, "-", "_") }

const (
	rprMuted  = `<w:color w:val="5D6778"/><w:sz w:val="18"/>`
	rprItalic = `<w:i/><w:color w:val="5D6778"/><w:sz w:val="18"/>`
)

func docxDocument(v view) string {
	x := &docxW{}
	x.para("Title", v.Title, "")
	sub := v.Count
	if v.Generated != "" {
		sub += " · generated " + v.Generated
	}
	x.para("", sub+" by PaperTree", rprMuted)
	if len(v.Answers) > 1 {
		x.para("Heading3", "Questions", "")
		for _, a := range v.Answers {
			x.para("", fmt.Sprintf("%d. %s", a.N, oneLine(a.Question)), "")
		}
	}
	for _, a := range v.Answers {
		q := oneLine(a.Question)
		if len(v.Answers) > 1 {
			q = fmt.Sprintf("%d. %s", a.N, q)
		}
		x.para("Heading1", q, "")
		meta := a.Kind
		if a.Date != "" {
			meta += " · " + a.Date
		}
		x.para("", meta, `<w:b/><w:color w:val="2F5D9E"/><w:sz w:val="18"/>`)
		x.para("", a.KindNote, rprItalic)

		x.b.WriteString("<w:p>")
		if len(a.Text) == 0 {
			x.run("(empty answer)", rprItalic)
		}
		for _, s := range a.Text {
			if s.Ref > 0 {
				x.b.WriteString(`<w:hyperlink w:anchor="` + docxMark(s.Anchor) + `">`)
				x.run(s.Text, `<w:rStyle w:val="Hyperlink"/><w:b/>`)
				x.b.WriteString("</w:hyperlink>")
				continue
			}
			x.run(s.Text, "")
		}
		x.b.WriteString("</w:p>")

		if len(a.Sources) > 0 {
			x.para("Heading2", "Sources", "")
		}
		for _, s := range a.Sources {
			bs, be := x.bookmark(docxMark(s.Anchor))
			x.b.WriteString(`<w:p><w:pPr><w:pStyle w:val="SourceHead"/></w:pPr>` + bs)
			x.run(fmt.Sprintf("[%d] ", s.N), `<w:color w:val="2F5D9E"/>`)
			x.run(oneLine(s.Paper), "")
			if !s.Cited {
				x.run("  retrieved, not cited", `<w:b w:val="0"/><w:i/><w:color w:val="5D6778"/><w:sz w:val="16"/>`)
			}
			x.b.WriteString(be + "</w:p>")
			var meta []string
			if s.Path != "" {
				meta = append(meta, oneLine(s.Path))
			}
			if s.Pages != "" {
				meta = append(meta, s.Pages)
			}
			if s.Score != "" {
				meta = append(meta, "score "+s.Score)
			}
			if len(meta) > 0 {
				x.para("", strings.Join(meta, " · "), rprMuted)
			}
			x.para("Excerpt", s.Excerpt, "")
		}

		x.para("Heading2", "Settings and diagnostics", "")
		x.b.WriteString(`<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>` +
			`<w:insideH w:val="single" w:sz="4" w:color="DDE2EA"/></w:tblBorders></w:tblPr>` +
			`<w:tblGrid><w:gridCol w:w="2600"/><w:gridCol w:w="6400"/></w:tblGrid>`)
		for _, kv := range append(append([]kv(nil), a.Settings...), a.Diag...) {
			x.b.WriteString(`<w:tr><w:tc><w:tcPr><w:tcW w:w="2600" w:type="dxa"/></w:tcPr><w:p>`)
			x.run(kv.K, `<w:b/><w:color w:val="5D6778"/><w:sz w:val="18"/>`)
			x.b.WriteString(`</w:p></w:tc><w:tc><w:tcPr><w:tcW w:w="6400" w:type="dxa"/></w:tcPr><w:p>`)
			x.run(oneLine(kv.V), `<w:sz w:val="18"/>`)
			x.b.WriteString(`</w:p></w:tc></w:tr>`)
		}
		x.b.WriteString(`</w:tbl>`)
	}
	docxTables(x, v.Tables)
	if len(v.Biblio) > 0 {
		x.para("Heading1", "Bibliography", "")
		for _, e := range v.Biblio {
			x.b.WriteString(`<w:p><w:pPr><w:pStyle w:val="Bib"/></w:pPr>`)
			x.run(fmt.Sprintf("%d.\t", e.N), "")
			if e.Authors != "" {
				s := oneLine(e.Authors)
				if e.Year != "" {
					s += " (" + e.Year + ")"
				}
				x.run(s+". ", "")
			} else if e.Year != "" {
				x.run("("+e.Year+"). ", "")
			}
			x.run(oneLine(e.Title)+".", "<w:i/>")
			if e.Key != "" {
				x.run(" ["+e.Key+"]", "")
			}
			x.b.WriteString("</w:p>")
		}
	}
	return xml.Header + `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>` +
		x.b.String() +
		`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1247" w:right="1134" w:bottom="1247" w:left="1134" ` +
		`w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`
}

func docxCore(title string, mod time.Time) string {
	ts := mod.Format("2006-01-02T15:04:05Z")
	return xml.Header + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
		`xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ` +
		`xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
		`<dc:title>` + xmlEsc(title) + `</dc:title><dc:creator>PaperTree</dc:creator>` +
		`<dcterms:created xsi:type="dcterms:W3CDTF">` + ts + `</dcterms:created>` +
		`<dcterms:modified xsi:type="dcterms:W3CDTF">` + ts + `</dcterms:modified></cp:coreProperties>`
}

const docxContentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
	`<Default Extension="xml" ContentType="application/xml"/>` +
	`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
	`<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>` +
	`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
	`</Types>`

const docxRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`</Relationships>`

const docxDocRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
	`</Relationships>`

const docxStyles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
	`<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/>` +
	`<w:color w:val="1D2330"/><w:sz w:val="21"/><w:szCs w:val="21"/><w:lang w:val="en-GB"/></w:rPr></w:rPrDefault>` +
	`<w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="276" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
	`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>` +
	`<w:pPr><w:spacing w:after="60"/></w:pPr><w:rPr><w:b/><w:sz w:val="40"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>` +
	`<w:pPr><w:keepNext/><w:pBdr><w:top w:val="single" w:sz="4" w:space="8" w:color="DDE2EA"/></w:pBdr><w:spacing w:before="360" w:after="80"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="30"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>` +
	`<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="80"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:caps/><w:color w:val="5D6778"/><w:sz w:val="18"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>` +
	`<w:pPr><w:keepNext/><w:spacing w:before="200" w:after="60"/><w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="SourceHead"><w:name w:val="Source heading"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>` +
	`<w:pPr><w:keepNext/><w:spacing w:before="160" w:after="0"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Excerpt"><w:name w:val="Excerpt"/><w:basedOn w:val="Normal"/>` +
	`<w:pPr><w:pBdr><w:left w:val="single" w:sz="18" w:space="8" w:color="2F5D9E"/></w:pBdr><w:shd w:val="clear" w:color="auto" w:fill="F4F6FA"/>` +
	`<w:ind w:left="200"/><w:spacing w:after="160"/></w:pPr><w:rPr><w:sz w:val="19"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Bib"><w:name w:val="Bibliography entry"/><w:basedOn w:val="Normal"/>` +
	`<w:pPr><w:ind w:left="400" w:hanging="400"/></w:pPr></w:style>` +
	`<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:color w:val="2F5D9E"/></w:rPr></w:style>` +
	`</w:styles>`
