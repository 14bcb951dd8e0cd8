package library

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/retrieve"
)

// BenchmarkLibraryWideQuestion measures retrieval for library-wide
// questions on an existing library named by $PAPERTREE_BENCH_DB (e.g. the
// copy "papertree bench query --keep" leaves behind). "cold" asks each
// question with an empty paper cache, "warm" with a filled one.
func BenchmarkLibraryWideQuestion(b *testing.B) {
	db := os.Getenv("PAPERTREE_BENCH_DB")
	if db == "" {
		b.Skip("set PAPERTREE_BENCH_DB to a library file to run this benchmark")
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: db, MustExist: true})
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	qs := []string{
		"What datasets are used for evaluation?",
		"Which baselines do they compare against?",
		"How large is the training corpus?",
		"What languages are covered by the experiments?",
		"What is the accuracy of the proposed model on sentiment classification?",
		"How do they annotate the data?",
		"What neural architecture do they use for machine translation?",
		"Does the model use attention?",
	}
	strat, _ := retrieve.Get("")
	for _, mode := range []string{"cold", "warm"} {
		b.Run(mode, func(b *testing.B) {
			ix := retrieve.NewStoreIndex(lib.Store(), lib.Embedder(), 0)
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				if mode == "cold" {
					ix = retrieve.NewStoreIndex(lib.Store(), lib.Embedder(), 0)
				}
				if _, err := strat.Retrieve(ctx, ix, retrieve.Request{Query: qs[i%len(qs)]}); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time beside wall time: on a machine shared with other
			// work the wall time of a cold question varies by 2x between
			// runs, its CPU time much less.
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
