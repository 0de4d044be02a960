package experiments

import (
	"errors"
	"fmt"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/fabric"
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

// FabricHopDelay is the propagation of a fabric's links, drawn per link.
func (e *Experiment) FabricHopDelay() Delay { return fabric.HopDelay(e.Network) }

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

// flowCount is the number of flows the traffic keys make, from the keys
// alone, so that an absurd pattern is refused before it is listed.
func (e *Experiment) flowCount() float64 { return e.Traffic.Count(e.hostCount(), len(e.Flows)) }

// fabricError is a problem of the fabric blamed on a key.
type fabricError = traffic.KeyError

// Fabric builds the model's fabric: the topology, the flows of the pattern
// then those of [[flows]], and the short flows of [traffic]. An error names
// the key to blame (*fabricError).
func (e *Experiment) Fabric() (*model.Fabric, error) {
	f, err := fabric.Build(fabric.Spec{Seed: e.Seed, Network: e.Network, Traffic: e.Traffic, Flows: e.Flows,
		WatchPorts: e.Output.WatchPorts, WatchFlows: e.Output.WatchFlows, Watch: e.Output.Watch})
	if err != nil {
		return nil, err
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
