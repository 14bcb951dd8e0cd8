package store

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// openTemp opens a fresh library file in t.TempDir.
func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "library.db"))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// vocab is a deterministic pseudo-vocabulary; low indices are drawn far more
// often (Zipf), like words in real text.
var vocab = func() []string {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([]string, 3000)
	for i := range out {
		n := 3 + rng.IntN(7)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
		out[i] = b.String()
	}
	return out
}()

func words(rng *rand.Rand, n int) string {
	z := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	w := make([]string, n)
	for i := range w {
		w[i] = vocab[z.Uint64()]
	}
	return strings.Join(w, " ")
}

// synthPaper builds a paper of 1 + sections*(1 + subs*(1 + segs)) nodes with
// deterministic text. The first segment of every section "i.j" contains the
// marker word "marker<seed>x<i>x<j>" so text search has a known answer.
func synthPaper(path string, seed uint64, sections, subs, segs int) *papertree.Paper {
	rng := rand.New(rand.NewPCG(seed, 99))
	page := 1
	root := &papertree.Node{Kind: papertree.KindRoot, Title: fmt.Sprintf("Synthetic Paper %d", seed), PageStart: 1}
	for i := 1; i <= sections; i++ {
		sec := &papertree.Node{Kind: papertree.KindSection, Title: fmt.Sprintf("%d %s", i, words(rng, 2)),
			Number: fmt.Sprint(i), Level: 1, PageStart: page}
		if i == sections {
			sec.Role = papertree.RoleReferences
		}
		for j := 1; j <= subs; j++ {
			sub := &papertree.Node{Kind: papertree.KindSection, Title: fmt.Sprintf("%d.%d %s", i, j, words(rng, 3)),
				Number: fmt.Sprintf("%d.%d", i, j), Level: 2, PageStart: page}
			for k := 0; k < segs; k++ {
				text := words(rng, 60)
				if k == 0 {
					text = fmt.Sprintf("marker%dx%dx%d ", seed, i, j) + text
				}
				kind := papertree.KindSegment
				if k == segs-1 && segs > 2 {
					kind = papertree.KindCaption
				}
				leaf := &papertree.Node{Kind: kind, Level: 3, Text: text, Summary: words(rng, 12),
					PageStart: page, PageEnd: page, Tokens: papertree.CountTokens(text),
					Boxes: []papertree.Box{{Page: page, X0: 72, Y0: float64(100 + k), X1: 540, Y1: float64(160 + k)}}}
				if k%7 == 6 {
					page++
				}
				sub.Children = append(sub.Children, leaf)
			}
			sub.PageEnd = page
			sec.Children = append(sec.Children, sub)
		}
		sec.PageEnd = page
		root.Children = append(root.Children, sec)
	}
	root.PageEnd = page
	root.Renumber()
	p := &papertree.Paper{Path: path, Hash: fmt.Sprintf("%064x", seed), Title: root.Title,
		Authors: []string{"A. Author", "B. Author"}, Abstract: "An abstract.", Year: 2020 + int(seed%5),
		Pages: page, OutlineUsed: seed%2 == 0, Root: root, Warnings: []string{"synthetic"}}
	for i := 0; i < page; i++ {
		p.PageSizes = append(p.PageSizes, papertree.Size{W: 612, H: 792})
	}
	return p
}

func unitVec(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// synthVectors gives every leaf a segment and a summary vector and every
// section a section vector.
func synthVectors(p *papertree.Paper, dim int, seed uint64) Vectors {
	rng := rand.New(rand.NewPCG(seed, 1234))
	v := Vectors{Segment: map[int][]float32{}, Summary: map[int][]float32{}, Section: map[int][]float32{}}
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		switch {
		case n.IsLeaf():
			v.Segment[n.Order] = unitVec(rng, dim)
			v.Summary[n.Order] = unitVec(rng, dim)
		case n.Kind == papertree.KindSection:
			v.Section[n.Order] = unitVec(rng, dim)
		}
		return true
	})
	return v
}

