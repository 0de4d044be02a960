package model

import (
	"fmt"
	"math"
	"math/bits"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Random stream ids: every CP, RP and NP draws from its own generator made
// from the experiment seed and its stream, so adding a flow does not change
// the numbers another one sees.
const (
	streamCP = 1 << 32 // + port
	streamRP = 2 << 32 // + rate limiter, in the order they are made
	streamNP = 4 << 32 // + rate limiter
)

// Packet is the packet-level simulation: hosts whose flows' rate limiters
// (the schemes' reaction points) send frames through switch ports, each
// with a drop-tail queue and its congestion point, to receivers, and the
// feedback that comes back. The network is data (network.go): a chain of
// bottlenecks (a dumbbell, a parking lot) or a fabric, walked the same way.
type Packet struct {
	cfg    Config
	net    *network
	now    algos.Time
	agenda agenda
	hosts  []host
	lims   []*limiter // the first statics are the network's flows; a frame names its limiter by index
	ports  []*port    // into portStore
	// portStore holds the ports, in order, in one array; the hot paths
	// index it (&s.portStore[pi]), not ports, whose pointer is one more
	// load, and one more cache line, per hop.
	portStore []port
	// lookahead: the agenda's streams are a calendar or a radix heap, whose
	// front names the events to come (prefetch.go), and the hosts and
	// ports are more than aheadMin: a fabric larger than the caches or a
	// chain of as many sources.
	lookahead bool
	// stages: how far ahead prefetching looks (prefetchAhead): further,
	// and in four stages, on a network of deepMin hosts and ports or more,
	// whose state is far larger than the caches.
	stages prefetchStages
	// hugeHeap: the network's hot state outgrows the TLB's reach, and its
	// memory in use is moved into huge pages as it grows (adviseHeap).
	hugeHeap bool
	events   uint64 // discrete events handled: releases, arrivals, departures, feedback, timers
	released uint64 // frames the hosts' NICs sent: data, and the control frames receivers send back
	// counted is a test's count of what left each port (departures), nil
	// in a run; kept only in a build that counts (countingDepartures).
	counted *departures
	// levelInv is 1 / the granule of every port's level statistics, the
	// frame size (levelStats.set).
	levelInv float64
	done     bool

	delivered []delivery    // per limiter, what a frame leaving the network reads of its flow (dense)
	statics   int           // the limiters of the network's flows: the summary's sources
	netw      algos.Network // what the schemes see of the network
	incast    incastState
	receivers bool // the scheme has a notification point: frames are followed to their receivers
	marking   bool // some congestion point acts on departures (algos.DepartingCP)
	made      int  // limiters made so far: the next one's random streams

	frame    algos.Frame // scratch for the congestion point: no allocation per frame
	fb       algos.Feedback
	messages slots[message] // the feedback frames and CNPs in flight
	// The transport (transport.go): the telemetry of the ACKs in flight
	// (the ACKs wait in their limiters), the scratch ACK a sender sees, and
	// whether some flow's sender reads in-band telemetry.
	ackINT    slots[ackINT]
	ack       algos.Ack
	ackHops   [maxINTHops]algos.Hop
	telemetry bool
	// maxRTT is the largest base RTT over the pairs of hosts, measured
	// the first time a sender asks (largestRTT: s.largestBaseRTT).
	maxRTT     algos.Time
	largestRTT func() algos.Time
	// A frame's CPID field is its CM-Tag's CPID, or its transport's index;
	// both, for a rate-based scheme over the transport: the CPID is the
	// field and cpidMask, the index the bits above cpidShift (tagFrame).
	cpidMask  int32
	cpidShift uint8
	ctlFrame  frame          // the control frame being generated (control.go)
	fbPaths   []feedbackPath // per limiter, nil unless the feedback latency varies
	lanes     *propLanes     // each frame record's propagation, where sprayed paths' differ (proplane.go)
	loops     []loopStats    // per limiter

	nextSample algos.Time
	timeline   // capacity changes, the window's and phases' boundaries
	sample     Sample
	watched    []int // the ports the samples show
	// rates is the flows' rates as their bytes reach their first ports,
	// delivery as they reach their receivers, each over the rate window
	// and over the flows it follows (sample.go): on a chain rates judges
	// fairness, on a fabric delivery does.
	rates, delivery flowSampler
	// With PFC: each port's time held paused by the next switch at the
	// last sample, and each port's tier among the samples' TierNames; on
	// a fabric the same of each host's link, paused by its switch.
	heldAt     []algos.Time
	heldShare  []float64 // scratch: each port's share of the interval
	tierCounts []int     // each tier's ports and hosts' links
	portTier   []int
	hostHeldAt []algos.Time
	hostShare  []float64 // scratch: each host's link's share of the interval
	hostTier   []int
	lastAt     algos.Time

	short *shortFlows // nil unless the flows include short flows (traffic.go, flows.go)
	pool  limiterPool // the limiters of ended short flows, to reuse (flows.go)
	// drain: the arrivals stop (Traffic.Stop, ShortFlows.Stop) and every
	// flow has a size, so the run ends once they are all over (drained).
	drain  bool
	fabric *fabricState

	pausedMarks [][]algos.Time // PFC: [boundary][source] time paused (pfc.go)
	jitter      jitter         // switches' forwarding latency variation (clock.go)

	// PFC with ingress accounting (pfc_ingress.go): nil ingress without.
	ingress     []ingressLink
	switchPorts [][]int32 // per node, its simulated egress ports
	nodeIngress [][]int32 // per node, the links into it
	xonScratch  []departure
	classes     int32     // traffic classes of every port: ingress links are counted per (link, class)
	classPorts  bool      // the ports have class queues (classes.go): several classes, a shared buffer or control frames
	nodeBytes   []int     // per node, the bytes in the switch
	nodeFree    []int     // per node, with dynamic thresholds, its shared buffer less the headroom of the links into it
	deadlock    *Deadlock // the PFC deadlock that stopped the run, if any (deadlock.go)
}

// NewPacket builds a packet-level simulation at time zero.
func NewPacket(cfg Config) (*Packet, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	n, err := cfg.network()
	if err != nil {
		return nil, err
	}
	s := &Packet{cfg: cfg, net: n, nextSample: cfg.SampleInterval, statics: len(n.flows),
		receivers: cfg.Scheme.NewNP != nil || cfg.transportOn(), netw: cfg.networkOf(n), incast: incastState{start: algos.Never}}
	netw := s.netw
	s.largestRTT = s.largestBaseRTT
	s.cpidMask = -1
	if cfg.rateTransport() {
		s.cpidShift = uint8(bits.Len(uint(len(n.ports)))) // CPIDs run to the ports'
		s.cpidMask = 1<<s.cpidShift - 1
	}
	if len(n.topo.Hosts)+(len(n.ports))*3 > maxStreams {
		return nil, fmt.Errorf("%d hosts and %d switch ports: the engine follows at most %d of them", len(n.topo.Hosts), len(n.ports), maxStreams/3)
	}
	t := n.topo
	s.levelInv = levelInv(float64(cfg.FrameBytes))
	s.portStore = hugeSlice[port](len(n.ports))
	cps := algos.NewCPSlab(len(n.ports)) // the ports' CPs together, in the ports' order
	for j, tp := range n.ports {
		p := t.Ports[tp]
		cp := cfg.Scheme.NewCP(algos.CPEnv{
			Network: netw, CPID: j + 1, Capacity: p.Capacity, Buffer: float64(p.Buffer),
			Rand: newRand(cfg.Seed, streamCP+uint64(j)), Slab: cps,
		}, cfg.Params)
		port := &s.portStore[j]
		newPort(port, p.Name, p.Capacity, p.Buffer, cfg.FrameBytes, cp)
		port.tier, port.to, port.delay, port.exitDelay = p.Tier, int32(p.To), p.Delay, n.exitDelay[j]
		s.ports = append(s.ports, port)
		s.marking = s.marking || port.dcp != nil
	}
	s.startRings(n) // after newPort, which sets every field
	s.startClasses(&netw)
	for j, p := range s.ports {
		p.syncOdd(s.receivers, s.net.chain, s.net.streams(j)) // after its classes
	}
	s.agenda.init(len(t.Hosts), len(s.ports), s.receivers, paceOf(t, cfg.FrameBytes))
	s.lookahead = s.agenda.root == nil && len(t.Hosts)+len(s.ports) > aheadMin
	s.stages = aheadStages
	if len(t.Hosts)+len(s.ports) >= deepMin {
		s.stages = deepStages
	}
	for h, node := range t.Hosts {
		nic := t.Ports[t.NIC(h)]
		s.hosts = append(s.hosts, host{id: int32(h), fwd: nic.Delay, bwd: nic.Back, node: int32(nic.To), capacity: nic.Capacity,
			arrivalAt: algos.Never, name: t.Nodes[node].Name, clock: 1})
	}
	s.startClocks()
	if n.spray && !n.routes.EvenDelays() {
		s.startLanes()
	}
	for _, f := range n.flows {
		s.addLimiter(f, &netw)
	}
	s.initSampling()
	if cfg.Traffic != nil {
		s.startTraffic()
	}
	if err := s.startFabric(); err != nil {
		return nil, err
	}
	if cfg.PFC != nil {
		if err := s.startPFC(); err != nil {
			return nil, err
		}
	}
	for _, l := range s.lims {
		s.startLimiter(l)
	}
	s.initTimeline()
	if s.hugeHeap = hugeHeapPays(len(s.ports)); s.hugeHeap {
		_ = adviseHeap(true) // its state is built: a hint, which may be refused
	}
	return s, nil
}

// addLimiter makes the rate limiter of flow f, with its reaction point
// (and notification point), on its host: a new one, or in the place of an
// ended short flow's.
func (s *Packet) addLimiter(f flowSpec, netw *algos.Network) *limiter {
	cfg := &s.cfg
	clock := s.hosts[f.host].clock
	serial := algos.TransmitTime(cfg.FrameBytes, f.lineRate*clock)
	l := &limiter{
		host: int32(f.host), hops: int32(f.hops), dst: int32(f.dst), class: f.class,
		lineRate: f.lineRate, clock: clock, serial: serial, nextSerial: serial,
		start: f.start, stop: f.stop, frameBits: float64(cfg.FrameBytes) * 8,
		mark: f.start, nextEmit: algos.Never, rpTimer: algos.Never, timerAt: algos.Never, ackAt: algos.Never,
	}
	stream := uint64(s.made)
	if !cfg.Scheme.NeedsTransport() {
		l.rp = cfg.Scheme.NewRP(algos.RPEnv{
			Network: *netw, LineRate: f.lineRate, InitialRate: f.initialRate, Start: f.start,
			Rand: newRand(cfg.Seed, streamRP+stream),
		}, cfg.Params)
	}
	i := int32(len(s.lims))
	reuse := len(s.pool.free) > 0
	if reuse {
		free := s.pool.free
		i, s.pool.free = free[len(free)-1], free[:len(free)-1]
		// Events and messages for the flow before are stale for this one.
		l.epoch, l.tgen = s.lims[i].epoch, s.lims[i].tgen
	}
	if cfg.Scheme.NewNP != nil {
		l.np = cfg.Scheme.NewNP(algos.NPEnv{Network: *netw, Flow: int(i),
			Rand: newRand(cfg.Seed, streamNP+stream)}, cfg.Params)
	}
	if f.size > 0 {
		l.sized = &sizedFlow{size: f.size, left: f.size, start: f.start, incast: f.incast}
		if f.size < int64(cfg.FrameBytes) {
			l.nextSerial = algos.TransmitTime(int(f.size), f.lineRate*clock)
		}
	}
	l.setRoute(f.route)
	if len(f.route) > 0 {
		l.first = s.ports[f.route[0]]
		if cfg.ControlFrames {
			l.back = s.backRoute(f)
		}
	}
	s.made++
	l.id = i
	if s.lanes == nil {
		l.propTo = s.propTo(f)
	}
	if cfg.transportOn() {
		l.tp = s.newTransport(l, f, netw, stream, l.rp)
		l.rp = l.tp
	}
	l.settle()
	var fp feedbackPath
	if !cfg.FeedbackLatency.IsFixed() {
		fp = feedbackPath{rand: DelayRand(cfg.Seed, streamFeedbackLatency+stream), last: make([]algos.Time, f.hops+1)}
	}
	if reuse {
		s.lims[i], s.delivered[i], s.loops[i] = l, delivery{sized: l.sized != nil}, newLoopStats()
		if fp.rand != nil {
			s.fbPaths[i] = fp
		}
	} else {
		s.lims = append(s.lims, l)
		s.delivered = append(s.delivered, delivery{sized: l.sized != nil})
		s.loops = append(s.loops, newLoopStats())
		if fp.rand != nil {
			s.fbPaths = append(s.fbPaths, fp)
		}
	}
	s.hosts[f.host].addLimiter(l)
	return l
}

// startLimiter sets limiter l going from its start.
func (s *Packet) startLimiter(l *limiter) {
	// A limiter that starts at its initial rate has its first frame ready
	// at once, as one starting at line rate would.
	l.credit = l.frameBits
	l.rate = -1 // so that readRP sets it
	s.readRP(l, l.start)
	s.syncTimer(l)
	s.syncArrival(&s.hosts[l.host])
}

// Now is the simulated time the run has reached.
func (s *Packet) Now() algos.Time { return s.now }

// Done reports whether the run has reached its duration.
func (s *Packet) Done() bool { return s.done }

// Events is the number of discrete events handled so far.
func (s *Packet) Events() uint64 { return s.events }

// Frames is the number of frames that have left the network: their route's
// last port.
func (s *Packet) Frames() uint64 {
	var n uint64
	for _, p := range s.ports {
		n += p.exitCount
	}
	return n
}

// FrameHops is the number of frames that have left a switch port: a frame
// that crosses five switches makes five, one dropped at a port none there.
// On a fabric, the work a run does per frame.
func (s *Packet) FrameHops() uint64 {
	var n uint64
	for _, p := range s.ports {
		n += p.framesLeft()
	}
	return n
}

// Transmissions is the number of frames, data or control, sent onto a
// link: by a host's NIC (released by its rate limiters, or an ACK, NACK or
// CNP a receiver sends back as a control frame) or by a switch port
// (FrameHops). Feedback kept out of band is not a frame and counts nothing.
func (s *Packet) Transmissions() uint64 { return s.released + s.FrameHops() }

// Run advances to the end of the run.
func (s *Packet) Run() { s.Advance(s.cfg.Duration) }

// Advance runs every event up to time until (or the end of the run).
func (s *Packet) Advance(until algos.Time) { s.advance(until, math.MaxUint64) }

// AdvanceBounded is Advance that returns early, between two events, once
// it has handled about maxEvents (at least one; a frame's arrival may
// release a few more at its host): Now is then the time of the last event
// handled, and the next call goes on where this one stopped, with the
// same numbers as one Advance. A caller that must look at something at
// bounded work, such as a context, calls it until Now reaches until: a
// step of simulated time can hold millions of events on a large fabric.
func (s *Packet) AdvanceBounded(until algos.Time, maxEvents uint64) {
	stop := uint64(math.MaxUint64)
	if maxEvents < stop-s.events {
		stop = s.events + max(maxEvents, 1)
	}
	s.advance(until, stop)
}

// advance runs every event up to time until (or the end of the run), each
// kind by its own case: the life of a frame (life.go), the messages back
// (feedback.go), the rate limiters' timers (host.go), short flows, PFC
// (pfc.go), and the timeline (phases.go); it stops early when the events
// handled reach stop.
func (s *Packet) advance(until algos.Time, stop uint64) {
	if s.done {
		return
	}
	end := min(until, s.cfg.Duration)
	for {
		if s.events >= stop {
			return // between two events: the rest at this time come next call
		}
		ev := s.agenda.next(end)
		if ev == nil {
			break
		}
		s.now = ev.at
		if s.lookahead {
			s.prefetchAhead()
		}
		if ev.kind == evHostFrame { // most events: kept out of the jump table
			s.hostFrameArrives(&s.hosts[ev.host])
			continue
		}
		switch ev.kind {
		case evHostFrame:
			s.hostFrameArrives(&s.hosts[ev.host])
		case evLinkFrame:
			s.linkFrameArrives(ev.port)
		case evDepart:
			s.serviceEnds(ev.port)
		case evReceiveFrame:
			s.receiveFrame(ev.port)
		case evFeedback, evNotification:
			s.feedbackArrives(ev.limiter, ev.msg, ev.kind)
		case evTimer:
			if l := s.lims[ev.limiter]; ev.gen == l.tgen { // still current
				s.expire(l)
			}
		case evFlowArrival:
			s.flowArrival()
		case evPauseHost:
			s.pauseHost(ev.host, ev.class, ev.on)
		case evPausePort:
			s.pausePort(ev.port, ev.class, ev.on)
		case evXonCheck:
			s.xonCheck(ev.port, ev.gen)
		case evIngressXonCheck:
			s.ingressXonCheck(ev.port, ev.gen)
		case evControlFrame:
			s.injectControl(ev.limiter, ev.msg)
		case evDeadlockCheck:
			if s.deadlockCheck(ev.port, ev.gen); s.deadlock != nil {
				end = s.now // the run stops here
			}
		case evMilestone:
			s.milestone(ev.at)
		case evSample:
			s.takeSample(ev.at)
		}
		if ev.kind == evSample && s.drain && s.drained() {
			s.cfg.Duration, end = s.now, s.now // every flow is over: the run ends here
			break
		}
	}
	s.now = end
	for j, p := range s.ports {
		s.events += uint64(s.serve(p, int32(j), end))
	}
	if end == s.cfg.Duration || s.deadlock != nil {
		for i := range s.hosts {
			s.catchUp(&s.hosts[i], end)
		}
		s.flushFlows()
		s.done = true
	}
}

// expire runs limiter l's reaction-point timer when its event comes.
func (s *Packet) expire(l *limiter) {
	l.timerAt = algos.Never
	h := &s.hosts[l.host]
	s.runLocal(h, s.now)
	s.syncTimers(h)
	s.syncArrival(h)
}

// delivery is what a frame leaving the network at its last port reads of
// its flow (serve): beside the bytes counted there, whether the flow has a
// size, which its frames' queue entries no longer carry.
type delivery struct {
	bytes int64 // bytes that left the network (counted per frame)
	sized bool  // its flow has a size (flows.go)
}

// paceOf is how the streams of topology t are keyed, frames of frameBytes
// on its links: a stream's first key lands from the shortest link's delay
// to the longest's and a frame's time on the slowest link ahead of the
// event that sets it, and each next one a frame's time after the last (a
// link's frames arrive back to back), the least on the fastest link: the
// soonest is the shorter of the two. Without the frames' time, links of
// 1 ms gave 31 us spans, and every frame's key landed in the span being
// handled: a k = 14 fat-tree ran in 1.23 times the tree's time (four
// pairs).
func paceOf(t *topo.Topology, frameBytes int) streamPace {
	slowest, fastest, soonest, longest := math.Inf(1), 0.0, algos.Never, algos.Time(0)
	for _, p := range t.Ports {
		slowest, fastest = min(slowest, p.Capacity), max(fastest, p.Capacity)
		soonest, longest = min(soonest, p.Delay), max(longest, p.Delay)
	}
	frame := algos.TransmitTime(frameBytes, max(slowest, 1))
	soonest = min(soonest, algos.TransmitTime(frameBytes, max(fastest, 1)))
	return streamPace{soonest: soonest, reach: longest + frame}
}
