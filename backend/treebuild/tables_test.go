package treebuild

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// tablePaper is a two-column page with prose in both columns and, per
// case, something set in cells: a table in the left column with its
// caption below, a table spanning both columns (row labels left of the
// gutter, numbers right of it) with its caption above, a plot's tick
// labels above a figure caption, or nothing.
func tablePaper(kind string) *pdf.Document {
	const left, right, colW = 72.0, 320.0, 220.0
	p := newPage(1)
	p.text(150, 80, titleSt, "Tables in Scientific Papers")
	p.text(left, 120, sec, "1 Introduction")
	y := p.para(left, 136, colW, body, lorem(1, 6))
	y2 := p.para(right, 120, colW, body, lorem(2, 9))
	row := func(y float64, xs []float64, cells ...string) {
		for i, c := range cells {
			p.text(xs[i], y, body, c)
		}
	}
	switch kind {
	case "left table":
		y += 14
		xs := []float64{left, left + 70, left + 110, left + 150}
		row(y, xs, "Model", "Layers", "Hidden", "Params")
		row(y+12, xs, "ViT-Base", "12", "768", "86M")
		row(y+24, xs, "ViT-Large", "24", "1024", "307M")
		row(y+36, xs, "ViT-Huge", "32", "1280", "632M")
		p.text(left, y+52, small, "Table 1: Details of the model variants.")
		y += 66
	case "spanning table":
		y = max(y, y2) + 14
		p.text(left, y, small, "Table 2: Accuracy on the benchmarks.")
		xs := []float64{left, right + 10, right + 60, right + 110}
		row(y+14, xs, "Model", "MR", "SST-2", "TREC")
		row(y+26, xs, "CNN-rand", "76.1", "82.7", "91.2")
		row(y+38, xs, "CNN-static", "81.0", "86.8", "92.8")
		row(y+50, xs, "CNN-multichannel", "81.1", "88.1", "92.2")
		y, y2 = y+66, y+66
	case "plot":
		y += 14
		xs := []float64{left, left + 50, left + 100, left + 150}
		row(y, xs, "0.2", "0.4", "0.6", "0.8")
		row(y+12, xs, "10", "20", "30", "40")
		row(y+24, xs, "1", "2", "3", "4")
		row(y+36, xs, "5", "6", "7", "8")
		p.text(left, y+52, small, "Figure 1: Accuracy against steps.")
		y += 66
	}
	p.para(left, y+8, colW, body, lorem(3, 4))
	p.para(right, y2+8, colW, body, lorem(4, 4))
	return &pdf.Document{Pages: []pdf.Page{p.page}}
}

func tableLeavesOf(t *testing.T, doc *pdf.Document) []*papertree.Node {
	t.Helper()
	paper, err := Build(context.Background(), doc, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var out []*papertree.Node
	paper.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.Role == papertree.RoleTable {
			out = append(out, n)
		}
		return true
	})
	return out
}

func TestTables(t *testing.T) {
	tests := []struct {
		name       string
		header     []string
		rows       [][]string
		noTables   bool
		rowWithHdr string
	}{
		{name: "left table", header: []string{"Model", "Layers", "Hidden", "Params"},
			rows:       [][]string{{"ViT-Base", "12", "768", "86M"}, {"ViT-Large", "24", "1024", "307M"}, {"ViT-Huge", "32", "1280", "632M"}},
			rowWithHdr: "ViT-Large: Layers 24, Hidden 1024, Params 307M"},
		{name: "spanning table", header: []string{"Model", "MR", "SST-2", "TREC"},
			rows:       [][]string{{"CNN-rand", "76.1", "82.7", "91.2"}, {"CNN-static", "81.0", "86.8", "92.8"}, {"CNN-multichannel", "81.1", "88.1", "92.2"}},
			rowWithHdr: "CNN-static: MR 81.0, SST-2 86.8, TREC 92.8"},
		{name: "plot", noTables: true},
		{name: "prose", noTables: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tableLeavesOf(t, tablePaper(tc.name))
			if tc.noTables {
				if len(got) != 0 {
					t.Fatalf("found %d tables, want none: %q", len(got), got[0].Text)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("found %d tables, want 1", len(got))
			}
			tb := papertree.ParseTable(got[0].Text)
			h, rows := tb.Header, tb.Rows
			if !strings.HasPrefix(tb.Caption, "Table ") {
				t.Errorf("caption = %q, want the table's caption", tb.Caption)
			}
			if !reflect.DeepEqual(h, tc.header) || !reflect.DeepEqual(rows, tc.rows) {
				t.Errorf("table = %q %q, want %q %q", h, rows, tc.header, tc.rows)
			}
			if rs := papertree.TableRowSentences(got[0].Text); len(rs) < 2 || rs[1] != tc.rowWithHdr {
				t.Errorf("row sentences = %q, want second %q", rs, tc.rowWithHdr)
			}
			if len(got[0].Boxes) == 0 || got[0].PageStart != 1 {
				t.Errorf("table leaf has no position: %+v", got[0])
			}
		})
	}
}
