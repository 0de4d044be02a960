package experiments

import (
	"testing"

	"qcnlab/algos"
)

// Each benchmark is a valid experiment on its topology, sized as the
// topology says.
func TestBenchExperimentsAreTheTopologies(t *testing.T) {
	for _, name := range BenchTopologies {
		e := BenchExperiment(name, BenchDuration(name))
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if e.Network.Topology != name || BenchDescription(name) == "" {
			t.Errorf("%s: the benchmark runs on %s, described %q", name, e.Network.Topology, BenchDescription(name))
		}
	}
	if e := BenchExperiment("dumbbell", algos.Second); e.Sources.Count != 10 {
		t.Errorf("the dumbbell's benchmark has %d sources, want 10", e.Sources.Count)
	}
	if e := BenchExperiment("fat_tree", 100*algos.Millisecond); e.FabricLabel() != "fat-tree k=8" {
		t.Errorf("the fat-tree's benchmark is a %s", e.FabricLabel())
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
