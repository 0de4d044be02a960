// Package topo describes the networks qcnlab simulates as data: nodes (hosts
// and switches), full-duplex links between them, the directed ports the
// links make, and the equal-cost shortest paths between hosts (routes.go).
// It knows nothing of frames or of simulated time beyond a link's
// propagation delay, so that each computation is testable alone.
package topo

import (
	"errors"
	"fmt"
	"sync"

	"qcnlab/algos"
)

// Kind says what a node is.
type Kind uint8

const (
	Host   Kind = iota // a NIC: it sends and receives, never forwards
	Switch             // an output-queued switch: every egress port has a buffer and a congestion point
)

// Node is a host or a switch.
type Node struct {
	Name string
	Kind Kind
	// Tier names the node's layer ("edge", "agg", "core", "leaf", "spine")
	// and Level orders the layers, hosts at 0: a port is "up" toward a
	// higher level. The summary groups ports by tier.
	Tier  string
	Level int
}

// Link is a full-duplex cable between nodes A and B.
type Link struct {
	A, B     string
	Capacity float64    // bits per second, each way
	Delay    algos.Time // propagation from A to B
	// Back is the propagation from B to A. Only a host's link may differ
	// from Delay (a chain's sources have their own forward and backward
	// delays); Duplex makes a symmetric link.
	Back   algos.Time
	Buffer int // bytes of drop-tail buffer at each switch end's egress port
	// Name, if set, names the A->B port instead of "A->B": a chain keeps
	// its ports' historical names sw0, sw1, ...
	Name string
}

// Duplex is a link with the same delay both ways.
func Duplex(a, b string, capacity float64, delay algos.Time, buffer int) Link {
	return Link{A: a, B: b, Capacity: capacity, Delay: delay, Back: delay, Buffer: buffer}
}

// Port is one direction of a link: the egress of node From toward node To.
// A switch's port has a queue and a congestion point in the simulation; a
// host's is its NIC's link.
type Port struct {
	Link     int
	From, To int // node indices
	Name     string
	Capacity float64    // bits per second
	Delay    algos.Time // propagation From -> To
	Back     algos.Time // propagation To -> From: what a PAUSE or feedback sent back over it takes
	Buffer   int
	Tier     string // "edge up", "core down", "host", ...
}

// Topology is a validated network. Ports 2l and 2l+1 are link l's A->B and
// B->A directions; hosts are numbered in node order.
type Topology struct {
	Nodes []Node
	Links []Link
	Ports []Port
	Hosts []int // node index of host i

	hostOf []int   // node -> host index, -1 for a switch
	out    [][]int // node -> its egress ports, in port order
	index  map[string]int

	routesOnce sync.Once
	routes     *Routes
	fatTree    int // k, for a fat-tree FatTree built: its routes are a formula
}

// Custom builds a topology from nodes and links. Every host has exactly one
// link, to a switch; links join known, distinct nodes, have a positive
// capacity and no negative delay; a link between switches has one delay
// both ways. Errors name the node or link.
func Custom(nodes []Node, links []Link) (*Topology, error) {
	t := &Topology{Nodes: nodes, Links: links, index: make(map[string]int, len(nodes))}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for i, n := range nodes {
		if n.Name == "" {
			bad("node %d has no name", i)
			continue
		}
		if _, dup := t.index[n.Name]; dup {
			bad("node %q is named twice", n.Name)
			continue
		}
		t.index[n.Name] = i
	}
	t.hostOf = make([]int, len(nodes))
	for i, n := range nodes {
		t.hostOf[i] = -1
		if n.Kind == Host {
			t.hostOf[i] = len(t.Hosts)
			t.Hosts = append(t.Hosts, i)
		}
	}
	t.out = make([][]int, len(nodes))
	degree := make([]int, len(nodes))
	// rejected marks the nodes of a link refused above: a host's count of
	// links is not reported again for them (one error, not two).
	rejected := make([]bool, len(nodes))
	for l, k := range links {
		a, okA := t.index[k.A]
		b, okB := t.index[k.B]
		name := fmt.Sprintf("link %d (%s-%s)", l, k.A, k.B)
		switch {
		case !okA:
			bad("%s: unknown node %q", name, k.A)
			continue
		case !okB:
			bad("%s: unknown node %q", name, k.B)
			continue
		case a == b:
			bad("%s: a link joins two distinct nodes", name)
			continue
		case nodes[a].Kind == Host && nodes[b].Kind == Host:
			bad("%s: joins two hosts; a host's link goes to a switch", name)
			rejected[a], rejected[b] = true, true
			continue
		case !(k.Capacity > 0):
			bad("%s: the capacity must be positive", name)
		case k.Delay < 0 || k.Back < 0:
			bad("%s: a delay must not be negative", name)
		case nodes[a].Kind == Switch && nodes[b].Kind == Switch && k.Delay != k.Back:
			bad("%s: a link between switches has one delay both ways", name)
		case k.Buffer < 0:
			bad("%s: the buffer must not be negative", name)
		}
		degree[a]++
		degree[b]++
		ab := Port{Link: l, From: a, To: b, Name: k.Name, Capacity: k.Capacity, Delay: k.Delay, Back: k.Back, Buffer: k.Buffer}
		if ab.Name == "" {
			ab.Name = k.A + "->" + k.B
		}
		ba := Port{Link: l, From: b, To: a, Name: k.B + "->" + k.A, Capacity: k.Capacity, Delay: k.Back, Back: k.Delay, Buffer: k.Buffer}
		for _, p := range []Port{ab, ba} {
			p.Tier = t.tier(p)
			t.out[p.From] = append(t.out[p.From], len(t.Ports))
			t.Ports = append(t.Ports, p)
		}
	}
	for _, h := range t.Hosts {
		if degree[h] != 1 && !rejected[h] {
			bad("host %q has %d links; a host has one, to a switch", nodes[h].Name, degree[h])
		}
	}
	if len(t.Hosts) < 2 {
		bad("a topology needs at least two hosts, it has %d", len(t.Hosts))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return t, nil
}

// tier names a port's layer: "host" for a NIC; for a switch's port its
// tier and "up" or "down" by the levels, or by the kinds when the nodes
// have no tiers.
func (t *Topology) tier(p Port) string {
	from, to := t.Nodes[p.From], t.Nodes[p.To]
	switch {
	case from.Kind == Host:
		return "host"
	case from.Tier == "" && to.Kind == Host:
		return "switch to host"
	case from.Tier == "":
		return "switch to switch"
	case to.Level > from.Level:
		return from.Tier + " up"
	}
	return from.Tier + " down"
}

// Node returns the index of the node named name.
func (t *Topology) Node(name string) (int, bool) {
	i, ok := t.index[name]
	return i, ok
}

// HostIndex is node n's host number, or -1 for a switch.
func (t *Topology) HostIndex(n int) int { return t.hostOf[n] }

// Out lists node n's egress ports.
func (t *Topology) Out(n int) []int { return t.out[n] }

// NIC is host h's egress port: its link toward its switch.
func (t *Topology) NIC(h int) int { return t.out[t.Hosts[h]][0] }

// Attach is the switch host h's link leads to.
func (t *Topology) Attach(h int) int { return t.Ports[t.NIC(h)].To }

// HostName names host h.
func (t *Topology) HostName(h int) string { return t.Nodes[t.Hosts[h]].Name }
