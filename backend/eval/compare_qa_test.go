package eval

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/compare"
)

func TestCellRight(t *testing.T) {
	stated := CompareGold{Support: "We use SGD with a mini-batch size of 256 on 8 GPUs (32 per GPU)", Values: []string{"8 GPUs"}}
	tests := []struct {
		name     string
		g        CompareGold
		text     string
		notFound bool
		want     bool
	}{
		{"quotes the support", stated, "Training. We use SGD with a mini-batch size of 256 on 8 GPUs (32 per GPU). The weight decay is 0.0001.", false, true},
		{"part of the support", stated, "We use SGD with a mini-batch size of 256 on 8 GPUs", false, true},
		{"too small a part", stated, "on 8", false, false},
		{"holds the value", stated, "The models are trained on 8-GPUs servers.", false, true},
		{"value at a word start only", CompareGold{Values: []string{"F1"}}, "We report the score of1 run.", false, false},
		{"value prefix of a word", CompareGold{Values: []string{"TPU"}}, "All models were trained on TPUv3 hardware.", false, true},
		{"alternatives", CompareGold{Values: []string{"top-1|top-5"}}, "a top-5 error of 4.9%", false, true},
		{"every value needed", CompareGold{Values: []string{"Adam", "0.9"}}, "We use Adam.", false, false},
		{"wrong sentence", stated, "Batch normalization speeds up training.", false, false},
		{"stated but cell not found", stated, compare.NotFoundText, true, false},
		{"vague gold accepts not found", CompareGold{Values: []string{"distributed"}, AcceptNotFound: true}, compare.NotFoundText, true, true},
		{"gold not found, cell not found", CompareGold{NotFound: true}, compare.NotFoundText, true, true},
		{"gold not found, cell guesses", CompareGold{NotFound: true}, "We trained on a GPU.", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CellRight(tt.g, tt.text, tt.notFound); got != tt.want {
				t.Errorf("CellRight = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestScoreCompare(t *testing.T) {
	ts := []CompareTable{{
		Name: "t", Papers: []string{"a.pdf", "b.pdf", "gone.pdf"}, Aspects: []string{"Optimizer", "Hardware"},
		Cells: []CompareGold{
			{File: "a.pdf", Aspect: "Optimizer", Values: []string{"Adam"}},
			{File: "a.pdf", Aspect: "Hardware", NotFound: true},
			{File: "b.pdf", Aspect: "Optimizer", Values: []string{"SGD"}},
			{File: "b.pdf", Aspect: "Hardware", Values: []string{"GPU"}},
			{File: "gone.pdf", Aspect: "Optimizer", Values: []string{"Adam"}},
		},
	}}
	files := map[string]int64{"a.pdf": 1, "b.pdf": 2}
	cells := map[int64]map[string]compare.Cell{
		1: {"Optimizer": {Text: "We use Adam."}, "Hardware": {NotFound: true, Text: compare.NotFoundText}},
		2: {"Optimizer": {NotFound: true, Text: compare.NotFoundText}, "Hardware": {Text: "We use a CPU."}},
	}
	var asked compare.Request
	s, err := ScoreCompare(context.Background(), ts, files, func(_ context.Context, req compare.Request) (*compare.Table, error) {
		asked = req
		tab := &compare.Table{Aspects: req.Aspects}
		for _, id := range req.PaperIDs {
			for _, a := range req.Aspects {
				c := cells[id][a]
				c.PaperID, c.Aspect = id, a
				tab.Cells = append(tab.Cells, c)
			}
		}
		return tab, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked.PaperIDs) != 2 || len(asked.Aspects) != 2 {
		t.Errorf("asked %+v", asked)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"cells", float64(s.Cells), 4},
		{"missing", float64(s.Missing), 1},
		{"right", float64(s.Right), 2},
		{"stated right", float64(s.StatedRight), 1},
		{"false not found", float64(s.FalseNotFound), 1},
		{"unstated right", float64(s.UnstatedRight), 1},
		{"accuracy", s.Accuracy, 0.5},
		{"stated accuracy", s.StatedAccuracy, 0.333},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

// TestCompareSets checks the committed compare sets: every table has one
// gold per paper x aspect, every stated cell a support or values, and each
// set at least 36 cells in 3 tables or more.
func TestCompareSets(t *testing.T) {
	for _, name := range []string{"compare_library150.json", "compare_fresh.json", "compare_fresh2.json", "compare_fresh3.json", "compare_fresh4.json", "compare_fresh5.json"} {
		ts, err := LoadCompareTables(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, tab := range ts {
			seen := map[[2]string]bool{}
			for _, c := range tab.Cells {
				k := [2]string{c.File, c.Aspect}
				if seen[k] {
					t.Errorf("%s %s: cell %v twice", name, tab.Name, k)
				}
				seen[k] = true
				if !c.NotFound && c.Support == "" && len(c.Values) == 0 {
					t.Errorf("%s %s: cell %v has no gold", name, tab.Name, k)
				}
			}
			for _, p := range tab.Papers {
				for _, a := range tab.Aspects {
					if !seen[[2]string{p, a}] {
						t.Errorf("%s %s: no gold for %s x %s", name, tab.Name, p, a)
					}
				}
			}
			total += len(tab.Cells)
		}
		if len(ts) < 3 || total < 36 {
			t.Errorf("%s: %d tables, %d cells", name, len(ts), total)
		}
	}
}
