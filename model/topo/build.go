package topo

import (
	"fmt"

	"qcnlab/algos"
)

// A DelayFunc gives a link its propagation delay, the same both ways, from
// its ends and capacity: the constructors call it for every link.
type DelayFunc func(Link) algos.Time

// Uniform is the DelayFunc of every link d.
func Uniform(d algos.Time) DelayFunc { return func(Link) algos.Time { return d } }

// LeafSpine is a two-tier Clos network: every leaf (top-of-rack switch)
// links to every spine at uplinkCapacity, and hostsPerLeaf hosts hang off
// each leaf at hostCapacity. Host i is under leaf i / hostsPerLeaf. Nodes
// are named leaf0.., spine0.., h0..; ports leaf0->spine1, leaf2->h5; tiers
// "host", "leaf up", "spine down", "leaf down".
func LeafSpine(leaves, spines, hostsPerLeaf int, hostCapacity, uplinkCapacity float64, buffer int, delay DelayFunc) (*Topology, error) {
	if leaves < 1 || spines < 1 || hostsPerLeaf < 1 || leaves*hostsPerLeaf < 2 {
		return nil, fmt.Errorf("leaf-spine: %d leaves, %d spines, %d hosts per leaf: want at least one of each and two hosts", leaves, spines, hostsPerLeaf)
	}
	if delay == nil {
		delay = Uniform(0)
	}
	var nodes []Node
	var links []Link
	for l := 0; l < leaves; l++ {
		nodes = append(nodes, Node{Name: fmt.Sprintf("leaf%d", l), Kind: Switch, Tier: "leaf", Level: 1})
	}
	for s := 0; s < spines; s++ {
		nodes = append(nodes, Node{Name: fmt.Sprintf("spine%d", s), Kind: Switch, Tier: "spine", Level: 2})
	}
	link := func(a, b string, capacity float64) {
		k := Link{A: a, B: b, Capacity: capacity, Buffer: buffer}
		k.Delay = delay(k)
		k.Back = k.Delay
		links = append(links, k)
	}
	for i := 0; i < leaves*hostsPerLeaf; i++ {
		h := fmt.Sprintf("h%d", i)
		nodes = append(nodes, Node{Name: h, Kind: Host})
		link(h, fmt.Sprintf("leaf%d", i/hostsPerLeaf), hostCapacity)
	}
	for l := 0; l < leaves; l++ {
		for s := 0; s < spines; s++ {
			link(fmt.Sprintf("leaf%d", l), fmt.Sprintf("spine%d", s), uplinkCapacity)
		}
	}
	return Custom(nodes, links)
}

// FatTree is the k-ary fat-tree of Al-Fares et al. (SIGCOMM 2008): k pods
// of k/2 edge and k/2 aggregation switches, every edge switch linked to
// every aggregation switch of its pod, aggregation switch a of each pod
// linked to cores a*k/2 .. a*k/2+k/2-1 of the (k/2)^2 cores, and k/2 hosts
// under each edge switch: k^3/4 hosts, every link at capacity. Hosts are
// numbered pod-major, edge-major: host i is under edge switch (i / (k/2))
// mod k/2 of pod i / (k/2)^2. Nodes are named edge0.1 (pod 0, switch 1),
// agg0.0, core3, h5; tiers "host", "edge up", "agg up", "core down",
// "agg down", "edge down".
func FatTree(k int, capacity float64, buffer int, delay DelayFunc) (*Topology, error) {
	if k < 2 || k%2 != 0 {
		return nil, fmt.Errorf("fat-tree k = %d: k must be even and at least 2", k)
	}
	if delay == nil {
		delay = Uniform(0)
	}
	half := k / 2
	var nodes []Node
	var links []Link
	edge := func(p, e int) string { return fmt.Sprintf("edge%d.%d", p, e) }
	agg := func(p, a int) string { return fmt.Sprintf("agg%d.%d", p, a) }
	core := func(c int) string { return fmt.Sprintf("core%d", c) }
	for p := 0; p < k; p++ {
		for e := 0; e < half; e++ {
			nodes = append(nodes, Node{Name: edge(p, e), Kind: Switch, Tier: "edge", Level: 1})
		}
		for a := 0; a < half; a++ {
			nodes = append(nodes, Node{Name: agg(p, a), Kind: Switch, Tier: "agg", Level: 2})
		}
	}
	for c := 0; c < half*half; c++ {
		nodes = append(nodes, Node{Name: core(c), Kind: Switch, Tier: "core", Level: 3})
	}
	link := func(a, b string) {
		l := Link{A: a, B: b, Capacity: capacity, Buffer: buffer}
		l.Delay = delay(l)
		l.Back = l.Delay
		links = append(links, l)
	}
	for i := 0; i < k*half*half; i++ {
		h := fmt.Sprintf("h%d", i)
		nodes = append(nodes, Node{Name: h, Kind: Host})
		link(h, edge(i/(half*half), i/half%half))
	}
	for p := 0; p < k; p++ {
		for e := 0; e < half; e++ {
			for a := 0; a < half; a++ {
				link(edge(p, e), agg(p, a))
			}
		}
	}
	for p := 0; p < k; p++ {
		for a := 0; a < half; a++ {
			for c := 0; c < half; c++ {
				link(agg(p, a), core(a*half+c))
			}
		}
	}
	t, err := Custom(nodes, links)
	if t != nil {
		t.fatTree = k // the layout fattree.go's formula reads
	}
	return t, err
}
