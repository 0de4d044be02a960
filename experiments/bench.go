package experiments

import (
	"runtime"
	"time"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/units"
)

// MinBenchDuration is the shortest benchmark: its first tenth must hold
// samples to measure.
const MinBenchDuration = algos.Millisecond

// BenchExperiment is the speed benchmark: 10 greedy QCN sources on a 10 Gbps
// dumbbell, 1500 B frames, 100 us RTT, sampled every 10 us, for duration.
func BenchExperiment(duration algos.Time) *Experiment {
	e := Default()
	e.Name = "bench"
	e.Duration = units.Duration(duration)
	e.Sources.Count = 10
	e.Params["qcn"] = algos.Values{"q_eq": 33e3}
	return e
}

// BenchResult is one benchmark measurement.
type BenchResult struct {
	SimSeconds  float64
	WallSeconds float64
	Frames      uint64
	Events      uint64
	PeakHeap    uint64 // bytes of heap in use, the most seen during the run
	HeapSys     uint64 // bytes of heap obtained from the OS at the end
}

// FramesPerSecond is frames through the bottleneck per wall-clock second.
func (b BenchResult) FramesPerSecond() float64 { return float64(b.Frames) / b.WallSeconds }

// EventsPerSecond is discrete events per wall-clock second.
func (b BenchResult) EventsPerSecond() float64 { return float64(b.Events) / b.WallSeconds }

// Bench runs the benchmark experiment for duration in the calling goroutine,
// looking at the heap every 10 ms of simulated time.
func Bench(duration algos.Time) (BenchResult, error) {
	cfg, err := BenchExperiment(duration).Config("qcn")
	if err != nil {
		return BenchResult{}, err
	}
	runtime.GC()
	sim, err := model.NewPacket(cfg)
	if err != nil {
		return BenchResult{}, err
	}
	var ms runtime.MemStats
	var peak uint64
	var wall time.Duration
	for !sim.Done() {
		start := time.Now()
		sim.Advance(sim.Now() + 10*algos.Millisecond)
		wall += time.Since(start) // the heap checks below are not timed
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	return BenchResult{
		SimSeconds:  duration.Seconds(),
		WallSeconds: wall.Seconds(),
		Frames:      sim.Frames(),
		Events:      sim.Events(),
		PeakHeap:    peak,
		HeapSys:     ms.HeapSys,
	}, nil
}
