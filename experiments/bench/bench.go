// Package bench is qcnlab bench: the speed benchmark's experiment on a
// topology (as the topology sets it up) and its measurement.
package bench

import (
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"strings"
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
// sampled every 10 us, for the duration; then the setup's overrides. A
// --set of network.topology runs that topology, as its own benchmark
// sets it if it has one, else at its defaults: --topology's sizes do not
// follow it, and --k is refused off a fat-tree. The caller validates it
// (Validate: its cost bounds included).
func Experiment(setup Setup) (*experiments.Experiment, error) {
	if _, ok := topology.BenchOf(setup.Topology); !ok {
		return nil, fmt.Errorf("--topology: %q is not one of %q", setup.Topology, Topologies)
	}
	if setup.K != 0 && (setup.K < 2 || setup.K%2 != 0) {
		return nil, fmt.Errorf("--k: %d: a fat-tree's k is even, 2 or more", setup.K)
	}
	runs := ranTopology(setup)
	b, _ := topology.BenchOf(runs) // a topology with no benchmark of its own runs at its defaults
	e := experiments.Default()
	e.Name = "bench"
	e.Algorithms = []string{"qcn"}
	e.Duration = units.Duration(setup.Duration)
	e.Network.Topology = runs
	if b.Size != nil {
		b.Size(&e.Network)
	}
	if b.Sources > 0 {
		e.Sources.Count = b.Sources
		e.Params["qcn"] = algos.Values{"q_eq": 33e3}
	}
	if setup.K != 0 {
		switch {
		case runs == "fat_tree":
			e.Network.SetOwn("k", setup.K)
		case runs != setup.Topology:
			return nil, fmt.Errorf("--k: --set network.topology=%s runs a %s, which has no k; a fat_tree has", runs, runs)
		default:
			return nil, fmt.Errorf("--k: a %s has no k; --topology fat_tree has", runs)
		}
	}
	for _, s := range setup.Sets {
		if err := e.Set(s); err != nil {
			return nil, err
		}
	}
	// One run is measured: a sweep or a second algorithm would be dropped unseen.
	if len(e.Sweep) > 0 {
		return nil, fmt.Errorf("--set sweep.%s: the bench measures one run; set the key itself (--set %s=VALUE)", e.Sweep[0].Key, e.Sweep[0].Key)
	}
	if len(e.Algorithms) > 1 {
		return nil, fmt.Errorf("--set algorithms: the bench measures one algorithm, not %d; give one (--set 'algorithms=[\"%s\"]')", len(e.Algorithms), e.Algorithms[0])
	}
	if k, _ := e.Network.OwnValue("k"); setup.K != 0 && !k.IsNil() && k.Elem().Int() != int64(setup.K) {
		return nil, fmt.Errorf("--k: %d, and --set network.k=%d: give one", setup.K, k.Elem().Int())
	}
	return e, nil
}

// ranTopology is the topology the benchmark runs: --topology's, or the
// last --set of network.topology. An assignment that fails here fails
// again, and is reported, when Experiment makes the benchmark.
func ranTopology(setup Setup) string {
	e := experiments.Default()
	e.Network.Topology = setup.Topology
	for _, s := range setup.Sets {
		e.Set(s)
	}
	return e.Network.Topology
}

// Description says what the benchmark of e runs, from its keys, as --k
// and --set may have changed them: on a fabric, its traffic, shape, hosts
// and links; on a chain, its sources and links.
func Description(e *experiments.Experiment) string {
	n := e.Network
	n.Sized()
	t := topology.Fabric(n.Topology)
	if t == nil {
		sources := "sources"
		if e.Sources.Count == 1 {
			sources = "source"
		}
		shape := n.Topology
		if shape != "dumbbell" {
			shape = fmt.Sprintf("%d-link %s", e.LinkCount(), strings.ReplaceAll(shape, "_", " "))
		}
		return fmt.Sprintf("%d greedy %s %s, %s %s, %s frames, %s RTT, one core:", e.Sources.Count, e.Algorithms[0], sources,
			units.FormatRate(float64(n.Capacity)), shape, units.FormatBytes(float64(n.FrameSize)), units.FormatDuration(algos.Time(n.RTT)))
	}
	size := "greedy flows"
	if s := e.Traffic.FlowSize; s != "" && s != "greedy" {
		size = s + " flows"
	}
	shape := e.FabricLabel()
	if n.Topology == "fat_tree" {
		k, _ := n.OwnValue("k")
		shape = fmt.Sprintf("k = %d fat-tree", k.Elem().Int())
	}
	return fmt.Sprintf("%s %s of %s on a %s (%d hosts, %s, %s buffers, %s links), one core:",
		e.Algorithms[0], strings.ReplaceAll(e.Traffic.PatternOf(len(e.Flows)), "_", "-"), size, shape, t.Hosts(n),
		units.FormatRate(float64(n.Capacity)), units.FormatBytes(float64(n.Buffer)), e.FabricHopDelay())
}

// Duration is the simulated time qcnlab bench measures on a topology
// when the command line does not say.
func Duration(name string) algos.Time {
	b, _ := topology.BenchOf(name)
	return b.Duration
}

// Result is one benchmark measurement. A frame-hop is a frame, data or
// control (an ACK, NACK, CNP or feedback sent as a frame), leaving a
// switch port: a frame across a fat-tree's core crosses five switches and
// counts five, a frame dropped at a port counts nothing there. A
// transmission is a frame, data or control, sent onto any link, by a
// host's NIC or a switch port: the packet transmissions the
// parallel-simulation literature counts (a frame crossing five switches
// makes six, an ACK back over them six too, the first onto its receiver's
// link). Feedback kept out of band is not a frame and counts in neither.
type Result struct {
	SimSeconds    float64
	WallSeconds   float64
	Frames        uint64 // that left the network
	FrameHops     uint64 // frames, data or control, that left a switch port
	Transmissions uint64 // frames sent onto a link: FrameHops and the hosts' frames, data or control
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

// FrameHopsPerSecond is frames, data or control, leaving switch ports per
// wall-clock second.
func (b Result) FrameHopsPerSecond() float64 { return float64(b.FrameHops) / b.WallSeconds }

// TransmissionsPerSecond is frames, data or control, sent onto links per
// wall-clock second.
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
