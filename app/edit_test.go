package app

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestCorrectionsThroughTheApp drives the bound correction methods over a
// real library: the list and the paper view show them, the tree marks the
// corrected heading, and revert/undo take them back.
func TestCorrectionsThroughTheApp(t *testing.T) {
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	a := newTestApp(be, &fakeRuntime{})
	pdfs := t.TempDir()
	copyFixture(t, pdfs, "twocolumn.pdf")
	if _, err := a.IndexFolder(pdfs); err != nil {
		t.Fatal(err)
	}
	papers, _ := a.ListPapers()
	id := papers[0].ID

	if _, err := a.EditPaper(id, map[string]string{"title": "Glyphs to Structure", "year": "2019", "key": "lovelace2019"}); err != nil {
		t.Fatal(err)
	}
	d, err := a.Paper(id)
	if err != nil {
		t.Fatal(err)
	}
	var method string
	for _, c := range d.Root.Children {
		if c.Title == "2 Method" {
			method = c.ID
		}
	}
	cv, err := a.EditHeading(id, HeadingEditInput{NodeID: method, Op: papertree.OpRename, Text: "2 Approach"})
	if err != nil || len(cv.Headings) != 1 {
		t.Fatalf("edit heading: %v %+v", err, cv)
	}
	cases := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"list", func(t *testing.T) {
			ps, _ := a.ListPapers()
			p := ps[0]
			if p.Title != "Glyphs to Structure" || p.Year != 2019 || p.CitationKey != "lovelace2019" || !slices.Contains(p.Edited, "title") || p.HeadingEdits != 1 {
				t.Fatalf("row %+v", p)
			}
		}},
		{"paper view", func(t *testing.T) {
			d, _ := a.Paper(id)
			if d.Title != "Glyphs to Structure" || d.CitationKey != "lovelace2019" || len(d.Corrections.Fields) != 3 || len(d.Corrections.Headings) != 1 {
				t.Fatalf("detail %+v", d.Corrections)
			}
			marked := 0
			for _, c := range d.Root.Children {
				if c.Edited {
					marked++
					if c.Title != "2 Approach" {
						t.Errorf("marked %q", c.Title)
					}
				}
			}
			if marked != 1 {
				t.Errorf("%d headings marked edited, want 1", marked)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
	if _, err := a.RevertEdit(id, "title"); err != nil {
		t.Fatal(err)
	}
	if cv, err := a.UndoHeadingEdit(id, ""); err != nil || len(cv.Headings) != 0 {
		t.Fatalf("undo: %v %+v", err, cv)
	}
	d, _ = a.Paper(id)
	var titles []string
	for _, c := range d.Root.Children {
		titles = append(titles, c.Title)
	}
	if d.Title != "Recovering Paper Structure from Glyphs" || !slices.Contains(titles, "2 Method") {
		t.Fatalf("after revert and undo: %q, %q", d.Title, titles)
	}
	if _, err := a.EditHeading(id, HeadingEditInput{NodeID: "x", Op: "rename"}); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("a bad node id: %v", err)
	}
}
