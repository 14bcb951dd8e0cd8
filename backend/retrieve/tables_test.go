package retrieve

import (
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

func TestTrimTableRows(t *testing.T) {
	header := []string{"Model", "MR", "SST-2"}
	rows := [][]string{{"CNN-rand", "76.1", "82.7"}, {"CNN-static", "81.0", "86.8"}, {"CNN-multichannel", "81.1", "88.1"}, {"RAE", "77.7", "82.4"}}
	text := papertree.FormatTable(header, rows)
	tests := []struct {
		name, question string
		budget         int
		want           [][]string
	}{
		{"whole table fits", "What accuracy does CNN-static reach on MR?", 500, rows},
		{"the asked row kept, as a table", "What accuracy does CNN-static reach on MR?", 18, [][]string{{"CNN-static", "81.0", "86.8"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := papertree.ParseTable(trimTableRows(text, query.Parse(tc.question), tc.budget, false, nil))
			h, got := tb.Header, tb.Rows
			if !reflect.DeepEqual(h, header) || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("trimmed to %q %q, want %q %q", h, got, header, tc.want)
			}
		})
	}
}

// splitTable is a table as the tree builder stores a long one: one leaf per
// part, each repeating the caption and the header (treebuild's tableLeaves).
func splitTable(caption string, header []string, parts ...[][]string) []*papertree.Node {
	var out []*papertree.Node
	for _, rows := range parts {
		txt := papertree.Table{Caption: caption, Header: header, Rows: rows}.Format()
		out = append(out, &papertree.Node{Kind: papertree.KindSegment, Role: papertree.RoleTable, Text: txt, Tokens: papertree.CountTokens(txt)})
	}
	return out
}

func tablePaper(kids ...*papertree.Node) *PaperData {
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "4 Experiments", Children: kids},
	}}
	return NewPaperData(&papertree.Paper{Title: "P", Root: root}, nil, nil, nil)
}

func TestTableGroups(t *testing.T) {
	const caption = "Table 3: Hyperparameters for training. All models are trained with a batch size of 4096."
	header := []string{"Model", "Epochs", "Weight decay"}
	b16, l16 := []string{"ViT-B/16", "7", "0.1"}, []string{"ViT-L/16", "14", "0.1"}
	h14, star := []string{"ViT-H/14", "14", "0.1"}, []string{"ViT-*", "300", "0.3"}
	prose := &papertree.Node{Kind: papertree.KindSegment, Text: "We train all models with Adam.", Tokens: 8}
	tests := []struct {
		name  string
		kids  []*papertree.Node
		want  [][]int // the groups' parts (orders), in document order
		whole []string
	}{
		{"parts of one table are one group, caption and header once",
			splitTable(caption, header, [][]string{b16}, [][]string{l16}, [][]string{h14}),
			[][]int{{2, 3, 4}}, []string{papertree.Table{Caption: caption, Header: header, Rows: [][]string{b16, l16, h14}}.Format()}},
		{"a table in one leaf has no group",
			splitTable(caption, header, [][]string{b16, l16}), nil, nil},
		{"text between two parts keeps them apart",
			append(append(splitTable(caption, header, [][]string{b16}), prose), splitTable(caption, header, [][]string{l16})...), nil, nil},
		{"different captions are different tables",
			append(splitTable(caption, header, [][]string{b16}), splitTable("Table 4: Fine-tuning.", header, [][]string{l16})...), nil, nil},
		{"a block under its own header row joins the table, its header as a row",
			append(splitTable(caption, header, [][]string{b16}), splitTable(caption, []string{"Baselines", "", ""}, [][]string{star})...),
			[][]int{{2, 3}}, []string{papertree.Table{Caption: caption, Header: header, Rows: [][]string{b16, {"Baselines", "", ""}, star}}.Format()}},
		{"without a caption, parts repeat the header",
			splitTable("", header, [][]string{b16}, [][]string{l16}),
			[][]int{{2, 3}}, []string{papertree.Table{Header: header, Rows: [][]string{b16, l16}}.Format()}},
		{"without caption or header, tables cannot be told apart",
			splitTable("", nil, [][]string{b16}, [][]string{l16}), nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := tablePaper(tc.kids...)
			gs := d.tableGroups()
			var got [][]int
			var whole []string
			for o := range d.Nodes {
				if g := gs[o]; g != nil && g.parts[0] == o {
					got = append(got, g.parts)
					whole = append(whole, g.text)
				}
			}
			if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(whole, tc.whole) {
				t.Errorf("groups %v %q, want %v %q", got, whole, tc.want, tc.whole)
			}
		})
	}
}

