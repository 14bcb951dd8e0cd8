package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestQuantizedCosine bounds what int8 storage costs: cosines between stored
// and query vectors stay within 2e-3 of the float32 cosine at the built-in
// embedder's dimension.
func TestQuantizedCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{384, 768} {
		t.Run(fmt.Sprint("dim=", dim), func(t *testing.T) {
			worst := 0.0
			for range 200 {
				v, q := unitVec(rng, dim), unitVec(rng, dim)
				// Correlated pairs, as in retrieval, not only random ones.
				for i := range q {
					q[i] = 0.6*v[i] + 0.4*q[i]
				}
				q = normalized(q)
				dense, ok := densify(encodeBlob([]int64{7}, [][]float32{v}, dim), 1, dim)
				if !ok {
					t.Fatalf("sparse row does not decode")
				}
				b := blob{n: 1, dim: dim, data: dense}
				var exact float64
				for i := range v {
					exact += float64(v[i]) * float64(q[i])
				}
				worst = max(worst, math.Abs(b.cosine(0, q)-exact))
				if b.id(0) != 7 || !closeVec(b.vector(0), v) {
					t.Fatalf("round trip lost the vector")
				}
			}
			if worst > 2e-3 {
				t.Errorf("worst cosine error %.5f", worst)
			}
		})
	}
}

func normalized(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(s))
	}
	return v
}

// TestConvertLegacyVectors builds a library in the layout before migration
// 0006 (vec0 tables per space, partitioned by paper) and checks that opening
// it converts every vector into paper_vectors, drops the old tables and
// keeps search working.
func TestConvertLegacyVectors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lib.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const dim = 16
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	var papers []*papertree.Paper
	var vecs []Vectors
	for i := range 3 {
		p := synthPaper(fmt.Sprintf("/p%d.pdf", i), uint64(i+1), 2, 2, 3)
		v := synthVectors(p, dim, uint64(i+1))
		if _, err := s.SavePaper(ctx, p, v, ""); err != nil {
			t.Fatal(err)
		}
		papers, vecs = append(papers, p), append(vecs, v)
	}
	// Rewrite the vectors the old way.
	for _, sp := range []Space{SpaceSegment, SpaceSummary, SpaceSection} {
		tb, _ := sp.table()
		if _, err := s.w.ExecContext(ctx, fmt.Sprintf(vecTableDDL, tb, dim, sp.chunkSize())); err != nil {
			t.Fatal(err)
		}
		for i, p := range papers {
			m := map[Space]map[int][]float32{SpaceSegment: vecs[i].Segment, SpaceSummary: vecs[i].Summary, SpaceSection: vecs[i].Section}[sp]
			p.Root.Walk(func(path []*papertree.Node) bool {
				n := path[len(path)-1]
				if v, ok := m[n.Order]; ok {
					b, _ := encodeVector(v)
					if _, err := s.w.ExecContext(ctx, `INSERT INTO `+tb+`(rowid, paper_id, embedding) VALUES (?, ?, ?)`, n.ID, p.ID, b); err != nil {
						t.Fatal(err)
					}
				}
				return true
			})
		}
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM paper_vectors`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var legacy int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name IN ('vec_segment', 'vec_summary', 'vec_section')`).Scan(&legacy); err != nil || legacy != 0 {
		t.Fatalf("legacy tables left: %d, %v", legacy, err)
	}
	if name, d := s.Embedder(); name != "e" || d != dim {
		t.Fatalf("embedder after conversion = %s/%d", name, d)
	}
	for i, p := range papers {
		got, err := s.LoadVectors(ctx, SpaceSegment, []int64{p.ID})
		if err != nil || len(got) != len(vecs[i].Segment) {
			t.Fatalf("paper %d: %d vectors, %v", i, len(got), err)
		}
		for ord, v := range vecs[i].Segment {
			if !closeVec(got[nodeByOrder(p, ord).ID], v) {
				t.Fatalf("paper %d node %d: vector changed", i, ord)
			}
		}
	}
	leaf := papers[1].Root.Children[0].Children[0].Children[0]
	hits, err := s.SearchVectors(ctx, SpaceSegment, vecs[1].Segment[leaf.Order], nil, 1)
	if err != nil || len(hits) != 1 || hits[0].NodeID != leaf.ID {
		t.Fatalf("search after conversion: %+v, %v", hits, err)
	}
	consistency(t, s)
}

