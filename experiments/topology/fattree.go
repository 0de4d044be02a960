package topology

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// fatTree is a k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of
// k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k^3/4 hosts, every
// link at network.capacity.
type fatTree struct{}

var _ = Register(fatTree{})

// defaultK is the k of a fat-tree the file leaves it out of: sixteen hosts.
const defaultK = 4

func (fatTree) Name() string { return "fat_tree" }

func (fatTree) Sized(n *Network) {
	if n.K == nil {
		n.K = ptr(defaultK)
	}
}

func (t fatTree) Hosts(n Network) int {
	t.Sized(&n)
	if *n.K < 2 || *n.K > MaxFatTreeK {
		return 0
	}
	return *n.K * *n.K * *n.K / 4
}

func (t fatTree) Ports(n Network) int {
	t.Sized(&n)
	if t.Hosts(n) == 0 {
		return 0
	}
	k := *n.K
	return (k*k + k*k/4) * k
}

func (t fatTree) Shape(n Network) (s Shape, ok bool) {
	t.Sized(&n)
	if t.Hosts(n) == 0 {
		return s, false
	}
	k := float64(*n.K)
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

func (fatTree) Build(n Network, seed uint64, _ model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error) {
	return topo.FatTree(*n.K, float64(n.Capacity), int(n.Buffer), delay)
}

// Bench is a k = 8 fat-tree: 128 hosts, every link at the default 10 Gbps
// with 150 KB buffers and 1 us of propagation.
func (fatTree) Bench() Bench {
	return Bench{
		Description: "QCN permutation on a k = 8 fat-tree (128 hosts, 10 Gbps, 150 KB buffers, 1 us links), one core:",
		Duration:    100 * algos.Millisecond,
		Size:        func(n *Network) { n.K = ptr(8) },
	}
}

func (fatTree) Label(n Network) string { return fmt.Sprintf("fat-tree k=%d", *n.K) }

func (fatTree) Validate(n Network, bad Bad) {
	switch {
	case n.K == nil: // the default
	case *n.K < 2 || *n.K > MaxFatTreeK || *n.K%2 != 0:
		bad("network.k", "%d: k must be even, from 2 to %d (k^3/4 hosts)", *n.K, MaxFatTreeK)
	}
}
