package app

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// makeLibrary stores n synthetic papers (a title, authors and a small tree
// each) in a library under dir. The app's start-up cost that depends on the
// library is opening it and listing its papers; this is what the 1,000-paper
// start-up target is measured with (the rest is the webview's own start).
func makeLibrary(tb testing.TB, dir string, n int) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, DBFile))
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	for i := range n {
		root := &papertree.Node{Kind: papertree.KindRoot, Title: fmt.Sprintf("Synthetic paper %d on structured retrieval", i), PageStart: 1, PageEnd: 9}
		for s := range 6 {
			sec := &papertree.Node{Kind: papertree.KindSection, Title: fmt.Sprintf("%d Section", s+1), Level: 1, PageStart: s + 1, PageEnd: s + 2}
			for g := range 4 {
				sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Level: 2, Text: fmt.Sprintf("Passage %d of section %d explains one idea of paper %d in a few words.", g, s, i), PageStart: s + 1, PageEnd: s + 1})
			}
			root.Children = append(root.Children, sec)
		}
		p := &papertree.Paper{Path: fmt.Sprintf("/papers/p%04d.pdf", i), Title: root.Title, Authors: []string{"A. Author", "B. Author"}, Year: 2020, Pages: 9, Root: root}
		if _, err := st.SavePaper(ctx, p, store.Vectors{}, "bench"); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkStartupLibrary1000 opens a 1,000-paper library and lists it, as
// the app does between launch and an interactive library view.
func BenchmarkStartupLibrary1000(b *testing.B) {
	dir := b.TempDir()
	makeLibrary(b, dir, 1000)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		be, lib, err := OpenBackend(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		ps, err := be.ListPapers(ctx)
		if err != nil || len(ps) != 1000 {
			b.Fatalf("listed %d papers, err %v", len(ps), err)
		}
		lib.Close()
	}
}

// BenchmarkListPapers1000 is ListPapers alone on an open 1,000-paper library.
func BenchmarkListPapers1000(b *testing.B) {
	dir := b.TempDir()
	makeLibrary(b, dir, 1000)
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	b.ResetTimer()
	for range b.N {
		if _, err := be.ListPapers(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListPapers5000 lists a 5,000-paper library (with reference
// metadata joined), the Go half of the library page's first paint.
func BenchmarkListPapers5000(b *testing.B) {
	dir := b.TempDir()
	makeLibrary(b, dir, 5000)
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	b.ResetTimer()
	for range b.N {
		ps, err := be.ListPapers(ctx)
		if err != nil || len(ps) != 5000 {
			b.Fatalf("listed %d, %v", len(ps), err)
		}
	}
}

// BenchmarkSearchText5000 is the full-text half of search as you type on a
// 5,000-paper library: a word in every paper, then a rare one.
func BenchmarkSearchText5000(b *testing.B) {
	dir := b.TempDir()
	makeLibrary(b, dir, 5000)
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	for _, q := range []string{"passage explains", "4999"} {
		b.Run(q, func(b *testing.B) {
			for range b.N {
				if _, err := be.SearchText(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
