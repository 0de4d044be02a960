package experiments

import (
	"runtime"
	"time"

	"qcnlab/algos"
	"qcnlab/experiments/topology"
	"qcnlab/model"
	"qcnlab/units"
)

// MinBenchDuration is the shortest benchmark: its first tenth must hold
// samples to measure.
const MinBenchDuration = algos.Millisecond

// BenchTopologies are the networks qcnlab bench measures: the topologies
// that say how (topology.Benched).
var BenchTopologies = topology.Benchmarks()

// BenchExperiment is the speed benchmark on a topology, as the topology
// sets it (topology.Bench): QCN greedy sources on a chain, a QCN
// permutation on a fabric; sampled every 10 us, for duration.
func BenchExperiment(name string, duration algos.Time) *Experiment {
	b, _ := topology.BenchOf(name)
	e := Default()
	e.Name = "bench"
	e.Duration = units.Duration(duration)
	e.Network.Topology = name
	if b.Size != nil {
		b.Size(&e.Network)
	}
	if b.Sources > 0 {
		e.Sources.Count = b.Sources
		e.Params["qcn"] = algos.Values{"q_eq": 33e3}
	}
	return e
}

// BenchDescription says what the benchmark on a topology runs.
func BenchDescription(name string) string {
	b, _ := topology.BenchOf(name)
	return b.Description
}

// BenchDuration is the simulated time qcnlab bench measures on a topology
// when the command line does not say.
func BenchDuration(name string) algos.Time {
	b, _ := topology.BenchOf(name)
	return b.Duration
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

// Bench runs the benchmark experiment on a topology for duration in the calling goroutine,
// looking at the heap every 10 ms of simulated time.
func Bench(name string, duration algos.Time) (BenchResult, error) {
	cfg, err := BenchExperiment(name, duration).Config("qcn")
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
