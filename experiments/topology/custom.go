package topology

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/model/topo"
	"qcnlab/units"
)

// custom is a topology of [[network.node]] and [[network.link]] entries:
// any graph of hosts and switches.
type custom struct{}

var _ = Register(custom{})

func (custom) Name() string { return "custom" }

func (custom) Sized(*Network) {}

func (custom) Hosts(n Network) int {
	hosts := 0
	for _, node := range customNodes(n) {
		if node.Kind == topo.Host {
			hosts++
		}
	}
	return hosts
}

func (custom) Ports(n Network) int {
	kinds := map[string]topo.Kind{}
	for _, node := range customNodes(n) {
		kinds[node.Name] = node.Kind
	}
	ports := 0
	for _, l := range n.FabricLinks {
		for _, end := range []string{l.A, l.B} {
			if kinds[end] == topo.Switch {
				ports++
			}
		}
	}
	return ports
}

func (custom) Shape(n Network) (s Shape, ok bool) {
	if len(n.Nodes) > MaxFabricElements || len(n.FabricLinks) > MaxFabricElements {
		return s, false
	}
	nodes := customNodes(n)
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
				s.SwitchPorts++
			}
		}
	}
	s.Nodes = float64(len(nodes))
	s.Links = float64(len(n.FabricLinks))
	s.Groups = float64(len(groups))
	s.NextHops = s.Groups * between
	for _, d := range degree {
		s.Feeders += d * d
	}
	return s, true
}

func (custom) SizeKey(Network) string { return "network.link" }
func (custom) BuildKey() string       { return "network.link" }

// Build links the nodes, each link at its own capacity, delay and buffer
// or the network's.
func (custom) Build(n Network, seed uint64, hop model.Dist, _ func(topo.Link) algos.Time) (*topo.Topology, error) {
	var links []topo.Link
	for i, l := range n.FabricLinks {
		c, b, d := float64(n.Capacity), int(n.Buffer), hop
		if l.Capacity != nil {
			c = float64(*l.Capacity)
		}
		if l.Buffer != nil {
			b = int(*l.Buffer)
		}
		if l.Delay != nil {
			d = l.Delay.Dist()
		}
		links = append(links, topo.Duplex(l.A, l.B, c, d.Draw(model.DelayRand(seed, model.StreamHopDelays+uint64(i))), b))
	}
	return topo.Custom(customNodes(n), links)
}

func (custom) Label(Network) string { return "custom" }

// Validate checks [[network.node]] and [[network.link]].
func (custom) Validate(n Network, bad Bad) {
	for i, node := range n.Nodes {
		keys.PrintableName(fmt.Sprintf("network.node[%d].name", i), node.Name, bad)
		keys.PrintableName(fmt.Sprintf("network.node[%d].tier", i), node.Tier, bad)
	}
	for i, l := range n.FabricLinks {
		keys.PrintableName(fmt.Sprintf("network.link[%d].a", i), l.A, bad)
		keys.PrintableName(fmt.Sprintf("network.link[%d].b", i), l.B, bad)
	}
	if len(n.FabricLinks) == 0 {
		bad("network.link", "missing: a custom topology lists its links, [[network.link]] a = \"h0\", b = \"tor0\"")
		return
	}
	if len(n.Nodes) > MaxFabricElements || len(n.FabricLinks) > MaxFabricElements {
		bad("network.link", "more than %d nodes or links", MaxFabricElements)
		return
	}
	listed := map[string]bool{}
	for i, node := range n.Nodes {
		key := fmt.Sprintf("network.node[%d]", i)
		switch {
		case node.Name == "":
			bad(key+".name", "missing: every node has a name")
		case listed[node.Name]:
			bad(key+".name", "%q is listed twice", node.Name)
		case node.Kind != "host" && node.Kind != "switch":
			bad(key+".kind", "%q is not \"host\" or \"switch\"", node.Kind)
		}
		listed[node.Name] = true
	}
	for i, l := range n.FabricLinks {
		key := fmt.Sprintf("network.link[%d]", i)
		switch {
		case l.A == "" || l.B == "":
			bad(key, "a link names both its ends: a = \"h0\", b = \"tor0\"")
		case l.A == l.B:
			bad(key, "joins %q to itself", l.A)
		case l.Capacity != nil && *l.Capacity < units.MinRate:
			bad(key+".capacity", "must be at least %s", units.FormatRate(units.MinRate))
		case l.Buffer != nil && *l.Buffer < n.FrameSize:
			bad(key+".buffer", "must hold at least one frame (%s)", units.FormatBytes(float64(n.FrameSize)))
		case l.Delay != nil && l.Delay.Dist().Max() >= algos.Never:
			bad(key+".delay", "must be finite")
		}
		for _, end := range []string{l.A, l.B} {
			if len(n.Nodes) > 0 && end != "" && !listed[end] && kindByName(end) == topo.Switch {
				// With a node list, a switch the list lacks is a typo.
				bad(key, "a link to an unknown node %q: [[network.node]] does not list it", end)
			}
		}
	}
}

// customNodes lists the nodes of a custom topology: those [[network.node]]
// lists, then those its links name, in the order they first appear.
func customNodes(n Network) []topo.Node {
	var nodes []topo.Node
	seen := map[string]bool{}
	for _, node := range n.Nodes {
		if !seen[node.Name] {
			seen[node.Name] = true
			kind := topo.Switch
			if node.Kind == "host" {
				kind = topo.Host
			}
			nodes = append(nodes, topo.Node{Name: node.Name, Kind: kind, Tier: node.Tier, Level: node.Level})
		}
	}
	for _, l := range n.FabricLinks {
		for _, name := range []string{l.A, l.B} {
			if name != "" && !seen[name] {
				seen[name] = true
				nodes = append(nodes, topo.Node{Name: name, Kind: kindByName(name)})
			}
		}
	}
	return nodes
}

// kindByName is the kind of a node no [[network.node]] lists: h and a
// digit make a host.
func kindByName(name string) topo.Kind {
	if len(name) > 1 && name[0] == 'h' && name[1] >= '0' && name[1] <= '9' {
		return topo.Host
	}
	return topo.Switch
}
