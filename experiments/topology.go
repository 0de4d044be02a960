package experiments

import "qcnlab/experiments/topology"

// The [network] table's types, defined with the topologies.
type (
	Network    = topology.Network
	Change     = topology.Change
	FabricNode = topology.FabricNode
	FabricLink = topology.FabricLink
	Delay      = topology.Delay
)

// FixedDelay is the delay that is always t.
var FixedDelay = topology.FixedDelay

// fabric is the experiment's fabric topology, nil on a chain.
func (e *Experiment) fabric() topology.FabricTopology { return topology.Fabric(e.Network.Topology) }

// FabricLabel is a fabric's shape in a few words ("leaf-spine 4x2"), its
// sizes' defaults written in; the topology's name on a chain.
func (e *Experiment) FabricLabel() string {
	t := e.fabric()
	if t == nil {
		return e.Network.Topology
	}
	n := e.Network
	t.Sized(&n)
	return t.Label(n)
}

// OneBottleneck reports whether every source crosses the same one link: a
// chain that holds one (a dumbbell), where a source's fair share is the
// capacity over the sources.
func (e *Experiment) OneBottleneck() bool {
	t := topology.Chain(e.Network.Topology)
	return t != nil && t.MaxLinks() == 1
}
