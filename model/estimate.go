package model

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"unsafe"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Cost is what a packet-level run is estimated to need, so that a caller
// can refuse an absurd run before it starts: its discrete events (Events,
// as Packet.Events counts them) and the most heap it holds (Memory, bytes).
type Cost struct {
	Events float64
	Memory float64

	// The parts of each, so that a caller can blame the setting that
	// drives the total: the network as data (nodes, links, ports, routes
	// and PFC's feeder lists), the ports' queues and histograms at a full
	// buffer, the flows' limiters and what is in flight to them, and the
	// short flows alive; the frames' events, the samples', the short
	// flows'.
	NetworkMemory, BufferMemory, FlowMemory, ShortMemory float64
	FrameEvents, SampleEvents, ShortEvents               float64

	// Work is Events weighed by what each costs: a host's own events (its
	// frames' releases, its reaction points' timers) look at every
	// limiter the host holds, so a host with many flows makes every event
	// dear. Work counts events of an ordinary cost, the unit of a bound on
	// computing time.
	Work float64
	// MostFlowsPerHost is the most limiters one host holds.
	MostFlowsPerHost int
}

// limiterScanEvents is what a limiter of a host adds to the cost of each
// event, in ordinary events: all-to-all measured 0.87 M events/s with 63
// flows per host and 72 k/s with 255, against 6-7 M/s with one (a fabric's
// permutation), on one core: 15 to 55 ns per limiter, an ordinary event
// about 30 ns at the 30 M events/s the bounds assume.
const limiterScanEvents = 2

