package experiments

import (
	"maps"
	"slices"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// badFunc reports a problem with a key: Validate's bad.
type badFunc = func(key, format string, args ...any)

// Topology is what network.topology names. Each is one file that
// registers itself (registerTopology); its keys are the registry's that
// apply to it (keys.Key.Topologies), and its name is one of keys.Chains or
// keys.Fabrics.
type Topology interface {
	Name() string
	// Validate checks the keys only this topology reads.
	Validate(e *Experiment, bad badFunc)
}

// A ChainTopology is sources behind a chain of congestible links: their
// traffic is [sources] and [traffic]'s long and short flows.
type ChainTopology interface {
	Topology
	DefaultLinks() int // network.links when the file leaves it out
	MaxLinks() int     // the most links it may chain
}

// A FabricTopology is hosts and switches with flows between hosts: its
// traffic is [traffic]'s pattern and [[flows]]. What it says of itself is
// read from its keys alone, before anything is built, so that the bounds
// and the estimate hold for any file.
type FabricTopology interface {
	Topology
	Sized(n *Network)                        // writes in the sizes and rates the file left out
	Hosts(e *Experiment) int                 // its hosts; 0 when the keys are out of bounds
	Ports(e *Experiment) int                 // its switch egress ports, in topology order
	Shape(e *Experiment) (fabricShape, bool) // its size, for the bounds and the estimate; false when out of bounds
	SizeKey(n Network) string                // the key that sizes it, blamed when it is too large
	BuildKey() string                        // the key blamed when it does not build
	// Build builds the graph, every link's delay drawn by delay (hop is
	// network.hop_delay with its default).
	Build(e *Experiment, n Network, hop model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error)
	Label(n Network) string // its shape in a few words: "fat-tree k=4"
}

var topologies = map[string]Topology{}

// registerTopology adds a topology to those network.topology may name.
func registerTopology(t Topology) Topology {
	if _, dup := topologies[t.Name()]; dup {
		panic("experiments: topology " + t.Name() + " registered twice")
	}
	topologies[t.Name()] = t
	return t
}

// RegisteredTopologies lists the registered topologies' names, sorted.
func RegisteredTopologies() []string { return slices.Sorted(maps.Keys(topologies)) }

// fabricNamed is the fabric topology of that name, nil for a chain or an
// unknown name.
func fabricNamed(name string) FabricTopology {
	t, _ := topologies[name].(FabricTopology)
	return t
}

// chainNamed is the chain topology of that name, nil for a fabric or an
// unknown name.
func chainNamed(name string) ChainTopology {
	t, _ := topologies[name].(ChainTopology)
	return t
}

// fabric is the experiment's fabric topology, nil on a chain.
func (e *Experiment) fabric() FabricTopology { return fabricNamed(e.Network.Topology) }

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
