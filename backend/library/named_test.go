package library

import (
	"context"
	"path/filepath"
	"testing"
)

// A library-wide answer says which paper the question was read as naming
// (so that a wrong reading shows at once); a question naming none, or
// asked of chosen papers, carries no such paper.
func TestAnswerSaysWhichPaperIsNamed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "glyphs.pdf"))
	copyFixture(t, "rotated.pdf", filepath.Join(dir, "rotated.pdf"))
	l := openLib(t, nil)
	index(t, l, dir)
	info, err := l.ResolvePaper(ctx, filepath.Join(dir, "glyphs.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, q string
		scope   []int64
		unnamed bool
		want    int64
	}{
		{"named by its title", "In the Recovering Paper Structure from Glyphs paper, how are glyphs grouped into words?", nil, false, info.ID},
		{"naming no paper", "How are glyphs grouped into words?", nil, false, 0},
		{"asked of the paper", "In the Recovering Paper Structure from Glyphs paper, how are glyphs grouped into words?", []int64{info.ID}, false, 0},
		// The researcher said the reading was wrong: every paper is
		// ranked by its text, none named, and the answer says so.
		{"not read as naming", "In the Recovering Paper Structure from Glyphs paper, how are glyphs grouped into words?", nil, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := l.Ask(ctx, AskRequest{Question: tc.q, PaperIDs: tc.scope, NoHistory: true, Unnamed: tc.unnamed})
			if err != nil {
				t.Fatal(err)
			}
			var got int64
			if n := a.Diag.Named; n != nil {
				got = n.ID
				if n.Title != "Recovering Paper Structure from Glyphs" {
					t.Errorf("named title %q", n.Title)
				}
			}
			if got != tc.want {
				t.Errorf("named paper %d, want %d (%+v)", got, tc.want, a.Diag.Named)
			}
			if a.Diag.Unnamed != tc.unnamed {
				t.Errorf("Diag.Unnamed = %v, want %v", a.Diag.Unnamed, tc.unnamed)
			}
			if tc.unnamed && len(a.Evidence) == 0 {
				t.Errorf("no evidence when every paper was searched")
			}
		})
	}
}
