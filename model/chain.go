package model

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// chainNetwork expresses a dumbbell or a parking lot (Config.Links and
// Sources) as a network. Switches sw0..sw(L-1) form the chain: link j joins
// sw(j) to sw(j+1), the last to the receiver rx, at link j's capacity,
// buffer and delay, and its sw(j)->sw(j+1) port is the chain's port j,
// named sw<j> as ever. Source i is host h<i>, whose link to the first
// switch of its path has the source's line rate, its forward delay one way
// and its backward delay the other. Hosts are numbered h0.. then rx. A
// source's route is its path; its frames leave the network at the egress of
// the path's last port (the seeds' accounting), so a chain's receivers need
// no link of their own.
func chainNetwork(cfg *Config) (*network, error) {
	links := cfg.links()
	L := len(links)
	sw := func(j int) string { return fmt.Sprintf("sw%d", j) }
	var nodes []topo.Node
	for j := range links {
		nodes = append(nodes, topo.Node{Name: sw(j), Kind: topo.Switch})
	}
	for i := range cfg.Sources {
		nodes = append(nodes, topo.Node{Name: fmt.Sprintf("h%d", i), Kind: topo.Host})
	}
	nodes = append(nodes, topo.Node{Name: "rx", Kind: topo.Host})
	var tl []topo.Link
	for j, l := range links {
		next := "rx"
		if j < L-1 {
			next = sw(j + 1)
		}
		tl = append(tl, topo.Link{A: sw(j), B: next, Capacity: l.Capacity, Delay: l.Delay, Back: l.Delay,
			Buffer: l.Buffer, Name: sw(j)})
	}
	for i, s := range cfg.Sources {
		tl = append(tl, topo.Link{A: fmt.Sprintf("h%d", i), B: sw(s.path()[0]), Capacity: s.LineRate,
			Delay: s.ForwardDelay, Back: s.BackwardDelay})
	}
	t, err := topo.Custom(nodes, tl)
	if err != nil {
		return nil, err
	}
	n := &network{topo: t, chain: true}
	ports := make([]int, L)
	for j := range ports {
		ports[j] = 2 * j // link j's A->B direction
	}
	n.simulate(ports)
	n.exitDelay = make([]algos.Time, L)
	n.feeders = make([][]feeder, L)
	for j := 1; j < L; j++ {
		n.feeders[j] = append(n.feeders[j], feeder{host: -1, port: int32(j - 1)})
	}
	for i, s := range cfg.Sources {
		path := s.path()
		route := make([]int32, len(path))
		for k, j := range path {
			route[k] = int32(j)
		}
		n.flows = append(n.flows, flowSpec{host: i, dst: -1, route: route, hops: len(route),
			lineRate: s.LineRate, initialRate: s.InitialRate, start: s.Start, stop: s.Stop, class: uint8(s.Class)})
		n.feeders[path[0]] = append(n.feeders[path[0]], feeder{host: int32(i), port: -1})
	}
	return n, nil
}
