package report

import (
	"fmt"
	"html/template"
)

// Table is a comparison table added to a report (e.g. Compare's papers x
// aspects): a header row and rows of cells, each cell with the quoted text
// and where it comes from. Tables are rendered after the answers and before
// the bibliography, in every format; their text is untrusted and escaped
// like the rest.
type Table struct {
	Title   string
	Columns []string // header cells; the first names the row label column
	Rows    []TableRow
}

// TableRow is one row: its label (a paper) and one cell per remaining column.
type TableRow struct {
	Label string
	Cells []TableCell
}

// TableCell is one cell.
type TableCell struct {
	Text     string
	Source   string // "Section > Subsection, p. 3"; "" = none
	NotFound bool   // the cell says there is no evidence
}

// tableView is a table ready for the renderers.
type tableView struct {
	Title   string
	Anchor  string
	Columns []string
	Rows    []tableRowView
}

type tableRowView struct {
	Label string
	Cells []TableCell
}

func tablesView(ts []Table) []tableView {
	var out []tableView
	for i, t := range ts {
		tv := tableView{Title: clean(t.Title), Anchor: fmt.Sprintf("t%d", i+1)}
		if tv.Title == "" {
			tv.Title = "Comparison"
		}
		for _, c := range t.Columns {
			tv.Columns = append(tv.Columns, oneLine(clean(c)))
		}
		for _, r := range t.Rows {
			rv := tableRowView{Label: oneLine(clean(r.Label))}
			for j := 0; j < len(tv.Columns)-1; j++ {
				c := TableCell{NotFound: true, Text: "not found"}
				if j < len(r.Cells) {
					c = r.Cells[j]
					c.Text, c.Source = oneLine(clean(c.Text)), oneLine(clean(c.Source))
					if c.NotFound {
						c.Text = "not found"
					}
				}
				rv.Cells = append(rv.Cells, c)
			}
			tv.Rows = append(tv.Rows, rv)
		}
		out = append(out, tv)
	}
	return out
}

// mdTables writes the tables as GFM tables.
func mdTables(p func(string, ...any), ts []tableView) {
	for _, t := range ts {
		p("---\n\n## %s\n\n", mdLine(t.Title))
		if len(t.Columns) == 0 {
			continue
		}
		p("|")
		for _, c := range t.Columns {
			p(" %s |", mdCell(c))
		}
		p("\n|")
		for range t.Columns {
			p("---|")
		}
		p("\n")
		for _, r := range t.Rows {
			p("| %s |", mdCell(r.Label))
			for _, c := range r.Cells {
				if c.NotFound {
					p(" *not found* |")
					continue
				}
				p(" %s", mdCell(c.Text))
				if c.Source != "" {
					p("<br>*%s*", mdCell(c.Source))
				}
				p(" |")
			}
			p("\n")
		}
		p("\n")
	}
}

// The HTML tables template; parsed into htmlTmpl so that html.go only
// calls it.
func init() {
	template.Must(htmlTmpl.New("tables").Parse(`{{define "tables"}}
{{- range .}}
<section class="answer" id="{{.Anchor}}">
<h2>{{.Title}}</h2>
<table class="cmp">
<tr>{{range .Columns}}<th scope="col">{{.}}</th>{{end}}</tr>
{{- range .Rows}}
<tr><th scope="row">{{.Label}}</th>{{range .Cells}}<td>{{if .NotFound}}<span class="nf">not found</span>{{else}}{{.Text}}{{if .Source}}<div class="path">{{.Source}}</div>{{end}}{{end}}</td>{{end}}</tr>
{{- end}}
</table>
<style>table.cmp{border-collapse:collapse;width:100%;font-size:.85rem}table.cmp th,table.cmp td{border:1px solid #dde2ea;padding:.35rem .5rem;vertical-align:top;text-align:left}table.cmp .nf{color:#9a5b00;font-style:italic}</style>
</section>
{{- end}}
{{- end}}`))
}

// docxTables writes the tables as Word tables.
func docxTables(x *docxW, ts []tableView) {
	for _, t := range ts {
		x.para("Heading1", t.Title, "")
		if len(t.Columns) == 0 {
			continue
		}
		x.b.WriteString(`<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>` +
			`<w:top w:val="single" w:sz="4" w:color="DDE2EA"/><w:bottom w:val="single" w:sz="4" w:color="DDE2EA"/>` +
			`<w:insideH w:val="single" w:sz="4" w:color="DDE2EA"/><w:insideV w:val="single" w:sz="4" w:color="DDE2EA"/>` +
			`</w:tblBorders></w:tblPr>`)
		cell := func(text, source, rpr string) {
			x.b.WriteString("<w:tc><w:p>")
			x.run(text, rpr)
			if source != "" {
				x.run("\n"+source, rprMuted)
			}
			x.b.WriteString("</w:p></w:tc>")
		}
		x.b.WriteString("<w:tr>")
		for _, c := range t.Columns {
			cell(c, "", "<w:b/>")
		}
		x.b.WriteString("</w:tr>")
		for _, r := range t.Rows {
			x.b.WriteString("<w:tr>")
			cell(r.Label, "", "<w:b/>")
			for _, c := range r.Cells {
				if c.NotFound {
					cell("not found", "", rprItalic)
					continue
				}
				cell(c.Text, c.Source, "")
			}
			x.b.WriteString("</w:tr>")
		}
		x.b.WriteString("</w:tbl>")
	}
}

// tables draws the tables in the PDF: one block per row (the row label in
// bold, then each column's text with its source), which stays readable on
// A4 whatever the number of columns.
func (r *pdfR) tables(w, l float64) {
	f := r.f
	for _, t := range r.v.Tables {
		r.need(40)
		f.Ln(4)
		f.Bookmark(t.Title, 0, -1)
		r.flow(w, 7, span{text: t.Title, style: "B", size: 14, color: colInk})
		f.Ln(2)
		for _, row := range t.Rows {
			r.need(20)
			r.flow(w, 5.5, span{text: row.Label, style: "B", size: 10.5, color: colInk})
			for j, c := range row.Cells {
				col := ""
				if j+1 < len(t.Columns) {
					col = t.Columns[j+1]
				}
				sp := []span{{text: col + ": ", style: "B", size: 9.5, color: colAccent}}
				if c.NotFound {
					sp = append(sp, span{text: "not found", style: "I", size: 9.5, color: colWarn})
				} else {
					sp = append(sp, span{text: c.Text, size: 9.5, color: colInk})
					if c.Source != "" {
						sp = append(sp, span{text: " (" + c.Source + ")", size: 8.5, color: colMuted})
					}
				}
				r.need(6)
				r.flowAt(l+4, w-4, 4.6, sp, flowOpt{})
			}
			f.Ln(2.5)
		}
	}
}

// tableCount is the report's count line when it holds only tables.
func tableCount(n int) string {
	if n == 1 {
		return "1 comparison table"
	}
	return fmt.Sprintf("%d comparison tables", n)
}