func nodeByOrder(p *papertree.Paper, ord int) *papertree.Node {
	var out *papertree.Node
	p.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.Order == ord {
			out = n
		}
		return out == nil
	})
	return out
}

func TestSparseRowRoundTripAndDamage(t *testing.T) {
	dim := 16
	vecs := [][]float32{make([]float32, dim), make([]float32, dim)}
	vecs[0][3], vecs[0][15] = 1, -0.5
	vecs[1][0] = 0.25 // vecs[1] also has 15 zero components
	row := encodeBlob([]int64{5, 9}, vecs, dim)
	if want := 2*(blobRecord+2) + 2 + 1; len(row) != want {
		t.Fatalf("sparse row is %d bytes, want %d", len(row), want)
	}
	dense, ok := densify(row, 2, dim)
	if !ok {
		t.Fatal("a whole sparse row does not decode")
	}
	b := blob{n: 2, dim: dim, data: dense}
	if !b.valid() || b.id(1) != 9 || !closeVec(b.vector(0), vecs[0]) || !closeVec(b.vector(1), vecs[1]) {
		t.Fatal("sparse round trip lost a vector")
	}
	for _, tc := range []struct {
		name string
		data []byte
		n    int
	}{
		{"truncated codes", row[:len(row)-1], 2},
		{"extra bytes", append(append([]byte{}, row...), 1), 2},
		{"too few headers", row[:10], 2},
		{"wrong count", row, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := densify(tc.data, tc.n, dim); ok {
				t.Error("a damaged row decoded")
			}
		})
	}
}

