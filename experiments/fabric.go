package experiments

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/topology"
	"qcnlab/experiments/traffic"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// A fabric is a data-center network (leaf-spine, fat-tree or custom) with
// flows between its hosts, in place of the dumbbell's or parking lot's
// sources: [network] describes the topology, [traffic] a pattern of flows,
// [[flows]] explicit ones. model/fabric.go simulates it.

// IsFabric reports whether the experiment's network is a fabric.
func (e *Experiment) IsFabric() bool { return e.fabric() != nil }

// fabricHopDelay is a fabric link's propagation when neither the link nor
// network.hop_delay says: a data center's few metres of fibre and a switch's
// cut-through.
const fabricHopDelay = algos.Microsecond

// FabricHopDelay is the propagation of a fabric's links, drawn per link.
func (e *Experiment) FabricHopDelay() Delay {
	if e.Network.HopDelay != nil {
		return *e.Network.HopDelay
	}
	return FixedDelay(fabricHopDelay)
}

// fabricDefaults writes in the defaults of a fabric's keys.
func (e *Experiment) fabricDefaults(r *Experiment) {
	n := &r.Network
	n.Sized()
	n.Links = nil
	n.HopDelay = ptr(e.FabricHopDelay())
	if n.Routing == "" {
		n.Routing = "ecmp"
	}
	if n.Spray == "" && n.Routing == "spray" {
		n.Spray = "round_robin"
	}
	if r.Traffic.Pattern == "" {
		r.Traffic.Pattern = e.pattern()
	}
	if r.Traffic.FlowSize == "" {
		r.Traffic.FlowSize = "greedy"
	}
}

// pattern is traffic.pattern with its default.
func (e *Experiment) pattern() string { return e.Traffic.PatternOf(len(e.Flows)) }

// hostCount is the number of hosts of a fabric, from its keys alone (0 if
// they are out of bounds), so that bounds can be checked before building.
func (e *Experiment) hostCount() int {
	if t := e.fabric(); t != nil {
		return t.Hosts(e.Network)
	}
	return 0
}

// Topology builds the fabric's topology. A hop delay given as a
// distribution is drawn for each link from its own stream of the seed.
func (e *Experiment) Topology() (*topo.Topology, error) {
	n := e.Network
	n.Sized()
	hop := e.FabricHopDelay().Dist()
	link := 0
	delay := func(topo.Link) algos.Time {
		d := hop.Draw(model.DelayRand(e.Seed, model.StreamHopDelays+uint64(link)))
		link++
		return d
	}
	t := e.fabric()
	if t == nil {
		return nil, fmt.Errorf("network.topology %q is not a fabric", n.Topology)
	}
	return t.Build(n, e.Seed, hop, delay)
}

// flowCount is the number of flows the traffic keys make, from the keys
// alone, so that an absurd pattern is refused before it is listed.
func (e *Experiment) flowCount() float64 { return e.Traffic.Count(e.hostCount(), len(e.Flows)) }

// fabricError is a problem of the fabric blamed on a key.
type fabricError = traffic.KeyError

// Fabric builds the model's fabric: the topology, the flows of the pattern
// then those of [[flows]], and the short flows of [traffic]. An error names
// the key to blame (*fabricError).
func (e *Experiment) Fabric() (*model.Fabric, error) {
	key := e.fabricKey()
	fabrics.Lock()
	f, ok := fabrics.last[key]
	fabrics.Unlock()
	if !ok {
		var err error
		if f, err = e.buildFabric(); err != nil {
			return nil, err
		}
		// The cache holds what the estimates do not count: keep its
		// routing tables within a run's bound, whatever the sweep.
		var size float64
		if sh, ok := e.shape(); ok {
			size = sh.RouteBytes(e.Network.PFC) + 500*sh.SwitchPorts
		}
		fabrics.Lock()
		if len(fabrics.last) >= 8 || fabrics.bytes+size > MaxRouteBytes {
			clear(fabrics.last)
			fabrics.bytes = 0
		}
		fabrics.last[key] = f
		fabrics.bytes += size
		fabrics.Unlock()
	}
	c := *f // the topology and its routes are shared, read-only
	c.Flows = slices.Clone(f.Flows)
	// Short flows' sizes may come from a file: read each time, not kept.
	if tr := e.Traffic; tr.Short() {
		sizes, err := e.FlowSizes()
		if err != nil {
			return nil, &fabricError{Key: "traffic.short_flow_sizes", Err: err}
		}
		rate := tr.ShortFlowRate
		if tr.Load != nil {
			rate = model.ShortFlowRate(*tr.Load, len(f.Topology.Hosts), float64(e.Network.Capacity), sizes)
		}
		c.Short = &model.ShortFlows{Rate: rate, Sizes: sizes, Drain: e.Traffic.Drain()}
	}
	traffic.SetClasses(&c, e.Traffic, e.Flows)
	return &c, nil
}

// fabrics keeps the last fabrics built: loading, validating, estimating and
// running an experiment each need its network, and routing a large fabric
// takes a while.
var fabrics = struct {
	sync.Mutex
	last  map[string]*model.Fabric
	bytes float64 // their routing tables and ports, about
}{last: map[string]*model.Fabric{}}

