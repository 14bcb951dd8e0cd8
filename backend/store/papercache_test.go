package store

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// TestPaperCacheMatchesVec0: library-wide paper-space searches answered from
// the in-memory cache rank like vec0 (same papers, cosines within 2e-3),
// and a paper saved afterwards (the table changed) is found at once.
func TestPaperCacheMatchesVec0(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const dim = 64
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	save := func(i int) []float32 {
		p := synthPaper(fmt.Sprintf("/p%03d.pdf", i), uint64(i+1), 1, 1, 1)
		pv := unitVec(rng, dim)
		if _, err := s.SavePaper(ctx, p, Vectors{Paper: map[int][]float32{0: pv}}, ""); err != nil {
			t.Fatal(err)
		}
		return pv
	}
	var vecs [][]float32
	for i := range 120 {
		vecs = append(vecs, save(i))
	}
	q := unitVec(rng, dim)
	want, err := s.SearchVectors(ctx, SpacePaper, q, nil, 10) // vec0; starts the fill
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.papers.mu.Lock()
		filled := s.papers.nodes != nil
		s.papers.mu.Unlock()
		if filled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the paper cache was never filled")
		}
		time.Sleep(10 * time.Millisecond)
	}
	got, ok := s.searchPaperCache(ctx, q, 10)
	if !ok || len(got) != len(want) {
		t.Fatalf("cache: %v, %d hits (vec0 %d)", ok, len(got), len(want))
	}
	for i := range want {
		if got[i].PaperID != want[i].PaperID || math.Abs(got[i].Score-want[i].Score) > 2e-3 {
			t.Errorf("rank %d: cache %+v, vec0 %+v", i, got[i], want[i])
		}
	}
	// A new paper exactly at the query is first, whatever the cache holds.
	p := synthPaper("/new.pdf", 999, 1, 1, 1)
	if _, err := s.SavePaper(ctx, p, Vectors{Paper: map[int][]float32{0: q}}, ""); err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchVectors(ctx, SpacePaper, q, nil, 3)
	if err != nil || len(hits) == 0 || hits[0].PaperID != p.ID {
		t.Fatalf("after a save: %+v, %v", hits, err)
	}
}

// WarmPaperCache called while a fill is under way (the one Open starts in
// the background) returns once that fill is done, so that a caller who
// waits for the warm-up (bench query's cold question) finds it done.
func TestWarmPaperCacheWaitsForFillUnderWay(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	const dim = 16
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		if _, err := s.SavePaper(ctx, synthPaper(fmt.Sprintf("/w%d.pdf", i), uint64(i+1), 1, 1, 1), Vectors{Paper: map[int][]float32{0: unitVec(rng, dim)}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	v, err := s.paperVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := &s.papers
	c.mu.Lock()
	c.loading, c.filled = true, make(chan struct{}) // a fill under way
	c.mu.Unlock()
	filledOnReturn := make(chan bool)
	go func() {
		s.WarmPaperCache(ctx)
		c.mu.Lock()
		filled := c.nodes != nil
		c.mu.Unlock()
		filledOnReturn <- filled
	}()
	s.fillPaperCache(ctx, v, dim)
	if !<-filledOnReturn {
		t.Error("WarmPaperCache returned before the fill under way was done")
	}
}

// A store opened for one question never fills the paper-vector cache (the
// warm-up and the paper search leave it empty) and searches vec0, with the
// same hits as a store that uses the cache.
func TestOneQuestionStoreNeverFillsPaperCache(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lib.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const dim = 32
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 50 {
		p := synthPaper(fmt.Sprintf("/p%03d.pdf", i), uint64(i+1), 1, 1, 1)
		if _, err := s.SavePaper(ctx, p, Vectors{Paper: map[int][]float32{0: unitVec(rng, dim)}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	s.WarmPaperCache(ctx)
	q := unitVec(rng, dim)
	cached, err := s.SearchVectors(ctx, SpacePaper, q, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	one, err := OpenWith(ctx, path, Options{MustExist: true, OneQuestion: true})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	one.WarmPaperCache(ctx)
	got, err := one.SearchVectors(ctx, SpacePaper, q, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	// A fill, had one started, is under way (loading) or done (nodes).
	one.papers.mu.Lock()
	filled, loading := one.papers.nodes != nil, one.papers.loading
	one.papers.mu.Unlock()
	if filled || loading {
		t.Fatalf("one-question store: cache filled %v, fill under way %v", filled, loading)
	}
	if len(got) != len(cached) {
		t.Fatalf("%d hits, want %d", len(got), len(cached))
	}
	for i := range got {
		if got[i].PaperID != cached[i].PaperID || math.Abs(got[i].Score-cached[i].Score) > 2e-3 {
			t.Errorf("rank %d: %+v, with the cache %+v", i, got[i], cached[i])
		}
	}
}

// Close cancels the store's background jobs (paper-cache fills) and waits
// for them, so nothing reads the file after it returns; a job asked for
// while closing does not start.
func TestCloseWaitsForBackgroundJobs(t *testing.T) {
	s := openTemp(t)
	started, finished := make(chan struct{}), make(chan struct{})
	if !s.goBackground(func(ctx context.Context) {
		close(started)
		<-ctx.Done() // a fill reading rows until Close cancels it
		close(finished)
	}) {
		t.Fatal("a job was refused by an open store")
	}
	<-started
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-finished:
	default:
		t.Fatal("Close returned while a background job was still running")
	}
	if s.goBackground(func(context.Context) { t.Error("a job started after Close") }) {
		t.Error("goBackground accepted a job after Close")
	}
}
