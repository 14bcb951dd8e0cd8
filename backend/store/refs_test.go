package store

import (
	"context"
	"testing"
	"time"
)

func TestPutRefs(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := RefMeta{Path: "/z/a.pdf", Source: SourceZotero, SourceID: "KPR8EHS9", Title: "Optimal Multiple Stopping", Authors: []string{"Mathilde Fekom"},
		Year: 2020, Venue: "arXiv", Collections: []string{"Collection 1"}, Tags: []string{"ML"}, AddedAt: time.Date(2020, 2, 14, 13, 37, 25, 0, time.UTC)}
	b := RefMeta{Path: "/z/b.pdf", Source: SourceBibTeX, SourceID: "bock2020", CitationKey: "bock2020", Title: "Archimedean Choice Functions"}
	changedB := b
	changedB.Year = 2021
	changedA := a
	changedA.Title = "Changed"

	steps := []struct {
		name    string
		refs    []RefMeta
		want    []bool
		wantErr bool
	}{
		{name: "new", refs: []RefMeta{a, b}, want: []bool{true, true}},
		{name: "same again", refs: []RefMeta{a, b}, want: []bool{false, false}},
		{name: "one changed", refs: []RefMeta{a, changedB}, want: []bool{false, true}},
		{name: "a bad record rolls back the batch", refs: []RefMeta{changedA, {Source: SourceBibTeX}}, wantErr: true},
	}
	for _, st := range steps {
		got, err := s.PutRefs(ctx, st.refs)
		if (err != nil) != st.wantErr {
			t.Fatalf("%s: err = %v", st.name, err)
		}
		if !st.wantErr && !equalBools(got, st.want) {
			t.Errorf("%s: changed = %v, want %v", st.name, got, st.want)
		}
	}
	refs, err := s.Refs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := refs["/z/a.pdf"]; got.Title != "Optimal Multiple Stopping" || got.Collections[0] != "Collection 1" || !got.AddedAt.Equal(a.AddedAt) || got.Authors[0] != "Mathilde Fekom" {
		t.Errorf("a = %+v (the rolled-back change must not be there)", got)
	}
	if got, ok, err := s.RefByPath(ctx, "/z/b.pdf"); err != nil || !ok || got.Year != 2021 || got.CitationKey != "bock2020" {
		t.Errorf("b = %+v %v %v", got, ok, err)
	}
	if _, ok, err := s.RefByPath(ctx, "/z/none.pdf"); ok || err != nil {
		t.Errorf("missing ref: ok=%v err=%v", ok, err)
	}
}

func TestAddedDatesSurviveReindex(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.SavePaper(ctx, synthPaper("/p/x.pdf", 1, 2, 1, 2), Vectors{}, "f1"); err != nil {
		t.Fatal(err)
	}
	first, err := s.AddedDates(ctx)
	if err != nil || first["/p/x.pdf"].IsZero() {
		t.Fatalf("added = %v, %v", first, err)
	}
	time.Sleep(5 * time.Millisecond)
	if _, err := s.SavePaper(ctx, synthPaper("/p/x.pdf", 2, 2, 1, 2), Vectors{}, "f2"); err != nil {
		t.Fatal(err)
	}
	again, _ := s.AddedDates(ctx)
	if !again["/p/x.pdf"].Equal(first["/p/x.pdf"]) {
		t.Errorf("date added moved on re-index: %v -> %v", first["/p/x.pdf"], again["/p/x.pdf"])
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPapersWithText(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := synthPaper("/p/a.pdf", 1, 2, 1, 2)
	a.Root.Children[0].Children[0].Text = "Hierarchical retrieval over section trees."
	b := synthPaper("/p/b.pdf", 2, 2, 1, 2)
	b.Root.Children[0].Children[0].Text = "Retrieval with flat chunks."
	ida, err := s.SavePaper(ctx, a, Vectors{}, "f")
	if err != nil {
		t.Fatal(err)
	}
	idb, err := s.SavePaper(ctx, b, Vectors{}, "f")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, q string
		want    []int64
	}{
		{"one word in both", "retrieval", []int64{ida, idb}},
		{"every word must match", "retrieval trees", []int64{ida}},
		{"last word is a prefix", "hierarch", []int64{ida}},
		{"operators are plain words", `flat" OR NEAR(`, nil},
		{"no words", " -- ", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.PapersWithText(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) || (len(got) > 0 && !equalInts(got, tc.want)) {
				t.Errorf("PapersWithText(%q) = %v, want %v", tc.q, got, tc.want)
			}
		})
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
