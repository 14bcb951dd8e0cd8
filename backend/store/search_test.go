package store

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestFTSQuery(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain words", "tree retrieval", `"tree" OR "retrieval"`},
		{"stopwords dropped", "what is the ablation", `"ablation"`},
		{"only stopwords kept", "what is the", `"what" OR "is" OR "the"`},
		{"operators become words", `a AND b NOT c`, `"b" OR "not" OR "c"`},
		{"quotes and stars", `"bert*" -large ^x`, `"bert" OR "large" OR "x"`},
		{"near and column filter", `NEAR(title: foo, 3)`, `"near" OR "title" OR "foo" OR "3"`},
		{"duplicates", "F1 f1 F1", `"f1"`},
		{"unicode", "Erdős–Rényi", `"erdős" OR "rényi"`},
		{"classical plural and its singular", "Which corpora were used", `"corpora" OR "corpus" OR "used"`},
		{"singular already asked", "corpus corpora", `"corpus" OR "corpora"`},
		{"a subscript and its glued form", "What cutoff x_max is used", `"cutoff" OR "x" OR "max" OR "used" OR "xmax"`},
		{"an identifier of more parts is no subscript", "u_v_w", `"u" OR "v" OR "w"`},
		{"nothing", " -*() ", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FTSQuery(tt.in); got != tt.want {
				t.Errorf("FTSQuery(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestSearchText(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := synthPaper("/lib/a.pdf", 11, 3, 2, 4)
	b := synthPaper("/lib/b.pdf", 12, 3, 2, 4)
	idA, err := s.SavePaper(ctx, a, Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	idB, err := s.SavePaper(ctx, b, Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	// Hostile queries must never error (FTS5 syntax injection).
	for _, q := range []string{`"`, `""`, `a"b`, `AND`, `OR OR`, `NOT`, `*`, `foo*`, `NEAR(`, `NEAR(a b`,
		`-`, `-foo`, `title:foo`, `{title text}: x`, `^start`, `(`, `)`, `'`, `a + b`, "\x00", `\"`, ``} {
		if _, err := s.SearchText(ctx, q, nil, 5); err != nil {
			t.Errorf("SearchText(%q): %v", q, err)
		}
	}
	target := a.Root.Children[1].Children[0].Children[0] // first segment of 2.1 holds marker11x2x1
	hits, err := s.SearchText(ctx, `what about "marker11x2x1" AND NEAR(`, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].NodeID != target.ID || hits[0].PaperID != idA || hits[0].Score <= 0 {
		t.Fatalf("hits = %+v, want node %d first", hits, target.ID)
	}
	// Section titles are indexed: a title's words find the section node.
	sec := b.Root.Children[2].Children[1]
	hits, err = s.SearchText(ctx, sec.Title, []int64{idB}, 50)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range hits {
		if h.PaperID != idB {
			t.Fatalf("paper filter leaked %+v", h)
		}
		found = found || h.NodeID == sec.ID
	}
	if !found {
		t.Errorf("section %q not found by its title", sec.Title)
	}
	// The paper filter excludes the paper that holds the marker.
	if hits, _ := s.SearchText(ctx, "marker11x2x1", []int64{idB}, 5); len(hits) != 0 {
		t.Errorf("filtered search found %+v", hits)
	}
	// Ranked: scores never increase.
	hits, _ = s.SearchText(ctx, "marker11x1x1 marker11x1x2 "+vocab[3], nil, 20)
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Fatalf("hits not ranked: %+v", hits)
		}
	}
	if len(hits) != 20 {
		t.Errorf("limit: %d hits", len(hits))
	}
}

func TestSearchVectors(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	const dim = 32
	if _, err := s.SearchVectors(ctx, SpaceSegment, make([]float32, dim), nil, 5); papertree.ErrorCode(err) != papertree.EConflict {
		t.Fatalf("search without embedder: %v", err)
	}
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var vecs []Vectors
	var papers []*papertree.Paper
	for i := range 4 {
		p := synthPaper("/lib/p"+string(rune('a'+i))+".pdf", uint64(20+i), 3, 2, 5)
		v := synthVectors(p, dim, uint64(20+i))
		id, err := s.SavePaper(ctx, p, v, "")
		if err != nil {
			t.Fatal(err)
		}
		ids, vecs, papers = append(ids, id), append(vecs, v), append(papers, p)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	noisy := func(v []float32) []float32 {
		out := make([]float32, len(v))
		for i := range v {
			out[i] = v[i] + 0.02*float32(rng.NormFloat64())
		}
		return out
	}
	byOrder := func(p *papertree.Paper, ord int) *papertree.Node {
		var n *papertree.Node
		p.Root.Walk(func(path []*papertree.Node) bool {
			if path[len(path)-1].Order == ord {
				n = path[len(path)-1]
			}
			return n == nil
		})
		return n
	}
	tests := []struct {
		name   string
		space  Space
		paper  int // which paper's vector is the query
		filter []int64
	}{
		{"segment, whole library", SpaceSegment, 2, nil},
		{"summary, whole library", SpaceSummary, 1, nil},
		{"section, whole library", SpaceSection, 3, nil},
		{"segment, inside its paper", SpaceSegment, 0, []int64{0}},
		{"section, inside two papers", SpaceSection, 1, []int64{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[int][]float32
			switch tt.space {
			case SpaceSegment:
				m = vecs[tt.paper].Segment
			case SpaceSummary:
				m = vecs[tt.paper].Summary
			default:
				m = vecs[tt.paper].Section
			}
			var filter []int64
			for _, f := range tt.filter {
				filter = append(filter, ids[f])
			}
			for ord, v := range m {
				want := byOrder(papers[tt.paper], ord).ID
				hits, err := s.SearchVectors(ctx, tt.space, noisy(v), filter, 5)
				if err != nil {
					t.Fatal(err)
				}
				if len(hits) != 5 || hits[0].NodeID != want || hits[0].PaperID != ids[tt.paper] {
					t.Fatalf("nearest = %+v, want node %d", hits, want)
				}
				if hits[0].Score < 0.95 || hits[0].Score > 1.0001 {
					t.Errorf("cosine similarity of a near-copy = %v", hits[0].Score)
				}
				for i, h := range hits {
					if i > 0 && h.Score > hits[i-1].Score {
						t.Fatalf("hits not ranked: %+v", hits)
					}
					if filter != nil && h.PaperID != filter[0] && (len(filter) < 2 || h.PaperID != filter[1]) {
						t.Fatalf("paper filter leaked: %+v", h)
					}
				}
			}
		})
	}
	// Score is the cosine similarity, independent of the query's norm.
	v := vecs[0].Segment[3]
	scaled := make([]float32, dim)
	for i := range v {
		scaled[i] = 7 * v[i]
	}
	hits, err := s.SearchVectors(ctx, SpaceSegment, scaled, nil, 1)
	if err != nil || math.Abs(hits[0].Score-1) > 1e-3 { // int8 storage: cosine within 1e-3
		t.Errorf("scaled query: %+v, %v", hits, err)
	}
	if _, err := s.SearchVectors(ctx, SpaceSegment, make([]float32, dim-1), nil, 5); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("wrong query dimension: %v", err)
	}
	if _, err := s.SearchVectors(ctx, SpaceSegment, make([]float32, dim), nil, 5); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("zero query vector: %v", err)
	}
	if _, err := s.SearchVectors(ctx, "bogus", make([]float32, dim), nil, 5); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("unknown space: %v", err)
	}

	// LoadVectors returns what was saved (to int8 precision), keyed by node id.
	got, err := s.LoadVectors(ctx, SpaceSummary, []int64{ids[1], ids[3]})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(vecs[1].Summary)+len(vecs[3].Summary) {
		t.Fatalf("LoadVectors = %d vectors", len(got))
	}
	for _, pi := range []int{1, 3} {
		for ord, v := range vecs[pi].Summary {
			g := got[byOrder(papers[pi], ord).ID]
			if len(g) != dim {
				t.Fatalf("vector of node %d missing", ord)
			}
			if !closeVec(g, v) {
				t.Fatalf("vector changed in the round trip: %v, saved %v", g, v)
			}
		}
	}
}

func TestEnsureEmbedder(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/lib.db"
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	p := synthPaper("/lib/a.pdf", 30, 2, 2, 3)
	steps := []struct {
		name        string
		emb         string
		dim         int
		wantChanged bool
		wantCode    papertree.Code
		save        bool // save p with vectors of dim after the call
		reopen      bool // reopen the store before the call
		wantStale   bool // p's stale flag after the step
		wantVectors int  // segment vectors in the library after the step
	}{
		{name: "first embedder", emb: "m1", dim: 8, wantChanged: true, save: true, wantVectors: 12},
		{name: "same embedder", emb: "m1", dim: 8, wantChanged: false, wantVectors: 12},
		{name: "same after reopen", emb: "m1", dim: 8, reopen: true, wantChanged: false, wantVectors: 12},
		{name: "dimension change", emb: "m1", dim: 16, wantChanged: true, wantStale: true, wantVectors: 0},
		{name: "re-embedded", emb: "m1", dim: 16, wantChanged: false, save: true, wantVectors: 12},
		{name: "name change", emb: "m2", dim: 16, wantChanged: true, wantStale: true, wantVectors: 0},
		{name: "empty name", emb: "", dim: 16, wantCode: papertree.EInvalid, wantStale: true},
		{name: "zero dim", emb: "m3", dim: 0, wantCode: papertree.EInvalid, wantStale: true},
		{name: "huge dim", emb: "m3", dim: 100000, wantCode: papertree.EInvalid, wantStale: true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.reopen {
				s.Close()
				if s, err = Open(ctx, path); err != nil {
					t.Fatal(err)
				}
			}
			changed, err := s.EnsureEmbedder(ctx, st.emb, st.dim)
			if st.wantCode != "" {
				if papertree.ErrorCode(err) != st.wantCode {
					t.Fatalf("err = %v, want %s", err, st.wantCode)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if changed != st.wantChanged {
				t.Fatalf("changed = %v, want %v", changed, st.wantChanged)
			}
			if st.save {
				if _, err := s.SavePaper(ctx, p, synthVectors(p, st.dim, 30), "fp"); err != nil {
					t.Fatal(err)
				}
			}
			info, err := s.PaperByPath(ctx, p.Path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Stale != st.wantStale {
				t.Errorf("stale = %v, want %v", info.Stale, st.wantStale)
			}
			if st.wantCode == "" {
				if name, dim := s.Embedder(); name != st.emb || dim != st.dim {
					t.Errorf("Embedder() = %s/%d", name, dim)
				}
				if m, _ := s.Meta(ctx, metaEmbedderName); m != st.emb {
					t.Errorf("meta embedder = %q", m)
				}
				all, err := s.LoadVectors(ctx, SpaceSegment, nil)
				if err != nil || len(all) != st.wantVectors {
					t.Errorf("segment vectors = %d, %v, want %d", len(all), err, st.wantVectors)
				}
				q := make([]float32, st.dim)
				q[0] = 1
				if _, err := s.SearchVectors(ctx, SpaceSection, q, nil, 3); err != nil {
					t.Errorf("search with new dimension: %v", err)
				}
			}
			consistency(t, s)
		})
	}
	// Vectors of the old dimension are refused after a change.
	if _, err := s.SavePaper(ctx, p, synthVectors(p, 8, 30), "fp"); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("old-dimension vectors: %v", err)
	}
}

func TestNodeVectors(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.EnsureEmbedder(ctx, "e", 8); err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/a.pdf", 1, 2, 2, 3)
	v := synthVectors(p, 8, 1)
	if _, err := s.SavePaper(ctx, p, v, ""); err != nil {
		t.Fatal(err)
	}
	sec := p.Root.Children[1]
	leaf := sec.Children[0].Children[2]
	got, err := s.NodeVectors(ctx, SpaceSegment, []int64{leaf.ID, sec.ID, 999999})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !closeVec(got[leaf.ID], v.Segment[leaf.Order]) {
		t.Errorf("NodeVectors = %v (a section has no segment vector; unknown ids are skipped)", got)
	}
	if got, err := s.NodeVectors(ctx, SpaceSection, []int64{sec.ID}); err != nil || len(got) != 1 {
		t.Errorf("section vector: %v, %v", got, err)
	}
}

func TestChurnLeavesNothingToCompact(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if rebuilt, err := s.Compact(ctx); err != nil || len(rebuilt) != 0 {
		t.Fatalf("compact without embedder: %v, %v", rebuilt, err)
	}
	const dim = 8
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	withPaperVec := func(p *papertree.Paper, seed uint64) Vectors {
		v := synthVectors(p, dim, seed)
		v.Paper = map[int][]float32{0: unitVec(rand.New(rand.NewPCG(seed, 9)), dim)}
		return v
	}
	keep := synthPaper("/keep.pdf", 1, 3, 2, 5)
	keepV := withPaperVec(keep, 1)
	if _, err := s.SavePaper(ctx, keep, keepV, ""); err != nil {
		t.Fatal(err)
	}
	// Re-index the same file again and again: vec0 never reuses the slot of
	// a deleted paper vector.
	var p *papertree.Paper
	churn := 5 * SpacePaper.chunkSize()
	for i := range churn {
		p = synthPaper("/churn.pdf", uint64(10+i), 1, 1, 1)
		if _, err := s.SavePaper(ctx, p, withPaperVec(p, uint64(i)), ""); err != nil {
			t.Fatal(err)
		}
	}
	// Segment, summary and section vectors live in one row per paper that
	// goes with its paper; the paper space (vec0 without partitions) reuses
	// freed slots, so churn leaves nothing to compact.
	st, err := s.VectorStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0].Space != SpacePaper || st[0].Live != 2 || st[0].Slots > SpacePaper.chunkSize() {
		t.Fatalf("after churn: %+v", st)
	}
	var rows int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM paper_vectors`).Scan(&rows); err != nil || rows != 6 {
		t.Fatalf("paper_vectors rows = %d, %v (want 3 spaces x 2 papers)", rows, err)
	}
	if again, err := s.Compact(ctx); err != nil || len(again) != 0 {
		t.Errorf("compaction rebuilt %v, %v", again, err)
	}
	// Search and deletes still work.
	hits, err := s.SearchVectors(ctx, SpacePaper, keepV.Paper[0], nil, 1)
	if err != nil || len(hits) == 0 || hits[0].PaperID != keep.ID || hits[0].NodeID != keep.Root.ID {
		t.Fatalf("search after churn: %+v, %v", hits, err)
	}
	if err := s.DeletePaper(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.VectorStats(ctx); st[0].Live != 1 {
		t.Errorf("live after delete = %d", st[0].Live)
	}
	consistency(t, s)
}

func TestEncodeVectorRejectsNonFinite(t *testing.T) {
	inf := float32(math.Inf(1))
	tests := []struct {
		name string
		in   []float32
		ok   bool
	}{
		{"finite", []float32{0, -1.5, 3e38, 1e-45}, true},
		{"NaN", []float32{0, float32(math.NaN())}, false},
		{"+Inf", []float32{inf}, false},
		{"-Inf", []float32{-inf}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := encodeVector(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v", err)
			}
			if tt.ok {
				back := decodeVector(b)
				for i := range back {
					if back[i] != tt.in[i] {
						t.Fatalf("round trip %v -> %v", tt.in, back)
					}
				}
			}
		})
	}
}
