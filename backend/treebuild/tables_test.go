package treebuild

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
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

// cellsAt sets one row: each cell's words from its x, at baseline y.
func (p *pageBuilder) cellsAt(y float64, s style, xs []float64, cells ...string) {
	for i, c := range cells {
		p.text(xs[i], y, s, c)
	}
}

// relaxedTablePaper is a one-column page with prose around a table set in
// one of the ways the plain reading misses: header cells at staggered
// heights, numbers closer than an em apart, group headers over two
// columns, a table floating into the bibliography, or two stacked tables
// whose captions sit below them.
func relaxedTablePaper(kind string) *pdf.Document {
	const left = 72.0
	p := newPage(1)
	p.text(150, 80, titleSt, "Tables Set in Many Ways")
	p.text(left, 120, sec, "1 Results")
	y := p.para(left, 136, 460, body, lorem(1, 5)) + 14
	switch kind {
	case "staggered header":
		p.text(left, y, small, "Table 1: Hardware of the hosts.")
		y += 20
		xs := []float64{left, left + 120, left + 200, left + 280}
		p.text(xs[3], y, body, "Interconnect")
		p.cellsAt(y+5, body, xs[:3], "Spec", "FLOPS", "HBM")
		p.text(xs[3], y+10, body, "Bandwidth")
		p.cellsAt(y+26, body, xs, "A100 NVLink", "312", "80", "300")
		p.cellsAt(y+38, body, xs, "TPU v3", "123", "16", "112")
		p.cellsAt(y+50, body, xs, "TPU v4", "275", "32", "268")
		y += 66
	case "dense numbers":
		p.text(left, y, small, "Table 2: Errors per horizon.")
		y += 16
		// numbers 25 points wide, 7 points (0.7 em) apart
		xs := []float64{left, left + 40, left + 72, left + 104, left + 136}
		p.cellsAt(y, body, []float64{left, left + 45, left + 77, left + 109, left + 141}, "Horizon", "MSE", "MAE", "MSE", "MAE")
		p.cellsAt(y+12, body, xs, "96", "0.255", "0.339", "0.365", "0.453")
		p.cellsAt(y+24, body, xs, "192", "0.281", "0.340", "0.533", "0.563")
		p.cellsAt(y+36, body, xs, "336", "0.339", "0.372", "1.363", "0.887")
		y += 52
	case "group header":
		p.text(left, y, small, "Table 3: Accuracy on the tasks.")
		y += 16
		xs := []float64{left, left + 150, left + 210, left + 270, left + 330}
		p.cellsAt(y, body, []float64{left + 180, left + 300}, "Copy", "Reverse")
		p.cellsAt(y+12, body, xs, "Model", "char", "seq", "char", "seq")
		p.cellsAt(y+24, body, xs, "LSTM", "0.45", "0.09", "0.66", "0.11")
		p.cellsAt(y+36, body, xs, "Transformer", "0.53", "0.03", "0.13", "0.06")
		p.cellsAt(y+48, body, xs, "Universal Transformer", "0.91", "0.35", "0.96", "0.46")
		y += 64
	case "in references":
		p.text(left, y, sec, "References")
		y += 16
		for i := 0; i < 4; i++ {
			y = p.para(left, y, 460, body, fmt.Sprintf("[%d] A. Author and B. Author. %s. In Proceedings, pages %d-%d, 2019.", i+1, lorem(i, 1), 10*i+1, 10*i+9)) + 2
		}
		y += 10
		xs := []float64{left, left + 120, left + 200, left + 280}
		p.text(left, y, small, "Table 4: Details of the model variants.")
		p.cellsAt(y+16, body, xs, "Model", "Layers", "Hidden", "Params")
		p.cellsAt(y+28, body, xs, "ViT-Base", "12", "768", "86M")
		p.cellsAt(y+40, body, xs, "ViT-Large", "24", "1024", "307M")
		p.cellsAt(y+52, body, xs, "ViT-Huge", "32", "1280", "632M")
		y += 68
		for i := 4; i < 6; i++ {
			y = p.para(left, y, 460, body, fmt.Sprintf("[%d] C. Writer. %s. Journal of Things, 12(%d):1-20, 2020.", i+1, lorem(i, 1), i)) + 2
		}
	case "wrapped":
		// a table set beside the text, which wraps around it: every
		// line is prose up to x 290, then (past a gutter) a row
		prose := "which shows rates under these terms while tests"
		xs := []float64{left + 260, left + 330, left + 390}
		rows := [][]string{{"Model", "Top-1", "Top-5"}, {"Sparse", "47.1%", "28.2%"}, {"SIFT", "45.7%", "25.7%"}, {"CNN", "37.5%", "17.0%"}, nil, {"Table 7: Errors on the test set."}, nil}
		for _, r := range rows {
			p.text(left, y, body, prose)
			if len(r) == 1 {
				p.text(xs[0], y, body, r[0])
			} else if r != nil {
				p.cellsAt(y, body, xs, r...)
			}
			y += 12
		}
		y += 4
	case "stacked":
		xs := []float64{left, left + 120, left + 200}
		p.cellsAt(y, body, xs, "Model", "Dev", "Test")
		p.cellsAt(y+12, body, xs, "CNN", "81.0", "80.2")
		p.cellsAt(y+24, body, xs, "RNN", "79.4", "78.8")
		p.cellsAt(y+36, body, xs, "Linear", "75.1", "74.0")
		p.text(left, y+52, small, "Table 5: First results.")
		y += 60 // the second table starts closer to the first caption than its own
		p.cellsAt(y, body, xs, "Data", "Train", "Test")
		p.cellsAt(y+12, body, xs, "MR", "9596", "1066")
		p.cellsAt(y+24, body, xs, "SST", "8544", "2210")
		p.cellsAt(y+36, body, xs, "TREC", "5452", "500")
		p.text(left, y+56, small, "Table 6: Second results.")
		y += 70
	}
	p.para(left, y+8, 460, body, lorem(3, 4))
	return &pdf.Document{Pages: []pdf.Page{p.page}}
}