// Estimate is the cost of a packet-level run of cfg, from its network, its
// flows and its duration, with the sizes of the engine's own records
// (unsafe.Sizeof) and of the scheme's congestion and reaction points (one of
// each built to measure). It assumes every flow offers its line rate and
// every queue fills its buffer, so it errs high on memory; TestEstimate
// holds it within a factor of the heap measured on a few runs. A config
// that does not build (NewPacket would refuse it) costs nothing.
func Estimate(cfg Config) Cost {
	if cfg.validate() != nil {
		return Cost{}
	}
	n, err := cfg.network()
	if err != nil {
		return Cost{}
	}
	var c Cost
	t := n.topo
	frameB := float64(cfg.FrameBytes)
	frameBits := 8 * frameB
	dur := cfg.Duration.Seconds()
	bounds := float64(len(cfg.Phases) + 2) // the warm-up's, the phases', the run's
	cpBytes, rpBytes, npBytes := schemeSizes(&cfg, n)
	const ringCopies = 1.5 // a ring's buffer is a power of two: on average 1.5 times what it holds

	// The network as data: nodes, links, ports, and a fabric's routes as
	// allocated; with PFC, each port's feeders, listed by the routes (a
	// port and a flag each) and by the model.
	c.NetworkMemory += float64(len(t.Nodes))*float64(unsafe.Sizeof(topo.Node{})+32) +
		float64(len(t.Links))*float64(unsafe.Sizeof(topo.Link{})+32) +
		float64(len(t.Ports))*float64(unsafe.Sizeof(topo.Port{})+32)
	if n.routes != nil {
		c.NetworkMemory += t.Routes().Bytes()
	}
	if cfg.PFC != nil {
		for j := range n.ports {
			c.NetworkMemory += float64(len(n.feeders[j])) * float64(4+1+unsafe.Sizeof(feeder{}))
		}
	}

	// Ports: the record, its CP, its queue at a full buffer, its link's
	// frames (those queued to go on and those on the wire), the frames held
	// when paused, its histogram copied at every boundary.
	for _, tp := range n.ports {
		p := t.Ports[tp]
		full := float64(p.Buffer) / frameB
		wire := p.Delay.Seconds() * p.Capacity / frameBits
		hist := 8 * (full + 2)
		c.BufferMemory += float64(unsafe.Sizeof(port{})) + cpBytes + 3*hist*bounds + float64(unsafe.Sizeof(portMark{}))*bounds
		c.BufferMemory += ringCopies * (float64(unsafe.Sizeof(queued{}))*full + float64(unsafe.Sizeof(frame{}))*(full+wire+1))
		if cfg.PFC != nil {
			c.BufferMemory += ringCopies * float64(unsafe.Sizeof(frame{})) * full
		}
		if cfg.Scheme.NewNP != nil {
			c.BufferMemory += ringCopies * float64(unsafe.Sizeof(frame{})) * (full + 1)
		}
	}
	// Hosts: the record and the frames on their links.
	for h := range t.Hosts {
		nic := t.Ports[t.NIC(h)]
		inFlight := nic.Delay.Seconds()*nic.Capacity/frameBits + 2
		c.NetworkMemory += float64(unsafe.Sizeof(host{})) + ringCopies*float64(unsafe.Sizeof(frame{}))*inFlight + 8*bounds
	}
	// Flows: the limiter, its RP (and NP), route, loop statistics, the
	// feedback in flight to it (a message per frame of its loop at worst),
	// its rate history, its marks and its summary at every boundary.
	window := math.Ceil(float64(cfg.RateWindow) / float64(max(cfg.SampleInterval, 1)))
	loop := cfg.Network().MaxLoopDelay.Seconds()
	// A flow sends at most its line rate, and the schemes keep each port's
	// load near its capacity: count offeredFactor times its share of each
	// port it crosses (its ECMP path if sprayed).
	const offeredFactor = 2
	crossing := make([]float64, len(n.ports))
	routes := make([][]int32, len(n.flows))
	for i, f := range n.flows {
		routes[i] = f.route
		if routes[i] == nil {
			routes[i] = n.route(cfg.Seed, f.host, f.dst, uint64(i))
		}
		for _, j := range routes[i] {
			crossing[j]++
		}
	}
	for i, f := range n.flows {
		c.FlowMemory += limiterBytes(f.hops, rpBytes, npBytes, &cfg) + 8*2*window +
			(float64(unsafe.Sizeof(sourceMark{}))+float64(unsafe.Sizeof(SourceSummary{}))+64)*bounds
		c.FlowMemory += float64(unsafe.Sizeof(message{})+unsafe.Sizeof(event{})) * loop * f.lineRate / frameBits / 8
		rate := f.lineRate
		for _, j := range routes[i] {
			rate = math.Min(rate, offeredFactor*t.Ports[n.ports[j]].Capacity/crossing[j])
		}
		c.FrameEvents += rate / frameBits * dur * float64(1+2*f.hops)
	}
	// The agenda: a slot per stream, a timer per flow.
	streams := uint64(len(t.Hosts) + 2*len(n.ports))
	c.NetworkMemory += 2 * float64(unsafe.Sizeof(treeKey{})) * float64(uint64(1)<<bits.Len64(streams))
	c.FlowMemory += float64(unsafe.Sizeof(event{})) * float64(len(n.flows)) * ringCopies
	// The summary: every port, every flow, in the window and every phase.
	c.BufferMemory += bounds * float64(len(n.ports)) * float64(unsafe.Sizeof(BottleneckSummary{})+64)

	// Events: a frame is released, then arrives at and leaves each port of
	// its route; samples; a chain's or a fabric's short flows.
	c.SampleEvents += dur / max(cfg.SampleInterval.Seconds(), 1e-12) * float64(len(n.ports)+len(n.flows))
	if tr := cfg.Traffic; tr != nil {
		if tr.ShortRate > 0 && tr.ShortSizes != nil {
			// On an overloaded network every flow started stays alive.
			c.ShortMemory += tr.ShortRate * dur * float64(unsafe.Sizeof(flow{})+unsafe.Sizeof(flowEnded{})+8)
			c.ShortEvents += tr.ShortRate * dur * 4
		}
		c.FlowMemory += float64(len(n.flows)) * float64(unsafe.Sizeof(sourceFlows{}))
	}
	shortPerHost := 0.0
	if f := cfg.Fabric; f != nil && f.Short != nil && f.Short.Rate > 0 && f.Short.Sizes != nil {
		// A short flow alive holds a limiter; on an overloaded fabric every
		// flow started stays alive. Its frames are the hosts' load.
		hops := float64(t.Routes().Hops(0, len(t.Hosts)-1))
		alive := f.Short.Rate * dur
		c.ShortMemory += alive * (limiterBytes(int(hops), rpBytes, npBytes, &cfg) + float64(unsafe.Sizeof(sizedFlow{})))
		// A flow is at least a frame; the hosts' links carry at most
		// their capacity. The slowest host link decides how many stay.
		nics, slowest := 0.0, math.Inf(1)
		for h := range t.Hosts {
			nics += t.Ports[t.NIC(h)].Capacity
			slowest = math.Min(slowest, t.Ports[t.NIC(h)].Capacity)
		}
		load := math.Min(f.Short.Rate*math.Max(f.Short.Sizes.Mean(), frameB)*8, nics)
		c.ShortEvents += load/frameBits*dur*(1+2*hops) + f.Short.Rate*dur*4
		shortPerHost = shortFlowsAlive(f.Short, dur, len(t.Hosts), slowest, frameB)
	}
	if cfg.Traffic != nil || (cfg.Fabric != nil && (cfg.Fabric.Short != nil || slices.ContainsFunc(cfg.Fabric.Flows, func(f Flow) bool { return f.Size > 0 }))) {
		c.FlowMemory += 10 * float64(unsafe.Sizeof(logHist{})+3100*4) // the flows' histograms, by size
	}
	c.Memory = c.NetworkMemory + c.BufferMemory + c.FlowMemory + c.ShortMemory
	c.Events = c.FrameEvents + c.SampleEvents + c.ShortEvents
	perHost := make([]int, len(t.Hosts))
	for _, f := range n.flows {
		if f.host >= 0 && f.host < len(perHost) {
			perHost[f.host]++
			c.MostFlowsPerHost = max(c.MostFlowsPerHost, perHost[f.host])
		}
	}
	c.MostFlowsPerHost += int(math.Ceil(shortPerHost))
	// Samples walk the flows once each, counted already; frames and short
	// flows are the hosts' events.
	c.Work = c.SampleEvents + (c.FrameEvents+c.ShortEvents)*(1+limiterScanEvents*float64(max(c.MostFlowsPerHost-1, 0)))
	return c
}

