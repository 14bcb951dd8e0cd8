package embedding

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/papertree/papertree/backend/papertree"
)

// Version is bumped whenever feature extraction changes in a way that makes
// old vectors incomparable with new ones; together with the model
// fingerprint it forms Name. (Moving PorterStem onto the Snowball stemmer
// did not bump it: every stem is the former stemmer's,
// TestPorterStemMatchesReference.)
const Version = "builtin-v2" // v2: classical plurals stem as their singular ("corpora" = "corpus")

// Options tune the built-in embedder. The zero value is not useful; start
// from DefaultOptions. Every field takes part in Name, so vectors made with
// different options are never mixed in one index.
type Options struct {
	// LexDim is the number of hashed lexical dimensions.
	LexDim int
	// LexWeight and SemWeight weigh the two channels: a query-document
	// cosine is proportional to LexWeight²·lexical score + SemWeight²·
	// semantic score (see embed for what each score is).
	LexWeight, SemWeight float64
	// BigramWeight scales word-bigram features relative to unigrams (0:
	// none; at 511 dimensions their collisions cost more than they add).
	BigramWeight float64
	// SemIDFPower raises the IDF weight of a word in the semantic average.
	SemIDFPower float64
	// LexScale, when positive, switches documents to BM25-saturated term
	// weights divided by LexScale plus a slack dimension (see embed); zero
	// means plain cosine of sublinear TF-IDF.
	LexScale float64
	// LexMinIDF leaves terms whose IDF prior is below it out of the
	// lexical channel (the semantic channel still sees them): common words
	// add little to exact matching but cost hash collisions.
	LexMinIDF float64
	// SemHalfLen, when positive, damps the semantic part of short documents:
	// it is scaled by n/(n+SemHalfLen) for n content words, the slack taking
	// the rest. The mean vector of two or three words is a noisy guess at a
	// topic, and without damping a table fragment like "7 in" can outrank
	// the evidence paragraph on semantic similarity alone.
	SemHalfLen float64
}

// Okapi BM25 constants of the lexical channel.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// DefaultOptions are the settings measured best on the build half of the
// QASPER tune papers (see README.md).
func DefaultOptions() Options {
	// 511 hashed + 256 semantic + 1 slack = 768 dimensions (3 KB per vector).
	return Options{LexDim: 511, LexWeight: 0.7, SemWeight: 1, BigramWeight: 0, SemIDFPower: 0.5, LexScale: 40, LexMinIDF: 0, SemHalfLen: 8}
}

// Builtin is the default embedder: deterministic, offline and fast on CPU.
// A vector is the concatenation of a lexical channel (signed feature hashing
// of content stems with BM25-saturated TF times an IDF prior), a semantic
// channel (IDF-weighted mean of static word vectors with the common
// components removed, damped for short texts) and one slack dimension that
// makes documents unit length without normalising their lexical part away.
// The lexical channel carries exact terminology (model and data set names);
// the semantic channel matches paraphrases that share no words.
//
// Builtin holds only immutable data and is safe for concurrent use.
type Builtin struct {
	opts  Options
	model *Model
	dim   int
	name  string
	empty []float32
}

var _ papertree.Embedder = (*Builtin)(nil)

// NewBuiltin returns the built-in embedder with the shipped model and
// DefaultOptions. It panics only if the binary's embedded model is corrupt,
// which the package tests rule out.
func NewBuiltin() *Builtin {
	m, err := loadBuiltinModel()
	if err != nil {
		panic(fmt.Sprintf("embedding: shipped model is corrupt: %v", err))
	}
	b, err := NewBuiltinWith(m, DefaultOptions())
	if err != nil {
		panic(fmt.Sprintf("embedding: default options rejected: %v", err))
	}
	return b
}

// NewBuiltinWith builds the embedder from an explicit model (already
// prepared) and options; used by the trainer and the evaluation to measure
// a model trained on part of the data.
func NewBuiltinWith(m *Model, o Options) (*Builtin, error) {
	if m == nil || m.index == nil {
		return nil, papertree.Errorf(papertree.EInvalid, "embedding model is missing or not prepared")
	}
	for _, f := range []float64{o.LexWeight, o.SemWeight, o.BigramWeight, o.SemIDFPower, o.LexScale, o.LexMinIDF, o.SemHalfLen} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return nil, papertree.Errorf(papertree.EInvalid, "invalid built-in embedder options")
		}
	}
	if o.LexDim < 16 || o.LexWeight+o.SemWeight == 0 {
		return nil, papertree.Errorf(papertree.EInvalid, "invalid built-in embedder options")
	}
	b := &Builtin{opts: o, model: m, dim: o.LexDim + m.VecDim + 1}
	// The name digests the model fingerprint and every option, so changing
	// either (including a new default) makes stored vectors stale.
	sum := sha256.Sum256(fmt.Appendf(nil, "%s|%+v", m.Fingerprint(), o))
	b.name = Version + "-" + hex.EncodeToString(sum[:4])
	b.empty = make([]float32, b.dim)
	// An empty text gets the slack direction: unit, deterministic, and at
	// cosine 0 from every query.
	b.empty[b.dim-1] = 1
	return b, nil
}

