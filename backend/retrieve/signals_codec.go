package retrieve

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io"
	"slices"
	"sync"
)

// signalsVersion names the encoding of a paper's signals and the rules that
// make them (buildExtraN and what it calls: sentence splitting, stemming,
// stopwords, causal cues, bibliography tests). Change it whenever one of
// them changes: stored signals of another version are ignored and
// recomputed, so a stale copy can never change an answer.
const signalsVersion = 3 // 2: deflated; 3: words sorted

// encodeExtra writes x as bytes: the vocabulary as a stem table, each
// sentence's stems as ids into it, the bibliography and sentence flags,
// the surface words and a checksum, deflated.
func encodeExtra(x *paperExtra) []byte {
	ids := make(map[string]uint64, len(x.vocab))
	var table []string
	id := func(s string) uint64 {
		if i, ok := ids[s]; ok {
			return i
		}
		i := uint64(len(table))
		ids[s] = i
		table = append(table, s)
		return i
	}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(x.sents)))
	for o, ss := range x.sents {
		flags := uint64(len(ss)) << 1
		if x.refs[o] {
			flags |= 1
		}
		body = binary.AppendUvarint(body, flags)
		for _, g := range ss {
			var f byte
			if g.digit {
				f |= 1
			}
			if g.causal {
				f |= 2
			}
			if g.short {
				f |= 4
			}
			body = append(body, f)
			body = binary.AppendUvarint(body, uint64(len(g.stems)))
			for _, s := range g.stems {
				body = binary.AppendUvarint(body, id(s))
			}
		}
	}
	// Stems only in titles: in the vocabulary, in no sentence.
	var extra []string
	for s := range x.vocab {
		if _, ok := ids[s]; !ok {
			extra = append(extra, s)
		}
	}
	// Sorted, so equal signals encode alike and neighbouring words share
	// their prefixes in the deflate window (the words shrink by a third).
	slices.Sort(extra)
	out := binary.AppendUvarint(nil, signalsVersion)
	out = appendStrings(out, table)
	out = appendStrings(out, extra)
	out = append(out, body...)
	words := make([]string, 0, len(x.words))
	for w := range x.words {
		words = append(words, w)
	}
	slices.Sort(words)
	out = appendStrings(out, words)
	// A checksum: damaged bytes are refused, never read as other signals.
	h := fnv.New64a()
	h.Write(out)
	out = binary.LittleEndian.AppendUint64(out, h.Sum64())
	// Deflated (about 60% of the size, a real paper's ~33 KB to ~20 KB;
	// inflating costs a few percent of decoding).
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.DefaultCompression)
	w.Write(out)
	w.Close()
	return z.Bytes()
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

var errSignals = errors.New("stored signals do not fit")

// maxSignalsBytes bounds what a stored copy may inflate to (a long real
// paper's signals are about 100 KB).
const maxSignalsBytes = 64 << 20

// sigDecoder reads from one string, so that every stem and word decoded
// is a substring of it (one allocation for all of them).
type sigDecoder struct {
	b   string
	err error
}

func (r *sigDecoder) uvarint() uint64 {
	var v uint64
	for i := 0; i < len(r.b) && i < binary.MaxVarintLen64; i++ {
		c := r.b[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			r.b = r.b[i+1:]
			return v
		}
	}
	r.err = errSignals
	r.b = ""
	return 0
}

func (r *sigDecoder) strings() []string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errSignals
		return nil
	}
	out := make([]string, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		l := r.uvarint()
		if l > uint64(len(r.b)) {
			r.err = errSignals
			return nil
		}
		out = append(out, r.b[:l])
		r.b = r.b[l:]
	}
	return out
}

// inflaters are reusable flate readers: each holds a 32 KB window and its
// tables, which a paper's first load otherwise allocates anew.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// decodeExtra reads signals written by encodeExtra for a paper of n nodes;
// an error when they are of another version or do not fit the paper.
func decodeExtra(z []byte, n int) (*paperExtra, error) {
	r0 := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r0)
	if err := r0.(flate.Resetter).Reset(bytes.NewReader(z), nil); err != nil {
		return nil, errSignals
	}
	var buf bytes.Buffer
	buf.Grow(min(3*len(z), maxSignalsBytes)) // about what it inflates to
	_, err := buf.ReadFrom(io.LimitReader(r0, maxSignalsBytes+1))
	r0.Close()
	b := buf.Bytes()
	if err != nil || len(b) > maxSignalsBytes {
		return nil, errSignals
	}
	if len(b) < 8 {
		return nil, errSignals
	}
	h := fnv.New64a()
	h.Write(b[:len(b)-8])
	if h.Sum64() != binary.LittleEndian.Uint64(b[len(b)-8:]) {
		return nil, errSignals
	}
	r := &sigDecoder{b: string(b[:len(b)-8])}
	if r.uvarint() != signalsVersion || r.err != nil {
		return nil, errSignals
	}
	table := r.strings()
	extra := r.strings()
	if r.err != nil {
		return nil, r.err
	}
	x := &paperExtra{refs: make([]bool, n), vocab: make(map[string]bool, len(table)+len(extra)), sents: make([][]sentSig, n)}
	for _, s := range table {
		x.vocab[s] = true
	}
	for _, s := range extra {
		x.vocab[s] = true
	}
	if r.uvarint() != uint64(n) {
		return nil, errSignals
	}
	// The sentences and their stems are cut from slabs (a paper has
	// thousands of sentences; one allocation each was a fifth of decoding).
	var sigSlab []sentSig
	var stemSlab []string
	for o := 0; o < n && r.err == nil; o++ {
		flags := r.uvarint()
		x.refs[o] = flags&1 == 1
		k := flags >> 1
		if k == 0 {
			continue
		}
		if k > uint64(len(r.b)) {
			return nil, errSignals
		}
		if uint64(cap(sigSlab)-len(sigSlab)) < k {
			sigSlab = make([]sentSig, 0, max(k, 1024))
		}
		ss := sigSlab[len(sigSlab) : len(sigSlab)+int(k) : len(sigSlab)+int(k)]
		sigSlab = sigSlab[:len(sigSlab)+int(k)]
		for i := range ss {
			if len(r.b) == 0 {
				return nil, errSignals
			}
			f := r.b[0]
			r.b = r.b[1:]
			g := sentSig{digit: f&1 != 0, causal: f&2 != 0, short: f&4 != 0}
			m := r.uvarint()
			if m > uint64(len(r.b)) {
				return nil, errSignals
			}
			if m > 0 {
				if uint64(cap(stemSlab)-len(stemSlab)) < m {
					stemSlab = make([]string, 0, max(m, 8192))
				}
				g.stems = stemSlab[len(stemSlab) : len(stemSlab)+int(m) : len(stemSlab)+int(m)]
				stemSlab = stemSlab[:len(stemSlab)+int(m)]
				for j := range g.stems {
					id := r.uvarint()
					if id >= uint64(len(table)) {
						return nil, errSignals
					}
					g.stems[j] = table[id]
				}
			}
			ss[i] = g
		}
		x.sents[o] = ss
	}
	words := r.strings()
	if r.err != nil || r.b != "" {
		return nil, errSignals
	}
	x.words = make(map[string]bool, len(words))
	for _, w := range words {
		x.words[w] = true
	}
	return x, nil
}
