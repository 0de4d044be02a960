package experiments

import (
	"testing"

	"qcnlab/algos"
)

// Each benchmark is a valid experiment on its topology, sized as the
// topology says, unless --k or --set say otherwise.
func TestBenchExperimentsAreTheTopologies(t *testing.T) {
	bench := func(s BenchSetup) *Experiment {
		t.Helper()
		e, err := BenchExperiment(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, name := range BenchTopologies {
		e := bench(BenchSetup{Topology: name, Duration: BenchDuration(name)})
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if e.Network.Topology != name || BenchDescription(e) == "" {
			t.Errorf("%s: the benchmark runs on %s, described %q", name, e.Network.Topology, BenchDescription(e))
		}
	}
	if e := bench(BenchSetup{Topology: "dumbbell", Duration: algos.Second}); e.Sources.Count != 10 {
		t.Errorf("the dumbbell's benchmark has %d sources, want 10", e.Sources.Count)
	}
	if e := bench(BenchSetup{Topology: "fat_tree", Duration: 100 * algos.Millisecond}); e.FabricLabel() != "fat-tree k=8" {
		t.Errorf("the fat-tree's benchmark is a %s", e.FabricLabel())
	}
	e := bench(BenchSetup{Topology: "fat_tree", K: 32, Duration: 5 * algos.Millisecond,
		Sets: []string{"network.capacity=100Gbps", "traffic.flow_size=1MB"}})
	if e.FabricLabel() != "fat-tree k=32" || e.Validate() != nil {
		t.Errorf("the fat-tree's benchmark with --k 32 is a %s: %v", e.FabricLabel(), e.Validate())
	}
	if d := BenchDescription(e); d != "qcn permutation of 1MB flows on a k = 32 fat-tree (8192 hosts, 100Gbps, 150KB buffers, 1us links), one core:" {
		t.Errorf("described %q", d)
	}
	if _, err := BenchExperiment(BenchSetup{Topology: "dumbbell", K: 4, Duration: algos.Second}); err == nil {
		t.Error("a dumbbell took --k")
	}
}

// One bottleneck is the topology's word: a dumbbell's sources share one
// link, a parking lot's and a fabric's do not.
func TestOneBottleneck(t *testing.T) {
	for topology, want := range map[string]bool{"dumbbell": true, "parking_lot": false, "leaf_spine": false, "fat_tree": false, "custom": false} {
		e := Default()
		e.Network.Topology = topology
		if got := e.OneBottleneck(); got != want {
			t.Errorf("%s: one bottleneck %v, want %v", topology, got, want)
		}
	}
}
