package store

import (
	"syscall"
	"testing"
	"time"
)

// cpuTimer reports CPU time per operation next to wall time: on a shared
// machine wall time swings with other load, process CPU time much less.
type cpuTimer struct{ start time.Duration }

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU(b *testing.B) *cpuTimer {
	b.ResetTimer()
	return &cpuTimer{start: cpuNow()}
}

func (c *cpuTimer) report(b *testing.B) {
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-c.start)/float64(b.N), "cpu-ns/op")
}
