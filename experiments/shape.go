package experiments

import (
	"qcnlab/experiments/cost"
	"qcnlab/experiments/fabric"
	"qcnlab/experiments/topology"
	"qcnlab/units"
)

// MaxRouteBytes bounds a fabric's routing state (fabric.MaxRouteBytes).
const MaxRouteBytes = fabric.MaxRouteBytes

// shape is the fabric's size from its keys; ok is false if they are out of
// bounds (reported as such).
func (e *Experiment) shape() (s topology.Shape, ok bool) {
	if t := e.fabric(); t != nil {
		return t.Shape(e.Network)
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
	case s.Links > topology.MaxLinks:
		bad(key, "%.0f links; the most is %d", s.Links, topology.MaxLinks)
	case s.SwitchPorts > topology.MaxSwitchPorts:
		bad(key, "%.0f switch ports; the most is %d", s.SwitchPorts, topology.MaxSwitchPorts)
	case s.RouteBytes(e.Network.PFC) > MaxRouteBytes:
		what := "routing tables"
		if e.Network.PFC {
			what = "routing tables and PFC's feeder lists"
		}
		bad(key, "%s would need ~%s (%.0f switches with hosts, %.0f nodes; the most is %s); make the network smaller",
			what, units.FormatBytes(cost.RoundTo2(s.RouteBytes(e.Network.PFC))), s.Groups, s.Nodes, units.FormatBytes(MaxRouteBytes))
	}
}

// sizeKey is the key that sizes a fabric's topology.
func (e *Experiment) sizeKey() string {
	if t := e.fabric(); t != nil {
		return t.SizeKey(e.Network)
	}
	return "network.link"
}
