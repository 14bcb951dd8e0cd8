package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// benchDim is a typical small sentence-embedding dimension.
const benchDim = 384

// thesisPaper is the size of a 164-page thesis: 1 + 12*(1 + 5*(1 + 32))
// = 1993 nodes, 1920 of them leaves.
func thesisPaper(path string, seed uint64) *papertree.Paper { return synthPaper(path, seed, 12, 5, 32) }

// BenchmarkSavePaper saves a 2000-node paper with or without segment,
// summary and section vectors: the indexer's per-paper write cost. "replace"
// re-saves the same path (deleting the previous version in the same
// transaction); "new" adds a new path each time.
func BenchmarkSavePaper(b *testing.B) {
	for _, mode := range []string{"new", "replace"} {
		for _, withVectors := range []bool{false, true} {
			b.Run(fmt.Sprintf("nodes=1993/%s/vectors=%v", mode, withVectors), func(b *testing.B) {
				s := openTemp(b)
				ctx := context.Background()
				if _, err := s.EnsureEmbedder(ctx, "bench", benchDim); err != nil {
					b.Fatal(err)
				}
				p := thesisPaper("/bench/thesis.pdf", 1)
				var v Vectors
				if withVectors {
					v = synthVectors(p, benchDim, 1)
				}
				c := startCPU(b)
				for i := 0; i < b.N; i++ {
					if mode == "new" {
						p.Path = fmt.Sprintf("/bench/%d.pdf", i)
					}
					if _, err := s.SavePaper(ctx, p, v, "fp"); err != nil {
						b.Fatal(err)
					}
				}
				c.report(b)
			})
		}
	}
}

// vectorLibrary fills a library with n segment vectors spread over papers of
// 2000 leaves (nodes without text, to keep the setup quick).
func vectorLibrary(b *testing.B, n int) (*Store, []int64) {
	b.Helper()
	s := openTemp(b)
	ctx := context.Background()
	if _, err := s.EnsureEmbedder(ctx, "bench", benchDim); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var ids []int64
	for done, pi := 0, 0; done < n; pi++ {
		leaves := min(2000, n-done)
		root := &papertree.Node{Kind: papertree.KindRoot, Title: "p"}
		sec := &papertree.Node{Kind: papertree.KindSection, Title: "s", Level: 1}
		root.Children = []*papertree.Node{sec}
		v := Vectors{Segment: map[int][]float32{}}
		for i := 0; i < leaves; i++ {
			sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Level: 2, Text: "x"})
			v.Segment[i+2] = unitVec(rng, benchDim)
		}
		id, err := s.SavePaper(ctx, &papertree.Paper{Path: fmt.Sprintf("/v/%d.pdf", pi), Root: root}, v, "")
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
		done += leaves
	}
	return s, ids
}

// BenchmarkSearchVectors is one KNN query (k=20) over the whole library, in
// one paper of 2000 vectors and in five papers; plus the two ways to fetch
// vectors for in-memory scoring.
func BenchmarkSearchVectors(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s, ids := vectorLibrary(b, n)
		rng := rand.New(rand.NewPCG(3, 4))
		q := unitVec(rng, benchDim)
		scopes := []struct {
			name   string
			filter []int64
		}{{"all", nil}, {"one-paper", ids[len(ids)/2 : len(ids)/2+1]}, {"five-papers", ids[:min(5, len(ids))]}}
		for _, sc := range scopes {
			b.Run(fmt.Sprintf("n=%d/dim=%d/%s", n, benchDim, sc.name), func(b *testing.B) {
				c := startCPU(b)
				for i := 0; i < b.N; i++ {
					hits, err := s.SearchVectors(context.Background(), SpaceSegment, q, sc.filter, 20)
					if err != nil || len(hits) != 20 {
						b.Fatalf("%d hits, %v", len(hits), err)
					}
				}
				c.report(b)
			})
		}
		b.Run(fmt.Sprintf("n=%d/dim=%d/LoadVectors-one-paper", n, benchDim), func(b *testing.B) {
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				m, err := s.LoadVectors(context.Background(), SpaceSegment, ids[:1])
				if err != nil || len(m) != 2000 {
					b.Fatalf("%d vectors, %v", len(m), err)
				}
			}
			c.report(b)
		})
		b.Run(fmt.Sprintf("n=%d/dim=%d/NodeVectors-200", n, benchDim), func(b *testing.B) {
			nodes := make([]int64, 200)
			leaves, err := s.Leaves(context.Background(), ids[0])
			if err != nil {
				b.Fatal(err)
			}
			for i := range nodes {
				nodes[i] = leaves[i*7].ID
			}
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				m, err := s.NodeVectors(context.Background(), SpaceSegment, nodes)
				if err != nil || len(m) != 200 {
					b.Fatalf("%d vectors, %v", len(m), err)
				}
			}
			c.report(b)
		})
		s.Close()
	}
}

// BenchmarkSearchText is one bm25 query of three words over 10 thesis-sized
// papers (~19k leaves).
func BenchmarkSearchText(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	var ids []int64
	for i := 0; i < 10; i++ {
		id, err := s.SavePaper(ctx, thesisPaper(fmt.Sprintf("/t/%d.pdf", i), uint64(i)), Vectors{}, "")
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	queries := map[string]string{
		"rare":   "marker3x4x5 " + vocab[2500] + " " + vocab[2900],
		"common": vocab[2] + " " + vocab[5] + " " + vocab[40],
	}
	for name, q := range queries {
		for _, scope := range []string{"all", "one-paper"} {
			b.Run(name+"/"+scope, func(b *testing.B) {
				var filter []int64
				if scope == "one-paper" {
					filter = ids[3:4]
				}
				c := startCPU(b)
				for i := 0; i < b.N; i++ {
					if _, err := s.SearchText(ctx, q, filter, 20); err != nil {
						b.Fatal(err)
					}
				}
				c.report(b)
			})
		}
	}
}

// BenchmarkLoadPaper rebuilds a 2000-node tree.
func BenchmarkLoadPaper(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	id, err := s.SavePaper(ctx, thesisPaper("/t.pdf", 1), Vectors{}, "")
	if err != nil {
		b.Fatal(err)
	}
	c := startCPU(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.LoadPaper(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	c.report(b)
}
