package library

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

const fixtures = "../pdf/testdata"

// copyFixture writes the fixture to dst as a PDF of its own: a comment
// naming dst after its end makes each copy's content distinct, so that
// copies of one fixture are different papers (the same content under two
// paths is one paper: see TestSameContentIsOnePaper). copySame copies it
// byte for byte.
func copyFixture(t testing.TB, name, dst string) {
	t.Helper()
	writeFixture(t, name, dst, "\n% "+filepath.Base(dst)+" "+strconv.Quote(dst)+"\n")
}

func copySame(t testing.TB, name, dst string) { t.Helper(); writeFixture(t, name, dst, "") }

func writeFixture(t testing.TB, name, dst, trailer string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, append(b, trailer...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIndexEventsAndStatuses(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	copyFixture(t, "encrypted.pdf", filepath.Join(dir, "b.pdf"))
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(dir, "db", "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var mu sync.Mutex
	seen := map[string][]FileStatus{}
	var last Event
	sum, err := lib.Index(ctx, []string{dir}, func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		seen[filepath.Base(ev.File)] = append(seen[filepath.Base(ev.File)], ev.Status)
		last = ev
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 1 || len(sum.Failed) != 1 || sum.Failed[0].Code != papertree.EEncrypted {
		t.Fatalf("summary %+v", sum)
	}
	if got := seen["a.pdf"]; got[0] != StatusQueued || got[len(got)-1] != StatusReady {
		t.Fatalf("a.pdf statuses %v", got)
	}
	if got := seen["b.pdf"]; got[len(got)-1] != StatusFailed {
		t.Fatalf("b.pdf statuses %v", got)
	}
	if last.Done != 2 || last.Total != 2 {
		t.Fatalf("last event %+v", last)
	}
	ps, _ := lib.Papers(ctx)
	if len(ps) != 2 {
		t.Fatalf("papers %+v", ps)
	}
	p, err := lib.Paper(ctx, filepath.Join(dir, "a.pdf"))
	if err != nil || p.Root == nil {
		t.Fatalf("paper: %v", err)
	}
	if _, err := lib.Paper(ctx, filepath.Join(dir, "b.pdf")); papertree.ErrorCode(err) != papertree.EConflict {
		t.Fatalf("failed paper should not load: %v", err)
	}
	ans, err := lib.Ask(ctx, AskRequest{Question: "How are glyphs grouped?"})
	if err != nil || len(ans.Evidence) == 0 || ans.Mode != "extractive" {
		t.Fatalf("ask: %v %+v", err, ans)
	}
}

func TestIndexCancelKeepsWholePapers(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 40; i++ {
		copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "p"+string(rune('a'+i%26))+string(rune('a'+i/26))+".pdf"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	lib, err := Open(context.Background(), Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	n := 0
	_, err = lib.Index(ctx, []string{dir}, func(ev Event) {
		if ev.Status == StatusReady {
			if n++; n == 3 {
				cancel()
			}
		}
	})
	if papertree.ErrorCode(err) != papertree.ECanceled {
		t.Fatalf("cancel: %v", err)
	}
	ps, _ := lib.Papers(context.Background())
	if len(ps) < 3 || len(ps) == 40 {
		t.Fatalf("%d papers after cancel", len(ps))
	}
	sum, err := lib.Index(context.Background(), []string{dir}, nil)
	if err != nil || sum.Unchanged != len(ps) || sum.Indexed != 40-len(ps) {
		t.Fatalf("resume after cancel: %v %+v", err, sum)
	}
}

func TestFindPDFs(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", ".hidden"), 0o755)
	for _, f := range []string{"x.pdf", "a/y.PDF", "a/.hidden/z.pdf", "a/notes.txt"} {
		os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644)
	}
	got, err := FindPDFs([]string{dir, filepath.Join(dir, "x.pdf")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || filepath.Base(got[0]) != "y.PDF" || filepath.Base(got[1]) != "x.pdf" {
		t.Fatalf("found %v", got)
	}
	if _, err := FindPDFs([]string{filepath.Join(dir, "missing")}); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Fatalf("missing path: %v", err)
	}
}

// BenchmarkIngestCorpus indexes the 44 development PDFs with the built-in
// embedder into a fresh database and reports pages/second and the process's
// peak RSS. Compare with: time (for f in ../shared/data/pdfs/*.pdf; do pdftotext "$f" /dev/null; done)
func BenchmarkIngestCorpus(b *testing.B) {
	dir := shareddata.Dir(b, "pdfs")
	for i := 0; i < b.N; i++ {
		db := filepath.Join(b.TempDir(), "lib.db")
		// OCR off: this measures the text pipeline (OCR is measured apart).
		lib, err := Open(context.Background(), Config{DBPath: db, OCR: OCRConfig{Off: true}})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		sum, err := lib.Index(context.Background(), []string{dir}, nil)
		if err != nil {
			b.Fatal(err)
		}
		secs := time.Since(start).Seconds()
		lib.Close()
		b.ReportMetric(float64(sum.Pages)/secs, "pages/s")
		b.ReportMetric(float64(sum.Indexed), "papers")
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peakRSS_MB")
	}
}

// Close stops and waits for the warm-up Open starts: a one-shot command
// (edit, export) closing at once must not leave it reading the file, which
// made a test's temporary folder fail to delete ("directory not empty").
func TestCloseWaitsForWarmUp(t *testing.T) {
	ctx := context.Background()
	for i := range 5 {
		dir := t.TempDir()
		lib, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db")})
		if err != nil {
			t.Fatal(err)
		}
		if err := lib.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-lib.warmDone:
		default:
			t.Fatalf("open %d: Close returned while the warm-up was running", i)
		}
	}
}

// The warm-up loads every paper ahead in a library that fits its budget,
// and none in a one-question process (the CLI's ask) or with a negative
// budget (the CLI's other commands).
func TestWarmLoadsPapersUnlessOneQuestion(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	ctx := context.Background()
	db := filepath.Join(dir, "lib.db")
	lib, err := Open(ctx, Config{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
		want int
	}{
		{"app", Config{DBPath: db}, 1},
		{"one question", Config{DBPath: db, OneQuestion: true}, 0},
		{"no budget", Config{DBPath: db, WarmBudget: -1}, 0},
	} {
		lib, err := Open(ctx, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Asked at once, while the warm-up may run, and again after it:
		// the same evidence.
		q := AskRequest{Question: "How are glyphs grouped?", NoHistory: true}
		during, err := lib.Ask(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		w := lib.Warm(ctx)
		after, err := lib.Ask(ctx, q)
		lib.Close()
		if err != nil {
			t.Fatal(err)
		}
		if w.Loaded != c.want {
			t.Errorf("%s: warm-up %+v, want %d papers loaded", c.name, w, c.want)
		}
		if len(during.Evidence) == 0 || !reflect.DeepEqual(during.Evidence, after.Evidence) {
			t.Errorf("%s: evidence during the warm-up %+v, after %+v", c.name, during.Evidence, after.Evidence)
		}
	}
}
