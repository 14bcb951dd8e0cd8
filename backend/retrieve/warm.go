package retrieve

import (
	"context"
	"sync"
)

// Warm does ahead of time what the first library-wide question on ix would
// otherwise do itself: the identity cards used to tell whether a question
// names one paper (built from the store, no paper loaded).
// Errors are ignored: the question then does the work as before.
func Warm(ctx context.Context, ix Index) {
	all, err := ix.ReadyPapers(ctx)
	if err != nil {
		return
	}
	if cs, ok := ix.(cardSource); ok {
		cs.identityCards(ctx, all)
	}
}

// nodeOverheadBytes is what a loaded paper holds per node besides its
// stored vectors: the node itself, its text, its sentence signals and its
// section title vectors. Measured on the 148 development papers: 202 MB of
// heap for 20,165 nodes, of which 110 MB stored vectors.
const nodeOverheadBytes = 4600

// PaperWarmth is what WarmPapers did.
type PaperWarmth struct {
	Papers   int   // papers in the library (0 when not counted: no budget)
	Loaded   int   // papers loaded (0 when the library does not fit)
	Estimate int64 // estimated bytes of every paper loaded (0 when not counted)
}

// WarmPapers loads every ready paper for retrieval, as a question's first
// look at it would (tree, vectors, sentence signals, section title
// vectors, abbreviations), when the estimated memory of them all is within
// budget bytes and they fit the cache; otherwise it loads none (a part of
// a large library would rarely hold what the first question searches).
// One paper at a time, and none while a question is in flight (Asking): a
// question asked meanwhile never waits for the warm-up, it shares the one
// paper being loaded, if it wants that one, and finds the others ready or
// loads them itself. It stops when ctx ends.
func (ix *StoreIndex) WarmPapers(ctx context.Context, budget int64) PaperWarmth {
	var w PaperWarmth
	if budget <= 0 {
		return w
	}
	// A warm-up under way is not repeated: this call waits for it (or for
	// ctx) and then finds the papers loaded.
	select {
	case ix.warming <- struct{}{}:
	case <-ctx.Done():
		return w
	}
	defer func() { <-ix.warming }()
	z, err := ix.st.ReadySize(ctx, false)
	if err != nil {
		return w
	}
	w.Papers = int(z.Papers)
	if z.Papers > int64(ix.limit) || z.Nodes*nodeOverheadBytes > budget {
		return w
	}
	if z, err = ix.st.ReadySize(ctx, true); err != nil {
		return w
	}
	w.Estimate = z.Floats*4 + z.Nodes*nodeOverheadBytes
	if w.Estimate > budget {
		return w
	}
	all, err := ix.ReadyPapers(ctx)
	if err != nil {
		return w
	}
	for _, id := range all {
		ix.questions.idle(ctx)
		if ctx.Err() != nil {
			break
		}
		d, err := loadExtra(ctx, ix, id, true)
		if err != nil {
			continue
		}
		abbreviations(d)
		w.Loaded++
	}
	return w
}

// Asking marks a question in flight on ix until the returned function is
// called: WarmPapers loads no paper meanwhile, so the question has the
// cores to itself (and no collection of the warm-up's garbage to help
// with).
func (ix *StoreIndex) Asking() (done func()) {
	return ix.questions.begin()
}

// inFlight counts the questions in flight.
type inFlight struct {
	mu   sync.Mutex
	n    int
	none chan struct{} // closed when n drops to 0; nil while n == 0
}

func (f *inFlight) begin() func() {
	f.mu.Lock()
	if f.n == 0 {
		f.none = make(chan struct{})
	}
	f.n++
	f.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			if f.n--; f.n == 0 {
				close(f.none)
				f.none = nil
			}
			f.mu.Unlock()
		})
	}
}

// idle returns when no question is in flight, or when ctx ends.
func (f *inFlight) idle(ctx context.Context) {
	f.mu.Lock()
	none := f.none
	f.mu.Unlock()
	if none == nil {
		return
	}
	select {
	case <-none:
	case <-ctx.Done():
	}
}