func TestMergeTableParts(t *testing.T) {
	const caption = "Table 3: Hyperparameters for training. All models are trained with a batch size of 4096 and learning rate warmup of 10k steps."
	header := []string{"Model", "Layers", "Hidden size", "Params"}
	rows := [][]string{{"ViT-Base", "12", "768", "86M"}, {"ViT-Large", "24", "1024", "307M"}, {"ViT-Huge", "32", "1280", "632M"}}
	prose := &papertree.Node{Kind: papertree.KindSegment, Text: "We train all models with Adam and a weight decay of 0.1.", Tokens: 14}
	d := tablePaper(append(splitTable(caption, header, rows[:1], rows[1:2], rows[2:]), prose)...)
	all := func(S ...float64) []cand {
		var cs []cand
		for i, s := range S {
			o := 2 + i
			cs = append(cs, cand{d: d, o: o, S: s, rel: s, cost: d.Nodes[o].Tokens, text: d.Nodes[o].Text, score: s})
		}
		return cs
	}
	tests := []struct {
		name     string
		question string
		cs       []cand
		wantO    []int      // the candidates kept, by order
		wantRows [][]string // the table candidate's rows
	}{
		{"the most relevant part stands for the table, with the row the question names",
			"How many layers does ViT-Large have?", all(0.5, 0.9, 0.4, 0.6), []int{3, 5}, [][]string{rows[1]}},
		{"a part's place follows its relevance, the rows the question",
			"How many layers does ViT-Huge have?", all(0.9, 0.5, 0.4, 0.6), []int{2, 5}, [][]string{rows[2]}},
		{"rows the question rates alike: the rows of the part that stands for the table",
			"How many layers does the model have?", all(0.5, 0.9, 0.4, 0.6), []int{3, 5}, [][]string{rows[1]}},
		{"candidates of other leaves pass unchanged",
			"How many layers does ViT-Large have?", all(0.5, 0.9, 0.4, 0.6)[3:], []int{5}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mergeTableParts(tc.cs, query.Parse(tc.question))
			var os []int
			for _, c := range got {
				os = append(os, c.o)
				if d.Nodes[c.o].Role != papertree.RoleTable {
					if c.text != d.Nodes[c.o].Text {
						t.Errorf("prose changed to %q", c.text)
					}
					continue
				}
				tb := papertree.ParseTable(c.text)
				if tb.Caption != caption || !reflect.DeepEqual(tb.Header, header) || !reflect.DeepEqual(tb.Rows, tc.wantRows) {
					t.Errorf("table %q %q %q, want the caption, header and rows %q", tb.Caption, tb.Header, tb.Rows, tc.wantRows)
				}
				if strings.Count(c.text, "Table 3:") != 1 {
					t.Errorf("caption not once in %q", c.text)
				}
				if c.cost != papertree.CountTokens(c.text) || c.cost > d.tableGroups()[c.o].room {
					t.Errorf("cost %d for %d tokens, one part is %d", c.cost, papertree.CountTokens(c.text), d.tableGroups()[c.o].room)
				}
			}
			if !reflect.DeepEqual(os, tc.wantO) {
				t.Errorf("kept %v, want %v", os, tc.wantO)
			}
		})
	}
}