// fabricKey is what a fabric is built from, as text.
func (e *Experiment) fabricKey() string {
	var b strings.Builder
	enc := toml.NewEncoder(&b)
	enc.Encode(struct {
		Seed    uint64
		Network Network
		Traffic Traffic
		Flows   []FlowEntry
		Output  Output
	}{e.Seed, e.Network, e.Traffic, e.Flows, e.Output})
	return b.String()
}

func (e *Experiment) buildFabric() (*model.Fabric, error) {
	t, err := e.Topology()
	if err != nil {
		return nil, &fabricError{Key: e.fabric().BuildKey(), Err: err}
	}
	f := &model.Fabric{Topology: t}
	if e.Network.Routing == "spray" {
		f.Routing = model.Spray
		if e.Network.Spray == "random" {
			f.Spray = model.RandomSpray
		}
	}
	if f.Flows, err = traffic.Flows(t, e.Traffic, e.Flows, e.Seed); err != nil {
		return nil, err
	}
	if e.Output.WatchPorts != nil {
		f.WatchPorts = *e.Output.WatchPorts
	}
	if e.Output.WatchFlows != nil {
		f.WatchFlows = *e.Output.WatchFlows
	}
	watch, err := traffic.Watched(e.Output.Watch, t, f.Flows, len(f.Flows)-len(e.Flows))
	if err != nil {
		return nil, &fabricError{Key: "output.watch", Err: err}
	}
	f.Watch = watch
	return f, nil
}

// flowKey is the key that made flow i of a fabric: the pattern's, or its
// [[flows]] entry.
func (e *Experiment) flowKey(i, fromPattern int) string {
	if i < fromPattern {
		return "traffic.pattern"
	}
	return fmt.Sprintf("flows[%d]", i-fromPattern)
}

// validateFabric checks a fabric's keys, each problem under its key, and
// builds the network only once the keys are in bounds.
func (e *Experiment) validateFabric(bad func(key, format string, args ...any)) {
	e.fabric().Validate(e.Network, bad)
	if hosts := e.hostCount(); hosts > topology.MaxHosts {
		bad("network.topology", "%d hosts; the most is %d", hosts, topology.MaxHosts)
	} else {
		e.shapeErrors(bad)
	}
}

// checkFabric builds the fabric and asks the model whether it runs, putting
// each problem under its key: a disconnected topology, a flow with no
// route.
func (e *Experiment) checkFabric(bad func(key, format string, args ...any)) {
	cfg, err := e.fabricConfig()
	var fe *fabricError
	if errors.As(err, &fe) {
		bad(fe.Key, "%v", fe.Err)
		return
	}
	if err != nil {
		bad("network.topology", "%v", err)
		return
	}
	fromPattern := len(cfg.Fabric.Flows) - len(e.Flows)
	errs := unjoin(model.Check(cfg))
	// A topology in pieces is an error even where no flow crosses the gap.
	if r := cfg.Fabric.Topology.Routes(); r.Unreachable() >= 0 && !slices.ContainsFunc(errs, func(err error) bool { return errors.Is(err, topo.ErrDisconnected) }) {
		errs = append(errs, r.Check(0, r.Unreachable()))
	}
	for _, err := range errs {
		var flow *model.FlowError
		var reserve *model.ReserveError
		switch {
		case errors.As(err, &reserve):
			bad("network.queue_reserve", "%v", err)
		case errors.Is(err, topo.ErrDisconnected):
			bad(e.fabric().BuildKey(), "%v", err)
		case errors.As(err, &flow):
			bad(e.flowKey(flow.Flow, fromPattern), "%v", err)
		default:
			bad("network.topology", "%v", err)
		}
	}
}

// fabricConfig is the model configuration of a fabric, for checks and
// estimates: the first algorithm's scheme with its default parameters.
func (e *Experiment) fabricConfig() (model.Config, error) {
	f, err := e.Fabric()
	if err != nil {
		return model.Config{}, err
	}
	cfg := e.baseConfig()
	cfg.Fabric = f
	if len(e.Algorithms) > 0 {
		if sc, err := algos.Lookup(e.Algorithms[0]); err == nil {
			cfg.Scheme = sc
			cfg.Params, _ = sc.Resolve(cfg.Network(), e.Params[sc.Name])
		}
	}
	return cfg, nil
}

// unjoin lists the errors errors.Join joined, or err alone.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// fabricPorts is the number of a fabric's switch egress ports, from its
// keys: the ports a capacity change may name by index (topology order).
func (e *Experiment) fabricPorts() int {
	if t := e.fabric(); t != nil {
		return t.Ports(e.Network)
	}
	return 0
}

// SeriesShape is the number of queue and rate columns a run's time series
// has: on a chain every link and source, on a fabric the ports and flows it
// watches (at most output.watch_ports and output.watch_flows).
func (e *Experiment) SeriesShape() (queues, rates int) {
	if !e.IsFabric() {
		return e.LinkCount(), e.Sources.Count
	}
	cfg, err := e.fabricConfig()
	if err != nil {
		return 0, 0 // Validate reports it
	}
	return cfg.SeriesShape()
}
