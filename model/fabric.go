package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Fabric is a data-center network: a topology of hosts and switches (a
// leaf-spine, a fat-tree or a custom one, package topo), how it routes, and
// the flows between its hosts. Every switch egress port has a drop-tail
// buffer (the topology's) and one congestion point; a host's NIC has none.
// Each flow has its own rate limiter and reaction point, as an 802.1Qau NIC
// keeps one per flow that feedback names; the flows of one host share its
// link, which serves their limiters in turn at line rate.
type Fabric struct {
	Topology *topo.Topology
	Routing  Routing
	Spray    SprayMode // how Routing = Spray picks
	Flows    []Flow
	// Short, if set, adds short flows between random hosts (flows.go).
	Short *ShortFlows
	// WatchPorts and WatchFlows bound the time series: the ports with the
	// most load offered at the start (sample.go) and the first flows.
	// 0 means 8 ports and 16 flows.
	WatchPorts, WatchFlows int
	// Watch orders the flows the time series follows: these flows first
	// (indices into Flows), then the others in order; nil for in order.
	Watch []int
}

// Routing says how a fabric routes a flow's frames over the equal-cost
// shortest paths between its hosts.
type Routing uint8

const (
	// ECMP hashes each flow onto one path, from the experiment seed and
	// the flow: its frames keep their order.
	ECMP Routing = iota
	// Spray picks a next hop for every frame at every switch: frames of a
	// flow take every path and may arrive out of order.
	Spray
)

// SprayMode says how spraying picks among the equal-cost next hops.
type SprayMode uint8

const (
	RoundRobin  SprayMode = iota // each switch takes its next hops in turn
	RandomSpray                  // each switch draws one, from a stream of the seed
)

// Flow is a flow between two hosts of a fabric.
type Flow struct {
	From, To    int        // host indices (topo: hosts in node order)
	Start       algos.Time // when it starts sending
	Stop        algos.Time // when it stops; 0 for never
	Size        int64      // bytes to send; 0 for a greedy flow
	InitialRate float64    // its limiter's initial rate, bits/s; 0 for its host's line rate
	// Incast marks the flows of an incast, whose completion (the last byte
	// of the last of them) the summary reports.
	Incast bool
	// Class is its frames' traffic class, below Config.Classes.N.
	Class int
}

// ShortFlows are flows of random sizes between random pairs of distinct
// hosts, arriving as one Poisson process over the fabric, each with its
// own rate limiter. ShortFlowRate converts a load to Rate.
type ShortFlows struct {
	Rate  float64 // flows per second, whole fabric
	Sizes *FlowSizes
	Drain Drain // when they stop arriving
	Class int   // their frames' traffic class
}

// ShortFlowRate is the arrival rate of short flows that offers load (a
// share, 0..1) of every host's link: hosts x capacity x load bits per second,
// over the mean flow size.
func ShortFlowRate(load float64, hosts int, capacity float64, sizes *FlowSizes) float64 {
	return load * float64(hosts) * capacity / 8 / sizes.Mean()
}

const defaultWatchPorts, defaultWatchFlows = 8, 16

func (f *Fabric) watchPorts() int {
	if f.WatchPorts > 0 {
		return f.WatchPorts
	}
	return defaultWatchPorts
}

func (f *Fabric) watchFlows() int {
	if f.WatchFlows > 0 {
		return f.WatchFlows
	}
	return defaultWatchFlows
}

// switchPorts is the number of switch egress ports: those simulated, and
// indexed by CapacityChange.Link, in topology port order.
func (f *Fabric) switchPorts() int {
	n := 0
	if t := f.Topology; t != nil {
		for _, p := range t.Ports {
			if t.Nodes[p.From].Kind == topo.Switch {
				n++
			}
		}
	}
	return n
}

// validateFabric checks what a fabric adds to a Config: its flows are
// checked as they are routed (fabricNetwork).
func (c *Config) validateFabric(bad func(string, ...any)) {
	f := c.Fabric
	if len(c.Links) > 0 || len(c.Sources) > 0 || c.Traffic != nil {
		bad("a fabric brings its own network and flows: Links, Sources and Traffic must be empty")
	}
	t := f.Topology
	if t == nil {
		bad("fabric: no topology")
		return
	}
	for _, p := range t.Ports {
		if t.Nodes[p.From].Kind == topo.Switch && p.Buffer < c.FrameBytes {
			bad("port %s: its buffer (%d B) must hold a frame (%d B)", p.Name, p.Buffer, c.FrameBytes)
		}
	}
	if sh := f.Short; sh != nil && (!(sh.Rate >= 0) || (sh.Rate > 0 && sh.Sizes == nil)) {
		bad("fabric: the short-flow rate must not be negative, and short flows need sizes")
	}
	if len(f.Flows) == 0 && (f.Short == nil || f.Short.Rate == 0) {
		bad("fabric: no flows")
	}
	if f.Routing > Spray || f.Spray > RandomSpray {
		bad("fabric: unknown routing %d or spraying %d", f.Routing, f.Spray)
	}
}

// FlowError is a flow of a fabric that cannot run: no route between its
// hosts, a flow from a host to itself, times or a size out of range.
type FlowError struct {
	Flow int // its index in Fabric.Flows
	Err  error
}

func (e *FlowError) Error() string { return fmt.Sprintf("flow %d: %v", e.Flow, e.Err) }
func (e *FlowError) Unwrap() error { return e.Err }

// Check reports whether NewPacket would accept cfg, without building the
// simulation: its settings, and on a fabric every flow's route (a
// *FlowError per flow that cannot run).
func Check(cfg Config) error {
	if err := cfg.validate(); err != nil {
		return err
	}
	_, err := cfg.network()
	return err
}

// SeriesShape is the number of queues and rates each Sample carries: on a
// chain every port and source, on a fabric the watched ones (sample.go).
func (c *Config) SeriesShape() (queues, rates int) {
	if c.Fabric == nil {
		return max(1, len(c.Links)), len(c.Sources)
	}
	return min(c.Fabric.switchPorts(), c.Fabric.watchPorts()), min(len(c.Fabric.Flows), c.Fabric.watchFlows())
}

// Random streams of a fabric's choices.
const (
	streamSpray   = 5 << 32 // random spraying
	streamFlows   = 6 << 32 // short flows' arrivals, hosts and sizes
	streamPattern = 7 << 32 // the patterns' draws (patterns.go)
)

// network builds the configuration's network.
func (c *Config) network() (*network, error) {
	build := chainNetwork
	if c.Fabric != nil {
		build = fabricNetwork
	}
	n, err := build(c)
	if err == nil {
		err = c.checkReserves(n)
	}
	return n, err
}

// fabricNetwork expresses a fabric as a network: every switch egress port
// simulated, each flow routed (ECMP: its path fixed at its start; spraying:
// none), the feeders of each port those routing may send through it.
func fabricNetwork(cfg *Config) (*network, error) {
	f := cfg.Fabric
	t := f.Topology
	if t == nil {
		return nil, errors.New("fabric: no topology")
	}
	r := t.Routes()
	n := &network{topo: t, routes: r, spray: f.Routing == Spray}
	var ports []int
	for i, p := range t.Ports {
		if t.Nodes[p.From].Kind == topo.Switch {
			ports = append(ports, i)
		}
	}
	n.simulate(ports)
	n.exitDelay = make([]algos.Time, len(ports))
	for j, tp := range ports {
		if p := t.Ports[tp]; t.Nodes[p.To].Kind == topo.Host {
			n.exitDelay[j] = p.Delay // the port leads to its receivers
		}
	}
	var errs []error
	for i, fl := range f.Flows {
		spec, err := n.flowSpec(cfg, fl, uint64(i))
		if err != nil {
			errs = append(errs, &FlowError{Flow: i, Err: err})
			continue
		}
		n.flows = append(n.flows, spec)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	n.feeders = make([][]feeder, len(ports))
	if cfg.PFC == nil {
		return n, nil // only PFC pauses feeders, and listing them costs
	}
	feeds := r.Feeders()
	for j, tp := range ports {
		var up, hosts []feeder
		for _, q := range feeds[tp] {
			if from := t.Ports[q].From; t.Nodes[from].Kind == topo.Host {
				hosts = append(hosts, feeder{host: int32(t.HostIndex(from)), port: -1})
			} else {
				up = append(up, feeder{host: -1, port: n.portOf[q]})
			}
		}
		n.feeders[j] = append(up, hosts...) // upstream ports first, as on a chain
	}
	return n, nil
}

// flowSpec routes flow fl, the key-th of the fabric's (its ECMP hash).
func (n *network) flowSpec(cfg *Config, fl Flow, key uint64) (flowSpec, error) {
	t := n.topo
	if err := n.routes.Check(fl.From, fl.To); err != nil {
		return flowSpec{}, err
	}
	line := t.Ports[t.NIC(fl.From)].Capacity
	spec := flowSpec{host: fl.From, dst: fl.To, lineRate: line, initialRate: fl.InitialRate,
		start: fl.Start, stop: fl.Stop, size: fl.Size, incast: fl.Incast, hops: n.routes.Hops(fl.From, fl.To), class: uint8(fl.Class)}
	if spec.stop == 0 {
		spec.stop = algos.Never
	}
	if spec.initialRate == 0 {
		spec.initialRate = line
	}
	switch {
	case fl.Start < 0 || spec.stop <= fl.Start:
		return spec, errors.New("it must start at or after 0 and stop after it starts")
	case fl.Size < 0 || fl.Size > MaxFlowBytes:
		return spec, fmt.Errorf("its size must be in [0, %g] bytes (0 for greedy)", MaxFlowBytes)
	case !(spec.initialRate > 0) || spec.initialRate > line:
		return spec, fmt.Errorf("its initial rate must be positive and at most its host's line rate (%g bps)", line)
	case spec.hops > 255:
		return spec, errors.New("its route crosses more than 255 switches")
	}
	if !n.spray {
		spec.route = n.route(cfg.Seed, fl.From, fl.To, key)
	}
	return spec, nil
}

// route is the ECMP path of the flow with key from host src to host dst,
// as simulated ports: at each switch the flow's hash, seeded by the
// experiment seed, picks among the equal-cost next hops.
func (n *network) route(seed uint64, src, dst int, key uint64) []int32 {
	path := n.routes.ECMP(src, dst, topo.Mix(seed, key))
	for k, p := range path {
		path[k] = n.portOf[p]
	}
	return path
}

// fabricState is what a fabric run keeps beyond a chain's.
type fabricState struct {
	rr       []uint32   // per node, spraying's round-robin turn
	rng      *rand.Rand // random spraying
	paths    []map[uint32]struct{}
	hostMark [][]float64 // [boundary][host]: bits its link sent, for the tiers
	keys     uint64      // ECMP keys handed out: flows made so far
}

// startFabric sets up a fabric's routing state, its flows of a given size
// and its short flows.
func (s *Packet) startFabric() error {
	if s.net.chain {
		return nil
	}
	f := s.cfg.Fabric
	fs := &fabricState{keys: uint64(len(f.Flows)), hostMark: [][]float64{make([]float64, len(s.hosts))}}
	s.fabric = fs
	if s.net.spray {
		fs.rr = make([]uint32, len(s.net.topo.Nodes))
		fs.rng = rand.New(rand.NewPCG(s.cfg.Seed, streamSpray))
		fs.paths = make([]map[uint32]struct{}, s.statics)
	}
	sized := slices.ContainsFunc(f.Flows, func(fl Flow) bool { return fl.Size > 0 })
	if sized || f.Short != nil {
		s.short = &shortFlows{stats: newFlowStats(s.cfg.FlowBuckets), rng: rand.New(rand.NewPCG(s.cfg.Seed, streamFlows))}
	}
	for _, l := range s.lims {
		if l.sized != nil {
			s.startSized(l)
		}
	}
	if sh := f.Short; sh != nil && sh.Rate > 0 && sh.Sizes != nil {
		s.short.rate, s.short.sizes = sh.Rate, sh.Sizes
		s.short.stop, s.short.maxFlows = sh.Drain.Stop, sh.Drain.MaxFlows
		s.drain = sh.Drain.set() && !slices.ContainsFunc(f.Flows, func(fl Flow) bool { return fl.Size == 0 })
		s.short.scheduleFirst(s)
	}
	return nil
}

// spray picks the port at node toward host dst for a sprayed frame.
func (s *Packet) spray(node, dst int32) int32 {
	hops := s.net.routes.NextHops(int(node), int(dst))
	fs := s.fabric
	k := 0
	if len(hops) > 1 {
		if s.cfg.Fabric.Spray == RandomSpray {
			k = fs.rng.IntN(len(hops))
		} else {
			k = int(fs.rr[node] % uint32(len(hops)))
			fs.rr[node]++
		}
	}
	return s.net.portOf[hops[k]]
}

// pathTaken records the path (its hash) a sprayed frame of l took.
func (s *Packet) pathTaken(l *limiter, path uint32) {
	if sz := l.sized; sz != nil && !slices.Contains(sz.paths, path) {
		sz.paths = append(sz.paths, path) // at most the equal-cost paths
	}
	if int(l.id) >= s.statics {
		return // a short flow's: in its record only
	}
	m := s.fabric.paths[l.id]
	if m == nil {
		m = map[uint32]struct{}{}
		s.fabric.paths[l.id] = m
	}
	m[path] = struct{}{}
}

// ecmpRoute is the path a sprayed limiter's flow would take under ECMP:
// its ideal FCT's (the equal-cost paths differ only in their delays).
func (s *Packet) ecmpRoute(l *limiter) []int32 {
	return s.net.route(s.cfg.Seed, int(l.host), int(l.dst), uint64(l.id))
}

// describeFlow adds a fabric flow's hosts and paths to its summary.
func (s *Packet) describeFlow(i int, ss *SourceSummary) {
	if s.net.chain {
		return
	}
	f := &s.net.flows[i]
	t := s.net.topo
	ss.From, ss.To = t.HostName(f.host), t.HostName(f.dst)
	switch {
	case s.net.spray:
		ss.PathCount = len(s.fabric.paths[i])
	case s.lims[i].arrived > 0:
		ss.PathCount = 1
	}
}