// consistency checks the invariants a library must keep whatever happened to
// it (including a crash): SQLite integrity, FK integrity, FTS in step with
// nodes, ready papers whole, failed papers empty, closure complete, vectors
// only for existing nodes of the right paper.
func consistency(t testing.TB, s *Store) {
	t.Helper()
	ctx := context.Background()
	one := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		if err := s.r.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	// On the writer connection: FTS5's integrity hook (run by PRAGMA
	// integrity_check) trusts the connection's cached index structure without
	// checking whether another connection committed since, so on a reader
	// pool connection that has not run an FTS query since the last write it
	// reports "corruption found reading blob" for a healthy index (seen with
	// SQLite 3.54.1; a fresh connection or any MATCH query first says "ok").
	var ic string
	if err := s.w.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ic); err != nil || ic != "ok" {
		t.Fatalf("integrity_check = %q, %v", ic, err)
	}
	rows, err := s.r.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Errorf("foreign_key_check reports violations")
	}
	rows.Close()
	if _, err := s.w.ExecContext(ctx, `INSERT INTO node_fts(node_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Errorf("fts integrity-check: %v", err)
	}
	if n := one(`SELECT count(*) FROM papers p WHERE p.status = 'ready' AND
		p.node_count <> (SELECT count(*) FROM nodes n WHERE n.paper_id = p.id)`); n != 0 {
		t.Errorf("%d ready papers are not whole", n)
	}
	if n := one(`SELECT count(*) FROM papers p WHERE p.status = 'ready' AND p.node_count = 0`); n != 0 {
		t.Errorf("%d ready papers have no nodes", n)
	}
	if n := one(`SELECT count(*) FROM nodes n JOIN papers p ON p.id = n.paper_id WHERE p.status = 'failed'`); n != 0 {
		t.Errorf("failed papers have %d nodes", n)
	}
	if n := one(`SELECT count(*) FROM nodes WHERE paper_id NOT IN (SELECT id FROM papers)
		OR (parent_id IS NOT NULL AND parent_id NOT IN (SELECT id FROM nodes))`); n != 0 {
		t.Errorf("%d orphan nodes", n)
	}
	if n := one(`SELECT count(*) FROM nodes n WHERE NOT EXISTS (SELECT 1 FROM node_closure c
		WHERE c.ancestor_id = n.id AND c.descendant_id = n.id AND c.depth = 0)`); n != 0 {
		t.Errorf("%d nodes lack their closure self row", n)
	}
	if n := one(`SELECT count(*) FROM nodes n WHERE n.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1
		FROM node_closure c WHERE c.ancestor_id = n.parent_id AND c.descendant_id = n.id AND c.depth = 1)`); n != 0 {
		t.Errorf("%d nodes lack their parent closure row", n)
	}
	if n := one(`SELECT count(*) FROM node_closure c JOIN nodes a ON a.id = c.ancestor_id
		JOIN nodes d ON d.id = c.descendant_id WHERE a.paper_id <> d.paper_id`); n != 0 {
		t.Errorf("%d closure rows cross papers", n)
	}
	if _, dim := s.Embedder(); dim > 0 {
		for _, sp := range vecSpaces {
			tb, _ := sp.table()
			if n := one(`SELECT count(*) FROM ` + tb + ` v LEFT JOIN nodes n ON n.id = v.rowid
				WHERE n.id IS NULL OR n.paper_id <> v.paper_id`); n != 0 {
				t.Errorf("%s: %d vectors without their node", sp, n)
			}
		}
		// Compact vectors: every blob is whole and names nodes of its paper
		// of the right kind.
		for _, sp := range []Space{SpaceSegment, SpaceSummary, SpaceSection} {
			err := readBlobs(ctx, s.r, sp, nil, dim, false, func(b blob) error {
				for i := 0; i < b.n; i++ {
					var pid int64
					var kind string
					if err := s.r.QueryRowContext(ctx, `SELECT paper_id, kind FROM nodes WHERE id = ?`, b.id(i)).Scan(&pid, &kind); err != nil || pid != b.paper {
						t.Errorf("%s vector of node %d (paper %d): %v, paper %d", sp, b.id(i), b.paper, err, pid)
						continue
					}
					leaf := kind == "segment" || kind == "caption"
					if leaf != (sp != SpaceSection) {
						t.Errorf("%s vector on a %s node", sp, kind)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n := one(`SELECT count(*) FROM paper_vectors WHERE dim <> ?1 OR format NOT IN (0, 1)
				OR (format = 0 AND length(data) <> n * (12 + dim))
				OR (format = 1 AND length(data) NOT BETWEEN n * (12 + (dim + 7) / 8) AND n * (12 + (dim + 7) / 8 + dim))`, dim); n != 0 {
				t.Errorf("%d damaged vector rows", n)
			}
		}
	}
}

// closeVec reports whether a stored (int8-quantized) vector matches the
// float32 vector that was saved: each component within half a quantization
// step (max|v|/254) plus rounding.
func closeVec(got, want []float32) bool {
	if len(got) != len(want) {
		return false
	}
	var m float32
	for _, x := range want {
		m = max(m, float32(math.Abs(float64(x))))
	}
	tol := m/254 + 1e-6
	for i := range got {
		if d := got[i] - want[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}
