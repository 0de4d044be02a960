package topology

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/model/topo"
	"qcnlab/units"
)

// leafSpine is network.leaves leaves, network.spines spines, each linked
// to every leaf, and network.hosts_per_leaf hosts under each leaf; its
// host links at network.capacity, its uplinks at network.uplink_capacity.
type leafSpine struct{}

// leafSpineKeys are the keys only a leaf-spine reads, in the order a saved
// file writes them.
type leafSpineKeys struct {
	UplinkCapacity *units.Rate `toml:"uplink_capacity,omitempty"`
	Leaves         *int        `toml:"leaves,omitempty"`
	Spines         *int        `toml:"spines,omitempty"`
	HostsPerLeaf   *int        `toml:"hosts_per_leaf,omitempty"`
}

var leafSpineOwn = &Keys[leafSpineKeys]{Entries: []keys.Key{
	{Path: "network.leaves", Kind: keys.Count, Doc: "leaf (top-of-rack) switches", Cost: "hosts, links and routing tables grow with it"},
	{Path: "network.spines", Kind: keys.Count, Doc: "spine switches, each linked to every leaf", Cost: "links and routing tables grow with it"},
	{Path: "network.hosts_per_leaf", Kind: keys.Count, Doc: "hosts under each leaf", Cost: "hosts and flows grow with it"},
	{Path: "network.uplink_capacity", Kind: keys.Rate, Derived: "network.capacity", Doc: "rate of the leaf-spine links"},
}}

// The leaf-spine is the first fabric listed.
var _ = Register(leafSpine{}, 10, leafSpineOwn)

// The sizes a leaf-spine has when the file leaves them out: sixteen hosts,
// as small as a fabric with several paths gets.
const (
	defaultLeaves       = 4
	defaultSpines       = 2
	defaultHostsPerLeaf = 4
)

// MaxSwitches bounds a leaf-spine's leaves and spines.
const MaxSwitches = 4096

func (leafSpine) Name() string { return "leaf_spine" }

func (leafSpine) Sized(n *Network) {
	k := leafSpineOwn.Of(*n)
	if k.Leaves != nil && k.Spines != nil && k.HostsPerLeaf != nil && k.UplinkCapacity != nil {
		return
	}
	if k.Leaves == nil {
		k.Leaves = ptr(defaultLeaves)
	}
	if k.Spines == nil {
		k.Spines = ptr(defaultSpines)
	}
	if k.HostsPerLeaf == nil {
		k.HostsPerLeaf = ptr(defaultHostsPerLeaf)
	}
	if k.UplinkCapacity == nil {
		k.UplinkCapacity = ptr(n.Capacity)
	}
	leafSpineOwn.Set(n, k)
}

// sizes are the leaf-spine's keys, their defaults written in.
func (t leafSpine) sizes(n Network) leafSpineKeys {
	t.Sized(&n)
	return leafSpineOwn.Of(n)
}

func (t leafSpine) Hosts(n Network) int {
	k := t.sizes(n)
	if *k.Leaves < 1 || *k.HostsPerLeaf < 1 || *k.Leaves > MaxSwitches || *k.HostsPerLeaf > MaxHosts {
		return 0
	}
	return *k.Leaves * *k.HostsPerLeaf
}

func (t leafSpine) Ports(n Network) int {
	k := t.sizes(n)
	if t.Hosts(n) == 0 || *k.Spines < 1 {
		return 0
	}
	return *k.Leaves*(*k.HostsPerLeaf+*k.Spines) + *k.Spines**k.Leaves
}

func (t leafSpine) Shape(n Network) (s Shape, ok bool) {
	k := t.sizes(n)
	if t.Hosts(n) == 0 || *k.Spines < 1 || *k.Spines > MaxSwitches {
		return s, false
	}
	l, sp, h := float64(*k.Leaves), float64(*k.Spines), float64(*k.HostsPerLeaf)
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
	k := t.sizes(n)
	key, v := "network.leaves", *k.Leaves
	if *k.Spines > v {
		key, v = "network.spines", *k.Spines
	}
	if *k.HostsPerLeaf > v {
		key = "network.hosts_per_leaf"
	}
	return key
}

func (leafSpine) BuildKey() string { return "network.topology" }

func (t leafSpine) Build(n Network, seed uint64, _ model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error) {
	k := t.sizes(n)
	return topo.LeafSpine(*k.Leaves, *k.Spines, *k.HostsPerLeaf, float64(n.Capacity), float64(*k.UplinkCapacity), int(n.Buffer), delay)
}

func (t leafSpine) Label(n Network) string {
	k := t.sizes(n)
	return fmt.Sprintf("leaf-spine %dx%d", *k.Leaves, *k.Spines)
}

func (leafSpine) Validate(n Network, bad Bad) {
	own := leafSpineOwn.Of(n)
	for _, k := range []struct {
		key string
		v   *int
		max int
	}{{"network.leaves", own.Leaves, MaxSwitches}, {"network.spines", own.Spines, MaxSwitches}, {"network.hosts_per_leaf", own.HostsPerLeaf, MaxHosts}} {
		switch {
		case k.v == nil: // the default
		case *k.v < 1 || *k.v > k.max:
			bad(k.key, "must be from 1 to %d", k.max)
		}
	}
	if own.UplinkCapacity != nil && *own.UplinkCapacity < units.MinRate {
		bad("network.uplink_capacity", "must be at least %s", units.FormatRate(units.MinRate))
	}
}
