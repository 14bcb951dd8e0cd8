package retrieve_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/summarize"
)

func TestStructureStrategiesFindTheRightSection(t *testing.T) {
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"))
	tests := []struct {
		name, strategy, question, wantSection string
	}{
		{"rdr2 training", "rdr2", "What learning rate and batch size were used for training?", "3.2 Training"},
		{"rdr2 dataset", "rdr2", "Which dataset is used for evaluation and how many papers does it have?", "2 Datasets"},
		{"disretrieval training", "disretrieval", "What learning rate and batch size were used for training?", "3.2 Training"},
		{"disretrieval dataset", "disretrieval", "Which dataset is used for evaluation and how many papers does it have?", "2 Datasets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := retrieve.Get(tt.strategy)
			if err != nil {
				t.Fatal(err)
			}
			if s.Description() == "" {
				t.Fatal("no description for the strategy menu")
			}
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tt.question, PaperIDs: ids, Budget: 60})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, 60)
			best := res.Evidence[0]
			for _, e := range res.Evidence {
				if e.Score > best.Score {
					best = e
				}
			}
			if last := best.Path[len(best.Path)-1]; last != tt.wantSection {
				t.Fatalf("best evidence in %q, want %q (%+v)", last, tt.wantSection, res.Evidence)
			}
			if len(best.Pages) == 0 || len(best.Boxes) == 0 {
				t.Fatalf("evidence lacks pages/boxes: %+v", best)
			}
		})
	}
}

// checkResult checks what every strategy promises: evidence that resolves to
// a root-to-leaf path, within the budget, in document order, and (for
// sentence evidence) a span that is exactly the cited text.
func checkResult(t *testing.T, res retrieve.Result, budget int) {
	t.Helper()
	if len(res.Evidence) == 0 {
		t.Fatal("no evidence")
	}
	if res.Diag.TokensUsed > budget {
		t.Fatalf("tokens used %d > budget %d", res.Diag.TokensUsed, budget)
	}
	sum := 0
	seen := map[string]bool{}
	for i, e := range res.Evidence {
		sum += e.Tokens
		if e.NodeID == 0 || len(e.Path) == 0 || len(e.PathIDs) != len(e.Path) || strings.TrimSpace(e.Text) == "" {
			t.Fatalf("evidence %d does not resolve: %+v", i, e)
		}
		key := fmt.Sprint(e.NodeID, e.Span)
		if seen[key] {
			t.Fatalf("evidence %d repeats %s", i, key)
		}
		seen[key] = true
		if i > 0 && e.PaperID == res.Evidence[i-1].PaperID && e.Order < res.Evidence[i-1].Order {
			t.Fatal("evidence not in document order")
		}
	}
	if sum > budget {
		t.Fatalf("evidence tokens %d > budget %d", sum, budget)
	}
}

// nodeText finds a node's text in the stored paper.
func nodeText(t *testing.T, ix *retrieve.StoreIndex, e papertree.Evidence) string {
	t.Helper()
	d, err := ix.Paper(context.Background(), e.PaperID)
	if err != nil {
		t.Fatal(err)
	}
	return d.Nodes[d.Order(e.NodeID)].Text
}

func TestDisretrievalCitesOriginalSentences(t *testing.T) {
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"), paper("Another Paper", "/b.pdf"))
	s, _ := retrieve.Get("disretrieval")
	for _, budget := range []int{12, 40, 512} {
		res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: "How many papers and questions does QASPER have?", PaperIDs: ids, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, res, budget)
		for _, e := range res.Evidence {
			full := nodeText(t, ix, e)
			switch {
			case e.Span != nil:
				if full[e.Span.Start:e.Span.End] != e.Text {
					t.Fatalf("span [%d,%d) of %q is not the cited %q", e.Span.Start, e.Span.End, full, e.Text)
				}
			case e.Text != full:
				t.Fatalf("evidence without span %q is not its whole node %q", e.Text, full)
			}
		}
	}
}

// TestStructuresStoredAndReused checks the index-time structure lifecycle:
// built on first use, stored, re-used from the store by a fresh index (no
// rebuild), rebuilt when its settings change.
func TestStructuresStoredAndReused(t *testing.T) {
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"))
	ctx := context.Background()
	s, _ := retrieve.Get("disretrieval")
	req := retrieve.Request{Query: "Which optimizer was used?", PaperIDs: ids, Budget: 64}
	if _, err := s.Retrieve(ctx, ix, req); err != nil {
		t.Fatal(err)
	}
	key, data, ok, err := ix.LoadStructure(ctx, ids[0], retrieve.DiscourseKind)
	if err != nil || !ok || len(data) == 0 || !strings.HasSuffix(key, "|extractive") {
		t.Fatalf("stored structure: key %q, %d bytes, ok %v, err %v", key, len(data), ok, err)
	}
	req.Params.Disc.Tree.Bisection = true
	if _, err := s.Retrieve(ctx, ix, req); err != nil {
		t.Fatal(err)
	}
	key2, _, _, _ := ix.LoadStructure(ctx, ids[0], retrieve.DiscourseKind)
	if key2 == key || !strings.Contains(key2, "bisect") {
		t.Fatalf("settings change did not rebuild: %q -> %q", key, key2)
	}
}

