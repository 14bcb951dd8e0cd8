// Added by the papertree patch: budgets enforced while parsing.
//
// A small PDF can expand without bound when it is read: a 1 MB Flate stream
// inflates to gigabytes of number operands, a ToUnicode CMap lists millions
// of entries, thousands of pages share one content stream, a /Contents array
// names one stream 100,000 times. The upstream reader has no limit on any of
// these. Limits bound them while the data is being read (never after): the
// first limit hit is recorded on the Reader (Err), the read that hit it
// stops, and every interpreter loop of the Reader stops soon after, so the
// caller can give the file a clear error instead of exhausting memory.

package pdf

import (
	"errors"
	"fmt"
	"io"
)

// Limits bound the work one Reader does. Zero fields mean "no limit".
type Limits struct {
	// MaxStreamBytes bounds the decoded (inflated) bytes read from one
	// stream in one read.
	MaxStreamBytes int64
	// MaxDocBytes bounds the decoded bytes read from all streams of the
	// document. A stream read several times (a content stream shared by
	// many pages, a form drawn many times) counts at every read.
	MaxDocBytes int64
	// MaxOperands bounds the operand stack of content streams and CMaps:
	// no operator takes more than a handful; only damage or an attack
	// pushes more.
	MaxOperands int
	// MaxCMapEntries bounds the bfchar and bfrange entries of one CMap.
	MaxCMapEntries int
	// Check is called often (every few thousand tokens or glyphs) inside
	// long loops; a non-nil error stops the Reader. Callers pass the
	// context's Err to make cancellation and deadlines act inside a page.
	Check func() error
}

// ErrLimit is wrapped by every *LimitError.
var ErrLimit = errors.New("pdf: resource limit exceeded")

// LimitError reports which limit a document hit.
type LimitError struct {
	What  string // "stream bytes", "document bytes", "operands", "cmap entries"
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("pdf: %s over the limit of %d", e.What, e.Limit)
}

func (e *LimitError) Unwrap() error { return ErrLimit }

// checkEvery is how many tokens or glyphs pass between two Check calls.
const checkEvery = 1024

// SetLimits sets the Reader's budgets. Call it before reading pages.
func (r *Reader) SetLimits(l Limits) {
	r.limits = l
}

// Err returns the first limit error or Check error the Reader stopped on,
// nil when it never stopped.
func (r *Reader) Err() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopErr
}

// stop records err as the reason the Reader stopped (the first one wins).
func (r *Reader) stop(err error) {
	r.mu.Lock()
	if r.stopErr == nil {
		r.stopErr = err
	}
	r.stopped.Store(true)
	r.mu.Unlock()
}

// halted reports whether the Reader has stopped; cheap enough for every
// token.
func (r *Reader) halted() bool {
	return r != nil && r.stopped.Load()
}

// tick counts one unit of work and calls Check every checkEvery units. It
// reports whether the Reader may go on.
func (r *Reader) tick() bool {
	if r == nil {
		return true
	}
	if r.stopped.Load() {
		return false
	}
	r.ticks++
	if r.ticks%checkEvery == 0 && r.limits.Check != nil {
		if err := r.limits.Check(); err != nil {
			r.stop(err)
			return false
		}
	}
	return true
}

// errStopped is returned by reads of a stopped Reader.
var errStopped = errors.New("pdf: reader stopped")

// countingReader counts the decoded bytes of one stream read against the
// stream and document budgets.
type countingReader struct {
	r    *Reader
	src  io.Reader
	n    int64
	done bool
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.done || c.r.halted() {
		return 0, errStopped
	}
	n, err := c.src.Read(p)
	c.n += int64(n)
	lim := c.r.limits
	if lim.MaxStreamBytes > 0 && c.n > lim.MaxStreamBytes {
		c.r.stop(&LimitError{What: "stream bytes", Limit: lim.MaxStreamBytes})
		c.done = true
		return 0, errStopped
	}
	c.r.mu.Lock()
	c.r.docBytes += int64(n)
	total := c.r.docBytes
	c.r.mu.Unlock()
	if lim.MaxDocBytes > 0 && total > lim.MaxDocBytes {
		c.r.stop(&LimitError{What: "document bytes", Limit: lim.MaxDocBytes})
		c.done = true
		return 0, errStopped
	}
	return n, err
}

// lazyStreams reads an array of content streams one after another, opening
// (and allocating the decoder of) each only when the previous one is
// exhausted. Upstream opened every stream of the array up front: a /Contents
// array naming one stream 100,000 times allocated 100,000 inflaters. A
// stream listed again in the same array is read once.
type lazyStreams struct {
	arr  Value
	i    int
	cur  io.Reader
	seen map[objptr]bool
}

func (l *lazyStreams) Read(p []byte) (int, error) {
	for {
		if l.arr.r.halted() {
			return 0, errStopped
		}
		if l.cur == nil {
			if l.i >= l.arr.Len() {
				return 0, io.EOF
			}
			v := l.arr.Index(l.i)
			l.i++
			if v.Kind() != Stream {
				continue
			}
			if ptr := v.data.(stream).ptr; ptr != (objptr{}) {
				if l.seen[ptr] {
					continue
				}
				l.seen[ptr] = true
			}
			l.cur = v.Reader()
			// Streams are concatenated with a separator, as the
			// specification requires: a token never spans two streams.
			return copy(p, "\n"), nil
		}
		n, err := l.cur.Read(p)
		if err == io.EOF {
			l.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// Abort stops the Reader with err (the first reason wins): every
// interpreter loop and stream read of the Reader ends soon after, and Err
// returns err. Callers use it for budgets the Reader does not know, e.g.
// words per page.
func (r *Reader) Abort(err error) {
	r.stop(err)
}
