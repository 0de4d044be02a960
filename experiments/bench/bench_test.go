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

// The counts on a k = 2 fat-tree, by hand: two hosts, one flow each way
// of ten 1500 B frames, each crossing the five switches between the hosts
// (edge, aggregation, core, aggregation, edge). A data frame leaves five
// switch ports, and is sent onto six links (its host's and those five
// ports'). An ACK-clocked scheme's receiver answers each frame with an ACK
// (ack_every is a frame), a control frame back over the same five
// switches: five frame-hops more, and six transmissions, the first onto
// the receiver's own link.
func TestCountsOfATinyFatTreeByHand(t *testing.T) {
	for _, c := range []struct {
		algorithm string
		acks      uint64
	}{{"none", 0}, {"qcn", 0}, {"dctcp", 20}, {"hpcc", 20}} {
		e, err := Experiment(Setup{Topology: "fat_tree", K: 2, Duration: algos.Millisecond,
			Sets: []string{fmt.Sprintf("algorithms=[%q]", c.algorithm), "traffic.flow_size=15000B"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		r, err := Run(e, nil)
		if err != nil {
			t.Fatal(err)
		}
		const frames = 20
		hops, sent := 5*(frames+c.acks), 6*(frames+c.acks)
		if r.Frames != frames || r.FrameHops != hops || r.Transmissions != sent {
			t.Errorf("%s: %d frames, %d frame-hops, %d transmissions; want %d, %d, %d",
				c.algorithm, r.Frames, r.FrameHops, r.Transmissions, frames, hops, sent)
		}
	}
}

// --k takes any even k from 2 that the estimates let in: k = 42, past the
// old fixed cap of 40, loads; an odd or negative one is refused as --k's.
func TestBenchKIsAnyEvenKTheEstimateLetsIn(t *testing.T) {
	e, err := Experiment(Setup{Topology: "fat_tree", K: 42, Duration: algos.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Errorf("k = 42 refused: %v", err)
	}
	if d := Description(e); !strings.Contains(d, "on a k = 42 fat-tree (18522 hosts,") {
		t.Errorf("described %q", d)
	}
	for _, k := range []int{-2, 3} {
		if _, err := Experiment(Setup{Topology: "fat_tree", K: k, Duration: algos.Millisecond}); err == nil || !strings.HasPrefix(err.Error(), "--k: ") {
			t.Errorf("k = %d: error %v, want --k's", k, err)
		}
	}
	// --k and a --set of network.k: refused if they differ, not the last winning.
	if _, err := Experiment(Setup{Topology: "fat_tree", K: 4, Sets: []string{"network.k=6"}, Duration: algos.Millisecond}); err == nil || err.Error() != "--k: 4, and --set network.k=6: give one" {
		t.Errorf("--k 4 --set network.k=6: error %v", err)
	}
	if _, err := Experiment(Setup{Topology: "fat_tree", K: 4, Sets: []string{"network.k=4"}, Duration: algos.Millisecond}); err != nil {
		t.Errorf("--k 4 --set network.k=4: %v", err)
	}
}

// The bench measures one run of one algorithm: a sweep or a second
// algorithm in a --set is refused, not dropped unseen (the first ran alone).
func TestBenchRefusesWhatItWouldNotRun(t *testing.T) {
	for set, want := range map[string]string{
		"sweep.network.k=[4]":         "--set sweep.network.k: the bench measures one run; set the key itself (--set network.k=VALUE)",
		`algorithms=["qcn", "dctcp"]`: `--set algorithms: the bench measures one algorithm, not 2; give one (--set 'algorithms=["qcn"]')`,
	} {
		if _, err := Experiment(Setup{Topology: "fat_tree", Sets: []string{set}, Duration: algos.Millisecond}); err == nil || err.Error() != want {
			t.Errorf("--set %s: error %v, want %q", set, err, want)
		}
	}
}

// A --set of network.topology runs that topology, as its own benchmark
// sets it up if it has one: --topology's sizes do not follow it, the
// header says what runs, and --k is refused off a fat-tree.
func TestBenchOfTheTopologySetRuns(t *testing.T) {
	for _, c := range []struct {
		setup Setup
		want  string
	}{
		{Setup{Topology: "fat_tree", Sets: []string{"network.topology=leaf_spine"}},
			"qcn permutation of greedy flows on a leaf-spine 4x2 (16 hosts, 10Gbps, 150KB buffers, 1us links), one core:"},
		{Setup{Topology: "dumbbell", Sets: []string{"network.topology=fat_tree"}},
			"qcn permutation of greedy flows on a k = 8 fat-tree (128 hosts, 10Gbps, 150KB buffers, 1us links), one core:"},
		{Setup{Topology: "fat_tree", Sets: []string{"network.topology=star", "traffic.pattern=incast", "traffic.incast_senders=7", "traffic.flow_size=1MB"}},
			"qcn incast of 1MB flows on a star of 8 hosts (8 hosts, 10Gbps, 150KB buffers, 1us links), one core:"},
		{Setup{Topology: "dumbbell", Sets: []string{"network.topology=parking_lot"}},
			"4 greedy qcn sources, 10Gbps 2-link parking lot, 1.5KB frames, 100us RTT, one core:"},
	} {
		c.setup.Duration = algos.Millisecond
		e, err := Experiment(c.setup)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Validate(); err != nil {
			t.Errorf("%v: %v", c.setup.Sets, err)
		}
		if d := Description(e); d != c.want {
			t.Errorf("%v: described %q, want %q", c.setup.Sets, d, c.want)
		}
	}
	_, err := Experiment(Setup{Topology: "fat_tree", K: 4, Duration: algos.Millisecond, Sets: []string{"network.topology=leaf_spine"}})
	if err == nil || err.Error() != "--k: --set network.topology=leaf_spine runs a leaf_spine, which has no k; a fat_tree has" {
		t.Errorf("--k on a leaf-spine: %v", err)
	}
}
