// Package fabric builds a fabric's network from an experiment's keys: the
// topology its [network] names, with its links' delays drawn from the
// seed, its routing, and its flows (package traffic), kept for the next
// time the same keys ask for it.
package fabric

import (
	"fmt"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/cost"
	"qcnlab/experiments/topology"
	"qcnlab/experiments/traffic"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// Spec is what a fabric is built from.
type Spec struct {
	Seed    uint64
	Network topology.Network
	Traffic traffic.Traffic
	Flows   []traffic.FlowEntry
	// WatchPorts, WatchFlows and Watch are output.watch_ports,
	// output.watch_flows and output.watch.
	WatchPorts, WatchFlows *int
	Watch                  []any
}

// MaxRouteBytes bounds a fabric's routing state (the next hops toward
// every switch hosts hang off, which grows with the square of the leaves,
// and PFC's feeders, with the square of a switch's ports).
const MaxRouteBytes = cost.MaxRunMemory / 4

// defaultHopDelay is a fabric link's propagation when neither the link nor
// network.hop_delay says: a data center's few metres of fibre and a switch's
// cut-through.
const defaultHopDelay = algos.Microsecond

// HopDelay is the propagation of a fabric's links, drawn per link.
func HopDelay(n topology.Network) topology.Delay {
	if n.HopDelay != nil {
		return *n.HopDelay
	}
	return topology.FixedDelay(defaultHopDelay)
}

// Topology builds the fabric's topology. A hop delay given as a
// distribution is drawn for each link from its own stream of the seed.
func Topology(n topology.Network, seed uint64) (*topo.Topology, error) {
	n.Sized()
	hop := HopDelay(n).Dist()
	link := 0
	delay := func(topo.Link) algos.Time {
		d := hop.Draw(model.DelayRand(seed, model.StreamHopDelays+uint64(link)))
		link++
		return d
	}
	t := topology.Fabric(n.Topology)
	if t == nil {
		return nil, fmt.Errorf("network.topology %q is not a fabric", n.Topology)
	}
	return t.Build(n, seed, hop, delay)
}

// Build builds the fabric of s without its short flows: the topology, its
// routing, the flows of the pattern then those of [[flows]], and the
// order its time series watches them. An error names the key to blame
// (*traffic.KeyError). The fabric is shared with later calls of the same
// spec: copy what is changed.
func Build(s Spec) (*model.Fabric, error) {
	key := s.key()
	built.Lock()
	f, ok := built.last[key]
	built.Unlock()
	if ok {
		return f, nil
	}
	f, err := build(s)
	if err != nil {
		return nil, err
	}
	// The cache holds what the estimates do not count: keep its
	// routing tables within a run's bound, whatever the sweep.
	var size float64
	if t := topology.Fabric(s.Network.Topology); t != nil {
		if sh, ok := t.Shape(s.Network); ok {
			size = sh.RouteBytes(s.Network.PFC) + 500*sh.SwitchPorts
		}
	}
	built.Lock()
	if len(built.last) >= 8 || built.bytes+size > MaxRouteBytes {
		clear(built.last)
		built.bytes = 0
	}
	built.last[key] = f
	built.bytes += size
	built.Unlock()
	return f, nil
}

// built keeps the last fabrics built: loading, validating, estimating and
// running an experiment each need its network, and routing a large fabric
// takes a while.
var built = struct {
	sync.Mutex
	last  map[string]*model.Fabric
	bytes float64 // their routing tables and ports, about
}{last: map[string]*model.Fabric{}}

// key is what a fabric is built from, as text: the topology's own keys
// too, which the network holds apart (topology.Own).
func (s Spec) key() string {
	var b strings.Builder
	toml.NewEncoder(&b).Encode(s)
	toml.NewEncoder(&b).Encode(s.Network.Own)
	return b.String()
}

func build(s Spec) (*model.Fabric, error) {
	t, err := Topology(s.Network, s.Seed)
	if err != nil {
		return nil, &traffic.KeyError{Key: topology.Fabric(s.Network.Topology).BuildKey(), Err: err}
	}
	f := &model.Fabric{Topology: t}
	if s.Network.Routing == "spray" {
		f.Routing = model.Spray
		if s.Network.Spray == "random" {
			f.Spray = model.RandomSpray
		}
	}
	if f.Flows, err = traffic.Flows(t, s.Traffic, s.Flows, s.Seed); err != nil {
		return nil, err
	}
	if s.WatchPorts != nil {
		f.WatchPorts = *s.WatchPorts
	}
	if s.WatchFlows != nil {
		f.WatchFlows = *s.WatchFlows
	}
	watch, err := traffic.Watched(s.Watch, t, f.Flows, len(f.Flows)-len(s.Flows))
	if err != nil {
		return nil, &traffic.KeyError{Key: "output.watch", Err: err}
	}
	f.Watch = watch
	return f, nil
}

// Forget empties the fabrics kept, so that a measure of the heap starts
// from none.
func Forget() {
	built.Lock()
	clear(built.last)
	built.bytes = 0
	built.Unlock()
}
