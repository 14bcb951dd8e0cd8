package eval

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/treebuild"
)

// TestTreesOnSharedData runs the tree evaluation over the development PDFs
// and prints the table (go test -v -run TestTreesOnSharedData). Set
// PAPERTREE_TREE_DIFF=substring to print predicted vs gold headings of the
// matching files. The quality floors are asserted in backend/treebuild.
func TestTreesOnSharedData(t *testing.T) {
	gold := shareddata.Dir(t, "gold")
	pdfs := shareddata.Dir(t, "pdfs")
	if testing.Short() {
		t.Skip("skipping the corpus evaluation in -short mode")
	}
	for _, mode := range []struct{ outline, runIn bool }{{true, false}, {false, false}, {true, true}} {
		opts := treebuild.DefaultOptions()
		opts.UseOutline = mode.outline
		opts.RunInHeadings = mode.runIn
		if mode.runIn && os.Getenv("PAPERTREE_TREE_RUNIN") == "" {
			continue // set PAPERTREE_TREE_RUNIN=1 to measure run-in headings too
		}
		t.Logf("options %+v", opts)
		rep, err := RunTrees(context.Background(), gold, pdfs, opts)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if err := rep.WriteTable(&sb); err != nil {
			t.Fatal(err)
		}
		t.Log("\n" + sb.String())
		if sel := os.Getenv("PAPERTREE_TREE_DIFF"); sel != "" {
			for _, f := range rep.Files {
				if strings.Contains(f.File, sel) || sel == "all" {
					var d strings.Builder
					f.WriteDiff(&d)
					t.Log("\n" + d.String())
				}
			}
		}
		if len(rep.Files) == 0 {
			t.Fatal("no files evaluated")
		}
	}
}

// TestSilverFloors checks the acceptance floors of heading detection without
// the outline on the silver set (templates nobody tuned on), and that the
// gold set stays where it was, with and without the outline.
func TestSilverFloors(t *testing.T) {
	silver := shareddata.Dir(t, "silver")
	gold := shareddata.Dir(t, "gold")
	pdfs := shareddata.Dir(t, "pdfs")
	if testing.Short() {
		t.Skip("skipping the corpus evaluation in -short mode")
	}
	opts := treebuild.DefaultOptions()
	opts.UseOutline = false
	rep, err := RunTrees(context.Background(), silver+"/gold", silver+"/pdfs", opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Overall.Score; s.F1 < 0.92 || s.LevelAcc < 0.90 {
		t.Errorf("silver --no-outline: F1 %.3f (floor 0.92), level accuracy %.3f (floor 0.90)", s.F1, s.LevelAcc)
	}
	for _, outline := range []bool{true, false} {
		opts := treebuild.DefaultOptions()
		opts.UseOutline = outline
		rep, err := RunTrees(context.Background(), gold, pdfs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if f1 := rep.Overall.Score.F1; f1 < 0.97 {
			t.Errorf("gold (outline %v): F1 %.3f, floor 0.97", outline, f1)
		}
		if outline && (rep.Front.Files-rep.Front.TitlesOK > 1 || rep.Front.AuthorRate < 0.9) {
			t.Errorf("gold titles %d/%d right (at most one wrong), authors found on %.3f (floor 0.90)", rep.Front.TitlesOK, rep.Front.Files, rep.Front.AuthorRate)
		}
	}
}
