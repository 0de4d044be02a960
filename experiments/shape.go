package experiments

import (
	"qcnlab/model/topo"
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
	n := e.Network
	n.fabricSizes()
	switch n.Topology {
	case "leaf_spine":
		if e.hostCount() == 0 || *n.Spines < 1 || *n.Spines > MaxSwitches {
			return s, false
		}
		l, sp, h := float64(*n.Leaves), float64(*n.Spines), float64(*n.HostsPerLeaf)
		s.nodes = l + sp + l*h
		s.links = l*h + l*sp
		s.switchPorts = l*h + 2*l*sp
		s.groups = l
		// At every other leaf each spine is a next hop; at each spine the
		// leaf below.
		s.nextHops = l * ((l-1)*sp + sp)
		s.feeders = l*(h+sp)*(h+sp) + sp*l*l
	case "fat_tree":
		if e.hostCount() == 0 {
			return s, false
		}
		k := float64(*n.K)
		s.nodes = k*k*k/4 + 5*k*k/4
		s.links = 3 * k * k * k / 4
		s.switchPorts = 5 * k * k * k / 4
		s.groups = k * k / 2
		// Every edge and aggregation switch has at most k/2 next hops up,
		// every core one down.
		s.nextHops = s.groups * (k*k*k/2 + k*k/4)
		s.feeders = 5 * k * k / 4 * k * k
	case "custom":
		if len(n.Nodes) > maxFabricEls || len(n.FabricLinks) > maxFabricEls {
			return s, false
		}
		nodes := e.customNodes()
		kinds := make(map[string]topo.Kind, len(nodes))
		for _, node := range nodes {
			kinds[node.Name] = node.Kind
		}
		degree := map[string]float64{}
		groups := map[string]bool{}
		between := 0.0 // switch ports toward other switches
		for _, l := range n.FabricLinks {
			a, b := kinds[l.A], kinds[l.B]
			switch {
			case a == topo.Host && b == topo.Switch:
				groups[l.B] = true
			case b == topo.Host && a == topo.Switch:
				groups[l.A] = true
			case a == topo.Switch && b == topo.Switch:
				between += 2
			}
			for _, end := range []string{l.A, l.B} {
				if kinds[end] == topo.Switch {
					degree[end]++
					s.switchPorts++
				}
			}
		}
		s.nodes = float64(len(nodes))
		s.links = float64(len(n.FabricLinks))
		s.groups = float64(len(groups))
		s.nextHops = s.groups * between
		for _, d := range degree {
			s.feeders += d * d
		}
	default:
		return s, false
	}
	return s, true
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

// sizeKey is the key that sizes a fabric's topology: for a leaf-spine the
// largest of its three sizes, as set.
func (e *Experiment) sizeKey() string {
	n := e.Network
	n.fabricSizes()
	switch n.Topology {
	case "fat_tree":
		return "network.k"
	case "leaf_spine":
		key, v := "network.leaves", *n.Leaves
		if *n.Spines > v {
			key, v = "network.spines", *n.Spines
		}
		if *n.HostsPerLeaf > v {
			key = "network.hosts_per_leaf"
		}
		return key
	}
	return "network.link"
}
