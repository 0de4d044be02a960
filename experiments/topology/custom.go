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

// customKeys are the keys only a custom topology reads.
type customKeys struct {
	Nodes []FabricNode `toml:"node,omitempty"`
	Links []FabricLink `toml:"link,omitempty"`
}

var customOwn = &Keys[customKeys]{Entries: []keys.Key{
	{Path: "network.node", Kind: keys.Tables, Doc: "[[network.node]]: a custom fabric's nodes", Cost: "nodes and routing tables grow with them"},
	{Path: "network.node.name", Kind: keys.Text, Doc: "the node's name, which links name"},
	{Path: "network.node.kind", Kind: keys.Choice, Choices: []string{"host", "switch"}, Doc: "host or switch"},
	{Path: "network.node.tier", Kind: keys.Text, Doc: "the layer the summary's tiers sum it into"},
	{Path: "network.node.level", Kind: keys.Count, Doc: "the tier's height, for the order of the tiers"},
	{Path: "network.link", Kind: keys.Tables, Doc: "[[network.link]]: a custom fabric's links", Cost: "links and switch ports grow with them"},
	{Path: "network.link.a", Kind: keys.Text, Doc: "one end, a node's name"},
	{Path: "network.link.b", Kind: keys.Text, Doc: "the other end"},
	{Path: "network.link.capacity", Kind: keys.Rate, Derived: "network.capacity", Doc: "the link's rate"},
	{Path: "network.link.delay", Kind: keys.Delay, Derived: "network.hop_delay", Doc: "the link's propagation"},
	{Path: "network.link.buffer", Kind: keys.Bytes, Derived: "network.buffer", Doc: "the buffer of its switch egress ports"},
}}

// A custom topology is listed after the fat-tree.
var _ = Register(custom{}, 30, customOwn)

// MaxFabricElements bounds a custom topology's nodes and links.
const MaxFabricElements = 200_000

// FabricNode is a [[network.node]] entry of a custom topology. A node that
// no entry lists is a host if its name begins with "h" followed by a digit
// (h0, h12), else a switch.
type FabricNode struct {
	Name  string `toml:"name"`
	Kind  string `toml:"kind"`            // "host" or "switch"
	Tier  string `toml:"tier,omitempty"`  // for the per-tier summary: "tor", "agg", ...
	Level int    `toml:"level,omitempty"` // orders the tiers, hosts at 0: up is toward a higher level
}

// FabricLink is a [[network.link]] entry: a full-duplex cable.
type FabricLink struct {
	A        string       `toml:"a"`
	B        string       `toml:"b"`
	Capacity *units.Rate  `toml:"capacity,omitempty"` // default network.capacity
	Delay    *Delay       `toml:"delay,omitempty"`    // default network.hop_delay, drawn per link
	Buffer   *units.Bytes `toml:"buffer,omitempty"`   // default network.buffer, at each switch end
}

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
	c := customOwn.Of(n)
	kinds := map[string]topo.Kind{}
	for _, node := range customNodes(n) {
		kinds[node.Name] = node.Kind
	}
	ports := 0
	for _, l := range c.Links {
		for _, end := range []string{l.A, l.B} {
			if kinds[end] == topo.Switch {
				ports++
			}
		}
	}
	return ports
}

func (custom) Shape(n Network) (s Shape, ok bool) {
	c := customOwn.Of(n)
	if len(c.Nodes) > MaxFabricElements || len(c.Links) > MaxFabricElements {
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
	for _, l := range c.Links {
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
	s.Links = float64(len(c.Links))
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
	c := customOwn.Of(n)
	var links []topo.Link
	for i, l := range c.Links {
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
	c := customOwn.Of(n)
	for i, node := range c.Nodes {
		keys.PrintableName(fmt.Sprintf("network.node[%d].name", i), node.Name, bad)
		keys.PrintableName(fmt.Sprintf("network.node[%d].tier", i), node.Tier, bad)
	}
	for i, l := range c.Links {
		keys.PrintableName(fmt.Sprintf("network.link[%d].a", i), l.A, bad)
		keys.PrintableName(fmt.Sprintf("network.link[%d].b", i), l.B, bad)
	}
	if len(c.Links) == 0 {
		bad("network.link", "missing: a custom topology lists its links, [[network.link]] a = \"h0\", b = \"tor0\"")
		return
	}
	if len(c.Nodes) > MaxFabricElements || len(c.Links) > MaxFabricElements {
		bad("network.link", "more than %d nodes or links", MaxFabricElements)
		return
	}
	listed := map[string]bool{}
	for i, node := range c.Nodes {
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
	for i, l := range c.Links {
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
			if len(c.Nodes) > 0 && end != "" && !listed[end] && kindByName(end) == topo.Switch {
				// With a node list, a switch the list lacks is a typo.
				bad(key, "a link to an unknown node %q: [[network.node]] does not list it", end)
			}
		}
	}
}

// customNodes lists the nodes of a custom topology: those [[network.node]]
// lists, then those its links name, in the order they first appear.
func customNodes(n Network) []topo.Node {
	c := customOwn.Of(n)
	var nodes []topo.Node
	seen := map[string]bool{}
	for _, node := range c.Nodes {
		if !seen[node.Name] {
			seen[node.Name] = true
			kind := topo.Switch
			if node.Kind == "host" {
				kind = topo.Host
			}
			nodes = append(nodes, topo.Node{Name: node.Name, Kind: kind, Tier: node.Tier, Level: node.Level})
		}
	}
	for _, l := range c.Links {
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
