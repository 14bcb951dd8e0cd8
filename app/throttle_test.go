package app

import (
	"reflect"
	"testing"
	"time"
)

// fakeClock drives a throttle without sleeping: now() is set by the test and
// the trailing timer is captured so the test decides when it fires.
type fakeClock struct {
	t      time.Time
	waits  []time.Duration
	timers []func()
}

func (c *fakeClock) now() time.Time { return c.t }
func (c *fakeClock) afterFunc(d time.Duration, f func()) *time.Timer {
	c.waits = append(c.waits, d)
	c.timers = append(c.timers, f)
	return time.NewTimer(time.Hour) // a real timer that never fires during the test
}

func TestThrottle(t *testing.T) {
	type step struct {
		at     time.Duration // clock offset from start
		report *Progress     // nil: fire the captured trailing timer instead
		close  bool
	}
	p := func(stage string, done, total int) *Progress {
		return &Progress{Stage: stage, Done: done, Total: total}
	}
	cases := []struct {
		name  string
		steps []step
		want  []Progress
		waits []time.Duration
	}{
		{
			name:  "first report and stage changes go out at once",
			steps: []step{{at: 0, report: p("scan", 0, 3)}, {at: 1, report: p("parse", 0, 3)}, {at: 2, report: p("store", 0, 3)}},
			want:  []Progress{*p("scan", 0, 3), *p("parse", 0, 3), *p("store", 0, 3)},
		},
		{
			name: "reports inside the interval are coalesced to the newest, sent on close",
			steps: []step{
				{at: 0, report: p("parse", 0, 10)},
				{at: 10 * time.Millisecond, report: p("parse", 1, 10)},
				{at: 20 * time.Millisecond, report: p("parse", 2, 10)},
				{close: true},
				{at: 30 * time.Millisecond, report: p("parse", 3, 10)}, // after close: dropped
			},
			want:  []Progress{*p("parse", 0, 10), *p("parse", 2, 10)},
			waits: []time.Duration{90 * time.Millisecond},
		},
		{
			name: "trailing timer sends the pending report",
			steps: []step{
				{at: 0, report: p("parse", 0, 10)},
				{at: 40 * time.Millisecond, report: p("parse", 1, 10)},
				{at: 100 * time.Millisecond}, // timer fires
				{close: true},                // nothing pending: nothing more
			},
			want:  []Progress{*p("parse", 0, 10), *p("parse", 1, 10)},
			waits: []time.Duration{60 * time.Millisecond},
		},
		{
			name: "after the interval a report goes out at once",
			steps: []step{
				{at: 0, report: p("parse", 0, 10)},
				{at: 150 * time.Millisecond, report: p("parse", 5, 10)},
			},
			want: []Progress{*p("parse", 0, 10), *p("parse", 5, 10)},
		},
		{
			name: "the last report of a stage is never held back",
			steps: []step{
				{at: 0, report: p("parse", 0, 2)},
				{at: time.Millisecond, report: p("parse", 2, 2)},
			},
			want: []Progress{*p("parse", 0, 2), *p("parse", 2, 2)},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			clk := &fakeClock{t: start}
			var got []Progress
			th := newThrottle(100*time.Millisecond, clk.now, clk.afterFunc, func(p Progress) { got = append(got, p) })
			for _, s := range tc.steps {
				switch {
				case s.close:
					th.close()
				case s.report != nil:
					clk.t = start.Add(s.at)
					th.report(*s.report)
				default:
					clk.t = start.Add(s.at)
					clk.timers[len(clk.timers)-1]()
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("emitted %+v\nwant    %+v", got, tc.want)
			}
			if !reflect.DeepEqual(clk.waits, tc.waits) {
				t.Errorf("timer waits %v, want %v", clk.waits, tc.waits)
			}
		})
	}
}
