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
