package experiments

import (
	"maps"
	"slices"

	"qcnlab/algos"
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

// Axis is one key of [sweep] and the values it takes, as TOML text.
type Axis struct {
	Key    string
	Values []string
}

// Network is the [network] table.
type Network struct {
	Topology  string         `toml:"topology"`
	Capacity  units.Rate     `toml:"capacity"` // of every congestible link
	Buffer    units.Bytes    `toml:"buffer"`   // of every congestible link
	FrameSize units.Bytes    `toml:"frame_size"`
	RTT       units.Duration `toml:"rtt"`
	// A parking lot chains Links congestible links; HopDelay is the
	// propagation between consecutive switches (default: rtt / 2).
	// A distribution is drawn once per link.
	Links    *int   `toml:"links"`
	HopDelay *Delay `toml:"hop_delay"`
	// FeedbackLatency is the switch's time to generate a feedback frame,
	// drawn per frame.
	FeedbackLatency Delay `toml:"feedback_latency"`
	// PFC turns on IEEE 802.1Qbb on every switch port; the thresholds
	// default to values derived per port (model/pfc.go).
	PFC     bool         `toml:"pfc"`
	PFCXoff *units.Bytes `toml:"pfc_xoff"`
	PFCXon  *units.Bytes `toml:"pfc_xon"`
	// PFCAccounting is "ingress" or "egress" (pfc.go); PFCDeadlockAfter
	// how long a cycle of pauses must hold to stop the run as a deadlock.
	PFCAccounting    string          `toml:"pfc_accounting,omitempty"`
	PFCDeadlockAfter *units.Duration `toml:"pfc_deadlock_after,omitempty"`
	// PFCThreshold is "static" or "dynamic", PFCAlpha the dynamic
	// threshold's share of the free shared buffer (pfc.go).
	PFCThreshold string   `toml:"pfc_threshold,omitempty"`
	PFCAlpha     *float64 `toml:"pfc_alpha,omitempty"`
	// Changes set the capacity of links during the run.
	Changes []Change `toml:"changes,omitempty"`
	// ClockPPM bounds each host's clock offset and SwitchJitter the
	// variation of a switch's forwarding latency (model/clock.go): what
	// breaks perfectly periodic senders' lock-step. Defaults in clock.go.
	ClockPPM     *float64        `toml:"clock_ppm,omitempty"`
	SwitchJitter *units.Duration `toml:"switch_jitter,omitempty"`

	// A fabric (fabric.go): a leaf-spine of Leaves leaves, Spines spines
	// and HostsPerLeaf hosts under each, its host links at Capacity and
	// its uplinks at UplinkCapacity; a fat-tree of K-port switches; or a
	// custom topology of Nodes and FabricLinks. Every switch egress port
	// has Buffer. Routing is "ecmp" or "spray" (Spray says how).
	UplinkCapacity *units.Rate  `toml:"uplink_capacity,omitempty"`
	Leaves         *int         `toml:"leaves,omitempty"`
	Spines         *int         `toml:"spines,omitempty"`
	HostsPerLeaf   *int         `toml:"hosts_per_leaf,omitempty"`
	K              *int         `toml:"k,omitempty"`
	Routing        string       `toml:"routing,omitempty"`
	Spray          string       `toml:"spray,omitempty"`
	Nodes          []FabricNode `toml:"node,omitempty"`
	FabricLinks    []FabricLink `toml:"link,omitempty"`
}

// Change is a [[network.changes]] entry: from At on, Link (every link if
// absent) serves at Capacity.
type Change struct {
	At       *units.Duration `toml:"at"`       // required: nil only when the file left it out
	Capacity *units.Rate     `toml:"capacity"` // required
	Link     *int            `toml:"link,omitempty"`
}

// Sources is the [sources] table.
type Sources struct {
	Count         int            `toml:"count"`
	LineRate      *units.Rate    `toml:"line_rate"`      // default: network.capacity
	InitialRate   *units.Rate    `toml:"initial_rate"`   // default: the line rate (seed 000 section II)
	ForwardDelay  *Delay         `toml:"forward_delay"`  // default: network.rtt / 2; a distribution is drawn per source
	BackwardDelay *Delay         `toml:"backward_delay"` // default: network.rtt / 2
	Start         units.Duration `toml:"start"`
	Stop          units.Duration `toml:"stop"`
	Path          []int          `toml:"path"` // links crossed; default: all of them
	Override      []Override     `toml:"override"`
}

// Override is a [[sources.override]] entry: settings for some sources.
type Override struct {
	IDs           []int           `toml:"ids"`
	LineRate      *units.Rate     `toml:"line_rate"`
	InitialRate   *units.Rate     `toml:"initial_rate"`
	RTT           *Delay          `toml:"rtt"` // sets both delays to half of it (one draw per source)
	ForwardDelay  *Delay          `toml:"forward_delay"`
	BackwardDelay *Delay          `toml:"backward_delay"`
	Start         *units.Duration `toml:"start"`
	Stop          *units.Duration `toml:"stop"`
	Path          []int           `toml:"path"`
}

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
		Traffic: defaultTraffic(),
		Output: Output{
			SampleInterval:    units.Duration(10 * algos.Microsecond),
			RateWindow:        units.Duration(algos.Millisecond),
			FairnessThreshold: 0.9,
		},
		Params: map[string]algos.Values{},
		origin: map[string]string{},
	}
}