// TestRDR2LLMRouter drives rdr2 with scripted LLM router outputs: valid
// actions are followed, invalid ids are expelled and reported, malformed
// output and failures fall back to the offline router for that step, and
// refusals everywhere fall back to the retrieved passages.
func TestRDR2LLMRouter(t *testing.T) {
	ix, ids := setup(t, paper("Path-Guided QA", "/a.pdf"))
	s, _ := retrieve.Get("rdr2")
	q := "What learning rate and batch size were used for training?"
	tests := []struct {
		name      string
		route     func(subtree string) (string, error)
		fallback  string // substring of a diagnostics fallback ("" = none)
		wantCalls func(n int) bool
	}{
		{"answers the visible passage", func(st string) (string, error) {
			for _, line := range strings.Split(st, "\n") {
				if strings.Contains(line, "learning rate") {
					id := strings.TrimSpace(strings.SplitN(line, ":", 2)[0])
					return "[ANSWER] " + id + ": We train with", nil
				}
			}
			for _, line := range strings.Split(st, "\n") {
				if strings.Contains(line, "3.2 Training") {
					return "[EXPAND] " + strings.TrimSpace(strings.SplitN(line, ":", 2)[0]) + ": 3.2 Training", nil
				}
			}
			return "Cannot answer", nil
		}, "", func(n int) bool { return n >= 1 }},
		{"ids that are not visible", func(string) (string, error) { return "[ANSWER] 9999: nothing\n[EXPAND] 0: root", nil },
			"not valid in their subtree", func(n int) bool { return n >= 1 }},
		{"malformed output", func(string) (string, error) { return "I think section three.", nil },
			"offline router", func(n int) bool { return n >= 1 }},
		{"server failure", func(string) (string, error) { return "", errors.New("connection refused") },
			"the LLM router failed", func(n int) bool { return n >= 1 }},
		{"refusal everywhere", func(string) (string, error) { return "Cannot answer", nil },
			"every route refused", func(n int) bool { return n >= 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var subtrees []string
			req := retrieve.Request{Query: q, PaperIDs: ids, Budget: 60, Route: func(ctx context.Context, question, subtree string) (string, error) {
				calls++
				subtrees = append(subtrees, subtree)
				if question != q {
					t.Errorf("router got question %q", question)
				}
				return tt.route(subtree)
			}}
			res, err := s.Retrieve(context.Background(), ix, req)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.wantCalls(calls) {
				t.Fatalf("%d router calls", calls)
			}
			for _, st := range subtrees {
				// Every heading is visible in every subtree.
				for _, h := range []string{"1 Introduction", "2 Datasets", "3 Model", "3.1 Encoder", "3.2 Training", "4 Results"} {
					if !strings.Contains(st, ": "+h+"\n") {
						t.Fatalf("subtree lacks heading %q:\n%s", h, st)
					}
				}
			}
			checkResult(t, res, 60)
			if len(res.Route) != calls {
				t.Fatalf("trace has %d steps for %d router calls", len(res.Route), calls)
			}
			for _, st := range res.Route {
				wantRouter := "llm"
				if tt.name == "malformed output" || tt.name == "server failure" {
					wantRouter = "offline"
				}
				if st.Router != wantRouter || len(st.Lit) == 0 || st.Raw == "" {
					t.Fatalf("trace step %+v, want router %s", st, wantRouter)
				}
			}
			fb := strings.Join(res.Diag.Fallbacks, "\n")
			if tt.fallback == "" && fb != "" || tt.fallback != "" && !strings.Contains(fb, tt.fallback) {
				t.Fatalf("fallbacks %q, want %q", fb, tt.fallback)
			}
			if tt.fallback == "" && !strings.Contains(res.Evidence[0].Text, "learning rate") {
				t.Fatalf("routed evidence %+v", res.Evidence)
			}
		})
	}
}

