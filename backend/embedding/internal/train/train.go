// Package train builds the built-in embedder's static Model offline: stem
// document frequencies (the IDF prior) and word vectors from a positive
// PMI co-occurrence matrix factorised by randomized truncated SVD
// (Levy, Goldberg & Dagan 2015: window co-occurrences, context-distribution
// smoothing 0.75, eigenvalue weighting). It runs by hand through
// internal/cmd/train, never at application run time, and is deterministic:
// the same papers and Config give a byte-identical model.
//
// Data flow: papers -> content-stem sequences (embedding.DocTerms) ->
// counts, df, windowed co-occurrences -> PPMI (sparse) -> randomized SVD ->
// unit word vectors (int8) -> common component of paragraph vectors -> Model.
package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/embedding/internal/qasper"
)

// Config controls training.
type Config struct {
	Dim        int     // word-vector width
	Window     int     // co-occurrence window (content words each side)
	MinCount   int     // minimum corpus count for a word vector
	MaxVocab   int     // cap on word vectors (most frequent first)
	MinDF      int     // minimum document frequency to keep a term's DF
	CDS        float64 // context-distribution smoothing exponent
	EigPower   float64 // word vector = U * S^EigPower
	PowerIters int     // randomized SVD power iterations
	Common     int     // common components to remove
	LSA        bool    // factorise the term-paragraph TF-IDF matrix instead of PPMI
	Seed       uint64
}

// DefaultConfig is what the shipped model uses.
func DefaultConfig() Config {
	return Config{Dim: 256, Window: 10, MinCount: 3, MaxVocab: 24000, MinDF: 2, CDS: 0.75, EigPower: 0.5, PowerIters: 3, Common: 2, Seed: 1}
}

// Texts returns the training documents of papers: title, abstract and
// every paragraph (questions and answers are never used).
func Texts(papers []qasper.Paper) []string {
	var out []string
	for _, p := range papers {
		if p.Title != "" {
			out = append(out, p.Title)
		}
		if p.Abstract != "" {
			out = append(out, p.Abstract)
		}
		out = append(out, p.Paragraphs...)
	}
	return out
}

