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

// BenchTopologies are the networks qcnlab bench measures.
var BenchTopologies = []string{"dumbbell", "fat_tree"}

// BenchExperiment is the speed benchmark on topology: on the dumbbell 10
// greedy QCN sources at 10 Gbps, 1500 B frames, 100 us RTT; on the fat-tree
// k = 8 (128 hosts, 10 Gbps, 150 KB buffers, 1 us links) a QCN permutation;
// sampled every 10 us, for duration.
func BenchExperiment(topology string, duration algos.Time) *Experiment {
	e := Default()
	e.Name = "bench"
	e.Duration = units.Duration(duration)
	if topology == "fat_tree" {
		e.Network.Topology = "fat_tree"
		e.Network.K = ptr(8)
		return e
	}
	e.Sources.Count = 10
	e.Params["qcn"] = algos.Values{"q_eq": 33e3}
	return e
}

// BenchDescription says what the benchmark on topology runs.
func BenchDescription(topology string) string {
	if topology == "fat_tree" {
		return "QCN permutation on a k = 8 fat-tree (128 hosts, 10 Gbps, 150 KB buffers, 1 us links), one core:"
	}
	return "10 greedy QCN sources, 10 Gbps dumbbell, 1500 B frames, 100 us RTT, one core:"
}

// BenchResult is one benchmark measurement.
type BenchResult struct {
	SimSeconds  float64
	WallSeconds float64
	Frames      uint64 // that left the network
	FrameHops   uint64 // that left a switch port: a frame crossing five switches counts five
	Events      uint64
	PeakHeap    uint64 // bytes of heap in use, the most seen during the run
	HeapSys     uint64 // bytes of heap obtained from the OS at the end
}

// FramesPerSecond is frames through the bottleneck per wall-clock second.
func (b BenchResult) FramesPerSecond() float64 { return float64(b.Frames) / b.WallSeconds }

// FrameHopsPerSecond is frames through switch ports per wall-clock second.
func (b BenchResult) FrameHopsPerSecond() float64 { return float64(b.FrameHops) / b.WallSeconds }

// EventsPerSecond is discrete events per wall-clock second.
func (b BenchResult) EventsPerSecond() float64 { return float64(b.Events) / b.WallSeconds }

// Bench runs the benchmark experiment on topology for duration in the calling goroutine,
// looking at the heap every 10 ms of simulated time.
func Bench(topology string, duration algos.Time) (BenchResult, error) {
	cfg, err := BenchExperiment(topology, duration).Config("qcn")
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
		FrameHops:   sim.FrameHops(),
		Events:      sim.Events(),
		PeakHeap:    peak,
		HeapSys:     ms.HeapSys,
	}, nil
}
