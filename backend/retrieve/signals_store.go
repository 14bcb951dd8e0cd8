package retrieve

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/papertree/papertree/backend/store"
)

// SignalsKind is the store structure kind (store.SaveStructure) under which
// a paper's sentence signals are kept: made at index time from the stored
// paper, read with the paper on its first load, so a cold question decodes
// them (a tenth of the time) instead of reading every sentence of its
// papers. A paper without them, or with a copy made by other rules or from
// other text, gets them computed at question time as before.
const SignalsKind = "signals"

// signalsKey names the rules and the text the signals were made from: the
// version of the rules and a digest of everything buildExtraN reads (the
// title, and every node's kind, role, title and text in document order).
func signalsKey(d *PaperData) string {
	// FNV-1a of the bytes taken one piece at a time, as of their
	// concatenation, without copying the paper's text.
	h := newFNV64a()
	h.add(d.Paper.Title)
	var b []byte
	for o, n := range d.Nodes {
		b = append(b[:0], 0)
		b = strconv.AppendInt(b, int64(o), 10)
		b = append(b, '|')
		b = append(b, n.Role...)
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(d.Parent[o]), 10)
		b = append(b, '|')
		b = strconv.AppendBool(b, n.IsLeaf())
		b = append(b, '|')
		h.add(string(b))
		h.add(n.Title)
		h.add("\x00")
		h.add(n.Text)
	}
	return fmt.Sprintf("v%d-%016x", signalsVersion, uint64(h))
}

// fnv64a is hash/fnv's 64-bit FNV-1a over strings (which that package
// takes only as byte slices, i.e. copies).
type fnv64a uint64

func newFNV64a() fnv64a { return 14695981039346656037 }

func (h *fnv64a) add(s string) {
	x := uint64(*h)
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= 1099511628211
	}
	*h = fnv64a(x)
}

// EnsureSignals makes and stores the signals of paper id unless current
// ones are stored: at index time, after the paper is saved (and for papers
// indexed before signals were stored, when they are seen unchanged).
func EnsureSignals(ctx context.Context, st *store.Store, id int64) error {
	t := time.Now()
	d, key, err := signalsPaper(ctx, st, id)
	if err != nil || d == nil {
		return err
	}
	if k, _, ok, err := st.LoadStructure(ctx, id, SignalsKind); err == nil && ok && k == key {
		return nil
	}
	return st.SaveStructure(ctx, id, SignalsKind, key, encodeExtra(buildExtra(d)), time.Since(t))
}

// Signals returns the stored form of paper id's signals and its key, for
// callers that store them under other papers with the same text (the
// bench's synthetic copies). data is nil for a paper that is not ready.
func Signals(ctx context.Context, st *store.Store, id int64) (key string, data []byte, err error) {
	d, key, err := signalsPaper(ctx, st, id)
	if err != nil || d == nil {
		return "", nil, err
	}
	return key, encodeExtra(buildExtra(d)), nil
}

// signalsPaper loads paper id as a question would see it (nil when it is
// not ready) with its signals key.
func signalsPaper(ctx context.Context, st *store.Store, id int64) (*PaperData, string, error) {
	p, err := st.LoadPaper(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if p.Root == nil {
		return nil, "", nil
	}
	d := NewPaperData(p, nil, nil, nil)
	return d, signalsKey(d), nil
}

// storedExtra sets d's signals from their stored copy (key, data as
// LoadStructure returned them) when the copy fits d; otherwise nothing
// changes and the first use computes them.
func storedExtra(d *PaperData, key string, data []byte) {
	if d.Paper == nil || len(d.Nodes) == 0 || key != signalsKey(d) {
		return
	}
	x, err := decodeExtra(data, len(d.Nodes))
	if err != nil {
		return
	}
	extras.Lock()
	defer extras.Unlock()
	if d.extra == nil {
		e := &extraEntry{done: make(chan struct{}), x: x}
		close(e.done)
		d.extra = e
	}
}
