package retrieve_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// prefetchLibrary is a library past the paper-vector shortlist (32 papers),
// where a library-wide question prefetches its likely papers beside the
// keyword search.
func prefetchLibrary(t *testing.T) (*store.Store, []int64) {
	t.Helper()
	var papers []*papertree.Paper
	topics := []string{"protein folding", "machine translation", "speech recognition", "graph neural networks", "image segmentation"}
	for i := 0; i < 40; i++ {
		topic := topics[i%len(topics)]
		title := fmt.Sprintf("Studies of %s, part %d", topic, i)
		papers = append(papers, &papertree.Paper{Title: title, Path: fmt.Sprintf("/p%02d.pdf", i), Pages: 2, Root: &papertree.Node{
			Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
				sec("1 Introduction", seg(fmt.Sprintf("This paper studies %s. We describe method %d and why it matters for %s.", topic, i, topic))),
				sec("2 Data", seg(fmt.Sprintf("We collect corpus %d with 1,%03d examples of %s annotated by three experts.", i, i*7, topic))),
				sec("3 Results", seg(fmt.Sprintf("Method %d reaches an accuracy of %d.%d percent on %s, above the baseline.", i, 70+i%20, i%10, topic))),
			}}})
	}
	return setupStore(t, papers...)
}

// A paper's first load is shared: callers asking for it at once (a
// question's prefetch and the question itself) get the same prepared
// paper, read once; Invalidate still gives a fresh one afterwards.
func TestPaperFirstLoadIsShared(t *testing.T) {
	st, ids := prefetchLibrary(t)
	ix := retrieve.NewStoreIndex(st, embedding.NewBuiltin(), 0)
	ctx := context.Background()
	const callers = 8
	got := make([]*retrieve.PaperData, callers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			d, err := ix.Paper(ctx, ids[3])
			if err != nil {
				t.Error(err)
			}
			got[i] = d
		}()
	}
	close(start)
	wg.Wait()
	for i, d := range got {
		if d == nil || d != got[0] {
			t.Fatalf("caller %d got a different copy of the paper (%p, first %p)", i, d, got[0])
		}
	}
	ix.Invalidate(ids[3])
	again, err := ix.Paper(ctx, ids[3])
	if err != nil {
		t.Fatal(err)
	}
	if again == got[0] {
		t.Fatal("Invalidate kept the old copy")
	}
	// A cancelled caller gets its context's error, not a half-made paper.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	ix.Invalidate(ids[4])
	if d, err := ix.Paper(cctx, ids[4]); err == nil && d == nil {
		t.Fatal("no paper and no error")
	}
}

// Loading papers ahead (prefetch) and side by side changes no result: a
// question on a cold index answers exactly as the same question on an
// index whose papers were all loaded one by one beforehand.
func TestColdAndPreloadedIndexAnswerAlike(t *testing.T) {
	st, ids := prefetchLibrary(t)
	emb := embedding.NewBuiltin()
	ctx := context.Background()
	s, _ := retrieve.Get(retrieve.Default)
	questions := []struct{ name, q string }{
		{"topic", "How accurate is the method on machine translation?"},
		{"data", "How many examples of protein folding were annotated?"},
		{"named", "What does Studies of speech recognition, part 7 describe?"},
	}
	for _, tc := range questions {
		t.Run(tc.name, func(t *testing.T) {
			// A second index over the same store, every paper loaded first.
			cold := retrieve.NewStoreIndex(st, emb, 0)
			warm := retrieve.NewStoreIndex(st, emb, 0)
			for _, id := range ids {
				if _, err := warm.Paper(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
			a, err := s.Retrieve(ctx, cold, retrieve.Request{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Retrieve(ctx, warm, retrieve.Request{Query: tc.q})
			if err != nil {
				t.Fatal(err)
			}
			a.Diag.Timings, b.Diag.Timings = nil, nil
			if len(a.Evidence) == 0 {
				t.Fatal("no evidence")
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("cold index answered differently:\ncold %+v\nwarm %+v", a, b)
			}
		})
	}
}

// overlapIndex reports whether a paper was loaded while the first keyword
// search ran: its SearchText waits (up to a generous deadline) for a
// Paper call before searching.
type overlapIndex struct {
	retrieve.Index
	once     sync.Once
	loaded   chan struct{}
	searches int
	overlap  bool
}

func (o *overlapIndex) Paper(ctx context.Context, id int64) (*retrieve.PaperData, error) {
	o.once.Do(func() { close(o.loaded) })
	return o.Index.Paper(ctx, id)
}

func (o *overlapIndex) SearchText(ctx context.Context, q string, ids []int64, limit int) ([]store.Hit, error) {
	o.searches++
	if o.searches == 1 {
		select {
		case <-o.loaded:
			o.overlap = true
		case <-time.After(20 * time.Second):
		}
	}
	return o.Index.SearchText(ctx, q, ids, limit)
}

// In a library past the identity cards' whole-paper reading (64 papers),
// a library-wide question starts loading its likely papers before the
// keyword search of its scope, so the two run side by side.
func TestLibraryQuestionLoadsPapersBesideKeywordSearch(t *testing.T) {
	var papers []*papertree.Paper
	for i := 0; i < 70; i++ {
		title := fmt.Sprintf("Report %d on corpus building", i)
		papers = append(papers, &papertree.Paper{Title: title, Path: fmt.Sprintf("/r%02d.pdf", i), Pages: 1, Root: &papertree.Node{
			Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
				sec("1 Data", seg(fmt.Sprintf("Corpus %d holds %d documents collected from news sites and annotated twice.", i, 100+i))),
			}}})
	}
	ix, _ := setup(t, papers...)
	o := &overlapIndex{Index: ix, loaded: make(chan struct{})}
	s, _ := retrieve.Get(retrieve.Default)
	res, err := s.Retrieve(context.Background(), o, retrieve.Request{Query: "How many documents does the news corpus hold?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 {
		t.Fatal("no evidence")
	}
	if o.searches == 0 || !o.overlap {
		t.Fatalf("no paper was loaded during the scope's keyword search (%d searches)", o.searches)
	}
}