// Name identifies model and settings, e.g. "builtin-v1-1a2b3c4d": Version
// plus a digest of the model fingerprint and the options.
func (b *Builtin) Name() string { return b.name }

// Dim is LexDim plus the word-vector width plus one slack dimension.
func (b *Builtin) Dim() int { return b.dim }

// Embed embeds documents. It checks ctx between texts so that a cancelled
// ingest stops promptly.
//
// A batch shares its work: each distinct word is stemmed once (a passage's
// sentences, a paper's passages repeat most of their words), the term
// counts reuse one map, and the vectors are cut from one allocation. The
// vectors are those of embedding each text alone.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	slab := make([]float32, len(texts)*b.dim)
	err := b.EmbedEach(ctx, texts, func(i int, v []float32) {
		out[i] = slab[i*b.dim : (i+1)*b.dim : (i+1)*b.dim]
		copy(out[i], v)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EmbedEach is Embed handing each vector to fn as it is made, in one
// vector's memory that the next text reuses (v is valid only during fn):
// for callers that reduce a vector at once (retrieval quantizes sentence
// vectors), so that a batch allocates no vector per text. The vectors are
// Embed's, bit for bit.
func (b *Builtin) EmbedEach(ctx context.Context, texts []string, fn func(i int, v []float32)) error {
	v := make([]float32, b.dim)
	var words wordTerms
	var sc termScratch
	var terms []string
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		terms = words.docTerms(t, terms[:0])
		clear(v)
		fn(i, b.embedInto(v, terms, false, &sc))
	}
	return nil
}

// EmbedQuery embeds a question: like a document, but question scaffolding
// ("what", "authors", "propose", ...) is dropped so it does not pull the
// query towards paragraphs that merely use those words.
func (b *Builtin) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	terms := QueryTerms(text)
	if len(terms) == 0 {
		// A question made only of scaffolding still deserves its words.
		terms = DocTerms(text)
	}
	return b.embed(terms, true), nil
}

// embed maps content stems to the final unit vector.
//
// Documents and queries are laid out differently so that the cosine of a
// query and a document behaves like BM25 on the lexical side rather than
// like a length-normalised cosine: the document's lexical part carries
// BM25-saturated term weights scaled by a constant (not normalised), and a
// final "slack" dimension tops the document vector up to unit length
// (the inner-product-to-cosine transform of Bachrach et al., 2014). The
// query has zero slack, so query·document ∝ wl²·(BM25-like score)/LexScale
// + ws²·conf·cos_sem, where conf = n/(n+SemHalfLen) for a document of n
// content words, yet every vector is unit length. A document whose lexical
// part would exceed unit length (a very long text) is cosine-normalised
// instead.
func (b *Builtin) embed(terms []string, query bool) []float32 {
	return b.embedInto(make([]float32, b.dim), terms, query, nil)
}

