package app

import (
	"sync"
	"time"
)

// throttle forwards progress reports at most once per interval so a fast
// job cannot flood the webview with events, while the frontend still always
// sees (a) every change of stage, (b) the final report of a stage and (c)
// the latest state within one interval (a trailing timer sends it).
type throttle struct {
	interval  time.Duration
	now       func() time.Time
	afterFunc func(time.Duration, func()) *time.Timer
	emit      func(Progress)

	mu      sync.Mutex
	last    time.Time // when the last report was emitted
	stage   string    // stage of the last emitted report
	pending *Progress // newest report not yet emitted
	timer   *time.Timer
	closed  bool
}

func newThrottle(interval time.Duration, now func() time.Time, afterFunc func(time.Duration, func()) *time.Timer, emit func(Progress)) *throttle {
	return &throttle{interval: interval, now: now, afterFunc: afterFunc, emit: emit}
}

// report is safe for concurrent use; reports after close are dropped.
func (t *throttle) report(p Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	now := t.now()
	if p.Stage != t.stage || (p.Total > 0 && p.Done >= p.Total) || now.Sub(t.last) >= t.interval {
		t.emitLocked(p, now)
		return
	}
	t.pending = &p
	if t.timer == nil {
		wait := t.interval - now.Sub(t.last)
		t.timer = t.afterFunc(wait, t.flushTimer)
	}
}

func (t *throttle) flushTimer() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer = nil
	if t.closed || t.pending == nil {
		return
	}
	t.emitLocked(*t.pending, t.now())
}

func (t *throttle) emitLocked(p Progress, now time.Time) {
	t.pending = nil
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.last, t.stage = now, p.Stage
	t.emit(p)
}

// close emits the pending report, if any, and drops all later reports.
func (t *throttle) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if t.pending != nil {
		t.emitLocked(*t.pending, t.now())
	}
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.closed = true
}
