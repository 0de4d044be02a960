// Package bench is qcnlab bench: the speed benchmark's experiment on a
// topology (as the topology sets it up) and its measurement.
package bench

import (
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"time"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/topology"
	"qcnlab/model"
	"qcnlab/units"
)

// MinDuration is the shortest benchmark: its first tenth must hold
// samples to measure.
const MinDuration = algos.Millisecond

// Topologies are the networks qcnlab bench measures: the topologies
// that say how (topology.Benched).
var Topologies = topology.Benchmarks()

// Setup says what a benchmark runs: the topology, a fat-tree's k (0
// for the topology's own), the simulated time, and overrides of the
// experiment's keys (--set), applied last.
type Setup struct {
	Topology string
	K        int
	Duration algos.Time
	Sets     []string
}

// Experiment is the speed benchmark on a topology, as the topology
// sets it (topology.Bench): QCN greedy sources on a chain, a QCN
// permutation of greedy flows on a fabric (a k = 8 fat-tree unless told);
// sampled every 10 us, for the duration; then the setup's overrides. The
// caller validates it (Validate: its cost bounds included).
func Experiment(setup Setup) (*experiments.Experiment, error) {
	b, ok := topology.BenchOf(setup.Topology)
	if !ok {
		return nil, fmt.Errorf("--topology: %q is not one of %q", setup.Topology, Topologies)
	}
	e := experiments.Default()
	e.Name = "bench"
	e.Algorithms = []string{"qcn"}
	e.Duration = units.Duration(setup.Duration)
	e.Network.Topology = setup.Topology
	if b.Size != nil {
		b.Size(&e.Network)
	}
	if b.Sources > 0 {
		e.Sources.Count = b.Sources
		e.Params["qcn"] = algos.Values{"q_eq": 33e3}
	}
	if setup.K != 0 {
		if setup.Topology != "fat_tree" {
			return nil, fmt.Errorf("--k: a %s has no k; --topology fat_tree has", setup.Topology)
		}
		e.Network.SetOwn("k", setup.K)
	}
	for _, s := range setup.Sets {
		if err := e.Set(s); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Description says what the benchmark of e runs: on a fat-tree or a
// dumbbell from its keys, as --k and --set may have changed them.
func Description(e *experiments.Experiment) string {
	n := &e.Network
	switch n.Topology {
	case "fat_tree":
		size := "greedy flows"
		if s := e.Traffic.FlowSize; s != "" && s != "greedy" {
			size = s + " flows"
		}
		k := 0
		if v, ok := n.OwnValue("k"); ok && !v.IsNil() {
			k = int(v.Elem().Int())
		}
		return fmt.Sprintf("%s permutation of %s on a k = %d fat-tree (%d hosts, %s, %s buffers, %s links), one core:",
			e.Algorithms[0], size, k, k*k*k/4, units.FormatRate(float64(n.Capacity)), units.FormatBytes(float64(n.Buffer)),
			e.FabricHopDelay())
	case "dumbbell":
		sources := "sources"
		if e.Sources.Count == 1 {
			sources = "source"
		}
		return fmt.Sprintf("%d greedy %s %s, %s dumbbell, %s frames, %s RTT, one core:", e.Sources.Count, e.Algorithms[0], sources,
			units.FormatRate(float64(n.Capacity)), units.FormatBytes(float64(n.FrameSize)), units.FormatDuration(algos.Time(n.RTT)))
	}
	b, _ := topology.BenchOf(n.Topology)
	return b.Description
}

// Duration is the simulated time qcnlab bench measures on a topology
// when the command line does not say.
func Duration(name string) algos.Time {
	b, _ := topology.BenchOf(name)
	return b.Duration
}

// Result is one benchmark measurement. A frame-hop is a frame
// leaving a switch port: a frame across a fat-tree's core crosses five
// switches and counts five, a frame dropped at a port counts nothing
// there. A transmission is a frame sent onto any link, by a host's NIC or
// a switch port: the packet transmissions the parallel-simulation
// literature counts (a frame crossing five switches makes six).
type Result struct {
	SimSeconds    float64
	WallSeconds   float64
	Frames        uint64 // that left the network
	FrameHops     uint64 // that left a switch port
	Transmissions uint64 // frames sent onto a link: FrameHops and the hosts' frames
	Events        uint64
	// CPUSeconds is the process's CPU time (user and system, the garbage
	// collector's included) over the timed stretches, 0 where the system
	// does not say: on a shared machine it varies less than wall time.
	CPUSeconds float64
	PeakHeap   uint64 // bytes of heap in use, the most seen during the run
	HeapSys    uint64 // bytes of heap obtained from the OS at the end
}

// FramesPerSecond is frames delivered per wall-clock second.
func (b Result) FramesPerSecond() float64 { return float64(b.Frames) / b.WallSeconds }

// FrameHopsPerSecond is frames leaving switch ports per wall-clock second.
func (b Result) FrameHopsPerSecond() float64 { return float64(b.FrameHops) / b.WallSeconds }

// TransmissionsPerSecond is frames sent onto links per wall-clock second.
func (b Result) TransmissionsPerSecond() float64 {
	return float64(b.Transmissions) / b.WallSeconds
}

// EventsPerSecond is discrete events per wall-clock second.
func (b Result) EventsPerSecond() float64 { return float64(b.Events) / b.WallSeconds }

// NanosecondsPerFrameHop is the wall time of a frame-hop.
func (b Result) NanosecondsPerFrameHop() float64 {
	return b.WallSeconds * 1e9 / float64(max(b.FrameHops, 1))
}

// CPUNanosecondsPerFrameHop is the CPU time of a frame-hop, 0 where the
// system does not say.
func (b Result) CPUNanosecondsPerFrameHop() float64 {
	return b.CPUSeconds * 1e9 / float64(max(b.FrameHops, 1))
}

// Run runs the benchmark experiment e (its first algorithm) in the calling
// goroutine, looking at the heap every 10 ms of simulated time (a look is
// not timed). With a profile writer, it writes a CPU profile of the run
// (pprof's format) there.
func Run(e *experiments.Experiment, profile io.Writer) (Result, error) {
	cfg, err := e.Config(e.Algorithms[0])
	if err != nil {
		return Result{}, err
	}
	runtime.GC()
	sim, err := model.NewPacket(cfg)
	if err != nil {
		return Result{}, err
	}
	var ms runtime.MemStats
	var peak uint64
	var wall time.Duration
	var cpu float64
	if profile != nil {
		if err := pprof.StartCPUProfile(profile); err != nil {
			return Result{}, err
		}
	}
	for !sim.Done() {
		start, startCPU := time.Now(), cpuSeconds()
		sim.Advance(sim.Now() + 10*algos.Millisecond)
		wall += time.Since(start)
		cpu += cpuSeconds() - startCPU
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	if profile != nil {
		pprof.StopCPUProfile()
	}
	return Result{
		SimSeconds:    cfg.Duration.Seconds(),
		WallSeconds:   wall.Seconds(),
		Frames:        sim.Frames(),
		FrameHops:     sim.FrameHops(),
		Transmissions: sim.Transmissions(),
		Events:        sim.Events(),
		CPUSeconds:    cpu,
		PeakHeap:      peak,
		HeapSys:       ms.HeapSys,
	}, nil
}
