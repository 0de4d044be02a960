package experiments

import (
	"fmt"
	"testing"

	"qcnlab/model"
)

// TestRouteBoundHoldsTheBuiltRoutes checks the bound the fabric check
// refuses by (Shape.RouteBytes, before anything is built) against the
// routes as built: never below them, so that what it lets in fits, and
// not far above them, so that it refuses nothing that would fit. A
// fat-tree is routed by a formula, with no table per edge switch: a bound
// that counted tables refused k = 56 at ~1 GB of routes it never builds.
func TestRouteBoundHoldsTheBuiltRoutes(t *testing.T) {
	for _, net := range []string{
		"topology = \"fat_tree\"\nk = 4", "topology = \"fat_tree\"\nk = 8", "topology = \"fat_tree\"\nk = 16",
		"topology = \"leaf_spine\"\nleaves = 16\nspines = 4\nhosts_per_leaf = 8",
		"topology = \"star\"\nhosts = 40",
	} {
		e, err := Parse("exp.toml", fmt.Appendf(nil, "name = \"x\"\nalgorithms = [\"qcn\"]\nduration = \"1ms\"\n[network]\n%s\n", net))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		s, ok := e.shape()
		if !ok {
			t.Fatalf("%q: no shape", net)
		}
		f, err := e.Fabric()
		if err != nil {
			t.Fatal(err)
		}
		built, bound := f.Topology.Routes().Bytes(), s.RouteBytes(false)
		// (Slice headers, a few hundred bytes in all, are not in the bound.)
		if bound+1024 < built || bound > 4*built+4096 {
			t.Errorf("%q: routes bounded at %.0f B before building, %.0f B built", net, bound, built)
		}
	}
}

// TestLargeFatTreeNotRefusedForRoutes: a k = 56 fat-tree (43,904 hosts)
// is routed by its formula in a few MB; it is not refused for routing
// tables it does not build (it was, at ~1 GB).
func TestLargeFatTreeNotRefusedForRoutes(t *testing.T) {
	e, err := Parse("exp.toml", []byte("name = \"x\"\nalgorithms = [\"qcn\"]\nduration = \"1ms\"\n[network]\ntopology = \"fat_tree\"\nk = 56\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := e.shape()
	if b := s.RouteBytes(false); b > 16<<20 {
		t.Errorf("k = 56: routes bounded at %.0f MB", b/(1<<20))
	}
	var refused []string
	e.shapeErrors(func(key, format string, args ...any) {
		refused = append(refused, key+": "+fmt.Sprintf(format, args...))
	})
	if len(refused) > 0 {
		t.Errorf("k = 56 refused before it is built: %v", refused)
	}
}

// TestLoadCheckCountsWhatTheRunBuilds checks that the memory the load-time
// check counts for a fabric is what the estimate of each algorithm's own
// run gives (Config), at the most: control frames and classes set per
// algorithm add queues, which the check once left out (0.90 MB counted for
// a DCTCP run estimated at 0.99 MB).
func TestLoadCheckCountsWhatTheRunBuilds(t *testing.T) {
	for _, algs := range []string{`["dctcp"]`, `["hpcc"]`, `["qcn", "dcqcn"]`, `["dcqcn"]`} {
		e, err := Parse("exp.toml", fmt.Appendf(nil, "name = \"x\"\nalgorithms = %s\nduration = \"1ms\"\n[network]\ntopology = \"fat_tree\"\nk = 4\n", algs))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		var want float64
		for _, a := range e.Algorithms {
			cfg, err := e.Config(a)
			if err != nil {
				t.Fatal(err)
			}
			want = max(want, model.Estimate(cfg).Memory)
		}
		if got := e.fabricCost().Memory; got != want {
			t.Errorf("%s: the load-time check counts %.0f B, the runs' estimate is %.0f B", algs, got, want)
		}
	}
}
