package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/treebuild"
)

// benchRow is one line of "papertree bench query".
type benchRow struct {
	Scale      int     `json:"scale"`
	Papers     int     `json:"papers"`
	Questions  int     `json:"questions"`
	PaperP50   float64 `json:"paper_ms_p50"`   // question scoped to its paper
	PaperP95   float64 `json:"paper_ms_p95"`   //
	LibraryP50 float64 `json:"library_ms_p50"` // question over the whole library
	LibraryP95 float64 `json:"library_ms_p95"`
	// LibraryCold is the first library-wide question after the library is
	// opened and has warmed itself (what the first question after start
	// costs), LibraryWarm the same question asked again; both are medians
	// over ColdRuns fresh opens, each asking a different question.
	LibraryCold float64 `json:"library_ms_cold"`
	LibraryWarm float64 `json:"library_ms_warm"`
	// LibraryDuring is the same question asked at once after a fresh open,
	// while the warm-up runs (median).
	LibraryDuring float64 `json:"library_ms_during_warm_up"`
	ColdRuns      int     `json:"cold_runs"`
	// CPU time of the process (all its threads) per library-wide question,
	// medians: on a machine shared with other work the wall times above
	// follow the load, CPU time much less.
	LibraryCPU float64 `json:"library_cpu_ms_p50"`
	ColdCPU    float64 `json:"library_cpu_ms_cold"`
	WarmCPU    float64 `json:"library_cpu_ms_warm"`
	// WarmUpMS is how long the background warm-up (Library.Warm) took
	// after each open (median).
	WarmUpMS float64 `json:"warm_up_ms"`
	// WarmUpMB is the live heap the warm-up added (measured after a
	// collection, on one more fresh open), WarmLoaded the papers it loaded
	// ahead (all or none, see library.Config.WarmBudget).
	WarmUpMB    float64 `json:"warm_up_mb"`
	WarmLoaded  int     `json:"warm_up_papers"`
	BuildSecond float64 `json:"build_seconds,omitempty"` // time to make the synthetic copies
	DBBytes     int64   `json:"db_bytes"`
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "query" {
		return usageError{"expected: bench query"}
	}
	fs := flag.NewFlagSet("bench query", flag.ContinueOnError)
	db := fs.String("db", "", "library database file (not modified: copies are made in a temporary folder)")
	qfile := fs.String("questions", "", "file with one question per line (default: generated from the library's section titles)")
	n := fs.Int("n", 200, "number of questions")
	scales := fs.String("scales", "1,10,100", "library sizes to measure, as multiples of the library (synthetic copies)")
	strategy := fs.String("strategy", retrieve.Default, "retrieval strategy")
	budget := fs.Int("budget", retrieve.DefaultBudget, "token budget")
	tmp := fs.String("tmp", "", "folder for the synthetic copies (default: system temp)")
	asJSON := fs.Bool("json", false, "print JSON")
	keep := fs.Bool("keep", false, "keep the grown library copy (its path is printed) for further inspection")
	coldRuns := fs.Int("cold", 5, "fresh opens of the library over which the first (cold) question is measured")
	warmMB := fs.Int("warm-mb", 0, "memory budget in MB of the cold runs' warm-up for loading every paper ahead (0: the app's default, library.DefaultWarmBudget; -1: load none)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file; samples carry the label phase=build (growing the copy), cold or warm (the first and second question after an open), paper or library (the latency loop's one-paper and library-wide questions): go tool pprof -tagfocus phase=library")
	if _, err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *db == "" {
		return usageError{"--db FILE.db is required"}
	}
	var sc []int
	for _, f := range strings.Split(*scales, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return usageError{fmt.Sprintf("--scales: %q is not a positive integer", f)}
		}
		sc = append(sc, k)
	}
	work, err := os.MkdirTemp(*tmp, "papertree-bench-")
	if err != nil {
		return err
	}
	if *keep {
		defer fmt.Fprintf(stderr, "kept %s\n", filepath.Join(work, "bench.db"))
	} else {
		defer os.RemoveAll(work)
	}
	// Work on a copy so the user's library is never touched.
	base := filepath.Join(work, "bench.db")
	if err := copyDB(ctx, *db, base); err != nil {
		return err
	}
	// This library serves the questions list, the copies and the latency
	// loop, which loads papers as its questions need them: it loads none
	// ahead, so that only the cold runs' own libraries hold theirs.
	lib, err := library.Open(ctx, library.Config{DBPath: base, WarmBudget: -1})
	if err != nil {
		return err
	}
	defer lib.Close()
	qs, err := benchQuestions(ctx, lib, *qfile, *n)
	if err != nil {
		return err
	}
	if len(qs) == 0 {
		return papertree.Errorf(papertree.EInvalid, "The library has no indexed papers to ask about.")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var rows []benchRow
	current := 1
	for _, k := range sc {
		row := benchRow{Scale: k}
		if k > current {
			t := time.Now()
			pprof.Do(ctx, pprof.Labels("phase", "build"), func(ctx context.Context) {
				err = replicate(ctx, lib.Store(), current, k)
			})
			if err != nil {
				return err
			}
			row.BuildSecond = time.Since(t).Seconds()
			current = k
		}
		ps, err := lib.Papers(ctx)
		if err != nil {
			return err
		}
		row.Papers = len(ps)
		// New pages may still be in the write-ahead log: copy them into the
		// file first, so its size is the library's.
		if err := lib.Store().Checkpoint(ctx); err != nil {
			return err
		}
		if st, err := os.Stat(base); err == nil {
			row.DBBytes = st.Size()
		}
		if len(qs) > 0 {
			if err := benchCold(ctx, base, qs, *strategy, *budget, max(*coldRuns, 1), int64(*warmMB)<<20, &row); err != nil {
				return err
			}
			lib.Warm(ctx) // the latency loop below runs on a warmed library too
		}
		var paperLat, libLat, libCPU []float64
		for _, q := range qs {
			for _, scope := range []struct {
				ids   []int64
				out   *[]float64
				label string
			}{{[]int64{q.paper}, &paperLat, "paper"}, {nil, &libLat, "library"}} {
				t, c := time.Now(), processCPU()
				pprof.Do(ctx, pprof.Labels("phase", scope.label), func(ctx context.Context) {
					_, err = retrieveOnly(ctx, lib, q.text, scope.ids, *strategy, *budget)
				})
				if err != nil {
					return err
				}
				*scope.out = append(*scope.out, float64(time.Since(t).Microseconds())/1000)
				if scope.ids == nil {
					libCPU = append(libCPU, float64((processCPU()-c).Microseconds())/1000)
				}
			}
		}
		row.LibraryCPU = eval.Percentile(libCPU, 50)
		row.Questions = len(qs)
		row.PaperP50, row.PaperP95 = eval.Percentile(paperLat, 50), eval.Percentile(paperLat, 95)
		row.LibraryP50, row.LibraryP95 = eval.Percentile(libLat, 50), eval.Percentile(libLat, 95)
		rows = append(rows, row)
		if !*asJSON {
			fmt.Fprintf(stderr, "scale %dx done (%d papers)\n", k, row.Papers)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	fmt.Fprintf(stdout, "%-6s %7s %5s  %22s  %22s  %28s  %24s  %24s %9s %9s %9s\n", "scale", "papers", "qs", "one paper p50/p95 ms", "library p50/p95 ms",
		"cold/warm/during-warm-up ms", "CPU ms p50, cold/warm", "warm-up ms, MB, papers", "db MB", "KB/paper", "build s")
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-6s %7d %5d  %10.2f / %-9.2f  %10.2f / %-9.2f  %8.1f / %5.1f / %-7.1f  %6.1f, %6.1f / %-7.1f  %8.1f, %6.1f, %6d %9.1f %9.1f %9.1f\n", fmt.Sprintf("%dx", r.Scale), r.Papers, r.Questions,
			r.PaperP50, r.PaperP95, r.LibraryP50, r.LibraryP95, r.LibraryCold, r.LibraryWarm, r.LibraryDuring, r.LibraryCPU, r.ColdCPU, r.WarmCPU, r.WarmUpMS, r.WarmUpMB, r.WarmLoaded, float64(r.DBBytes)/1e6,
			float64(r.DBBytes)/1e3/float64(max(r.Papers, 1)), r.BuildSecond)
	}
	return nil
}