// Clone returns a deep copy, for edits that must not touch the original.
func (e *Experiment) Clone() *Experiment {
	c := *e
	c.Warmup = clonePtr(e.Warmup)
	c.Algorithms = slices.Clone(e.Algorithms)
	c.Sources = e.Sources.clone()
	c.Network.Links, c.Network.HopDelay = clonePtr(e.Network.Links), clonePtr(e.Network.HopDelay)
	c.Network.Changes = nil
	for _, ch := range e.Network.Changes {
		c.Network.Changes = append(c.Network.Changes, Change{At: clonePtr(ch.At), Capacity: clonePtr(ch.Capacity), Link: clonePtr(ch.Link)})
	}
	c.Output.Phases = slices.Clone(e.Output.Phases)
	c.Network.PFCXoff, c.Network.PFCXon = clonePtr(e.Network.PFCXoff), clonePtr(e.Network.PFCXon)
	c.Network.ClockPPM, c.Network.SwitchJitter = clonePtr(e.Network.ClockPPM), clonePtr(e.Network.SwitchJitter)
	c.Network.PFCDeadlockAfter, c.Network.PFCAlpha = clonePtr(e.Network.PFCDeadlockAfter), clonePtr(e.Network.PFCAlpha)
	c.Network.UplinkCapacity = clonePtr(e.Network.UplinkCapacity)
	c.Network.Leaves, c.Network.Spines = clonePtr(e.Network.Leaves), clonePtr(e.Network.Spines)
	c.Network.HostsPerLeaf, c.Network.K = clonePtr(e.Network.HostsPerLeaf), clonePtr(e.Network.K)
	c.Network.Nodes = slices.Clone(e.Network.Nodes)
	c.Network.FabricLinks = nil
	for _, l := range e.Network.FabricLinks {
		c.Network.FabricLinks = append(c.Network.FabricLinks, FabricLink{A: l.A, B: l.B,
			Capacity: clonePtr(l.Capacity), Delay: clonePtr(l.Delay), Buffer: clonePtr(l.Buffer)})
	}
	c.Flows = nil
	for _, f := range e.Flows {
		f.From, f.To, f.Stop = clonePtr(f.From), clonePtr(f.To), clonePtr(f.Stop)
		c.Flows = append(c.Flows, f)
	}
	t := &c.Traffic
	t.IncastSenders, t.IncastTo, t.IncastJitter = clonePtr(t.IncastSenders), clonePtr(t.IncastTo), clonePtr(t.IncastJitter)
	t.IncastStart = clonePtr(t.IncastStart)
	t.IncastFrom, t.Load = slices.Clone(t.IncastFrom), clonePtr(t.Load)
	c.Output.WatchPorts, c.Output.WatchFlows = clonePtr(e.Output.WatchPorts), clonePtr(e.Output.WatchFlows)
	t.Stop, t.MaxFlows = clonePtr(t.Stop), clonePtr(t.MaxFlows)
	c.Output.FCTBuckets, c.Output.Watch = slices.Clone(e.Output.FCTBuckets), slices.Clone(e.Output.Watch)
	c.Sweep = make([]Axis, len(e.Sweep))
	for i, a := range e.Sweep {
		c.Sweep[i] = Axis{Key: a.Key, Values: slices.Clone(a.Values)}
	}
	c.Params = make(map[string]algos.Values, len(e.Params))
	for name, v := range e.Params {
		c.Params[name] = maps.Clone(v)
	}
	c.origin = maps.Clone(e.origin)
	c.Notes = slices.Clone(e.Notes)
	return &c
}

func (s Sources) clone() Sources {
	c := s
	c.LineRate, c.InitialRate = clonePtr(s.LineRate), clonePtr(s.InitialRate)
	c.Path = slices.Clone(s.Path)
	c.ForwardDelay, c.BackwardDelay = clonePtr(s.ForwardDelay), clonePtr(s.BackwardDelay)
	c.Override = make([]Override, len(s.Override))
	for i, o := range s.Override {
		c.Override[i] = Override{IDs: slices.Clone(o.IDs),
			LineRate: clonePtr(o.LineRate), InitialRate: clonePtr(o.InitialRate), RTT: clonePtr(o.RTT),
			ForwardDelay: clonePtr(o.ForwardDelay), BackwardDelay: clonePtr(o.BackwardDelay),
			Start: clonePtr(o.Start), Stop: clonePtr(o.Stop), Path: slices.Clone(o.Path)}
	}
	if s.Override == nil {
		c.Override = nil
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
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
	if e.Network.Topology == "parking_lot" {
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
	if e.Network.Topology == "parking_lot" {
		return 2
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
