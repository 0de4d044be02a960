package model

import (
	"qcnlab/algos"
	"qcnlab/model/topo"
)

// network is the simulated network as data, before the simulation brings it
// to life: the topology, the switch ports the simulation follows, the
// flows' rate limiters known at the start and how their frames are routed,
// and what each port's PAUSE stops. chain.go builds it for a dumbbell or a
// parking lot, fabric.go for a leaf-spine, a fat-tree or a custom fabric;
// the engine walks it the same way for all.
type network struct {
	topo   *topo.Topology
	routes *topo.Routes // a fabric's equal-cost paths; nil on a chain, whose routes are given
	// ports lists the topology port of each simulated switch port, in the
	// order of their index: a chain's ports, every switch port of a fabric.
	// portOf maps a topology port back, -1 if it is not simulated.
	ports  []int
	portOf []int32
	flows  []flowSpec
	// feeders lists per simulated port the links a PAUSE from it stops,
	// upstream ports first, then hosts (pfc.go).
	feeders [][]feeder
	// exitDelay is, per simulated port, the propagation from its egress to
	// the receivers of the frames that leave the network there: the link
	// to the host on a fabric, 0 on a chain, whose receivers the seeds
	// place at the egress of each source's last bottleneck.
	exitDelay []algos.Time
	spray     bool // a fabric's flows are sprayed: they have no fixed route
	chain     bool
}

// Where the frames queued at a port go (network.streams).
const (
	streamOnward uint8 = 1 << iota // on to the next switch: the port's link
	streamExit                     // out of the network, to their receivers: its exits
)

// streams says where the frames queued at simulated port j go: at a
// fabric's port, on if it leads to a switch, out if to a host (never
// both: TestFabricPortsNeverMix); at a chain's, on if a flow crosses it,
// out if one ends there, or both (startRings, syncOdd).
func (n *network) streams(j int) uint8 {
	if !n.chain {
		if n.topo.Nodes[n.topo.Ports[n.ports[j]].To].Kind == topo.Host {
			return streamExit
		}
		return streamOnward
	}
	var s uint8
	for _, f := range n.flows {
		for k, pj := range f.route {
			switch {
			case int(pj) != j:
			case k == len(f.route)-1:
				s |= streamExit
			default:
				s |= streamOnward
			}
		}
	}
	return s
}

// flowSpec is one flow and its rate limiter (the scheme's reaction point):
// a chain's source, or a fabric's flow between two hosts.
type flowSpec struct {
	host int // the sending host
	dst  int // the receiving host; -1 on a chain
	// route lists the simulated ports its frames cross, the first at its
	// host's switch; nil when every frame is routed on its way (spraying).
	route       []int32
	hops        int // the ports a frame crosses
	lineRate    float64
	initialRate float64
	start, stop algos.Time
	size        int64 // bytes to send; 0 for a greedy flow
	incast      bool  // one of the flows of an incast (summary: incast completion)
	class       uint8 // its frames' traffic class (classes.go)
}

// feeder is a link into a switch that a port's PAUSE stops: a host's NIC or
// another switch's port.
type feeder struct {
	host int32 // the host, or -1
	port int32 // the simulated port, or -1
}

// portNode is the switch of simulated port j.
func (n *network) portNode(j int32) int32 { return int32(n.topo.Ports[n.ports[j]].From) }

// simulate marks the topology ports the simulation follows, in order.
func (n *network) simulate(ports []int) {
	n.ports = ports
	n.portOf = make([]int32, len(n.topo.Ports))
	for i := range n.portOf {
		n.portOf[i] = -1
	}
	for i, p := range ports {
		n.portOf[p] = int32(i)
	}
}
