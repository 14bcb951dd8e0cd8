package treebuild

import (
	"fmt"
	"testing"

	"github.com/papertree/papertree/backend/pdf"
)

// dropMarginNoise drops stacks of short runs and columns of line numbers in
// the margin, never the first word of a line at a column's left edge.
func TestDropMarginNoise(t *testing.T) {
	const w = 612.0
	// lines returns n lines at x whose first run is first, followed by a
	// word after gap points (gap < 0: no word follows).
	lines := func(n int, x float64, first string, gap float64) []pdf.Run {
		var rs []pdf.Run
		for i := 0; i < n; i++ {
			y := 100 + 12*float64(i)
			r := pdf.Run{Text: first, X: x, Y: y, W: 8, Size: 10}
			rs = append(rs, r)
			if gap >= 0 {
				rs = append(rs, pdf.Run{Text: "word", X: x + 8 + gap, Y: y, W: 20, Size: 10})
			}
		}
		return rs
	}
	for _, tc := range []struct {
		name string
		runs []pdf.Run
		kept int
	}{
		{"lines opening with a short word at the left edge", lines(16, 54, "in", 2.5), 32},
		{"author initials of a reference list", lines(16, 72, "A.", 2.5), 32},
		{"a stamp: short runs stacked in the margin", lines(16, 20, "ar", -1), 0},
		{"a stamp beside the text column", lines(16, 20, "ar", 34), 16},
		{"few short runs: kept", lines(10, 20, "ar", -1), 10},
		{"review line numbers", lines(16, 30, "12", 20), 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dropMarginNoise(tc.runs, w)
			if len(got) != tc.kept {
				t.Errorf("kept %d of %d runs, want %d: %v", len(got), len(tc.runs), tc.kept, fmt.Sprint(got[:min(len(got), 3)]))
			}
		})
	}
}
