package retrieve

import (
	"context"
	"testing"
)

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// The warm-up's gate: idle returns at once with no question in flight,
// waits while any is (until the last ends, or ctx), and a question's done
// counts once however often it is called.
func TestInFlightGate(t *testing.T) {
	var f inFlight
	ctx := context.Background()
	f.idle(ctx) // no question: returns
	a, b := f.begin(), f.begin()
	none := f.none
	if none == nil || closed(none) {
		t.Fatal("two questions in flight, but the gate is open")
	}
	a()
	a()
	if closed(none) || f.n != 1 {
		t.Fatalf("one question ended (twice), n %d, gate open %v", f.n, closed(none))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	f.idle(cctx) // a question in flight, but ctx ended: returns
	b()
	if !closed(none) || f.n != 0 || f.none != nil {
		t.Fatalf("every question ended, n %d, gate open %v", f.n, closed(none))
	}
	f.idle(ctx)
}
