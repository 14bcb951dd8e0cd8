package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestOverlayFields: metadata corrections show in the row and the root
// title, survive a replacing save (which records the new reading), and a
// revert restores what was read.
func TestOverlayFields(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	p := synthPaper("/papers/a.pdf", 1, 2, 1, 2)
	p.Year = 2017
	id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetPaperFields(ctx, id, map[string]string{FieldTitle: "Corrected", FieldYear: "2019", FieldAuthors: `["A B"]`, FieldKey: "ab2019"}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name            string
		do              func() int64
		title, rootT    string
		year            int
		readTitle, read string
	}{
		{"corrected", func() int64 { return id }, "Corrected", "Corrected", 2019, "Synthetic Paper 1", "2017"},
		{"saved again from a new reading", func() int64 {
			q := synthPaper("/papers/a.pdf", 1, 2, 1, 2)
			q.Title, q.Year = "Read Again", 2018
			nid, err := s.SavePaper(ctx, q, Vectors{}, "fp2")
			if err != nil {
				t.Fatal(err)
			}
			return nid
		}, "Corrected", "Corrected", 2019, "Read Again", "2018"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			id = st.do()
			got, err := s.LoadPaper(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got.Title != st.title || got.Root.Title != st.rootT || got.Year != st.year || len(got.Authors) != 1 {
				t.Fatalf("paper %q root %q year %d authors %v", got.Title, got.Root.Title, got.Year, got.Authors)
			}
			ov, err := s.OverlayOf(ctx, "/papers/a.pdf")
			if err != nil || len(ov.Fields) != 4 {
				t.Fatalf("overlay %v %+v", err, ov)
			}
			for _, f := range ov.Fields {
				if f.Field == FieldTitle && f.Read != st.readTitle || f.Field == FieldYear && f.Read != st.read {
					t.Errorf("%s read %q", f.Field, f.Read)
				}
			}
			hits, err := s.SearchText(ctx, "corrected", []int64{id}, 5)
			if err != nil || len(hits) == 0 {
				t.Errorf("the corrected title is not searchable: %v", err)
			}
		})
	}
	if err := s.RevertPaperField(ctx, id, FieldTitle); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.LoadPaper(ctx, id); got.Title != "Read Again" || got.Root.Title != "Read Again" || got.Year != 2019 {
		t.Fatalf("after revert: %q %q %d", got.Title, got.Root.Title, got.Year)
	}
	if err := s.RevertPaperField(ctx, id, FieldTitle); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Fatalf("second revert: %v", err)
	}
	consistency(t, s)
}

// TestOverlayRefusals: a read-only library, an unknown field, and an
// in-place save of a paper whose file was read again meanwhile.
func TestOverlayRefusals(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lib.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/papers/a.pdf", 1, 2, 1, 2)
	p.Hash = "h1"
	id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetPaperFields(ctx, id, map[string]string{"abstract": "x"}); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("unknown field: %v", err)
	}
	stale := *p
	stale.Hash = "h0"
	if _, err := s.SavePaperWith(ctx, &stale, Vectors{}, "fp", SaveOptions{Keep: true}); papertree.ErrorCode(err) != papertree.EConflict {
		t.Errorf("in-place save of another reading: %v", err)
	}
	s.Close()
	ro, err := OpenWith(ctx, path, Options{MustExist: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	cases := []struct {
		name string
		do   func() error
	}{
		{"set", func() error { return ro.SetPaperFields(ctx, id, map[string]string{FieldTitle: "x"}) }},
		{"revert", func() error { return ro.RevertPaperField(ctx, id, FieldTitle) }},
		{"save in place", func() error {
			q, _ := ro.LoadPaper(ctx, id)
			_, err := ro.SavePaperWith(ctx, q, Vectors{}, "fp", SaveOptions{Keep: true})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.do(); papertree.ErrorCode(err) != papertree.EConflict {
				t.Fatalf("read-only library: %v", err)
			}
		})
	}
}

// TestSalvageKeepsCorrections: a library rebuilt from a damaged one (repair)
// keeps the researcher's corrections, which no PDF can give back; the
// papers indexed again then show them.
func TestSalvageKeepsCorrections(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "lib.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/papers/a.pdf", 1, 2, 1, 2)
	id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetPaperFields(ctx, id, map[string]string{FieldTitle: "Corrected", FieldKey: "k2020"}); err != nil {
		t.Fatal(err)
	}
	q, _ := s.LoadPaper(ctx, id)
	op := papertree.HeadingOp{Op: papertree.OpRename, Target: q.Root.Children[0].Title, Arg: "1 Renamed"}
	if _, err := papertree.ApplyHeading(q.Root, op); err != nil {
		t.Fatal(err)
	}
	read := synthPaper("/papers/a.pdf", 1, 2, 1, 2).Root
	if _, err := s.SavePaperWith(ctx, q, Vectors{}, "fp", SaveOptions{Keep: true, Tree: &TreeChange{Add: &op, ReadTree: read}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	dst, err := Open(ctx, filepath.Join(dir, "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	rep, err := dst.Salvage(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Copied["paper_edit"] != 2 || rep.Copied["heading_edit"] != 1 || rep.Copied["paper_read_tree"] != 1 {
		t.Fatalf("copied %v", rep.Copied)
	}
	// The paper indexed again into the new library shows the metadata.
	nid, err := dst.SavePaper(ctx, synthPaper("/papers/a.pdf", 1, 2, 1, 2), Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := dst.LoadPaper(ctx, nid); got.Title != "Corrected" {
		t.Fatalf("title %q after rebuild", got.Title)
	}
	ov, _ := dst.OverlayOf(ctx, "/papers/a.pdf")
	if len(ov.Headings) != 1 || ov.Headings[0].Arg != "1 Renamed" {
		t.Fatalf("heading corrections after rebuild: %+v", ov.Headings)
	}
}
