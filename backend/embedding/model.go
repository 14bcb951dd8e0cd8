package embedding

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"sync"
)

// Model is the static data behind the built-in embedder: document
// frequencies of stems (the IDF prior of the lexical channel) and int8 word
// vectors for the most frequent stems (the semantic channel). It is built
// offline by internal/train and shipped inside the binary; once
// loaded it is never mutated, so one Model serves any number of goroutines.
type Model struct {
	// Source says what the model was trained on (for the README and logs).
	Source string
	// Docs is the number of paragraphs the document frequencies count.
	Docs int
	// AvgLen is their mean length in content words (BM25's avgdl).
	AvgLen float64
	// Terms are stems ordered by corpus frequency, most frequent first.
	Terms []string
	// DF[i] is the number of paragraphs containing Terms[i].
	DF []uint32
	// VecDim is the width of the word vectors; the first NVec terms have one.
	VecDim int
	NVec   int
	// Vectors holds NVec*VecDim int8 values (two's complement in bytes),
	// each row the unit word vector scaled by 127.
	Vectors []byte
	// Common are unit directions (length VecDim each) shared by almost all
	// texts; they are projected out of semantic vectors (the "common
	// component removal" of SIF embeddings), which otherwise all point alike.
	Common [][]float32

	index       map[string]int32
	inv         []float32 // per vector row: 1 / its norm (rows are dequantised at use, see row)
	idf         []float32 // per term
	maxIDF      float32
	fingerprint string
}

// Encode writes the model as gob. It is not compressed: the model is read
// at every start of the program, most of it is int8 vectors that gzip
// shrinks by only a third, and inflating it took two thirds of the time to
// load it (about 20 ms of every CLI command that opens a library).
func (m *Model) Encode(w io.Writer) error {
	if err := gob.NewEncoder(w).Encode(m); err != nil {
		return fmt.Errorf("encode model: %w", err)
	}
	return nil
}

// DecodeModel reads a model written by Encode (or a gzipped one, as Encode
// wrote them before) and prepares its lookup tables.
func DecodeModel(r io.Reader) (*Model, error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("decode model: %w", err)
		}
		r = zr
	} else {
		r = br
	}
	var m Model
	if err := gob.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("decode model: %w", err)
	}
	if err := m.Prepare(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Prepare validates the model and builds its derived lookup tables. The
// trainer calls it on a freshly built model; DecodeModel calls it itself.
// After Prepare the model must not be modified.
func (m *Model) Prepare() error {
	switch {
	case len(m.DF) != len(m.Terms):
		return fmt.Errorf("model: %d terms but %d document frequencies", len(m.Terms), len(m.DF))
	case m.NVec < 0 || m.NVec > len(m.Terms):
		return fmt.Errorf("model: %d vectors for %d terms", m.NVec, len(m.Terms))
	case len(m.Vectors) != m.NVec*m.VecDim:
		return fmt.Errorf("model: vector data has %d values, want %d", len(m.Vectors), m.NVec*m.VecDim)
	case m.Docs <= 0 || m.AvgLen <= 0:
		return fmt.Errorf("model: no documents counted")
	}
	for _, c := range m.Common {
		if len(c) != m.VecDim {
			return fmt.Errorf("model: common component of width %d, want %d", len(c), m.VecDim)
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s|%d|%g|%d|%d|", m.Source, m.Docs, m.AvgLen, m.VecDim, m.NVec)
	for i, t := range m.Terms {
		fmt.Fprintf(h, "%s:%d,", t, m.DF[i])
	}
	h.Write(m.Vectors)
	for _, c := range m.Common {
		fmt.Fprint(h, c)
	}
	m.fingerprint = hex.EncodeToString(h.Sum(nil)[:4])
	m.index = make(map[string]int32, len(m.Terms))
	m.idf = make([]float32, len(m.Terms))
	for i, t := range m.Terms {
		m.index[t] = int32(i)
		m.idf[i] = idfOf(m.Docs, int(m.DF[i]))
	}
	m.maxIDF = idfOf(m.Docs, 0)
	// Only the rows' norms are computed here: a dequantised copy of every
	// row (NVec*VecDim float32, 6 MB) cost most of the model's load time at
	// every start of the program, mostly in page faults, for the few
	// hundred rows a question or a paper uses.
	m.inv = make([]float32, m.NVec)
	for i := range m.inv {
		var norm float64
		for _, b := range m.Vectors[i*m.VecDim : (i+1)*m.VecDim] {
			v := float32(int8(b))
			norm += float64(v * v)
		}
		m.inv[i] = 1
		if norm > 0 {
			m.inv[i] = float32(1 / math.Sqrt(norm))
		}
	}
	return nil
}

// idfOf is the smoothed inverse document frequency ln((N+1)/(df+1)) + 1;
// unseen words get the largest value, which suits the rare technical terms
// (model names, data sets) that identify evidence best.
func idfOf(docs, df int) float32 {
	return float32(math.Log(float64(docs+1)/float64(df+1)) + 1)
}

// IDF returns the IDF prior of a stem.
func (m *Model) IDF(stem string) float32 {
	if i, ok := m.index[stem]; ok {
		return m.idf[i]
	}
	return m.maxIDF
}

// vector returns the int8 word vector of a stem and the factor that makes
// it a unit vector (element j of the unit vector is
// float32(float32(int8(row[j])) * inv)), or nil.
func (m *Model) vector(stem string) (row []byte, inv float32) {
	i, ok := m.index[stem]
	if !ok || int(i) >= m.NVec {
		return nil, 0
	}
	return m.Vectors[int(i)*m.VecDim : (int(i)+1)*m.VecDim], m.inv[i]
}

//go:embed model/builtin-v1.gob
var builtinModelData []byte

// loadBuiltinModel decodes the shipped model once; the result is immutable.
var loadBuiltinModel = sync.OnceValues(func() (*Model, error) {
	return DecodeModel(bytes.NewReader(builtinModelData))
})

// ShippedModel returns the model embedded in the binary (shared, immutable),
// or nil when it is corrupt.
func ShippedModel() *Model {
	m, _ := loadBuiltinModel()
	return m
}

// Fingerprint is a short digest of the model's content; it is part of the
// embedder's Name so that a retrained model forces re-embedding.
func (m *Model) Fingerprint() string { return m.fingerprint }
