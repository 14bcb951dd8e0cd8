package pdf

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/internal/hostile"
	"github.com/papertree/papertree/backend/papertree"
)

// hostileCases are the audit's attack classes, at sizes that trip the
// default budgets (cmd/genhostile writes them at full size for the
// measurements in the README). want "" means the file must parse.
var hostileCases = []struct {
	name string
	gen  func() []byte
	want papertree.Code
	msg  string // part of the user message
}{
	{"number operands bomb", func() []byte { return hostile.NumberBomb(8 << 20) }, papertree.ETooComplex, "numbers or values in a row"},
	{"unclosed array bomb", func() []byte { return hostile.ArrayBomb(8 << 20) }, papertree.ETooComplex, "too complex"},
	{"stream over 64 MB", func() []byte { return hostile.StringBomb(80 << 20) }, papertree.ETooComplex, "expands to more than 64 MB"},
	{"huge CMap", func() []byte { return hostile.CMapBomb(8 << 20) }, papertree.ETooComplex, "character map"},
	{"shared content stream over 2999 pages", func() []byte { return hostile.SharedContent(2999, 64<<10) }, papertree.ETooComplex, "words"},
	{"contents array repeating one stream", func() []byte { return hostile.RepeatedContents(100_000) }, "", ""},
	{"too many pages", func() []byte { return hostile.ManyPages(5000) }, papertree.ETooLarge, "too many pages"},
	{"one 450k-character word", func() []byte { return hostile.LongWord(450_000) }, "", ""},
	{"page of text operators", func() []byte { return hostile.TextOperators(3_100_000) }, papertree.ETooComplex, "a page has more than"},
	{"one 8 MB line of text", func() []byte { return hostile.LongTextLine(8 << 20) }, papertree.ETooComplex, "one piece of text of 8.0 MB, more than the 4 MB"},
	{"page tree 20,000 levels deep", func() []byte { return hostile.DeepPageTree(20_000) }, papertree.ETooComplex, "page tree is nested more than 64 levels deep"},
	{"page tree 64 levels deep", func() []byte { return hostile.DeepPageTree(64) }, "", ""},
	{"page tree that loops", hostile.PageTreeLoop, papertree.EMalformed, "page tree loops back on itself"},
	{"good paper", func() []byte { return hostile.Good("A good paper") }, "", ""},
}

func TestHostile(t *testing.T) {
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.gen()
			start := time.Now()
			doc, err := Parse(context.Background(), bytes.NewReader(data), int64(len(data)), Options{MaxPages: 3000})
			t.Logf("%d bytes on disk, %v", len(data), time.Since(start).Round(time.Millisecond))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want a document, got [%s] %v", papertree.ErrorCode(err), err)
				}
				if !hasRuns(doc.Pages) {
					t.Fatal("no runs")
				}
				return
			}
			if got := papertree.ErrorCode(err); got != tc.want {
				t.Fatalf("code %q, want %q (%v)", got, tc.want, err)
			}
			if msg := papertree.ErrorMessage(err); !strings.Contains(msg, tc.msg) {
				t.Fatalf("message %q does not say %q", msg, tc.msg)
			}
		})
	}
}

// TestRepeatedContentsReadOnce: a stream listed many times in one page's
// /Contents is drawn once (its words appear once).
func TestRepeatedContentsReadOnce(t *testing.T) {
	data := hostile.RepeatedContents(1000)
	doc, err := Parse(context.Background(), bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Pages[0].Runs); n != 5 {
		t.Fatalf("%d runs, want the 5 words once", n)
	}
}

// TestLongWordKept: a 450k-character word is kept whole, in glued runs.
func TestLongWordKept(t *testing.T) {
	data := hostile.LongWord(450_000)
	doc, err := Parse(context.Background(), bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, r := range doc.Pages[0].Runs {
		if len(r.Text) > maxWordBytes {
			t.Fatalf("run of %d bytes", len(r.Text))
		}
		if i > 0 && !r.Glued {
			t.Fatalf("run %d not glued", i)
		}
		total += len(r.Text)
	}
	if total != 450_000 {
		t.Fatalf("%d characters kept, want 450000", total)
	}
}

// countingCtx is cancelled after its Err has been asked n times: it shows
// that cancellation is checked inside a page, not only between pages.
type countingCtx struct {
	context.Context
	calls, after int64
}

func (c *countingCtx) Err() error {
	if atomic.AddInt64(&c.calls, 1) > c.after {
		return context.Canceled
	}
	return nil
}

func TestCancelInsidePage(t *testing.T) {
	// One page of 200,000 words, with the word budget lifted: without
	// checks inside the page nothing would stop it before its end.
	data := hostile.TextOperators(2_800_000)
	ctx := &countingCtx{Context: context.Background(), after: 5}
	_, err := Parse(ctx, bytes.NewReader(data), int64(len(data)), Options{MaxPageRuns: -1, MaxRuns: -1})
	if papertree.ErrorCode(err) != papertree.ECanceled {
		t.Fatalf("want canceled, got %v", err)
	}
	if ctx.calls > 50 {
		t.Fatalf("ctx checked %d times after cancel", ctx.calls)
	}
}

func TestDeadlineIsTimeout(t *testing.T) {
	data := hostile.Good("x")
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := Parse(ctx, bytes.NewReader(data), int64(len(data)), Options{})
	if papertree.ErrorCode(err) != papertree.ETimeout {
		t.Fatalf("want timeout, got %v", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the cause is lost")
	}
}

// TestFormDrawnManyTimesCountsEveryRead: a stream read again and again (a
// form drawn 500 times) counts against the document budget at every
// read, so re-use cannot escape it.
func TestFormDrawnManyTimesCountsEveryRead(t *testing.T) {
	data := hostile.FormRepeat(500, 16<<10)
	_, err := Parse(context.Background(), bytes.NewReader(data), int64(len(data)), Options{MaxDocBytes: 4 << 20})
	if papertree.ErrorCode(err) != papertree.ETooComplex || !strings.Contains(papertree.ErrorMessage(err), "more than 4 MB in all") {
		t.Fatalf("want too_complex over 4 MB in all, got %v", err)
	}
	// Within budget the same file reads (the form has no text; the page's
	// own line does).
	doc, err := Parse(context.Background(), bytes.NewReader(data), int64(len(data)), Options{MaxDocBytes: 16 << 20})
	if err != nil || len(doc.Pages[0].Runs) != 5 {
		t.Fatalf("within budget: %v", err)
	}
}