// TestStrategiesSurviveBadInput: each strategy answers or says nothing was
// found on degenerate papers; none panics or exceeds the budget.
func TestStrategiesSurviveBadInput(t *testing.T) {
	root := func(kids ...*papertree.Node) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindRoot, Title: "Degenerate", Children: kids}
	}
	var thesis []*papertree.Node
	for c := 1; c <= 30; c++ {
		var secs []*papertree.Node
		for s := 1; s <= 5; s++ {
			var segs []*papertree.Node
			for p := 0; p < 10; p++ {
				// ~300 pages: 1,500 paragraphs of ~100 words.
				segs = append(segs, seg(strings.Repeat(fmt.Sprintf("Chapter %d section %d studies topic %d with method m%d. ", c, s, p, c*s), 8)))
			}
			secs = append(secs, sec(fmt.Sprintf("%d.%d Topic", c, s), segs...))
		}
		thesis = append(thesis, sec(fmt.Sprintf("%d Chapter", c), secs...))
	}
	var flat []*papertree.Node
	for i := 0; i < 40; i++ {
		flat = append(flat, seg(fmt.Sprintf("Paragraph %d reports result r%d on dataset d%d.", i, i, i%7)))
	}
	long := strings.Repeat("the encoder reads tokens and the decoder writes them back ", 400) // one 4,000-word sentence
	papers := map[string]*papertree.Paper{
		"one paragraph":      {Title: "Degenerate", Path: "/one.pdf", Pages: 1, Root: root(seg("We propose a parser. It is fast."))},
		"no headings":        {Title: "Degenerate", Path: "/flat.pdf", Pages: 4, Root: root(flat...)},
		"300-page thesis":    {Title: "Degenerate", Path: "/thesis.pdf", Pages: 300, Root: root(thesis...)},
		"one long sentence":  {Title: "Degenerate", Path: "/long.pdf", Pages: 9, Root: root(sec("1 Model", seg(long)))},
		"empty paper (root)": {Title: "Degenerate", Path: "/empty.pdf", Pages: 1, Root: root()},
	}
	questions := []string{"What does the decoder do?", "Which method does chapter 7 section 3 use?", "zzzz qqqq"}
	for name, p := range papers {
		t.Run(name, func(t *testing.T) {
			ix, ids := setup(t, p)
			for _, strat := range []string{"naive", "pt-rag", "rdr2", "disretrieval"} {
				s, _ := retrieve.Get(strat)
				t0 := time.Now()
				for _, budget := range []int{16, 512} {
					for _, q := range questions {
						res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: q, PaperIDs: ids, Budget: budget})
						if err != nil {
							if papertree.ErrorCode(err) == papertree.ENotFound {
								continue
							}
							t.Fatalf("%s/%d/%q: %v", strat, budget, q, err)
						}
						sum := 0
						for _, e := range res.Evidence {
							sum += e.Tokens
						}
						if res.Diag.TokensUsed > budget || sum > budget {
							t.Fatalf("%s/%d/%q: %d/%d tokens over budget", strat, budget, q, res.Diag.TokensUsed, sum)
						}
					}
				}
				t.Logf("%s: %v", strat, time.Since(t0))
			}
		})
	}
}

// countingEmbedder counts document embeddings (a discourse tree build embeds
// every sentence and node; a retrieval from a stored tree embeds only the
// query).
type countingEmbedder struct {
	papertree.Embedder
	docs atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.docs.Add(int64(len(texts)))
	return c.Embedder.Embed(ctx, texts)
}

// TestStoredTreeReusedByANewProcess: a fresh index over the same store (as
// after a restart) re-uses the stored tree instead of rebuilding it.
func TestStoredTreeReusedByANewProcess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb := &countingEmbedder{Embedder: embedding.NewBuiltin()}
	if _, err := st.EnsureEmbedder(ctx, emb.Name(), emb.Dim()); err != nil {
		t.Fatal(err)
	}
	p := paper("Path-Guided QA", "/a.pdf")
	p.Hash = "abc123"
	summarize.Paper(p)
	v, err := embedding.EmbedPaper(ctx, emb.Embedder, p)
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.SavePaper(ctx, p, store.Vectors(v), "test")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := retrieve.Get("disretrieval")
	req := retrieve.Request{Query: "Which optimizer was used?", PaperIDs: []int64{id}, Budget: 64}
	first, err := s.Retrieve(ctx, retrieve.NewStoreIndex(st, emb, 0), req)
	if err != nil {
		t.Fatal(err)
	}
	if emb.docs.Load() == 0 {
		t.Fatal("the first question did not build the tree")
	}
	emb.docs.Store(0)
	again, err := s.Retrieve(ctx, retrieve.NewStoreIndex(st, emb, 0), req)
	if err != nil {
		t.Fatal(err)
	}
	if n := emb.docs.Load(); n != 0 {
		t.Fatalf("a new index rebuilt the stored tree (%d texts embedded)", n)
	}
	if fmt.Sprint(first.Evidence) != fmt.Sprint(again.Evidence) {
		t.Fatalf("stored tree gives other evidence:\n%+v\n%+v", first.Evidence, again.Evidence)
	}
}
