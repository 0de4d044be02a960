package bench

import (
	"fmt"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
)

// Each benchmark is a valid experiment on its topology, sized as the
// topology says, unless --k or --set say otherwise.
func TestBenchExperimentsAreTheTopologies(t *testing.T) {
	bench := func(s Setup) *experiments.Experiment {
		t.Helper()
		e, err := Experiment(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, name := range Topologies {
		e := bench(Setup{Topology: name, Duration: Duration(name)})
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if e.Network.Topology != name || Description(e) == "" {
			t.Errorf("%s: the benchmark runs on %s, described %q", name, e.Network.Topology, Description(e))
		}
	}
	if e := bench(Setup{Topology: "dumbbell", Duration: algos.Second}); e.Sources.Count != 10 {
		t.Errorf("the dumbbell's benchmark has %d sources, want 10", e.Sources.Count)
	}
	if e := bench(Setup{Topology: "fat_tree", Duration: 100 * algos.Millisecond}); e.FabricLabel() != "fat-tree k=8" {
		t.Errorf("the fat-tree's benchmark is a %s", e.FabricLabel())
	}
	e := bench(Setup{Topology: "fat_tree", K: 32, Duration: 5 * algos.Millisecond,
		Sets: []string{"network.capacity=100Gbps", "traffic.flow_size=1MB"}})
	if e.FabricLabel() != "fat-tree k=32" || e.Validate() != nil {
		t.Errorf("the fat-tree's benchmark with --k 32 is a %s: %v", e.FabricLabel(), e.Validate())
	}
	if d := Description(e); d != "qcn permutation of 1MB flows on a k = 32 fat-tree (8192 hosts, 100Gbps, 150KB buffers, 1us links), one core:" {
		t.Errorf("described %q", d)
	}
	if _, err := Experiment(Setup{Topology: "dumbbell", K: 4, Duration: algos.Second}); err == nil {
		t.Error("a dumbbell took --k")
	}
}

// A --duration too long for the samples blames the duration, which the
// user gave, not output.sample_interval, which the benchmark sets.
func TestATooLongBenchBlamesItsDuration(t *testing.T) {
	e, err := Experiment(Setup{Topology: "dumbbell", Duration: 100000 * algos.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = e.Validate()
	if err == nil || !strings.Contains(err.Error(), "duration: 100000s gives more than 100 million samples") || strings.Contains(err.Error(), "output.sample_interval:") {
		t.Errorf("error %v, want it to blame the duration", err)
	}
}

// One source is "1 greedy qcn source", not "sources".
func TestDescriptionCountsSources(t *testing.T) {
	for n, want := range map[int]string{1: "1 greedy qcn source,", 2: "2 greedy qcn sources,"} {
		e, err := Experiment(Setup{Topology: "dumbbell", Duration: algos.Millisecond, Sets: []string{fmt.Sprintf("sources.count=%d", n), `algorithms=["qcn"]`}})
		if err != nil {
			t.Fatal(err)
		}
		if d := Description(e); !strings.HasPrefix(d, want) {
			t.Errorf("%d sources: %q, want it to begin %q", n, d, want)
		}
	}
}
