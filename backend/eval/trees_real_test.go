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