// embedInto is embed writing into out (b.dim zeros); sc, when not nil,
// lends the term counts their map and slice (see termScratch).
func (b *Builtin) embedInto(out []float32, terms []string, query bool, sc *termScratch) []float32 {
	if len(terms) == 0 {
		copy(out, b.empty)
		return out
	}
	lexDim := b.opts.LexDim
	lex := out[:lexDim]
	sem := out[lexDim : lexDim+b.model.VecDim]

	if sc == nil {
		sc = new(termScratch)
	}
	order, tf := sc.count(terms)
	docLen := float64(len(terms))
	for _, t := range order {
		w := float64(b.model.IDF(t))
		if w < b.opts.LexMinIDF {
			continue
		}
		f := float64(tf[t])
		switch {
		case query:
			// Each distinct query term counts once, as in BM25.
		case b.opts.LexScale > 0:
			w *= f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*docLen/b.model.AvgLen))
		default:
			w *= 1 + math.Log(f)
		}
		b.addFeature(lex, "u", t, "", w)
	}
	b.semantic(sem, order, tf)
	if b.opts.BigramWeight > 0 && len(terms) > 1 {
		bt := make(map[[2]string]int, len(terms))
		var border [][2]string
		for i := 1; i < len(terms); i++ {
			k := [2]string{terms[i-1], terms[i]}
			if bt[k] == 0 {
				border = append(border, k)
			}
			bt[k]++
		}
		for _, k := range border {
			w := b.opts.BigramWeight * float64(b.model.IDF(k[0])+b.model.IDF(k[1])) / 2 * (1 + math.Log(float64(bt[k])))
			b.addFeature(lex, "b", k[0], k[1], w)
		}
	}
	wl, ws := b.opts.LexWeight, b.opts.SemWeight
	semConf := 1.0
	if !query && b.opts.SemHalfLen > 0 && b.opts.LexScale > 0 {
		semConf = docLen / (docLen + b.opts.SemHalfLen)
	}
	hasSem := scaleTo(sem, ws*semConf)
	var hasLex bool
	if query || b.opts.LexScale <= 0 {
		hasLex = scaleTo(lex, wl)
	} else {
		var n float64
		for _, x := range lex {
			n += float64(x) * float64(x)
		}
		n = math.Sqrt(n) / b.opts.LexScale
		hasLex = n > 0
		if n > 1 { // clip: such a long text is cosine-normalised instead
			scaleTo(lex, 1)
			n = 1
		} else {
			scaleTo(lex, n)
		}
		for i := range lex {
			lex[i] *= float32(wl)
		}
		slack := wl * wl * (1 - n*n)
		if hasSem {
			slack += ws * ws * (1 - semConf*semConf)
		}
		out[b.dim-1] = float32(math.Sqrt(slack))
	}
	if !hasLex && !hasSem {
		copy(out, b.empty)
		return out
	}
	normalize(out)
	return out
}

// semantic writes the semantic channel of a text into sem (unnormalised):
// the IDF- and TF-weighted sum of the word vectors of its stems, minus its
// projection on the model's common components.
func (b *Builtin) semantic(sem []float32, order []string, tf map[string]int) {
	for _, t := range order {
		v, inv := b.model.vector(t)
		if v == nil {
			continue
		}
		w := b.model.IDF(t)
		sw := float32(math.Pow(float64(w), b.opts.SemIDFPower) * (1 + math.Log(float64(tf[t]))))
		for j, q := range v {
			// The unit vector's element, rounded as the dequantised table
			// that Prepare built before stored it.
			x := float32(float32(int8(q)) * inv)
			sem[j] += sw * x
		}
	}
	for _, c := range b.model.Common {
		var d float32
		for j, x := range c {
			d += x * sem[j]
		}
		for j, x := range c {
			sem[j] -= d * x
		}
	}
}

// SemanticVector returns the unit semantic channel of a sequence of content
// stems (as from DocTerms), or nil when none of them has a word vector. The
// trainer uses it to find the common components.
func (b *Builtin) SemanticVector(terms []string) []float32 {
	order, tf := countTerms(terms)
	sem := make([]float32, b.model.VecDim)
	b.semantic(sem, order, tf)
	if !scaleTo(sem, 1) {
		return nil
	}
	return sem
}

// countTerms returns distinct terms in first-occurrence order (for
// determinism) and their frequencies.
func countTerms(terms []string) ([]string, map[string]int) {
	return new(termScratch).count(terms)
}

// termScratch is countTerms' map and slice, reused from one text of a batch
// to the next.
type termScratch struct {
	order []string
	tf    map[string]int
}

// count is countTerms(terms), in memory that the next call reuses.
func (sc *termScratch) count(terms []string) ([]string, map[string]int) {
	if sc.tf == nil {
		sc.tf = make(map[string]int, len(terms))
	}
	clear(sc.tf)
	sc.order = sc.order[:0]
	for _, t := range terms {
		if sc.tf[t] == 0 {
			sc.order = append(sc.order, t)
		}
		sc.tf[t]++
	}
	return sc.order, sc.tf
}

// addFeature adds weight w to the signed hash bucket of a feature.
func (b *Builtin) addFeature(lex []float32, kind, a, c string, w float64) {
	h := hashFeature(kind, a, c)
	i := int(h % uint64(len(lex)))
	if h>>63 == 1 {
		w = -w
	}
	lex[i] += float32(w)
}

// hashFeature is 64-bit FNV-1a over kind, a, c with separators. FNV rather
// than maphash because stored vectors must hash identically in every
// process and every future Go release.
func hashFeature(kind, a, c string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for _, s := range [...]string{kind, a, c} {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= prime
		}
		h ^= 0xff
		h *= prime
	}
	// FNV's low bits mix poorly for short keys; finish with a 64-bit mixer
	// (splitmix64) so buckets and signs are uniform.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// scaleTo rescales v to length w in place; it reports false (leaving zeros)
// when v is zero.
func scaleTo(v []float32, w float64) bool {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 || w == 0 {
		for i := range v {
			v[i] = 0
		}
		return false
	}
	s := float32(w / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
	return true
}

func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	s := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
}
