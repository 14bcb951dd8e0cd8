package library

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/treebuild"
)

// TestBreakerStopsAskingAHungServer: a server that never answers costs an
// index job a few calls, not one first-byte limit per segment; while it is
// not asked, structures and questions fall back at once and say why; after
// the pause it is asked again, and an answer closes the breaker.
func TestBreakerStopsAskingAHungServer(t *testing.T) {
	ctx := context.Background()
	s := newLLMServer(t)
	cfg := s.config()
	cfg.FirstByteTimeout = 150 * time.Millisecond
	// Small segments: many summary calls from the one fixture.
	tree := treebuild.DefaultOptions()
	tree.MaxSegmentTokens = 16
	l, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), LLM: cfg, Workers: 2, Tree: tree})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	st := l.llmOn()
	if st == nil {
		t.Fatal("LLM not on")
	}
	b := st.ops.Client.(*breaker)
	now := time.Now()
	b.now = func() time.Time { return now }
	s.raw = neverAnswers

	dir := t.TempDir()
	start := time.Now()
	sum, err := l.Index(ctx, []string{testPDF(t, dir, "a.pdf")}, nil)
	if err != nil || sum.Indexed != 1 {
		t.Fatalf("index: %+v %v", sum, err)
	}
	calls := s.count(llm.OpSummary)
	t.Logf("index against a hung server: %d summary calls in %s", calls, time.Since(start).Round(time.Millisecond))
	if calls == 0 || calls > breakerTrips+l.cfg.SummaryWorkers {
		t.Errorf("%d summary calls, want at most %d: the breaker did not stop them", calls, breakerTrips+l.cfg.SummaryWorkers)
	}
	p, _ := l.Paper(ctx, "1")
	segs := 0
	p.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.Kind == papertree.KindSegment {
			segs++
			if n.Summary == "" {
				t.Errorf("segment %d has no (extractive) summary", n.Order)
			}
		}
		return true
	})
	if segs <= calls {
		t.Fatalf("%d segments, %d calls: the fixture cannot show the breaker", segs, calls)
	}

	// While open: no request at all, the fallbacks say why.
	ssum, err := l.BuildDiscourseTrees(ctx, retrieve.DiscParams{}, nil)
	if err != nil || ssum.Built != 1 || ssum.Summaries != 0 || ssum.Fallbacks == 0 {
		t.Errorf("structures while open: %+v %v", ssum, err)
	}
	before := len(s.Calls())
	a, err := l.Ask(ctx, AskRequest{Question: "How are headings and glyphs grouped?", Budget: 256})
	if err != nil || a.Mode != "extractive" || !strings.Contains(strings.Join(a.Diag.Fallbacks, "\n"), "missed its time limit") {
		t.Fatalf("ask while open: %v %v", a, err)
	}
	// No request reached the server, so nothing could be waited for.
	if n := len(s.Calls()) - before; n != 0 {
		t.Errorf("ask while open: %d requests", n)
	}

	// After the pause one call at a time probes the server: the two
	// questions asked together make one request, which misses again.
	now = now.Add(breakerPause + time.Second)
	before = len(s.Calls())
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Ask(ctx, AskRequest{Question: "How are headings and glyphs grouped?", Budget: 256, NoHistory: true})
		}()
	}
	wg.Wait()
	if n := len(s.Calls()) - before; n != 1 {
		t.Errorf("%d requests after the pause, want 1 probe", n)
	}
	// The next pause ends and the server is back: an answer closes it.
	now = now.Add(breakerPause + time.Second)
	before = len(s.Calls())
	s.raw = nil
	a, err = l.Ask(ctx, AskRequest{Question: "How are headings and glyphs grouped?", Budget: 256})
	if err != nil || a.Mode != "llm" || len(s.Calls()) == before {
		t.Fatalf("ask after the pause: mode %v, %d new requests, %v", a.Mode, len(s.Calls())-before, err)
	}
	if b.misses != 0 {
		t.Errorf("misses %d after an answer", b.misses)
	}
}