// TestMergeTablePartsNamedAlike: a question about the paper's own model,
// whose name is the paper's title, names two rows ("Transformer" and
// "Universal Transformer") and, within the paper, its terms no longer hold
// the title's words (query.Question.Within), so every row is rated alike.
// The table shows the named row of the part that stands for it, as that
// part alone would have, whichever of the two it is.
func TestMergeTablePartsNamedAlike(t *testing.T) {
	const caption = "Table 3: LAMBADA language modeling (LM) perplexity (lower better) and reading comprehension (RC) accuracy (higher better)."
	header := []string{"Model", "LM perplexity dev", "LM perplexity test", "RC accuracy test"}
	rows := [][]string{{"Transformer", "5336", "9725", "0.3988"}, {"Universal Transformer", "279", "319", "0.5216"}, {"Adaptive Universal Transformer", "135", "142", "0.5625"}}
	d := tablePaper(splitTable(caption, header, rows[:1], rows[1:2], rows[2:])...)
	q := query.Parse("What is the LAMBADA test perplexity of the Universal Transformer?").Within("Universal Transformers", nil)
	for _, t0 := range q.Terms {
		if strings.HasPrefix(t0, "univers") || strings.HasPrefix(t0, "transform") {
			t.Fatalf("terms %q still hold the title's words", q.Terms)
		}
	}
	for best := 2; best <= 3; best++ { // the two named rows' parts
		var cs []cand
		for o := 2; o <= 4; o++ {
			s := 0.5
			if o == best {
				s = 0.9
			}
			cs = append(cs, cand{d: d, o: o, S: s, rel: s, cost: d.Nodes[o].Tokens, text: d.Nodes[o].Text, score: s})
		}
		got := mergeTableParts(cs, q)
		if len(got) != 1 {
			t.Fatalf("%d candidates, want the table once", len(got))
		}
		if tb := papertree.ParseTable(got[0].text); !reflect.DeepEqual(tb.Rows, rows[best-2:best-1]) {
			t.Errorf("part %d stands for the table: rows %q, want its own %q", best, tb.Rows, rows[best-2:best-1])
		}
		// Trimmed again (a smaller share) or grown (refill) by one row's
		// room, it still shows that row first.
		if tb := papertree.ParseTable(got[0].trimmedTo(got[0].cost, q).text); !reflect.DeepEqual(tb.Rows, rows[best-2:best-1]) {
			t.Errorf("part %d trimmed: rows %q", best, tb.Rows)
		}
	}
}

func TestGrownSplitTable(t *testing.T) {
	const caption = "Table 1: Details of Vision Transformer model variants."
	header := []string{"Model", "Layers", "Hidden size", "Params"}
	rows := [][]string{{"Base", "12", "768", "86M"}, {"Large", "24", "1024", "307M"}, {"Huge", "32", "1280", "632M"}}
	d := tablePaper(splitTable(caption, header, rows[:1], rows[1:2], rows[2:])...)
	tests := []struct {
		name, question string
		want           [][]string
	}{
		{"a column the question names matches every row: the whole table", "How many layers do the models have?", rows},
		{"a row the question names alone: no other row is added", "What does the Huge one look like?", rows[2:]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := query.Parse(tc.question)
			var cs []cand
			for o := 1; o < len(d.Nodes); o++ {
				if d.Nodes[o].IsLeaf() {
					cs = append(cs, cand{d: d, o: o, S: 0.5, rel: 0.5, cost: d.Nodes[o].Tokens, text: d.Nodes[o].Text})
				}
			}
			cs = mergeTableParts(cs, q)
			if len(cs) != 1 {
				t.Fatalf("%d candidates, want one table", len(cs))
			}
			g := cs[0].grown(500, q)
			tb := papertree.ParseTable(g.text)
			if tb.Caption != caption || !reflect.DeepEqual(tb.Header, header) || !reflect.DeepEqual(tb.Rows, tc.want) {
				t.Errorf("grown to %q %q %q, want rows %q", tb.Caption, tb.Header, tb.Rows, tc.want)
			}
			if g.cost != papertree.CountTokens(g.text) {
				t.Errorf("cost %d for %d tokens", g.cost, papertree.CountTokens(g.text))
			}
		})
	}
}