// shortFlowsAlive is the short flows a host holds on average over a run,
// each with its limiter: by Little's law about rho/(1-rho) where the host's
// link is loaded to rho (a flow takes at least a frame), and when it is
// overloaded every flow started stays: half of them, on average.
func shortFlowsAlive(s *ShortFlows, dur float64, hosts int, nic, frameBytes float64) float64 {
	perHost := s.Rate / float64(hosts)
	started := perHost * dur
	rho := perHost * math.Max(s.Sizes.Mean(), frameBytes) * 8 / nic
	if rho >= 0.95 {
		return started / 2
	}
	return math.Min(started, rho/(1-rho)+1)
}

// limiterBytes is a rate limiter's memory with its reaction point and route.
func limiterBytes(hops int, rpBytes, npBytes float64, cfg *Config) float64 {
	b := float64(unsafe.Sizeof(limiter{})) + rpBytes + 4*float64(hops) + float64(unsafe.Sizeof(loopStats{})) + 16
	if cfg.Scheme.NewNP != nil {
		b += npBytes
	}
	if !cfg.FeedbackLatency.IsFixed() {
		b += float64(unsafe.Sizeof(feedbackPath{})) + 8*float64(hops+1) + 80 // and its generator
	}
	return b
}

// schemeSizes measures the scheme's congestion, reaction and notification
// points: one of each, built for the run's network, their structs' own
// sizes (not what they point to), an allocation's overhead and a generator.
func schemeSizes(cfg *Config, n *network) (cp, rp, np float64) {
	netw := cfg.networkOf(n)
	r := rand.New(rand.NewPCG(1, 1))
	size := func(x any) float64 {
		v := reflect.ValueOf(x)
		if v.Kind() == reflect.Pointer {
			return float64(v.Elem().Type().Size()) + 16
		}
		return float64(v.Type().Size())
	}
	c := cfg.Scheme.NewCP(algos.CPEnv{Network: netw, CPID: 1, Capacity: netw.Capacity, Buffer: netw.Buffer, Rand: r}, cfg.Params)
	if cfg.transportOn() { // a Sender and its transport (transport.go)
		snd := cfg.Scheme.NewSender(algos.SenderEnv{Network: netw, LineRate: netw.LineRate, BaseRTT: netw.MaxLoopDelay, Hops: 1, Rand: r}, cfg.Params)
		rp = size(snd) + float64(unsafe.Sizeof(transport{})) + 2*64 + 80
		if _, ok := snd.(algos.TelemetrySender); ok { // the telemetry ring: 64 frames of 5 hops at least
			rp += 64 * 5 * float64(unsafe.Sizeof(algos.Hop{}))
		}
	} else {
		rp = size(cfg.Scheme.NewRP(algos.RPEnv{Network: netw, LineRate: netw.LineRate, InitialRate: netw.LineRate, Rand: r}, cfg.Params)) + 64
	}
	if cfg.Scheme.NewNP != nil {
		np = size(cfg.Scheme.NewNP(algos.NPEnv{Network: netw, Rand: r}, cfg.Params)) + 64
	}
	return size(c) + 64, rp, np
}

// estimateSlack is how far above a run's needs Estimate may be (TestEstimate).
const estimateSlack = 4
