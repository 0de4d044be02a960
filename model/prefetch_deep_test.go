package model

import (
	"fmt"
	"reflect"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Prefetching in four stages changes no number on the networks whose odd
// cases its stages step around (TestPrefetchingChangesNoNumber has two
// plain ones): hosts with two limiters (no solo) and exit ports serving
// two flows; sprayed routes (none on the limiter); classes, PFC, shared
// buffers, control frames and short flows whose limiters are reused; a
// transport's; and routes longer than a limiter's hop line holds, a
// fabric's and a chain's. Each is at deepMin hosts and ports or more,
// with a calendar's front to look along. Skipped with -short.
func TestDeepPrefetchingChangesNoNumber(t *testing.T) {
	if testing.Short() {
		t.Skip("six networks of 12,000 hosts and ports or more")
	}
	lookup := func(name string) *algos.Scheme {
		sc, err := algos.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	resolve := func(cfg *Config) {
		var err error
		if cfg.Params, err = cfg.Scheme.Resolve(cfg.Network(), nil); err != nil {
			t.Fatal(err)
		}
	}
	k20, err := topo.FatTree(20, 10e9, 150e3, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	short := func(cfg *Config, hosts int) {
		sizes := FixedSize("20KB", 20e3)
		cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.3, hosts, 10e9, sizes), Sizes: sizes}
	}
	cfgs := map[string]Config{}

	// Two permutations: two limiters a host, two flows an exit port.
	two := append(Permutation(len(k20.Hosts), 1), Permutation(len(k20.Hosts), 2)...)
	c := fabric(lookup("qcn"), k20, two)
	c.Duration, c.Warmup = 40*us, 10*us
	resolve(&c)
	cfgs["k20 two permutations qcn"] = c

	// Sprayed: no route on the limiter.
	c = fabric(lookup("qcn"), k20, Permutation(len(k20.Hosts), 1))
	c.Duration, c.Warmup = 40*us, 10*us
	c.Fabric.Routing = Spray
	resolve(&c)
	cfgs["k20 sprayed qcn"] = c

	// Classes, PFC, shared buffers, control frames, short flows whose
	// limiters are reused, clocks and jitter: an incast on class 1.
	flows := Permutation(len(k20.Hosts), 1)
	for h := 1; h < 200; h += 3 {
		flows = append(flows, Flow{From: h, To: 0, Class: 1})
	}
	c = fabric(lookup("dcqcn"), k20, flows)
	c.Duration, c.Warmup = 60*us, 10*us
	realClocks(&c)
	c.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	c.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
	c.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
	c.ControlFrames = true
	short(&c, len(k20.Hosts))
	resolve(&c)
	cfgs["k20 dcqcn classes pfc control short"] = c

	// A transport (HPCC), with short flows: ACK-clocked limiters reused.
	c = fabric(lookup("hpcc"), k20, Permutation(len(k20.Hosts), 3))
	c.Duration, c.Warmup = 40*us, 10*us
	short(&c, len(k20.Hosts))
	resolve(&c)
	cfgs["k20 hpcc short"] = c

	// A line of 8 switches, 1,500 hosts on each: routes of up to 8 ports,
	// longer than the hop line holds.
	var nodes []topo.Node
	var links []topo.Link
	for s := range 8 {
		nodes = append(nodes, topo.Node{Name: fmt.Sprintf("s%d", s), Kind: topo.Switch})
		if s > 0 {
			links = append(links, topo.Link{A: fmt.Sprintf("s%d", s-1), B: fmt.Sprintf("s%d", s), Capacity: 10e9, Buffer: 150e3, Delay: us, Back: us})
		}
	}
	for h := range 12000 {
		nodes = append(nodes, topo.Node{Name: fmt.Sprintf("h%d", h), Kind: topo.Host})
		links = append(links, topo.Link{A: fmt.Sprintf("h%d", h), B: fmt.Sprintf("s%d", h%8), Capacity: 10e9, Buffer: 150e3, Delay: us, Back: us})
	}
	line, err := topo.Custom(nodes, links)
	if err != nil {
		t.Fatal(err)
	}
	var far []Flow
	for h := 0; h < 12000; h += 8 {
		far = append(far, Flow{From: h, To: h + 7}, Flow{From: h + 7, To: h}) // end to end: 8 ports
		far = append(far, Flow{From: h + 1, To: h + 3})
	}
	c = fabric(lookup("dcqcn"), line, far)
	c.Duration, c.Warmup = 40*us, 10*us
	resolve(&c)
	cfgs["line of 8 switches dcqcn"] = c
	longRoutes := map[string]bool{"line of 8 switches dcqcn": true, "chain of 8 links, 17000 sources": true}

	// A chain of 8 links, 12,000 sources across all 8.
	ch := benchConfig(t, 300*us)
	ch.Links = nil
	for range 8 {
		ch.Links = append(ch.Links, LinkConfig{Capacity: 10e9, Buffer: 150e3, Delay: us})
	}
	src := ch.Sources[0]
	src.LineRate, src.InitialRate, src.Path = 1e9, 1e9, []int{0, 1, 2, 3, 4, 5, 6, 7}
	ch.Sources = make([]SourceConfig, 17000)
	for i := range ch.Sources {
		ch.Sources[i] = src
		if i%3 == 0 {
			ch.Sources[i].Path = []int{i % 8}
		}
	}
	resolve(&ch)
	cfgs["chain of 8 links, 17000 sources"] = ch

	for name, cfg := range cfgs {
		t.Run(name, func(t *testing.T) {
			without := runPrefetching(t, cfg, nil)
			with := runPrefetching(t, cfg, &deepStages)
			sim := with.sim
			long := 0
			for _, l := range sim.lims {
				if len(l.route) > inlineHops {
					long++
				}
			}
			if longRoutes[name] && long == 0 {
				t.Errorf("no route longer than the hop line's %d ports", inlineHops)
			}
			t.Logf("%d events, %d limiters, %d with routes past the hop line, %d hosts+ports", without.events, len(sim.lims), long, len(sim.hosts)+len(sim.ports))
			if !reflect.DeepEqual(with.summary, without.summary) {
				t.Errorf("prefetching changed the summary")
			}
			if with.series != without.series {
				t.Errorf("prefetching changed the series")
			}
		})
	}
}
