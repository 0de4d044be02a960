package model_test

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// A k = 4 fat-tree of 10 Gbps links, 1 us each, 150 KB buffers, every
// host sending to another (a random permutation of the seed), routed by
// ECMP, under QCN.
func ExampleFabric() {
	ft, err := topo.FatTree(4, 10e9, 150e3, topo.Uniform(algos.Microsecond))
	if err != nil {
		panic(err)
	}
	qcn, _ := algos.Lookup("qcn")
	cfg := model.Config{
		Scheme: qcn, Seed: 1, Duration: 10 * algos.Millisecond, Warmup: 2 * algos.Millisecond,
		FrameBytes: 1500, SampleInterval: 10 * algos.Microsecond, RateWindow: algos.Millisecond,
		FairnessThreshold: 0.9,
		Fabric:            &model.Fabric{Topology: ft, Routing: model.ECMP, Flows: model.Permutation(len(ft.Hosts), 1)},
	}
	cfg.Params, err = qcn.Resolve(cfg.Network(), nil) // the schemes' defaults from the fabric
	if err != nil {
		panic(err)
	}
	sim, err := model.New(cfg)
	if err != nil {
		panic(err)
	}
	sim.Advance(cfg.Duration)
	sum := sim.Summary()
	fmt.Println(len(sum.Sources), "flows,", sum.Sources[0].From, "->", sum.Sources[0].To)
	for _, t := range sum.Tiers {
		fmt.Println(t.Tier, t.Ports)
	}
	// Output:
	// 16 flows, h0 -> h12
	// host 16
	// edge up 16
	// agg up 16
	// core down 16
	// agg down 16
	// edge down 16
}

// A leaf-spine (4 leaves, 2 spines, 8 hosts each; 10 Gbps to the hosts,
// 40 Gbps up) where 16 hosts under other leaves each send 64 KB to host 0
// at once: an incast, with PFC on every switch port and no congestion
// control; the summary reports when the last byte arrived.
func ExampleIncast() {
	ls, err := topo.LeafSpine(4, 2, 8, 10e9, 40e9, 1e6, topo.Uniform(algos.Microsecond))
	if err != nil {
		panic(err)
	}
	flows, err := model.Incast(ls, 0, 16, 64e3, 0, 0, 1)
	if err != nil {
		panic(err)
	}
	none, _ := algos.Lookup("none")
	cfg := model.Config{
		Scheme: none, Params: algos.Values{}, Seed: 1, Duration: 5 * algos.Millisecond,
		FrameBytes: 1500, SampleInterval: 10 * algos.Microsecond, RateWindow: 100 * algos.Microsecond,
		FairnessThreshold: 0.9, PFC: &model.PFC{Xoff: -1, Xon: -1},
		Fabric: &model.Fabric{Topology: ls, Flows: flows},
	}
	sim, err := model.New(cfg)
	if err != nil {
		panic(err)
	}
	sim.Advance(cfg.Duration)
	f := sim.Summary().Flows
	fmt.Printf("%d of %d incast flows completed, the last byte after at least %.0f us\n",
		*f.IncastCompleted, f.IncastFlows, 16*64e3*8/10e9*1e6)
	fmt.Println(*f.IncastCompletion >= 16*64e3*8/10e9)
	// Output:
	// 16 of 16 incast flows completed, the last byte after at least 819 us
	// true
}
