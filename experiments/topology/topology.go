// Package topology is an experiment's [network] table and the topologies
// network.topology names: each is one type behind the Topology interface,
// registered by name as a scheme is, in a file of its own that says all
// there is of it: its own keys (their registry entries and the struct that
// holds their values, Keys), their defaults, its sizes for the bounds and
// the estimate, its checks, its graph, its label and its benchmark. The
// keys of [network] every topology, or every fabric, reads are Network's.
package topology

import (
	"maps"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// Bad reports a problem with a key: the experiment's Validate.
type Bad = func(key, format string, args ...any)

// Topology is what network.topology names.
type Topology interface {
	Name() string
	// Validate checks the keys only this topology reads.
	Validate(n Network, bad Bad)
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
	Sized(n *Network)              // writes in the sizes and rates the file left out
	Hosts(n Network) int           // its hosts; 0 when the keys are out of bounds
	Ports(n Network) int           // its switch egress ports, in topology order
	Shape(n Network) (Shape, bool) // its size, for the bounds and the estimate; false when out of bounds
	SizeKey(n Network) string      // the key that sizes it, blamed when it is too large
	BuildKey() string              // the key blamed when it does not build
	// Build builds the graph, every link's delay drawn by delay (hop is
	// network.hop_delay with its default, drawn from seed where a link
	// has a delay of its own).
	Build(n Network, seed uint64, hop model.Dist, delay func(topo.Link) algos.Time) (*topo.Topology, error)
	Label(n Network) string // its shape in a few words: "fat-tree k=4"
}

var registered = map[string]Topology{}

// Register adds a topology to those network.topology may name, and its own
// keys to the registry (package keys): order places it in lists
// (network.topology's words, qcnlab help keys, the README), smaller first;
// own declares its own keys, nil when it has none. It panics on a mistake
// in the program.
func Register(t Topology, order int, own declaration) Topology {
	if _, dup := registered[t.Name()]; dup {
		panic("topology: " + t.Name() + " registered twice")
	}
	_, fabric := t.(FabricTopology)
	if _, chain := t.(ChainTopology); chain == fabric {
		panic("topology: " + t.Name() + " is a chain or a fabric")
	}
	entry := keys.Topology{Name: t.Name(), Fabric: fabric, Order: order}
	if own != nil {
		declare(t.Name(), own)
		_, entry.Keys, _ = own.declared()
	}
	keys.AddTopology(entry)
	registered[t.Name()] = t
	for _, k := range entry.Keys {
		ownPaths[t.Name()] = append(ownPaths[t.Name()], k.Path)
	}
	return t
}

// ownPaths are each topology's own keys, as it declares them.
var ownPaths = map[string][]string{}

// OwnKeys lists the paths of the own keys the topology of that name
// declares, in its order.
func OwnKeys(name string) []string { return slices.Clone(ownPaths[name]) }

// Names lists the registered topologies' names, sorted.
func Names() []string { return slices.Sorted(maps.Keys(registered)) }

// Fabric is the fabric topology of that name, nil for a chain or an
// unknown name.
func Fabric(name string) FabricTopology {
	t, _ := registered[name].(FabricTopology)
	return t
}

// Chain is the chain topology of that name, nil for a fabric or an
// unknown name.
func Chain(name string) ChainTopology {
	t, _ := registered[name].(ChainTopology)
	return t
}
