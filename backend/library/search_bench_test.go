package library

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/store"
)

// BenchmarkSearch5000 measures ranked library search (Library.Search: the
// papers ranked, with snippet and section path, as `papertree search` and
// the library page show them) on 5,000 papers made by replicating real
// papers. The source is $PAPERTREE_BENCH_DB (a library file, copied, never
// written), else the repository's fixture PDFs indexed here. The queries
// are backend/eval/testdata/search_queries.json. It reports p50 and p95
// per query.
func BenchmarkSearch5000(b *testing.B) {
	ctx := context.Background()
	db := filepath.Join(b.TempDir(), "lib.db")
	if keep := os.Getenv("PAPERTREE_BENCH_KEEP"); keep != "" {
		db = keep // the built library is left there for later runs
	}
	src := os.Getenv("PAPERTREE_BENCH_DB")
	if src != "" && libraryPapers(ctx, src) >= 5000 {
		// Already big enough (a kept library): searched read-only, as is.
		lib, err := Open(ctx, Config{DBPath: src, MustExist: true, ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		defer lib.Close()
		benchSearch(b, lib, libraryPapers(ctx, src))
		return
	}
	if src != "" {
		st, err := store.Open(ctx, src)
		if err != nil {
			b.Fatal(err)
		}
		err = st.Backup(ctx, db)
		st.Close()
		if err != nil {
			b.Fatal(err)
		}
	} else {
		dir := b.TempDir()
		for _, f := range []string{"twocolumn.pdf", "rotated.pdf"} {
			copyFixture(b, f, filepath.Join(dir, f))
		}
		lib, err := Open(ctx, Config{DBPath: db})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
			b.Fatal(err)
		}
		lib.Close()
	}
	lib, err := Open(ctx, Config{DBPath: db, MustExist: true})
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	n, err := replicateTo(ctx, lib.Store(), 5000)
	if err != nil {
		b.Fatal(err)
	}
	benchSearch(b, lib, n)
}

// libraryPapers is the number of papers of the library file db (0 when it
// cannot be read).
func libraryPapers(ctx context.Context, db string) int {
	st, err := store.OpenWith(ctx, db, store.Options{MustExist: true, ReadOnly: true})
	if err != nil {
		return 0
	}
	defer st.Close()
	ps, _ := st.ListPapers(ctx)
	return len(ps)
}

func benchSearch(b *testing.B, lib *Library, n int) {
	ctx := context.Background()
	lib.Warm(ctx) // what Open starts in the background is not timed
	raw, err := os.ReadFile("../eval/testdata/search_queries.json")
	if err != nil {
		b.Fatal(err)
	}
	var set struct {
		Queries []struct {
			Query string `json:"query"`
		} `json:"queries"`
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("papers=%d", n), func(b *testing.B) {
		var ds []time.Duration
		cpu0 := processCPU()
		for i := 0; i < b.N; i++ {
			q := set.Queries[i%len(set.Queries)].Query
			t := time.Now()
			if _, err := lib.Search(ctx, q, 20); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t))
		}
		// CPU time beside wall time: on a shared machine the wall time
		// varies with the load, the CPU time much less.
		b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds())/1000, "p95-ms")
	})
}

// replicateTo saves copies of the library's ready papers (paths suffixed
// "#copy-k", text only: search reads no vectors) until it holds total
// papers, and returns how many it holds.
func replicateTo(ctx context.Context, st *store.Store, total int) (int, error) {
	ps, err := st.ListPapers(ctx)
	if err != nil {
		return 0, err
	}
	var ready []store.PaperInfo
	for _, p := range ps {
		if p.Status == store.StatusReady {
			ready = append(ready, p)
		}
	}
	have := len(ps)
	for k := 0; have < total && len(ready) > 0; k++ {
		for _, info := range ready {
			if have >= total {
				break
			}
			p, err := st.LoadPaper(ctx, info.ID)
			if err != nil {
				return 0, err
			}
			p.Path = fmt.Sprintf("%s#copy-%d", info.Path, k)
			if _, err := st.SavePaper(ctx, p, store.Vectors{}, info.Fingerprint); err != nil {
				return 0, err
			}
			have++
		}
	}
	return have, nil
}
