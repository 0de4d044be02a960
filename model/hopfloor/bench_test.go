package hopfloor

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// warmup is the simulated time before the measurement: the colliding
// ports' queues fill in 100 frame times (120 us) at two to one, more at
// less, and the agenda's buckets reach their size.
const warmup = 500 * 1000 / TickNanos // 500 us

// measured is the simulated time measured per fabric size, as qcnlab
// bench's runs (2 ms at k = 24).
var measured = map[int]Tick{
	4: 20e6 / TickNanos, 8: 10e6 / TickNanos, 16: 5e6 / TickNanos, 24: 2e6 / TickNanos, 32: 1e6 / TickNanos,
}

// BenchmarkFrameHop is the cost of a frame-hop per layout and fabric
// size: a permutation of greedy flows, timed over the measured time after
// the warm-up, in wall (ns/hop) and process CPU time (cpu-ns/hop), beside
// the bytes of the state a hop reads and writes (hot-MB) at the end and
// the events handled per hop (dropped frames' included). Run one layout
// and one size at a time, alternating, pinned to one core:
//
//	go test ./model/hopfloor -run '^$' -bench 'FrameHop/^rings-bucket$/^k=24$' -benchtime 1x
func BenchmarkFrameHop(b *testing.B) {
	for _, l := range Layouts {
		b.Run(l.Name, func(b *testing.B) {
			for _, k := range []int{4, 8, 16, 24, 32} {
				b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
					if k == 32 && testing.Short() {
						b.Skip("k = 32 takes a while")
					}
					benchmarkFrameHop(b, l, k)
				})
			}
		})
	}
}

func benchmarkFrameHop(b *testing.B, l Layout, k int) {
	f, err := NewFabric(k, Permutation(k, 1))
	if err != nil {
		b.Fatal(err)
	}
	var wall time.Duration
	var cpu float64
	var hops, events uint64
	var hot int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sim := l.New(f)
		sim.Run(warmup)
		before := sim.Counts()
		runtime.GC()
		b.StartTimer()
		start, startCPU := time.Now(), cpuSeconds()
		sim.Run(warmup + measured[k])
		wall += time.Since(start)
		cpu += cpuSeconds() - startCPU
		b.StopTimer()
		hops += sim.Counts().FrameHops - before.FrameHops
		events += sim.Counts().Events - before.Events
		hot = sim.HotBytes()
	}
	b.ReportMetric(float64(wall.Nanoseconds())/float64(hops), "ns/hop")
	b.ReportMetric(cpu*1e9/float64(hops), "cpu-ns/hop")
	b.ReportMetric(float64(hot)/1e6, "hot-MB")
	b.ReportMetric(float64(events)/float64(hops), "events/hop")
	b.ReportMetric(0, "ns/op") // a run's time includes building it: ns/hop is the measure
}
