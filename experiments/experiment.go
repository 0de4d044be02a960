package experiments

import (
	"maps"
	"reflect"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/sources"
	"qcnlab/experiments/tomlstruct"
	"qcnlab/experiments/topology"
	"qcnlab/experiments/traffic"
	"qcnlab/units"
)

// Experiment is one experiment file. Fields that default to another field
// (the warm-up, the sources' rates and delays) are pointers and stay nil
// until set, so an edited capacity or RTT carries over to them; Resolved
// fills every default in, and that is what Save writes.
type Experiment struct {
	Name        string          `toml:"name"`
	Description string          `toml:"description"`
	Seed        uint64          `toml:"seed"`
	Duration    units.Duration  `toml:"duration"`
	Warmup      *units.Duration `toml:"warmup"` // default: duration / 5
	Model       string          `toml:"model"`
	Algorithms  []string        `toml:"algorithms"`
	Network     Network         `toml:"network"`
	Sources     Sources         `toml:"sources"`
	Traffic     Traffic         `toml:"traffic"`
	Output      Output          `toml:"output"`
	Transport   Transport       `toml:"transport,omitempty"`
	Flows       []FlowEntry     `toml:"flows,omitempty"` // a fabric's explicit flows

	// Params are the per-algorithm overrides of [params.NAME], in base
	// units; what they leave out comes from each scheme's defaults.
	Params map[string]algos.Values `toml:"-"`

	// Sweep lists the axes of [sweep]: every combination of their values
	// is run with every algorithm.
	Sweep []Axis `toml:"-"`

	// Notes are what opening the experiment adapted, for a warning: a
	// warm-up scaled to a shorter duration (FitDuration).
	Notes []string `toml:"-"`

	// origin says where each key was last set, for error messages:
	// "file.toml:12", "--set", ...
	origin map[string]string
}

// The [sources] table and its overrides, defined with the sources.
type (
	Sources  = sources.Sources
	Override = sources.Override
)

// Output is the [output] table.
type Output struct {
	SampleInterval    units.Duration `toml:"sample_interval"`
	RateWindow        units.Duration `toml:"rate_window"`
	FairnessThreshold float64        `toml:"fairness_threshold"`
	// Phases are the boundaries that split [0, duration] into phases, each
	// with its own summary.
	Phases []units.Duration `toml:"phases,omitempty"`
	// WatchPorts and WatchFlows bound a fabric's time series: the ports
	// offered the most load at the start, and the first flows.
	WatchPorts *int `toml:"watch_ports,omitempty"`
	WatchFlows *int `toml:"watch_flows,omitempty"`
	// FCTBuckets are the upper edges of the flows' size buckets: sizes
	// ("100KB") or shares of the flow-size distribution ("50%", as the
	// HPCC paper's figure 11 buckets by percentile of size).
	FCTBuckets []string `toml:"fct_buckets,omitempty"`
	// Watch names the flows a fabric's time series follows first, before
	// the explicit [[flows]] and the rest in order: a flow's index, or
	// its hosts as "20->1" or "h20->h1" (the first such flow).
	Watch []any `toml:"watch,omitempty"`
}

// Default is the experiment every key of a file falls back to.
func Default() *Experiment {
	return &Experiment{
		Name:       "experiment",
		Seed:       1,
		Duration:   units.Duration(100 * algos.Millisecond),
		Model:      "packet",
		Algorithms: []string{"qcn"},
		Network: Network{
			Topology:  "dumbbell",
			Capacity:  10e9,
			Buffer:    150e3,
			FrameSize: 1500,
			RTT:       units.Duration(100 * algos.Microsecond),
		},
		Sources: Sources{Count: 4, Stop: units.Duration(algos.Never)},
		Traffic: traffic.Default(),
		Output: Output{
			SampleInterval:    units.Duration(10 * algos.Microsecond),
			RateWindow:        units.Duration(algos.Millisecond),
			FairnessThreshold: 0.9,
		},
		Params: map[string]algos.Values{},
		origin: map[string]string{},
	}
}

