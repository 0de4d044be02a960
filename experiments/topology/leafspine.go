package topology

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/model/topo"
	"qcnlab/units"
)

// leafSpine is network.leaves leaves, network.spines spines, each linked
// to every leaf, and network.hosts_per_leaf hosts under each leaf; its
// host links at network.capacity, its uplinks at network.uplink_capacity.
type leafSpine struct{}

var _ = Register(leafSpine{})

// The sizes a leaf-spine has when the file leaves them out: sixteen hosts,
// as small as a fabric with several paths gets.
const (
	defaultLeaves       = 4
	defaultSpines       = 2
	defaultHostsPerLeaf = 4
)

func (leafSpine) Name() string { return "leaf_spine" }

func (leafSpine) Sized(n *Network) {
	if n.Leaves == nil {
		n.Leaves = ptr(defaultLeaves)
	}
	if n.Spines == nil {
		n.Spines = ptr(defaultSpines)
	}
	if n.HostsPerLeaf == nil {
		n.HostsPerLeaf = ptr(defaultHostsPerLeaf)
	}
	if n.UplinkCapacity == nil {
		n.UplinkCapacity = ptr(n.Capacity)
	}
}

func (t leafSpine) Hosts(n Network) int {
	t.Sized(&n)
	if *n.Leaves < 1 || *n.HostsPerLeaf < 1 || *n.Leaves > MaxSwitches || *n.HostsPerLeaf > MaxHosts {
		return 0
	}
	return *n.Leaves * *n.HostsPerLeaf
}

func (t leafSpine) Ports(n Network) int {
	t.Sized(&n)
	if t.Hosts(n) == 0 || *n.Spines < 1 {
		return 0
	}
	return *n.Leaves*(*n.HostsPerLeaf+*n.Spines) + *n.Spines**n.Leaves
}

func (t leafSpine) Shape(n Network) (s Shape, ok bool) {
	t.Sized(&n)
	if t.Hosts(n) == 0 || *n.Spines < 1 || *n.Spines > MaxSwitches {
		return s, false
	}
	l, sp, h := float64(*n.Leaves), float64(*n.Spines), float64(*n.HostsPerLeaf)
	s.Nodes = l + sp + l*h
	s.Links = l*h + l*sp
	s.SwitchPorts = l*h + 2*l*sp
	s.Groups = l
	// At every other leaf each spine is a next hop; at each spine the
	// leaf below.
	s.NextHops = l * ((l-1)*sp + sp)
	s.Feeders = l*(h+sp)*(h+sp) + sp*l*l
	return s, true
}

// SizeKey is the largest of its three sizes, as set.
func (t leafSpine) SizeKey(n Network) string {
	t.Sized(&n)
	key, v := "network.leaves", *n.Leaves
	if *n.Spines > v {
		key, v = "network.spines", *n.Spines
	}
	if *n.HostsPerLeaf > v {
		key = "network.hosts_per_leaf"
	}
	return key
}

func (leafSpine) BuildKey() string { return "network.topology" }

func (leafSpine) Build(n Network, seed uint64, _ model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error) {
	return topo.LeafSpine(*n.Leaves, *n.Spines, *n.HostsPerLeaf, float64(n.Capacity), float64(*n.UplinkCapacity), int(n.Buffer), delay)
}

func (leafSpine) Label(n Network) string {
	return fmt.Sprintf("leaf-spine %dx%d", *n.Leaves, *n.Spines)
}

func (leafSpine) Validate(n Network, bad Bad) {
	for _, k := range []struct {
		key string
		v   *int
		max int
	}{{"network.leaves", n.Leaves, MaxSwitches}, {"network.spines", n.Spines, MaxSwitches}, {"network.hosts_per_leaf", n.HostsPerLeaf, MaxHosts}} {
		switch {
		case k.v == nil: // the default
		case *k.v < 1 || *k.v > k.max:
			bad(k.key, "must be from 1 to %d", k.max)
		}
	}
	if n.UplinkCapacity != nil && *n.UplinkCapacity < units.MinRate {
		bad("network.uplink_capacity", "must be at least %s", units.FormatRate(units.MinRate))
	}
}
