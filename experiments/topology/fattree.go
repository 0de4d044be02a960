package topology

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// fatTree is a k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of
// k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k^3/4 hosts, every
// link at network.capacity.
type fatTree struct{}

// fatTreeKeys are the keys only a fat-tree reads.
type fatTreeKeys struct {
	K *int `toml:"k,omitempty"`
}

var fatTreeOwn = &Keys[fatTreeKeys]{Entries: []keys.Key{
	{Path: "network.k", Kind: keys.Count, Step: 2, Doc: "ports of every switch (even): k^3/4 hosts", Cost: "hosts and ports grow with k^3 (its routes are a formula, no table)"},
}}

// A fat-tree is listed after the leaf-spine.
var _ = Register(fatTree{}, 20, fatTreeOwn)

// defaultK is the k of a fat-tree the file leaves it out of: sixteen hosts.
const defaultK = 4

// maxK is the largest k whose k^3/4 hosts are within MaxHosts: a bound
// on what is built before the memory estimate decides (a k = 64 fat-tree
// has 65,536 hosts), which keeps k^3 far from overflowing.
const maxK = 64

func (fatTree) Name() string { return "fat_tree" }

func (fatTree) Sized(n *Network) {
	if k := fatTreeOwn.Of(*n); k.K == nil {
		k.K = ptr(defaultK)
		fatTreeOwn.Set(n, k)
	}
}

// k is the fat-tree's k, its default written in.
func (t fatTree) k(n Network) int {
	t.Sized(&n)
	return *fatTreeOwn.Of(n).K
}

func (t fatTree) Hosts(n Network) int {
	k := t.k(n)
	if k < 2 || k > maxK {
		return 0
	}
	return k * k * k / 4
}

func (t fatTree) Ports(n Network) int {
	if t.Hosts(n) == 0 {
		return 0
	}
	k := t.k(n)
	return (k*k + k*k/4) * k
}

func (t fatTree) Shape(n Network) (s Shape, ok bool) {
	if t.Hosts(n) == 0 {
		return s, false
	}
	k := float64(t.k(n))
	s.Nodes = k*k*k/4 + 5*k*k/4
	s.Links = 3 * k * k * k / 4
	s.SwitchPorts = 5 * k * k * k / 4
	s.Groups = k * k / 2
	// Every edge and aggregation switch has at most k/2 next hops up,
	// every core one down.
	s.NextHops = s.Groups * (k*k*k/2 + k*k/4)
	s.Feeders = 5 * k * k / 4 * k * k
	return s, true
}

func (fatTree) SizeKey(Network) string { return "network.k" }
func (fatTree) BuildKey() string       { return "network.topology" }

func (t fatTree) Build(n Network, seed uint64, _ model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error) {
	return topo.FatTree(t.k(n), float64(n.Capacity), int(n.Buffer), delay)
}

// Bench is a k = 8 fat-tree: 128 hosts, every link at the default 10 Gbps
// with 150 KB buffers and 1 us of propagation.
func (fatTree) Bench() Bench {
	return Bench{
		Description: "QCN permutation on a k = 8 fat-tree (128 hosts, 10 Gbps, 150 KB buffers, 1 us links), one core:",
		Duration:    100 * algos.Millisecond,
		Size:        func(n *Network) { fatTreeOwn.Set(n, fatTreeKeys{K: ptr(8)}) },
	}
}

func (t fatTree) Label(n Network) string { return fmt.Sprintf("fat-tree k=%d", t.k(n)) }

func (fatTree) Validate(n Network, bad Bad) {
	switch k := fatTreeOwn.Of(n).K; {
	case k == nil: // the default
	case *k < 2 || *k%2 != 0:
		bad("network.k", "%d: k must be even, 2 or more (k^3/4 hosts)", *k)
	case *k > maxK:
		bad("network.k", "%d: %.3g hosts (k^3/4); the most is %d, at k = %d", *k, float64(*k)*float64(*k)*float64(*k)/4, MaxHosts, maxK)
	}
}
