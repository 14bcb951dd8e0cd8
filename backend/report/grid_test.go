package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// tableDoc is one answer whose evidence is a table leaf with hostile cells.
func tableDoc() Doc {
	grid := papertree.Table{Caption: "Table 1: Model variants " + hostileImg, Header: []string{"Model", "Layers", "Params"},
		Rows: [][]string{{"ViT-Large", "24", "307M"}, {hostileScript, "a|b", "*x*"}}}.Format()
	return Doc{Generated: genTime, Answers: []papertree.Answer{{
		Question: "How many parameters does ViT-Large have?",
		Text:     "ViT-Large: Layers 24, Params 307M [1]",
		Mode:     "extractive",
		Evidence: []papertree.Evidence{{PaperID: 1, PaperTitle: "ViT", NodeID: 5, Kind: papertree.KindSegment, Role: papertree.RoleTable,
			Path: []string{"ViT", "4 Experiments"}, Text: grid, Pages: []int{5}, Score: 0.9}},
	}}}
}

func TestTableSources(t *testing.T) {
	tests := []struct {
		name, format string
		want, never  []string
	}{
		{"markdown table with escaped cells", "md",
			[]string{"*Table 1: Model variants", "| Model | Layers | Params |", "|---|---|---|", "| ViT-Large | 24 | 307M |", `a\|b`, `\*x\*`},
			[]string{"<script>", "> ViT-Large"}},
		{"html table with escaped cells", "html",
			[]string{`<table class="grid"><caption>Table 1: Model variants &lt;img`, "<th>Model</th>", "<td>307M</td>", "&lt;script&gt;", "<td>a|b</td>"},
			[]string{"<script>alert", "<img src", "<blockquote>| Model"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, tc.format, tableDoc()); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q", w)
				}
			}
		})
	}
}

func TestTableSourcePDFAndDOCX(t *testing.T) {
	for _, f := range []string{"pdf", "docx"} {
		var b bytes.Buffer
		if err := Write(&b, f, tableDoc()); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if b.Len() == 0 {
			t.Fatalf("%s: empty output", f)
		}
	}
	if g := gridOf(tableDoc().Answers[0].Evidence[0].Text); g == nil || g.text() != "Table 1: Model variants "+hostileImg+"\nModel | Layers | Params\nViT-Large | 24 | 307M\n"+hostileScript+" | a|b | *x*" {
		t.Errorf("grid text = %q", g.text())
	}
}

// TestUntitledSectionPaths: an answer saved before evidence named untitled
// sections holds an empty path segment; every format shows it named, and
// the table it cites still renders as a table.
func TestUntitledSectionPaths(t *testing.T) {
	tests := []struct {
		name string
		path []string
		want string
	}{
		{"a stored empty segment", []string{"ViT", ""}, "ViT" + pathSep + papertree.UntitledSection},
		{"the table's label, as evidence now names it", []string{"ViT", "Table 1"}, "ViT" + pathSep + "Table 1"},
	}
	for _, tc := range tests {
		for _, f := range []string{"md", "html"} {
			t.Run(tc.name+"/"+f, func(t *testing.T) {
				d := tableDoc()
				d.Answers[0].Evidence[0].Path = tc.path
				var b bytes.Buffer
				if err := Write(&b, f, d); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				if !strings.Contains(out, tc.want) {
					t.Errorf("%s output lacks the path %q", f, tc.want)
				}
				if !strings.Contains(out, "ViT-Large | 24 | 307M") && !strings.Contains(out, "<td>307M</td>") {
					t.Errorf("%s output lost the table", f)
				}
			})
		}
	}
}