// Clone returns a deep copy, for edits that must not touch the original:
// every pointer, slice and map of the schema copied, whatever keys it
// gains (tomlstruct.DeepCopy walks it).
func (e *Experiment) Clone() *Experiment {
	c := tomlstruct.DeepCopy(reflect.ValueOf(e).Elem()).Interface().(Experiment)
	c.origin = maps.Clone(e.origin)
	if c.Sweep == nil {
		c.Sweep = []Axis{}
	}
	if c.Params == nil {
		c.Params = map[string]algos.Values{}
	}
	return &c
}

func ptr[T any](v T) *T { return &v }

// WarmupTime is the warm-up, its default applied.
func (e *Experiment) WarmupTime() algos.Time {
	if e.Warmup != nil {
		return algos.Time(*e.Warmup)
	}
	return algos.Time(e.Duration) / 5
}

// Resolved returns a copy with every default written in: the sources' rates
// and delays, the warm-up, and every parameter of every listed algorithm.
// Parameters are resolved only if the experiment is valid enough to do so.
func (e *Experiment) Resolved() *Experiment {
	r := e.Clone()
	r.Warmup = ptr(units.Duration(e.WarmupTime()))
	if e.IsFabric() {
		// A fabric has no sources: its delays are its links', its flows
		// [traffic]'s and [[flows]]'.
		e.fabricDefaults(r)
		for _, name := range e.Algorithms {
			if v, err := e.ParamValues(name); err == nil {
				r.Params[name] = v
			}
		}
		e.resolveFlowSizes(r)
		return r
	}
	r.Network.Links = ptr(e.LinkCount())
	if t := topology.Chain(e.Network.Topology); t != nil && t.MaxLinks() > 1 {
		r.Network.HopDelay = ptr(e.HopDelay()) // a dumbbell has no hop between switches
	}
	if r.Sources.Path == nil {
		r.Sources.Path = e.defaultPath()
	}
	s := &r.Sources
	if s.LineRate == nil {
		s.LineRate = ptr(units.Rate(e.Network.Capacity))
	}
	if s.InitialRate == nil && !slices.ContainsFunc(s.Override, func(o Override) bool { return o.LineRate != nil }) {
		// Left out while an override sets a line rate: the default
		// initial rate follows each source's own line rate, which an
		// explicit sources.initial_rate would pin.
		s.InitialRate = ptr(*s.LineRate)
	}
	half := algos.Time(e.Network.RTT) / 2
	if s.ForwardDelay == nil {
		s.ForwardDelay = ptr(FixedDelay(half))
	}
	if s.BackwardDelay == nil {
		s.BackwardDelay = ptr(FixedDelay(algos.Time(e.Network.RTT) - half))
	}
	for _, name := range e.Algorithms {
		if v, err := e.ParamValues(name); err == nil {
			r.Params[name] = v
		}
	}
	e.resolveFlowSizes(r)
	return r
}

// ParamValues resolves the parameters of one algorithm: the file's
// overrides over the scheme's defaults for this network.
func (e *Experiment) ParamValues(name string) (algos.Values, error) {
	sc, err := algos.Lookup(name)
	if err != nil {
		return nil, err
	}
	return sc.Resolve(e.SchemeNetwork(), e.Params[name])
}

// LinkCount is the number of congestible links: 1 for a dumbbell.
func (e *Experiment) LinkCount() int {
	if e.Network.Links != nil {
		return *e.Network.Links
	}
	if t := topology.Chain(e.Network.Topology); t != nil {
		return t.DefaultLinks()
	}
	return 1
}

// HopDelay is the propagation between consecutive switches of a parking
// lot, a distribution drawn per link.
func (e *Experiment) HopDelay() Delay {
	if e.Network.HopDelay != nil {
		return *e.Network.HopDelay
	}
	return FixedDelay(algos.Time(e.Network.RTT) / 2)
}

// defaultPath is every link, in order: the long flows of a parking lot.
func (e *Experiment) defaultPath() []int {
	path := make([]int, e.LinkCount())
	for i := range path {
		path[i] = i
	}
	return path
}
