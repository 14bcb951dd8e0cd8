package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// recorder is a testing.TB that records failures instead of failing, so the
// consistency checker itself can be tested.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(r)
}

func (r *recorder) Helper() {}

// runChecker runs consistency with a recorder and returns what it reported.
func runChecker(t *testing.T, s *Store) []string {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil && v != any(r) {
				panic(v)
			}
		}()
		consistency(r, s)
	}()
	return r.errors
}

// TestConsistencyCheckerDetectsDamage proves that the checker used by the
// crash test can fail: each case damages a good library in one way.
func TestConsistencyCheckerDetectsDamage(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		damage string
	}{
		{"half a paper", `DELETE FROM nodes WHERE id = (SELECT max(id) FROM nodes)`},
		{"missing closure row", `DELETE FROM node_closure WHERE depth = 1 AND descendant_id = (SELECT max(id) FROM nodes)`},
		{"orphan vector", `INSERT INTO vec_paper(rowid, paper_id, embedding) VALUES (999999, 1, '[1,0,0,0]')`},
		{"vector of another paper's node", `UPDATE paper_vectors SET paper_id = paper_id + 1 WHERE rowid = (SELECT min(rowid) FROM paper_vectors)`},
		{"truncated vector row", `UPDATE paper_vectors SET data = substr(data, 1, 10) WHERE rowid = (SELECT min(rowid) FROM paper_vectors)`},
		{"nodes under a failed paper", `UPDATE papers SET status = 'failed'`},
		{"ready paper without nodes", `INSERT INTO papers(path, status, indexed_at) VALUES ('/empty.pdf', 'ready', 0)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTemp(t)
			if _, err := s.EnsureEmbedder(ctx, "e", 4); err != nil {
				t.Fatal(err)
			}
			p := synthPaper("/a.pdf", 1, 2, 2, 2)
			if _, err := s.SavePaper(ctx, p, synthVectors(p, 4, 1), ""); err != nil {
				t.Fatal(err)
			}
			if errs := runChecker(t, s); len(errs) != 0 {
				t.Fatalf("a good library fails the check: %v", errs)
			}
			// Drop the triggers so the damage is not repaired by them.
			for _, q := range []string{`DROP TRIGGER nodes_vec_delete`, `DROP TRIGGER nodes_fts_delete`,
				`PRAGMA foreign_keys = OFF`, tt.damage} {
				if _, err := s.w.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if errs := runChecker(t, s); len(errs) == 0 {
				t.Fatalf("damage %q went unnoticed", tt.name)
			}
		})
	}
}

func TestZeroVectorsAreSkipped(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.EnsureEmbedder(ctx, "e", 4); err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/a.pdf", 1, 1, 1, 3)
	v := synthVectors(p, 4, 1)
	v.Segment[3] = []float32{0, 0, 0, 0}
	if _, err := s.SavePaper(ctx, p, v, ""); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadVectors(ctx, SpaceSegment, nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("stored %d segment vectors, %v; want 2 (the zero one skipped)", len(got), err)
	}
	hits, err := s.SearchVectors(ctx, SpaceSegment, v.Segment[4], nil, 5)
	if err != nil || len(hits) != 2 {
		t.Fatalf("hits = %+v, %v", hits, err)
	}
}

// TestConcurrentReadersWhileWriting runs readers against a writer that keeps
// replacing papers: no reader may fail (busy/locked) or see half a paper.
func TestConcurrentReadersWhileWriting(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	const dim = 16
	if _, err := s.EnsureEmbedder(ctx, "e", dim); err != nil {
		t.Fatal(err)
	}
	paths := []string{"/c/a.pdf", "/c/b.pdf", "/c/c.pdf"}
	for i, path := range paths {
		p := synthPaper(path, uint64(i+1), 4, 3, 6)
		if _, err := s.SavePaper(ctx, p, synthVectors(p, dim, uint64(i)), ""); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 16)
	wg.Add(1)
	go func() { // writer
		defer wg.Done()
		for i := 0; i < 15; i++ {
			path := paths[i%len(paths)]
			p := synthPaper(path, uint64(100+i), 4, 3, 6)
			if _, err := s.SavePaper(ctx, p, synthVectors(p, dim, uint64(i)), ""); err != nil {
				errs <- fmt.Errorf("writer: %w", err)
				return
			}
			if i%5 == 4 {
				if err := s.RecordFailure(ctx, path, "h", "", papertree.Errorf(papertree.ENoText, "No text.")); err != nil {
					errs <- fmt.Errorf("writer: %w", err)
					return
				}
			}
		}
		close(stop)
	}()
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 3))
			for {
				select {
				case <-stop:
					return
				default:
				}
				list, err := s.ListPapers(ctx)
				if err != nil {
					errs <- fmt.Errorf("reader list: %w", err)
					return
				}
				for _, pi := range list {
					p, err := s.LoadPaper(ctx, pi.ID)
					if papertree.ErrorCode(err) == papertree.ENotFound {
						continue // replaced since the listing
					}
					if err != nil {
						errs <- fmt.Errorf("reader load: %w", err)
						return
					}
					if p.Root != nil {
						n := 0
						p.Root.Walk(func([]*papertree.Node) bool { n++; return true })
						if n != 1+4*(1+3*(1+6)) {
							errs <- fmt.Errorf("reader saw a paper with %d nodes", n)
							return
						}
					}
				}
				if _, err := s.SearchText(ctx, vocab[rng.IntN(50)]+" "+vocab[rng.IntN(500)], nil, 10); err != nil {
					errs <- fmt.Errorf("reader text: %w", err)
					return
				}
				if _, err := s.SearchVectors(ctx, SpaceSegment, unitVec(rng, dim), nil, 10); err != nil {
					errs <- fmt.Errorf("reader vectors: %w", err)
					return
				}
				reads.Add(1)
			}
		}(r)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if reads.Load() == 0 {
		t.Error("readers never completed a round while the writer ran")
	}
	consistency(t, s)
}

const crashEnv = "PAPERTREE_STORE_CRASH_CHILD"

// TestCrashChild is the child process of TestCrashSafety: it saves,
// replaces, fails and deletes papers in a loop until it is killed.
func TestCrashChild(t *testing.T) {
	dbPath := os.Getenv(crashEnv)
	if dbPath == "" {
		t.Skip("child process of TestCrashSafety only")
	}
	ctx := context.Background()
	s, err := Open(ctx, dbPath)
	if err != nil {
		fmt.Println("open error:", err)
		os.Exit(2)
	}
	if _, err := s.EnsureEmbedder(ctx, "crash", 16); err != nil {
		fmt.Println("embedder error:", err)
		os.Exit(2)
	}
	seed := uint64(time.Now().UnixNano())
	for i := int(seed % 7); ; i++ {
		path := fmt.Sprintf("/crash/p%d.pdf", i%7)
		fmt.Println("begin", i)
		switch {
		case i%11 == 10:
			err = s.RecordFailure(ctx, path, "h", "", papertree.Errorf(papertree.EMalformed, "Broken."))
		case i%13 == 12:
			if pi, e := s.PaperByPath(ctx, path); e == nil {
				err = s.DeletePaper(ctx, pi.ID)
			}
		default:
			p := synthPaper(path, seed+uint64(i), 5+i%4, 3, 8)
			_, err = s.SavePaper(ctx, p, synthVectors(p, 16, seed+uint64(i)), "fp")
		}
		if err != nil {
			fmt.Println("save error:", err)
			os.Exit(2)
		}
		fmt.Println("saved", i)
	}
}

// TestCrashSafety SIGKILLs a child process in the middle of saving papers,
// several times, and checks after every kill that the library opens and
// holds only whole papers with consistent FTS and vector rows.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	dbPath := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	midSave := 0 // rounds whose kill landed inside an operation
	const rounds = 5
	for round := 0; round < rounds; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.v")
		cmd.Env = append(os.Environ(), crashEnv+"="+dbPath)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for a few saves so the kill lands in steady state, then kill
		// after a random delay: most of the child's time is spent inside a
		// SavePaper transaction.
		sc := bufio.NewScanner(out)
		saved := 0
		for saved < 3 && sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "saved ") {
				saved++
			} else if strings.Contains(line, "error") {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child: %s", line)
			}
		}
		if saved < 3 {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child stopped before saving (round %d)", round)
		}
		last := make(chan string)
		go func() { // keep the pipe drained so the child never blocks on stdout
			l := ""
			for sc.Scan() {
				l = sc.Text()
			}
			last <- l
		}()
		time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if l := <-last; strings.HasPrefix(l, "begin") {
			midSave++
		}

		s, err := Open(context.Background(), dbPath)
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		consistency(t, s)
		// Every ready paper is fully embedded: one segment and one summary
		// vector per leaf, one section vector per section.
		var bad int
		err = s.r.QueryRow(`SELECT count(*) FROM papers p WHERE p.status = 'ready' AND (
			(SELECT count(*) FROM nodes n WHERE n.paper_id = p.id AND n.kind IN ('segment','caption'))
				<> (SELECT coalesce(sum(n), 0) FROM paper_vectors v WHERE v.paper_id = p.id AND v.space = 'segment')
			OR (SELECT count(*) FROM nodes n WHERE n.paper_id = p.id AND n.kind = 'section')
				<> (SELECT coalesce(sum(n), 0) FROM paper_vectors v WHERE v.paper_id = p.id AND v.space = 'section'))`).Scan(&bad)
		if err != nil || bad != 0 {
			t.Errorf("round %d: %d papers with missing vectors (%v)", round, bad, err)
		}
		list, _ := s.ListPapers(context.Background())
		t.Logf("round %d: %d papers intact after the kill", round, len(list))
		s.Close()
	}
	// Saving takes nearly all of the child's time, so a kill between two
	// operations in every round means the test did not test a crash.
	t.Logf("%d of %d kills landed inside an operation", midSave, rounds)
	if midSave == 0 {
		t.Errorf("no kill landed inside an operation")
	}
}

// TestCancelledSaveLeavesNothing cancels SavePaper while it runs: the
// transaction rolls back, the error is coded canceled, the previous version
// of the paper stays, and the store keeps working.
func TestCancelledSaveLeavesNothing(t *testing.T) {
	s := openTemp(t)
	if _, err := s.EnsureEmbedder(context.Background(), "e", 64); err != nil {
		t.Fatal(err)
	}
	old := synthPaper("/x.pdf", 1, 1, 1, 2)
	oldID, err := s.SavePaper(context.Background(), old, Vectors{}, "v1")
	if err != nil {
		t.Fatal(err)
	}
	canceled := 0
	for delay := time.Duration(0); delay < 40*time.Millisecond; delay += 4 * time.Millisecond {
		p := thesisPaper("/x.pdf", 2)
		v := synthVectors(p, 64, 2)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(delay, cancel)
		_, err := s.SavePaper(ctx, p, v, "v2")
		cancel()
		if err == nil {
			break // the machine was fast enough to finish; later delays would too
		}
		if code := papertree.ErrorCode(err); code != papertree.ECanceled {
			t.Fatalf("cancelled save: code %s (%v)", code, err)
		}
		canceled++
		info, err := s.PaperByPath(context.Background(), "/x.pdf")
		if err != nil || info.ID != oldID || info.Fingerprint != "v1" {
			t.Fatalf("after a cancelled replace the old paper must stay: %+v, %v", info, err)
		}
	}
	if canceled == 0 {
		t.Fatal("no save was cancelled")
	}
	consistency(t, s)
}
