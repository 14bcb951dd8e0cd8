package papertree

import (
	"reflect"
	"testing"
)

func TestTableRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		header  []string
		rows    [][]string
		caption string
	}{
		{"caption, header and rows", []string{"Model", "Params"}, [][]string{{"ViT-Large", "307M"}}, "Table 1: Details of the | variants."},
		{"caption without header", nil, [][]string{{"a", "1"}}, "Table 2: Accuracy."},
		{"header and rows", []string{"Model", "Layers", "Params"}, [][]string{{"ViT-Base", "12", "86M"}, {"ViT-Large", "24", "307M"}}, ""},
		{"no header", nil, [][]string{{"a", "1"}, {"b", "2"}}, ""},
		{"pipes and empty cells", []string{"", "|V|", "Test"}, [][]string{{"MR", "18765", ""}, {"", "|x|", "CV"}}, ""},
		{"empty first cell of the first row", nil, [][]string{{"", "392k"}, {"BERT", "86.7"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := Table{Caption: tc.caption, Header: tc.header, Rows: tc.rows}
			if got := ParseTable(want.Format()); !reflect.DeepEqual(got, want) {
				t.Errorf("round trip = %q, want %q", got, want)
			}
		})
	}
}

func TestTableRowSentences(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"row with its headers", FormatTable([]string{"Model", "Layers", "Hidden size", "Params"}, [][]string{{"ViT-Large", "24", "1024", "307M"}}),
			[]string{"ViT-Large: Layers 24, Hidden size 1024, Params 307M"}},
		{"empty cells left out", FormatTable([]string{"Model", "MR", "CR"}, [][]string{{"RNTN", "", "85.4"}}), []string{"RNTN: CR 85.4"}},
		{"dashes left out", FormatTable([]string{"Model", "MR", "CR", "TREC"}, [][]string{{"RNTN", "−", "85.4", "-"}}), []string{"RNTN: CR 85.4"}},
		{"no header", FormatTable(nil, [][]string{{"a", "1", "2"}}), []string{"a: 1, 2"}},
		{"unlabelled row", FormatTable([]string{"System", "QQP"}, [][]string{{"", "363k"}}), []string{"QQP 363k"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TableRowSentences(tc.text); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("TableRowSentences = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestIsTableText(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"table with caption", Table{Caption: "Table 1: Sizes.", Header: []string{"Model", "Params"}, Rows: [][]string{{"ViT-L", "307M"}}}.Format(), true},
		{"table without header", FormatTable(nil, [][]string{{"a", "1"}, {"b", "2"}}), true},
		{"prose", "We train the model. It has 307M parameters.\n\nA second paragraph.", false},
		{"prose with a pipe", "The norm |x| is small.\nSo is |y| here.", false},
		{"one row", "a | b", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsTableText(tc.text); got != tc.want {
				t.Errorf("IsTableText = %v, want %v", got, tc.want)
			}
		})
	}
	got := SplitSentences(Table{Caption: "Table 1: Sizes. Bigger is slower.", Header: []string{"Model", "Params"}, Rows: [][]string{{"ViT-L", "307M"}}}.Format())
	if want := []string{"Table 1: Sizes.", "Bigger is slower.", "ViT-L: Params 307M"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SplitSentences(table) = %q, want %q", got, want)
	}
}

func TestRowNamed(t *testing.T) {
	tests := []struct {
		name, q, row string
		want         bool
	}{
		{"label named", "What is the test set size of SST-2?", "SST-2: Test 1821", true},
		{"neighbour label", "What is the test set size of SST-2?", "SST-1: Test 2210", false},
		{"prefix of a longer name", "How does CNN-static do on MR?", "CNN: MR 80.1", false},
		{"case ignored", "what does bertlarge score?", "BERTLARGE: Average 82.1", true},
		{"no label", "anything", "Average 82.1", false},
		{"label words apart", "What BLEU does an ensemble of 5 reversed LSTMs with beam size 12 reach?", "Ensemble of 5 reversed LSTMs, beam size 12: BLEU 34.81", true},
		{"label words apart, one missing", "What BLEU does an ensemble of 5 reversed LSTMs with beam size 12 reach?", "Ensemble of 5 reversed LSTMs, beam size 2: BLEU 34.50", false},
		{"one-word label only as a whole word", "How does CNN-static do on MR?", "CNN static: MR 80.1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RowNamed(tc.q, tc.row); got != tc.want {
				t.Errorf("RowNamed = %v, want %v", got, tc.want)
			}
		})
	}
}