// Rows written before migration 0008 are dense (format 0) and must still be
// read as they were.
func TestDenseRowsStayReadable(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	const dim = 32
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/lib/a.pdf", 1, 2, 1, 3)
	if _, err := s.SavePaper(ctx, p, synthVectors(p, dim, 1), ""); err != nil {
		t.Fatal(err)
	}
	before, err := s.LoadVectors(ctx, SpaceSegment, nil)
	if err != nil || len(before) == 0 {
		t.Fatalf("LoadVectors = %d, %v", len(before), err)
	}
	var n int
	var data []byte
	if err := s.r.QueryRowContext(ctx, `SELECT n, data FROM paper_vectors WHERE space = 'segment'`).Scan(&n, &data); err != nil {
		t.Fatal(err)
	}
	dense, ok := densify(data, n, dim)
	if !ok {
		t.Fatal("stored row does not decode")
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE paper_vectors SET format = 0, data = ? WHERE space = 'segment'`, dense); err != nil {
		t.Fatal(err)
	}
	after, err := s.LoadVectors(ctx, SpaceSegment, nil)
	if err != nil || len(after) != len(before) {
		t.Fatalf("dense row: LoadVectors = %d, %v; want %d", len(after), err, len(before))
	}
	for id, v := range before {
		if !closeVec(after[id], v) {
			t.Fatalf("node %d changed when read from a dense row", id)
		}
	}
}

// densifyPlain is densify as first written: every component's bit tested.
func densifyPlain(data []byte, n, dim int) ([]byte, bool) {
	if n < 0 || dim <= 0 || len(data) < n*blobRecord {
		return nil, false
	}
	out := make([]byte, n*(blobRecord+dim))
	copy(out, data[:n*blobRecord])
	src := data[n*blobRecord:]
	bm := (dim + 7) / 8
	for i := 0; i < n; i++ {
		if len(src) < bm {
			return nil, false
		}
		bits := src[:bm]
		src = src[bm:]
		dst := out[n*blobRecord+i*dim:]
		for j := 0; j < dim; j++ {
			if bits[j/8]&(1<<(j%8)) != 0 {
				if len(src) == 0 {
					return nil, false
				}
				dst[j] = src[0]
				src = src[1:]
			}
		}
	}
	return out, len(src) == 0
}

// densify walks the set bits only; it decodes (and refuses) exactly the
// rows the component-by-component scan does, bits past dim included.
func TestDensifyMatchesPlainScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, dim := range []int{1, 7, 8, 13, 64, 768} {
		for round := 0; round < 40; round++ {
			n := 1 + rng.IntN(4)
			vecs := make([][]float32, n)
			ids := make([]int64, n)
			for i := range vecs {
				ids[i] = int64(i + 1)
				vecs[i] = make([]float32, dim)
				for j := range vecs[i] {
					if rng.IntN(3) == 0 {
						vecs[i][j] = float32(rng.NormFloat64())
					}
				}
			}
			row := encodeBlob(ids, vecs, dim)
			variants := [][]byte{row, row[:len(row)-1], append(append([]byte{}, row...), 3)}
			if dim%8 != 0 {
				// A bit set past dim in the first bitmap's last byte.
				b := append([]byte{}, row...)
				b[n*blobRecord+(dim+7)/8-1] |= 0x80
				variants = append(variants, b)
			}
			for k, v := range variants {
				got, gotOK := densify(v, n, dim)
				want, wantOK := densifyPlain(v, n, dim)
				if gotOK != wantOK || gotOK && !bytes.Equal(got, want) {
					t.Fatalf("dim %d round %d variant %d: ok %v/%v, rows differ %v", dim, round, k, gotOK, wantOK, !bytes.Equal(got, want))
				}
			}
		}
	}
}

// sparseInto decodes (and refuses) exactly the rows densify does, to the
// bits vectorInto gives from the dense copy: a paper's vectors are the
// same whichever way they are read.
func TestSparseIntoMatchesDensify(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for _, dim := range []int{1, 7, 8, 13, 64, 768} {
		for round := 0; round < 40; round++ {
			n := 1 + rng.IntN(4)
			vecs := make([][]float32, n)
			ids := make([]int64, n)
			for i := range vecs {
				ids[i] = int64(i + 1)
				vecs[i] = make([]float32, dim)
				for j := range vecs[i] {
					if rng.IntN(3) == 0 {
						vecs[i][j] = float32(rng.NormFloat64())
					}
				}
			}
			if round == 0 {
				clear(vecs[0]) // a zero vector: scale 0
			}
			row := encodeBlob(ids, vecs, dim)
			variants := [][]byte{row, row[:len(row)-1], append(append([]byte{}, row...), 3), row[:n*blobRecord-1]}
			if dim%8 != 0 {
				b := append([]byte{}, row...)
				b[n*blobRecord+(dim+7)/8-1] |= 0x80
				variants = append(variants, b)
			}
			// Scales no writer makes (negative, -0, NaN): zero codes decode
			// as vectorInto decodes them.
			for _, sc := range []float32{-0.5, float32(math.Copysign(0, -1)), float32(math.NaN())} {
				b := append([]byte{}, row...)
				binary.LittleEndian.PutUint32(b[8*n:], math.Float32bits(sc))
				variants = append(variants, b)
			}
			for k, v := range variants {
				got := make([]float32, n*dim)
				gotOK := sparseInto(v, n, dim, got)
				dense, wantOK := densify(v, n, dim)
				if gotOK != wantOK {
					t.Fatalf("dim %d round %d variant %d: ok %v, densify %v", dim, round, k, gotOK, wantOK)
				}
				if !gotOK {
					continue
				}
				b := blob{n: n, dim: dim, data: dense}
				for i := 0; i < n; i++ {
					want := b.vector(i)
					for j, x := range want {
						if math.Float32bits(got[i*dim+j]) != math.Float32bits(x) {
							t.Fatalf("dim %d round %d variant %d: vector %d component %d is %v, want %v", dim, round, k, i, j, got[i*dim+j], x)
						}
					}
				}
			}
		}
	}
}