// Train builds a prepared Model from documents.
func Train(docs []string, source string, cfg Config) (*embedding.Model, error) {
	if len(docs) == 0 {
		return nil, fmt.Errorf("train: no documents")
	}
	seqs := make([][]string, len(docs))
	count := map[string]int{}
	df := map[string]int{}
	for i, d := range docs {
		seqs[i] = embedding.DocTerms(d)
		seen := map[string]bool{}
		for _, t := range seqs[i] {
			count[t]++
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	total := 0
	for _, sq := range seqs {
		total += len(sq)
	}
	avgLen := float64(total) / float64(len(docs))
	// Terms by count desc, then lexically, for determinism.
	terms := make([]string, 0, len(count))
	for t := range count {
		if df[t] >= cfg.MinDF {
			terms = append(terms, t)
		}
	}
	sort.Slice(terms, func(a, b int) bool {
		if count[terms[a]] != count[terms[b]] {
			return count[terms[a]] > count[terms[b]]
		}
		return terms[a] < terms[b]
	})
	nvec := 0
	for nvec < len(terms) && nvec < cfg.MaxVocab && count[terms[nvec]] >= cfg.MinCount {
		nvec++
	}
	if nvec < cfg.Dim+16 {
		return nil, fmt.Errorf("train: only %d words with vectors, need more than %d", nvec, cfg.Dim+16)
	}
	id := make(map[string]int, nvec)
	for i := 0; i < nvec; i++ {
		id[terms[i]] = i
	}

	var a *csr
	if cfg.LSA {
		a = termDoc(seqs, id, nvec)
	} else {
		a = ppmi(seqs, id, nvec, cfg)
	}
	u, s := rsvd(a, cfg.Dim, 16, cfg.PowerIters, cfg.Seed)

	m := &embedding.Model{
		Source: source,
		Docs:   len(docs),
		AvgLen: avgLen,
		Terms:  terms,
		DF:     make([]uint32, len(terms)),
		VecDim: cfg.Dim,
		NVec:   nvec,
	}
	for i, t := range terms {
		m.DF[i] = uint32(df[t])
	}
	m.Vectors = make([]byte, nvec*cfg.Dim)
	row := make([]float64, cfg.Dim)
	for i := 0; i < nvec; i++ {
		var n float64
		for j := 0; j < cfg.Dim; j++ {
			row[j] = u[i*cfg.Dim+j] * math.Pow(s[j], cfg.EigPower)
			n += row[j] * row[j]
		}
		n = math.Sqrt(n)
		if n == 0 {
			continue
		}
		for j := 0; j < cfg.Dim; j++ {
			q := math.Round(row[j] / n * 127)
			m.Vectors[i*cfg.Dim+j] = byte(int8(max(-127, min(127, q))))
		}
	}
	if err := m.Prepare(); err != nil {
		return nil, err
	}
	if cfg.Common > 0 {
		common, err := commonComponents(m, docs, cfg.Common)
		if err != nil {
			return nil, err
		}
		m.Common = common
		if err := m.Prepare(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// csr is a sparse row-major matrix.
type csr struct {
	n      int // rows
	cols   int
	rowPtr []int
	col    []int32
	val    []float64
}

// ppmi counts harmonically weighted co-occurrences of vocabulary words
// within the window and returns max(0, PMI) with smoothed context counts.
func ppmi(seqs [][]string, id map[string]int, n int, cfg Config) *csr {
	rows := make([]map[int32]float64, n)
	for i := range rows {
		rows[i] = map[int32]float64{}
	}
	ids := []int{}
	for _, seq := range seqs {
		ids = ids[:0]
		for _, t := range seq {
			if i, ok := id[t]; ok {
				ids = append(ids, i)
			} else {
				ids = append(ids, -1) // keeps distances honest
			}
		}
		for p, i := range ids {
			if i < 0 {
				continue
			}
			for d := 1; d <= cfg.Window && p+d < len(ids); d++ {
				j := ids[p+d]
				if j < 0 || j == i {
					continue
				}
				w := 1 / float64(d)
				rows[i][int32(j)] += w
				rows[j][int32(i)] += w
			}
		}
	}
	rowSum := make([]float64, n)
	colSum := make([]float64, n)
	for i, r := range rows {
		for j, v := range r {
			rowSum[i] += v
			colSum[j] += v
		}
	}
	var total, ctxTotal float64
	ctx := make([]float64, n)
	for j := range colSum {
		total += rowSum[j]
		ctx[j] = math.Pow(colSum[j], cfg.CDS)
		ctxTotal += ctx[j]
	}
	m := &csr{n: n, cols: n, rowPtr: make([]int, n+1)}
	for i, r := range rows {
		cols := make([]int32, 0, len(r))
		for j := range r {
			cols = append(cols, j)
		}
		sort.Slice(cols, func(a, b int) bool { return cols[a] < cols[b] })
		for _, j := range cols {
			pmi := math.Log(r[j] * ctxTotal / (rowSum[i] * ctx[j]))
			if pmi > 0 {
				m.col = append(m.col, j)
				m.val = append(m.val, pmi)
			}
		}
		m.rowPtr[i+1] = len(m.col)
		rows[i] = nil
	}
	return m
}

// termDoc builds the vocabulary × document matrix with log TF times IDF.
func termDoc(seqs [][]string, id map[string]int, n int) *csr {
	rows := make([]map[int32]float64, n)
	for i := range rows {
		rows[i] = map[int32]float64{}
	}
	df := make([]float64, n)
	for d, seq := range seqs {
		seen := map[int]bool{}
		for _, t := range seq {
			if i, ok := id[t]; ok {
				rows[i][int32(d)]++
				if !seen[i] {
					seen[i] = true
					df[i]++
				}
			}
		}
	}
	m := &csr{n: n, cols: len(seqs), rowPtr: make([]int, n+1)}
	for i, r := range rows {
		cols := make([]int32, 0, len(r))
		for j := range r {
			cols = append(cols, j)
		}
		sort.Slice(cols, func(a, b int) bool { return cols[a] < cols[b] })
		idf := math.Log(float64(len(seqs)) / df[i])
		for _, j := range cols {
			m.col = append(m.col, j)
			m.val = append(m.val, (1+math.Log(r[j]))*idf)
		}
		m.rowPtr[i+1] = len(m.col)
	}
	return m
}

// mul returns A·X for dense X (cols×k row-major).
func (a *csr) mul(x []float64, k int) []float64 {
	out := make([]float64, a.n*k)
	for i := 0; i < a.n; i++ {
		o := out[i*k : (i+1)*k]
		for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
			v := a.val[p]
			xr := x[int(a.col[p])*k : (int(a.col[p])+1)*k]
			for c, xv := range xr {
				o[c] += v * xv
			}
		}
	}
	return out
}

// mulT returns Aᵀ·X for dense X (n×k row-major).
func (a *csr) mulT(x []float64, k int) []float64 {
	out := make([]float64, a.cols*k)
	for i := 0; i < a.n; i++ {
		xr := x[i*k : (i+1)*k]
		for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
			v := a.val[p]
			o := out[int(a.col[p])*k : (int(a.col[p])+1)*k]
			for c, xv := range xr {
				o[c] += v * xv
			}
		}
	}
	return out
}

// rsvd is randomized truncated SVD (Halko, Martinsson & Tropp 2011) with
// oversampling and power iterations; it returns the top-k left singular
// vectors (n×k row-major) and singular values.
func rsvd(a *csr, k, over, iters int, seed uint64) ([]float64, []float64) {
	kk := k + over
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	omega := make([]float64, a.cols*kk)
	for i := range omega {
		omega[i] = rng.NormFloat64()
	}
	y := a.mul(omega, kk)
	orth(y, a.n, kk)
	for it := 0; it < iters; it++ {
		z := a.mulT(y, kk)
		orth(z, a.cols, kk)
		y = a.mul(z, kk)
		orth(y, a.n, kk)
	}
	// B = Qᵀ A; B Bᵀ = Zᵀ Z with Z = Aᵀ Q.
	z := a.mulT(y, kk)
	g := gram(z, a.cols, kk)
	vals, vecs := jacobiEigen(g, kk)
	// Sort eigenpairs descending.
	order := make([]int, kk)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return vals[order[x]] > vals[order[y]] })
	u := make([]float64, a.n*k)
	s := make([]float64, k)
	for c := 0; c < k; c++ {
		e := order[c]
		s[c] = math.Sqrt(math.Max(vals[e], 0))
		for i := 0; i < a.n; i++ {
			var sum float64
			yr := y[i*kk : (i+1)*kk]
			for r := 0; r < kk; r++ {
				sum += yr[r] * vecs[r*kk+e]
			}
			u[i*k+c] = sum
		}
	}
	return u, s
}

// gram returns XᵀX (k×k) for X n×k row-major.
func gram(x []float64, n, k int) []float64 {
	g := make([]float64, k*k)
	for i := 0; i < n; i++ {
		r := x[i*k : (i+1)*k]
		for a, va := range r {
			if va == 0 {
				continue
			}
			ga := g[a*k : (a+1)*k]
			for b := a; b < k; b++ {
				ga[b] += va * r[b]
			}
		}
	}
	for a := 0; a < k; a++ {
		for b := 0; b < a; b++ {
			g[a*k+b] = g[b*k+a]
		}
	}
	return g
}

// orth orthonormalises the columns of X (n×k row-major) in place by
// Cholesky QR applied twice (CholeskyQR2), which is stable enough for
// the well-conditioned sketches of a randomized SVD.
func orth(x []float64, n, k int) {
	for pass := 0; pass < 2; pass++ {
		g := gram(x, n, k)
		// Cholesky g = L Lᵀ with a tiny ridge for rank-deficient sketches.
		l := make([]float64, k*k)
		for i := 0; i < k; i++ {
			for j := 0; j <= i; j++ {
				sum := g[i*k+j]
				for p := 0; p < j; p++ {
					sum -= l[i*k+p] * l[j*k+p]
				}
				if i == j {
					l[i*k+i] = math.Sqrt(math.Max(sum, 1e-12))
				} else {
					l[i*k+j] = sum / l[j*k+j]
				}
			}
		}
		// X ← X L⁻ᵀ: solve each row r: q Lᵀ = r, i.e. L qᵀ = rᵀ.
		q := make([]float64, k)
		for i := 0; i < n; i++ {
			r := x[i*k : (i+1)*k]
			for a := 0; a < k; a++ {
				sum := r[a]
				for p := 0; p < a; p++ {
					sum -= l[a*k+p] * q[p]
				}
				q[a] = sum / l[a*k+a]
			}
			copy(r, q)
		}
	}
}

// jacobiEigen diagonalises a symmetric k×k matrix by cyclic Jacobi
// rotations; it returns eigenvalues and eigenvectors (columns, row-major).
func jacobiEigen(a []float64, k int) ([]float64, []float64) {
	a = append([]float64(nil), a...)
	v := make([]float64, k*k)
	for i := 0; i < k; i++ {
		v[i*k+i] = 1
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off float64
		for p := 0; p < k; p++ {
			for q := p + 1; q < k; q++ {
				off += a[p*k+q] * a[p*k+q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < k; p++ {
			for q := p + 1; q < k; q++ {
				apq := a[p*k+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*k+q] - a[p*k+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for r := 0; r < k; r++ {
					arp, arq := a[r*k+p], a[r*k+q]
					a[r*k+p] = c*arp - s*arq
					a[r*k+q] = s*arp + c*arq
				}
				for r := 0; r < k; r++ {
					apr, aqr := a[p*k+r], a[q*k+r]
					a[p*k+r] = c*apr - s*aqr
					a[q*k+r] = s*apr + c*aqr
				}
				for r := 0; r < k; r++ {
					vrp, vrq := v[r*k+p], v[r*k+q]
					v[r*k+p] = c*vrp - s*vrq
					v[r*k+q] = s*vrp + c*vrq
				}
			}
		}
	}
	vals := make([]float64, k)
	for i := 0; i < k; i++ {
		vals[i] = a[i*k+i]
	}
	return vals, v
}

// commonComponents returns the top uncentred principal directions of the
// semantic paragraph vectors (SIF's common component), found by power
// iteration with deflation.
func commonComponents(m *embedding.Model, docs []string, n int) ([][]float32, error) {
	b, err := embedding.NewBuiltinWith(m, embedding.Options{LexDim: 16, LexWeight: 0, SemWeight: 1, SemIDFPower: embedding.DefaultOptions().SemIDFPower})
	if err != nil {
		return nil, err
	}
	d := m.VecDim
	var xs [][]float64
	for _, doc := range docs {
		v := b.SemanticVector(embedding.DocTerms(doc))
		if v == nil {
			continue
		}
		x := make([]float64, d)
		for i := range x {
			x[i] = float64(v[i])
		}
		xs = append(xs, x)
	}
	var out [][]float32
	for c := 0; c < n; c++ {
		u := make([]float64, d)
		for i := range u {
			u[i] = 1 / math.Sqrt(float64(d))
		}
		for it := 0; it < 100; it++ {
			next := make([]float64, d)
			for _, x := range xs {
				var dot float64
				for i := range x {
					dot += x[i] * u[i]
				}
				for i := range x {
					next[i] += dot * x[i]
				}
			}
			var norm float64
			for _, v := range next {
				norm += v * v
			}
			norm = math.Sqrt(norm)
			if norm == 0 {
				break
			}
			for i := range next {
				next[i] /= norm
			}
			u = next
		}
		for _, x := range xs { // deflate
			var dot float64
			for i := range x {
				dot += x[i] * u[i]
			}
			for i := range x {
				x[i] -= dot * u[i]
			}
		}
		f := make([]float32, d)
		for i := range u {
			f[i] = float32(u[i])
		}
		out = append(out, f)
	}
	return out, nil
}
