package topology

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// star is one switch with network.hosts hosts, each linked to it at
// network.capacity, every switch port with network.buffer: the
// single-switch testbed of DCTCP's incast (Alizadeh et al., SIGCOMM 2010,
// its hosts behind one top-of-rack switch) and of HPCC's. Its one path
// between two hosts is the switch: the congestion is at the receiver's
// port alone.
type star struct{}

// starKeys are the keys only a star reads.
type starKeys struct {
	Hosts *int `toml:"hosts,omitempty"`
}

var starOwn = &Keys[starKeys]{Entries: []keys.Key{
	{Path: "network.hosts", Kind: keys.Count, Doc: "hosts, each linked to the one switch; an incast draws its senders among the others", Cost: "hosts, switch ports and flows grow with it"},
}}

// A star is listed after the custom topology.
var _ = Register(star{}, 40, starOwn)

// defaultStarHosts are a star's hosts when the file leaves them out.
const defaultStarHosts = 8

func (star) Name() string { return "star" }

func (star) Sized(n *Network) {
	if k := starOwn.Of(*n); k.Hosts == nil {
		k.Hosts = ptr(defaultStarHosts)
		starOwn.Set(n, k)
	}
}

// hosts is network.hosts, its default written in; 0 when out of bounds.
func (t star) hosts(n Network) int {
	t.Sized(&n)
	if h := *starOwn.Of(n).Hosts; h >= 2 && h <= MaxHosts {
		return h
	}
	return 0
}

func (t star) Hosts(n Network) int { return t.hosts(n) }

// Ports are the switch's, one toward each host.
func (t star) Ports(n Network) int { return t.hosts(n) }

func (t star) Shape(n Network) (s Shape, ok bool) {
	h := float64(t.hosts(n))
	if h == 0 {
		return s, false
	}
	s.Nodes = h + 1
	s.Links = h
	s.SwitchPorts = h
	s.Groups = 1   // the switch
	s.NextHops = 0 // it delivers to its hosts: no switch is a next hop
	s.Feeders = h * h
	return s, true
}

func (star) SizeKey(Network) string { return "network.hosts" }
func (star) BuildKey() string       { return "network.hosts" }

// Build links host i (h0, h1, ...) to the switch, sw, in host order.
func (t star) Build(n Network, _ uint64, _ model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error) {
	t.Sized(&n)
	hosts := *starOwn.Of(n).Hosts
	nodes := []topo.Node{{Name: "sw", Kind: topo.Switch, Tier: "switch", Level: 1}}
	var links []topo.Link
	for i := range hosts {
		h := fmt.Sprintf("h%d", i)
		nodes = append(nodes, topo.Node{Name: h, Kind: topo.Host})
		l := topo.Duplex(h, "sw", float64(n.Capacity), 0, int(n.Buffer))
		l.Delay = delay(l)
		l.Back = l.Delay
		links = append(links, l)
	}
	return topo.Custom(nodes, links)
}

func (t star) Label(n Network) string {
	t.Sized(&n)
	return fmt.Sprintf("star of %d hosts", *starOwn.Of(n).Hosts)
}

func (star) Validate(n Network, bad Bad) {
	if h := starOwn.Of(n).Hosts; h != nil && (*h < 2 || *h > MaxHosts) {
		bad("network.hosts", "%d: a star has from 2 to %d hosts", *h, MaxHosts)
	}
}