func TestTablesRelaxed(t *testing.T) {
	tests := []struct {
		kind    string
		caption string // of the (last) table
		header  []string
		row     string // a row read with its headers
	}{
		{"staggered header", "Table 1", []string{"Spec", "FLOPS", "HBM", "Interconnect Bandwidth"}, "TPU v3: FLOPS 123, HBM 16, Interconnect Bandwidth 112"},
		{"dense numbers", "Table 2", []string{"Horizon", "MSE", "MAE", "MSE", "MAE"}, "192: MSE 0.281, MAE 0.340, MSE 0.533, MAE 0.563"},
		{"group header", "Table 3", []string{"Model", "Copy char", "Copy seq", "Reverse char", "Reverse seq"}, "LSTM: Copy char 0.45, Copy seq 0.09, Reverse char 0.66, Reverse seq 0.11"},
		{"in references", "Table 4", []string{"Model", "Layers", "Hidden", "Params"}, "ViT-Large: Layers 24, Hidden 1024, Params 307M"},
		{"stacked", "Table 6", []string{"Data", "Train", "Test"}, "SST: Train 8544, Test 2210"},
		{"wrapped", "Table 7", []string{"Model", "Top-1", "Top-5"}, "CNN: Top-1 37.5%, Top-5 17.0%"},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			if tc.kind == "wrapped" {
				// the text beside the table stays text, all of it
				paper, err := Build(context.Background(), relaxedTablePaper(tc.kind), DefaultOptions())
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				paper.Root.Walk(func(path []*papertree.Node) bool {
					if l := path[len(path)-1]; l.IsLeaf() && l.Role != papertree.RoleTable {
						n += strings.Count(l.Text, "which shows rates")
					}
					return true
				})
				if n != 7 {
					t.Errorf("%d of the 7 lines of text beside the table are text leaves", n)
				}
			}
			got := tableLeavesOf(t, relaxedTablePaper(tc.kind))
			if len(got) == 0 {
				t.Fatal("no table found")
			}
			last := got[len(got)-1]
			tb := papertree.ParseTable(last.Text)
			if !strings.HasPrefix(tb.Caption, tc.caption+":") {
				t.Errorf("caption = %q, want %s", tb.Caption, tc.caption)
			}
			if !reflect.DeepEqual(tb.Header, tc.header) {
				t.Errorf("header = %q, want %q", tb.Header, tc.header)
			}
			if rs := papertree.TableRowSentences(last.Text); !slices.Contains(rs, tc.row) {
				t.Errorf("rows = %q, want one %q", rs, tc.row)
			}
			for _, n := range got {
				if strings.Contains(n.Text, "rates under") {
					t.Errorf("the text beside a table was read into it: %q", n.Text)
				}
				if strings.Contains(n.Text, "Author") || strings.Contains(n.Text, "Journal") {
					t.Errorf("a reference entry was read as a table: %q", n.Text)
				}
			}
		})
	}
}

// An abbreviated header word is read with the word of the paper it cuts
// short, only when the paper's usage is clear.
func TestExpandAbbrevs(t *testing.T) {
	vocab := map[string]int{"total": 5, "semantic": 19, "semantics": 2, "seminal": 1, "syntactic": 10, "synonymy": 1,
		"recall": 4, "recurrent": 9, "recognition": 1, "precision": 6, "dimensional": 7, "dimensions": 5, "diminishing": 1}
	tests := []struct {
		name, caption string
		header, want  []string
	}{
		{"the paper's words", "Results on the word analogy task.", []string{"Model", "Dim.", "Sem.", "Syn.", "Tot."},
			[]string{"Model", "Dim. (dimensional)", "Sem. (semantic)", "Syn. (syntactic)", "Tot. (total)"}},
		{"the caption's word wins", "Precision, recall and F1 on the test set.", []string{"System", "Prec.", "Rec.", "F1"},
			[]string{"System", "Prec. (precision)", "Rec. (recall)", "F1"}},
		{"no clear word: left as printed", "Scores.", []string{"System", "Rec.", "Xyz."}, []string{"System", "Rec.", "Xyz."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vocab := maps.Clone(vocab)
			if tc.name == "no clear word: left as printed" {
				vocab["recall"], vocab["recurrent"] = 5, 6 // neither twice the other
			}
			if got := expandAbbrevs(tc.header, tc.caption, vocab); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("expandAbbrevs = %q, want %q", got, tc.want)
			}
		})
	}
}
