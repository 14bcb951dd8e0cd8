package retrieve

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/store"
)

func benchPapers(tb testing.TB) []*PaperData {
	db := os.Getenv("PAPERTREE_BENCH_DB")
	if db == "" {
		return []*PaperData{bigPaper(1), bigPaper(2)}
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	ids, err := st.ReadyPaperIDs(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	var ds []*PaperData
	for _, id := range ids[:min(10, len(ids))] {
		p, err := st.LoadPaper(ctx, id)
		if err != nil {
			tb.Fatal(err)
		}
		ds = append(ds, NewPaperData(p, nil, nil, nil))
	}
	return ds
}

func TestExtraRoundTrip(t *testing.T) {
	for _, d := range benchPapers(t) {
		x := buildExtraN(d, 1)
		got, err := decodeExtra(encodeExtra(x), len(d.Nodes))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, x) {
			t.Fatalf("decoded signals differ")
		}
	}
}

func BenchmarkDecodeExtra(b *testing.B) {
	ds := benchPapers(b)
	var bs [][]byte
	size := 0
	for _, d := range ds {
		bs = append(bs, encodeExtra(buildExtraN(d, 1)))
		size += len(bs[len(bs)-1])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, d := range ds {
			if _, err := decodeExtra(bs[j], len(d.Nodes)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(size)/float64(len(ds)), "bytes/paper")
}

// storedSignalsLibrary saves two generated papers in a real store.
func storedSignalsLibrary(t *testing.T) (*store.Store, []int64) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.EnsureEmbedder(ctx, "test-emb", 4); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i, seed := range []uint64{3, 4} {
		p := bigPaper(seed).Paper
		p.Path = fmt.Sprintf("/big%d.pdf", i)
		id, err := st.SavePaper(ctx, p, store.Vectors{}, "test")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return st, ids
}

func extraSeeded(d *PaperData) *paperExtra {
	extras.Lock()
	defer extras.Unlock()
	if d.extra != nil {
		return d.extra.x
	}
	return nil
}

// Signals stored at index time are what the question would compute: a
// fresh index's first load of the paper carries them, equal to a fresh
// computation; a paper without them (or with a copy made from other text)
// computes them as before.
func TestStoredSignals(t *testing.T) {
	ctx := context.Background()
	st, ids := storedSignalsLibrary(t)
	emb := embedding.NewBuiltin()
	cases := []struct {
		name   string
		setup  func(t *testing.T)
		seeded bool
	}{
		{"none stored", func(t *testing.T) {}, false},
		{"stored at index time", func(t *testing.T) {
			if err := EnsureSignals(ctx, st, ids[0]); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"stored for other text", func(t *testing.T) {
			key, data, err := Signals(ctx, st, ids[1]) // the other paper's
			if err != nil {
				t.Fatal(err)
			}
			if err := st.SaveStructure(ctx, ids[0], SignalsKind, key, data, 0); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"stale key", func(t *testing.T) {
			_, data, err := Signals(ctx, st, ids[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := st.SaveStructure(ctx, ids[0], SignalsKind, "v0-0000000000000000", data, 0); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"damaged bytes", func(t *testing.T) {
			key, data, err := Signals(ctx, st, ids[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := st.SaveStructure(ctx, ids[0], SignalsKind, key, data[:len(data)/2], 0); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup(t)
			ix := NewStoreIndex(st, emb, 0)
			d, err := ix.Paper(ctx, ids[0])
			if err != nil {
				t.Fatal(err)
			}
			got := extraSeeded(d)
			if (got != nil) != tc.seeded {
				t.Fatalf("signals taken from the store: %v, want %v", got != nil, tc.seeded)
			}
			want := buildExtraN(d, 1)
			if !reflect.DeepEqual(extraOf(d), want) {
				t.Fatal("the paper's signals differ from a fresh computation")
			}
		})
	}
}

// Damaged bytes are refused, never read as other signals (and never panic
// the decoder): a cut copy, a changed byte anywhere.
func TestDecodeExtraRefusesDamage(t *testing.T) {
	d := bigPaper(5)
	data := encodeExtra(buildExtraN(d, 1))
	step := max(1, len(data)/300)
	for i := 0; i < len(data); i += step {
		if _, err := decodeExtra(data[:i], len(d.Nodes)); err == nil {
			t.Fatalf("the first %d of %d bytes were accepted", i, len(data))
		}
		b := append([]byte(nil), data...)
		b[i] ^= 0x5a
		if _, err := decodeExtra(b, len(d.Nodes)); err == nil {
			t.Fatalf("a damaged byte at %d was accepted", i)
		}
	}
	if _, err := decodeExtra(data, len(d.Nodes)+1); err == nil {
		t.Fatal("signals of another node count were accepted")
	}
}

// signalsKey digests a paper without copying its text; the key is the one
// of hash/fnv over the concatenated bytes, as stored keys were made.
func TestSignalsKeyDigestsTheConcatenation(t *testing.T) {
	concat := func(d *PaperData) string {
		var b []byte
		b = append(b, d.Paper.Title...)
		for o, n := range d.Nodes {
			b = append(b, 0)
			b = strconv.AppendInt(b, int64(o), 10)
			b = append(b, '|')
			b = append(b, n.Role...)
			b = append(b, '|')
			b = strconv.AppendInt(b, int64(d.Parent[o]), 10)
			b = append(b, '|')
			b = strconv.AppendBool(b, n.IsLeaf())
			b = append(b, '|')
			b = append(b, n.Title...)
			b = append(b, 0)
			b = append(b, n.Text...)
		}
		h := fnv.New64a()
		h.Write(b)
		return fmt.Sprintf("v%d-%016x", signalsVersion, h.Sum64())
	}
	ds := benchPapers(t)
	ds[0].Nodes[len(ds[0].Nodes)-1].Text += " Ünïcode\x00 and a NUL"
	seen := map[string]bool{}
	for _, d := range ds {
		got, want := signalsKey(d), concat(d)
		if got != want {
			t.Fatalf("paper %q: key %s, want %s", d.Paper.Title, got, want)
		}
		seen[got] = true
	}
	if len(seen) != len(ds) {
		t.Fatalf("%d papers share %d keys", len(ds), len(seen))
	}
}

// BenchmarkFirstLoad is the first load of the first 10 papers of
// $PAPERTREE_BENCH_DB on a fresh index, as a cold question loads the
// papers it searches: tree, vectors, stored signals and section title
// vectors (loadExtra). It skips without the variable.
func BenchmarkFirstLoad(b *testing.B) {
	db := os.Getenv("PAPERTREE_BENCH_DB")
	if db == "" {
		b.Skip("set PAPERTREE_BENCH_DB to a library file to run this benchmark")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ids, err := st.ReadyPaperIDs(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ids = ids[:min(10, len(ids))]
	emb := embedding.NewBuiltin()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix := NewStoreIndex(st, emb, 0)
		for _, id := range ids {
			if _, err := loadExtra(ctx, ix, id, true); err != nil {
				b.Fatal(err)
			}
		}
	}
}
