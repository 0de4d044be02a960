package experiments

import (
	"qcnlab/units"
)

// Bounds on what building a fabric allocates, checked from its keys alone
// before anything is built: the topology's links and switch ports, and the
// routing state (the next hops toward every switch hosts hang off, which
// grows with the square of the leaves, and PFC's feeders, with the square
// of a switch's ports).
const (
	MaxLinks       = 200_000
	MaxSwitchPorts = 2 * MaxLinks
	MaxRouteBytes  = MaxRunMemory / 4
)

// fabricShape is the size of a fabric as its keys give it.
type fabricShape struct {
	nodes, links, switchPorts float64
	groups                    float64 // switches with hosts: one routing table each
	nextHops                  float64 // entries of every routing table
	feeders                   float64 // PFC's feeder lists, at most the sum of each switch's ports squared
}

// routeBytes is what the routes and, with PFC, the feeders hold, at the
// sizes of model/topo's tables: a distance and an offset per group and node,
// a port per next hop, a port and a flag per feeder.
func (s fabricShape) routeBytes(pfc bool) float64 {
	b := s.groups*s.nodes*(2+4) + s.nextHops*4
	if pfc {
		b += s.feeders * (4 + 1 + 8)
	}
	return b
}

// shape is the fabric's size from its keys; ok is false if they are out of
// bounds (reported as such).
func (e *Experiment) shape() (s fabricShape, ok bool) {
	if t := e.fabric(); t != nil {
		return t.Shape(e)
	}
	return s, false
}

// shapeErrors refuses a fabric whose topology or routes would be too large
// to build, before building it. The key blamed is the one that sizes it.
func (e *Experiment) shapeErrors(bad func(key, format string, args ...any)) {
	s, ok := e.shape()
	if !ok {
		return
	}
	key := e.sizeKey()
	switch {
	case s.links > MaxLinks:
		bad(key, "%.0f links; the most is %d", s.links, MaxLinks)
	case s.switchPorts > MaxSwitchPorts:
		bad(key, "%.0f switch ports; the most is %d", s.switchPorts, MaxSwitchPorts)
	case s.routeBytes(e.Network.PFC) > MaxRouteBytes:
		what := "routing tables"
		if e.Network.PFC {
			what = "routing tables and PFC's feeder lists"
		}
		bad(key, "%s would need ~%s (%.0f switches with hosts, %.0f nodes; the most is %s); make the network smaller",
			what, units.FormatBytes(roundTo2(s.routeBytes(e.Network.PFC))), s.groups, s.nodes, units.FormatBytes(MaxRouteBytes))
	}
}

// sizeKey is the key that sizes a fabric's topology.
func (e *Experiment) sizeKey() string {
	if t := e.fabric(); t != nil {
		return t.SizeKey(e.Network)
	}
	return "network.link"
}