// benchCold measures the first library-wide question after opening: runs
// times, the library is opened afresh (new process-level caches, new
// SQLite connections), left to finish its background warm-up
// (Library.Warm, as the app and the CLI run it on open), then asked one
// question twice (cold, then warm). Each run asks a different question;
// the row gets the medians.
func benchCold(ctx context.Context, db string, qs []benchQ, strategy string, budget, runs int, warmBudget int64, row *benchRow) error {
	s, err := retrieve.Get(strategy)
	if err != nil {
		return err
	}
	// The warm-up's memory, on an open of its own (the collections it
	// takes would change the cold question's).
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	lib, err := library.Open(ctx, library.Config{DBPath: db, WarmBudget: warmBudget})
	if err != nil {
		return err
	}
	ww := lib.Warm(ctx)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if err := lib.Close(); err != nil {
		return err
	}
	row.WarmUpMB, row.WarmLoaded = (float64(m1.HeapAlloc)-float64(m0.HeapAlloc))/1e6, ww.Loaded
	var cold, warm, during, warmUp, coldCPU, warmCPU []float64
	for i := 0; i < runs; i++ {
		lib, err := library.Open(ctx, library.Config{DBPath: db, WarmBudget: warmBudget})
		if err != nil {
			return err
		}
		t := time.Now()
		lib.Warm(ctx)
		warmUp = append(warmUp, float64(time.Since(t).Microseconds())/1000)
		q := qs[(len(qs)/2+i*len(qs)/max(runs, 1))%len(qs)].text
		for i, out := range []*[]float64{&cold, &warm} {
			t, c := time.Now(), processCPU()
			var err error
			pprof.Do(ctx, pprof.Labels("phase", []string{"cold", "warm"}[i]), func(ctx context.Context) {
				_, err = askRetrieval(ctx, lib, s, q, budget)
			})
			if err != nil {
				lib.Close()
				return err
			}
			*out = append(*out, float64(time.Since(t).Microseconds())/1000)
			cpu := []*[]float64{&coldCPU, &warmCPU}[i]
			*cpu = append(*cpu, float64((processCPU()-c).Microseconds())/1000)
		}
		if err := lib.Close(); err != nil {
			return err
		}
		// The same question asked at once after another fresh open, while
		// that open's warm-up runs: it must not wait for the warm-up.
		if lib, err = library.Open(ctx, library.Config{DBPath: db, WarmBudget: warmBudget}); err != nil {
			return err
		}
		t = time.Now()
		_, err = askRetrieval(ctx, lib, s, q, budget)
		during = append(during, float64(time.Since(t).Microseconds())/1000)
		if cerr := lib.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	row.LibraryDuring = eval.Percentile(during, 50)
	row.LibraryCold, row.LibraryWarm = eval.Percentile(cold, 50), eval.Percentile(warm, 50)
	row.WarmUpMS, row.ColdRuns = eval.Percentile(warmUp, 50), runs
	row.ColdCPU, row.WarmCPU = eval.Percentile(coldCPU, 50), eval.Percentile(warmCPU, 50)
	return nil
}

// askRetrieval is the retrieval of a library-wide question as Library.Ask
// runs it: marked in flight, so that the warm-up pauses for it.
func askRetrieval(ctx context.Context, lib *library.Library, s retrieve.Strategy, q string, budget int) (retrieve.Result, error) {
	defer lib.Retrieval().Asking()()
	return s.Retrieve(ctx, lib.Retrieval(), retrieve.Request{Query: q, Budget: budget})
}

type benchQ struct {
	text  string
	paper int64
}

// benchQuestions reads questions from a file (each asked of every paper in
// turn) or generates them from section titles ("What does the paper say
// about <title>?"), spread evenly over the papers, deterministically.
func benchQuestions(ctx context.Context, lib *library.Library, file string, n int) ([]benchQ, error) {
	ready, err := lib.Retrieval().ReadyPapers(ctx)
	if err != nil {
		return nil, err
	}
	sort.Slice(ready, func(i, j int) bool { return ready[i] < ready[j] })
	if len(ready) == 0 {
		return nil, nil
	}
	var out []benchQ
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		i := 0
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" && len(out) < n {
				out = append(out, benchQ{line, ready[i%len(ready)]})
				i++
			}
		}
		return out, nil
	}
	per := map[int64][]string{}
	for _, id := range ready {
		p, err := lib.Store().LoadPaper(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, h := range papertree.Headings(p.Root) {
			if q := headingQuestion(h.Text); q != "" {
				per[id] = append(per[id], q)
			}
		}
	}
	for round := 0; len(out) < n; round++ {
		added := false
		for _, id := range ready {
			if round < len(per[id]) && len(out) < n {
				out = append(out, benchQ{per[id][round], id})
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out, nil
}

func retrieveOnly(ctx context.Context, lib *library.Library, q string, ids []int64, strategy string, budget int) (retrieve.Result, error) {
	s, err := retrieve.Get(strategy)
	if err != nil {
		return retrieve.Result{}, err
	}
	return s.Retrieve(ctx, lib.Retrieval(), retrieve.Request{Query: q, PaperIDs: ids, Budget: budget})
}

// replicate grows the library from `from` to `to` copies of every original
// paper (paths suffixed "#copy-k"), vectors included.
func replicate(ctx context.Context, st *store.Store, from, to int) error {
	ps, err := st.ListPapers(ctx)
	if err != nil {
		return err
	}
	for _, info := range ps {
		if info.Status != store.StatusReady || strings.Contains(info.Path, "#copy-") {
			continue
		}
		p, err := st.LoadPaper(ctx, info.ID)
		if err != nil {
			return err
		}
		byID := map[store.Space]map[int64][]float32{}
		for _, sp := range store.Spaces {
			if byID[sp], err = st.LoadVectors(ctx, sp, []int64{info.ID}); err != nil {
				return err
			}
		}
		p.Root.Renumber()
		// Every space, the paper vector included: without it the copies
		// never reach a library-wide question's shortlist.
		v := store.Vectors{Segment: map[int][]float32{}, Summary: map[int][]float32{}, Section: map[int][]float32{}, Paper: map[int][]float32{}}
		p.Root.Walk(func(path []*papertree.Node) bool {
			n := path[len(path)-1]
			for sp, into := range map[store.Space]map[int][]float32{store.SpaceSegment: v.Segment, store.SpaceSummary: v.Summary, store.SpaceSection: v.Section, store.SpacePaper: v.Paper} {
				if vec, ok := byID[sp][n.ID]; ok {
					into[n.Order] = vec
				}
			}
			return true
		})
		// The copies have the paper's text, so its stored signals too.
		sigKey, sigData, err := retrieve.Signals(ctx, st, info.ID)
		if err != nil {
			return err
		}
		orig := p.Path
		for k := from; k < to; k++ {
			p.Path = fmt.Sprintf("%s#copy-%d", orig, k)
			id, err := st.SavePaper(ctx, p, v, info.Fingerprint)
			if err != nil {
				return err
			}
			if sigData != nil {
				if err := st.SaveStructure(ctx, id, retrieve.SignalsKind, sigKey, sigData, 0); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// copyDB makes a consistent copy of a library with VACUUM INTO.
func copyDB(ctx context.Context, src, dst string) error {
	// Not store.Open: it upgrades an older library in place, and a
	// benchmark must not write to the library it measures.
	return store.CopyFile(ctx, src, dst)
}

// headingQuestion asks about a section heading without its number ("IV.
// Introduction" -> "What does the paper say about introduction?"), or
// returns "" for a heading too short to ask about. Only a real enumerator
// is dropped: trimming number-like letters cut "Introduction" to
// "ntroduction" and "Analysis" to "nalysis".
func headingQuestion(heading string) string {
	t := strings.TrimSpace(heading)
	if n, ok := treebuild.ParseNumbering(t); ok {
		t = strings.TrimSpace(n.Rest)
	}
	if len(t) <= 3 {
		return ""
	}
	return "What does the paper say about " + strings.ToLower(t) + "?"
}
