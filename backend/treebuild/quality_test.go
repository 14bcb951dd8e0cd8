package treebuild_test

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/treebuild"
)

// TestQualityFloors builds the trees of the development PDFs and asserts the
// acceptance floors on heading detection and hierarchy (micro averages over
// all files except the scanned/garbled ones, which are reported apart). It
// skips when ../shared/data is absent.
func TestQualityFloors(t *testing.T) {
	gold := shareddata.Dir(t, "gold")
	pdfs := shareddata.Dir(t, "pdfs")
	cases := []struct {
		name              string
		useOutline        bool
		f1, level, parent float64
	}{
		{"default (outline on)", true, 0.90, 0.85, 0.85},
		{"outline off", false, 0.85, 0.80, 0.80},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := treebuild.DefaultOptions()
			opts.UseOutline = c.useOutline
			rep, err := eval.RunTrees(context.Background(), gold, pdfs, opts)
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			_ = rep.WriteTable(&sb)
			s := rep.Overall.Score
			if rep.Overall.Files < 30 {
				t.Fatalf("only %d files evaluated", rep.Overall.Files)
			}
			if s.F1 < c.f1 || s.LevelAcc < c.level || s.ParentAcc < c.parent {
				t.Fatalf("below the floor: F1 %.3f (>= %.2f), level %.3f (>= %.2f), parent %.3f (>= %.2f)\n%s",
					s.F1, c.f1, s.LevelAcc, c.level, s.ParentAcc, c.parent, sb.String())
			}
			t.Logf("F1 %.3f level %.3f parent %.3f over %d files", s.F1, s.LevelAcc, s.ParentAcc, rep.Overall.Files)
		})
	}
}
