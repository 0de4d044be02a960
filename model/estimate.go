package model

import (
	"cmp"
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
	// and PFC's feeder lists), the ports' records, queues and histograms
	// at the most they may hold, the flows' limiters and what is in flight
	// to them, and the short flows alive; the frames' events, the
	// samples', the short flows'.
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
// every queue holds, at once, the most its flows can bring it, up to its
// buffer (queueBounds), so it errs high on memory; TestEstimate holds it
// within a factor of the heap measured on a few runs. A config
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
	cpBytes, rpBytes, npBytes, telemetry := schemeSizes(&cfg, n)
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

	// Ports: what each holds whatever its traffic, and what grows with
	// the frames it holds (Layout): its ring's records (those queued and
	// those on the wire) and its queue's histogram, up to the most it may
	// queue (queueBounds).
	queues := queueBounds(&cfg, n)
	layout := memoryLayout(&cfg, bounds, cpBytes)
	for j, tp := range n.ports {
		c.BufferMemory += layout.PortBytes
		if queues[j] == 0 {
			continue // no frame crosses it: its rings are never made
		}
		p := t.Ports[tp]
		wire := p.Delay.Seconds() * p.Capacity / frameBits
		held := queues[j] + wire + 2
		c.BufferMemory += layout.FrameBytes * max(held, ringMin)
		if held > ringMin { // rings that grow leave their first slots behind (startRings): a port whose frames go both ways has two
			slabs := float64(bits.OnesCount8(n.streams(j)))
			c.BufferMemory += slabs * ringMin * float64(unsafe.Sizeof(frame{}))
		}
	}
	// Hosts: the record and the frames on their links.
	for h := range t.Hosts {
		nic := t.Ports[t.NIC(h)]
		inFlight := nic.Delay.Seconds()*nic.Capacity/frameBits + 2
		c.NetworkMemory += float64(unsafe.Sizeof(host{})) + layout.FlightBytes*inFlight + 8*bounds
	}
	// Flows: the limiter, its RP (and NP), route, loop statistics, the
	// feedback in flight to it (a message per frame of its loop at worst),
	// its rate history, its marks and its summary at every boundary.
	window := math.Ceil(float64(cfg.RateWindow) / float64(max(cfg.SampleInterval, 1)))
	loop := cfg.Network().MaxLoopDelay.Seconds()
	// A flow sends at most its line rate, and the schemes keep each port's
	// load near its capacity: count offeredFactor times its share of each
	// port it crosses (its ECMP path if sprayed). Sources no scheme slows
	// send at their line rate unless PFC pauses them, dropped or not.
	const offeredFactor = 2
	unslowed := cfg.Scheme.Uncontrolled
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
	paced := pausedShare(&cfg, n, routes, queues, unslowed)
	for i, f := range n.flows {
		c.FlowMemory += limiterBytes(f.hops, rpBytes, npBytes, &cfg) + 8*2*window +
			(float64(unsafe.Sizeof(sourceMark{}))+float64(unsafe.Sizeof(SourceSummary{}))+64)*bounds
		c.FlowMemory += float64(unsafe.Sizeof(message{})+unsafe.Sizeof(event{})) * loop * f.lineRate / frameBits / 8
		if cfg.transportOn() {
			// A transport's ACK for every frame of its loop: a message
			// and an entry in its limiter's ring (twice over: rings double).
			c.FlowMemory += float64(unsafe.Sizeof(message{})+2*unsafe.Sizeof(ackMsg{})) * loop * f.lineRate / frameBits
		}
		if telemetry { // its telemetry ring, by its path's bandwidth-delay product
			c.FlowMemory += flowINTBytes(&cfg, n, f, routes[i])
		}
		rate := f.lineRate
		for _, j := range routes[i] {
			if unslowed { // its clock may run fast
				rate *= (1 + cfg.ClockPPM*1e-6) * paced[i]
				break
			}
			rate = math.Min(rate, offeredFactor*t.Ports[n.ports[j]].Capacity/crossing[j])
		}
		frames, perFrame := rate/frameBits*dur, float64(1+2*f.hops)
		if sent := math.Ceil(float64(f.size)/frameB) + 1; f.size > 0 && !resends(&cfg) && sent < frames {
			// A flow of a given size sends its frames and stops: no
			// slack of a rate below the line's, so each frame counts
			// the feedback it may draw too.
			frames, perFrame = sent, perFrame+1
		}
		if cfg.transportOn() {
			// A transport's receiver takes each frame in (an event),
			// and its ACK (or NACK) lands at the sender; as a control
			// frame it enters and leaves each port of the route back
			// too, which has as many as the route.
			perFrame += 2
			if cfg.ControlFrames && len(f.route) > 0 {
				perFrame += float64(2 * f.hops)
			}
		}
		c.FrameEvents += frames * perFrame
	}
	// The agenda: a slot per stream, a timer per flow.
	c.NetworkMemory += agendaEstimate(len(t.Hosts), len(n.ports))
	c.FlowMemory += float64(unsafe.Sizeof(event{})) * float64(len(n.flows)) * ringCopies

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

// pausedShare is, per flow of sources no scheme slows, the most of its
// line rate it sends on average over the run: 1 unless PFC pauses every
// class (frames are then never dropped, and a source sends only what its
// route delivers or holds). The flows that end at one port, down to their
// receiver, send together at most what it serves over the run and what the
// queues and links on their routes hold at once (queueBounds, every
// switch's with spraying); with large buffers that is their line
// rate (they fill the buffers on their way), with small ones their share
// of the port.
func pausedShare(cfg *Config, n *network, routes [][]int32, queues []float64, unslowed bool) []float64 {
	share := make([]float64, len(n.flows))
	for i := range share {
		share[i] = 1
	}
	if !unslowed || cfg.PFC == nil || cfg.PFC.Lossless != 0 || len(cfg.Changes) > 0 {
		return share
	}
	frameBits := 8 * float64(cfg.FrameBytes)
	dur := cfg.Duration.Seconds()
	fast := 1 + cfg.ClockPPM*1e-6
	allHeld := 0.0 // every port's queue and wire, and every host's link
	for j, q := range queues {
		p := n.topo.Ports[n.ports[j]]
		allHeld += q + p.Delay.Seconds()*p.Capacity/frameBits + 1
	}
	for h := range n.topo.Hosts {
		nic := n.topo.Ports[n.topo.NIC(h)]
		allHeld += nic.Delay.Seconds()*nic.Capacity*fast/frameBits + 2
	}
	type group struct {
		line, held, share float64
		ports             map[int32]bool
	}
	groups := map[int32]*group{}
	for i, f := range n.flows {
		r := routes[i]
		if len(r) == 0 {
			return share // a flow without a route: no bound but its line rate
		}
		last := r[len(r)-1]
		g := groups[last]
		if g == nil {
			g = &group{ports: map[int32]bool{}}
			groups[last] = g
		}
		nic := n.topo.Ports[n.topo.NIC(f.host)]
		g.line += f.lineRate * fast * dur / frameBits
		g.held += nic.Delay.Seconds()*nic.Capacity*fast/frameBits + 2 // on its host's link, and in hand
		for _, j := range r {
			if !g.ports[j] {
				g.ports[j] = true
				p := n.topo.Ports[n.ports[j]]
				g.held += queues[j] + p.Delay.Seconds()*p.Capacity/frameBits + 1 // queued and on the wire
			}
		}
	}
	for last, g := range groups {
		if n.spray || n.chain {
			g.held = allHeld
		}
		served := n.topo.Ports[n.ports[last]].Capacity*dur/frameBits + 1
		g.share = math.Min(1, (served+g.held)/g.line)
	}
	for i := range n.flows {
		share[i] = groups[routes[i][len(routes[i])-1]].share
	}
	return share
}

// ringMin is the least a ring holds once used (ring.grow), and the slots
// a port's queue and link start with (startRings). Four: three ports in
// four of a fat-tree permutation never hold more (k = 8 to 24), and a
// ring cycles through all its slots, so that on a fabric larger than
// the caches every slot is in the working set: 16 took a k = 16 run
// 1.2 times the time, with 1.4 times the misses past a 4 MB cache.
const ringMin = 4

// Layout is what the packet engine's memory is made of, in bytes: what
// Estimate counts per switch port and per frame.
type Layout struct {
	// PortBytes is a switch port whatever it holds: its record, its
	// congestion point, its counters at every boundary and its summary.
	PortBytes float64
	// FrameBytes is each frame a port may hold at once, queued or on its
	// link: a port's rings grow to the most frames it held (by doubling:
	// up to twice that, and a ring that grows keeps its first ringMin slots,
	// which Estimate counts apart) and never shrink, so a frame counts twice its
	// record, in link or exits (held while it is queued, then on the
	// wire), and its byte in the queue's order where the port keeps it;
	// with ingress PFC the link it came in by; with a notification point
	// its record on the way to its receiver; with classes its entry and
	// record in its class's rings; and its queue histogram's bin (grown
	// by doubling too), kept at every boundary, live and in the summary.
	FrameBytes float64
	// FlightBytes is each frame on a host's link.
	FlightBytes float64
}

// MemoryLayout is the layout of a packet-level run of cfg, its scheme's
// congestion point measured (the README's table of bytes per port and
// per frame).
func MemoryLayout(cfg Config) Layout {
	if cfg.validate() != nil {
		return Layout{}
	}
	n, err := cfg.network()
	if err != nil {
		return Layout{}
	}
	cp, _, _, _ := schemeSizes(&cfg, n)
	return memoryLayout(&cfg, float64(len(cfg.Phases)+2), cp)
}

// memoryLayout is the layout with bounds boundaries (the warm-up's, the
// phases', the run's) and a congestion point of cpBytes.
func memoryLayout(cfg *Config, bounds, cpBytes float64) Layout {
	const ringCopies = 1.5 // a host's ring is a power of two: on average 1.5 times what it holds
	l := Layout{FlightBytes: ringCopies * float64(unsafe.Sizeof(frame{}))}
	l.PortBytes = float64(unsafe.Sizeof(port{})) + cpBytes +
		bounds*float64(unsafe.Sizeof(portMark{})+unsafe.Sizeof(BottleneckSummary{})+64)
	record := float64(unsafe.Sizeof(frame{}))
	if f := cfg.Fabric; f != nil && f.Routing == Spray && f.Topology != nil && !f.Topology.Routes().EvenDelays() {
		record += 8 // its propagation, in a lane beside its ring (propLanes)
	}
	b := record + 1 // and its byte in the queue's order, where the port keeps it
	if cfg.PFC != nil {
		b += 4 + record
	}
	if cfg.Scheme.NewNP != nil {
		b += record
	}
	hist := 8 * (bounds + 2)
	if k := cfg.classCount(); k > 1 {
		// Each class has its queue, its congestion point, its counters
		// and histogram; a waiting frame is in its class's rings (an
		// entry and a record) and bins as well as the port's.
		l.PortBytes += float64(k) * (float64(unsafe.Sizeof(classQueue{})) + cpBytes + bounds*float64(unsafe.Sizeof(classMark{})+64))
		b = 2*b + float64(unsafe.Sizeof(queued{}))
		hist *= 2
	}
	if k := cfg.classCount(); k > 1 || cfg.Shared != nil || cfg.ControlFrames {
		// The class set, and with one class its queue: a shared buffer
		// and control frames make every port a port of classes
		// (startClasses); control frames have a queue of their own
		// beside them (newControlQueue), whose frames are few, served
		// first and never paused.
		l.PortBytes += float64(unsafe.Sizeof(classSet{})) + 16
		if k == 1 {
			l.PortBytes += float64(unsafe.Sizeof(classQueue{})) + bounds*float64(unsafe.Sizeof(classMark{})+64)
		}
		if cfg.ControlFrames {
			l.PortBytes += float64(unsafe.Sizeof(classQueue{})) + 16
		}
	}
	l.FrameBytes = 2*b + 2*hist
	return l
}

// queueBounds is, per simulated port, the most frames its queues may hold
// at once over the run: what its switch admits (queueLimits), or less
// where its flows cannot fill it, 0 where no frame crosses it.
// A flow sends at most its host's line rate (its clock may run fast), and
// frames reach a port over each link into its switch at most at that
// link's capacity, give or take the switch's forwarding jitter: where the
// flows routed through a port come in at no more than its capacity, its
// queue stays within a few frames; where they bring more, it grows by at
// most the excess over the run; and it never holds more than its flows
// send (unless a transport resends its losses). Under PFC a port that
// leads to a switch may be paused, and serve nothing for as long as it
// lasts: it grows by all its inputs bring, and still holds no more than
// its flows send; one that leads to a host is never paused. Capacity
// changes leave only what sized flows send; spraying and short flows
// (routes not known at the start) leave a port what it admits.
func queueBounds(cfg *Config, n *network) []float64 {
	t := n.topo
	frameBits := 8 * float64(cfg.FrameBytes)
	dur := cfg.Duration.Seconds()
	limit := queueLimits(cfg, n)
	if n.chain || n.spray || (cfg.Fabric.Short != nil && cfg.Fabric.Short.Rate > 0) {
		return limit
	}
	q := make([]float64, len(n.ports))
	changes := len(cfg.Changes) > 0 // a link's capacity is no bound on what crosses it later
	// For every port, the links its flows come in by (the previous port of
	// their route, or their host's NIC as -1-host) and the bits each may
	// bring in a second and over the run.
	type input struct {
		port, from int32
		rate, bits float64
	}
	var ins []input
	fast := 1 + cfg.ClockPPM*1e-6
	ctl := controlPerFrame(cfg)
	// Control frames back (a data frame's ACK, CNP or feedback) cross the
	// reverse of each port of its route but the last, then the port down to
	// its sender's host: per port, the data whose control frames it
	// carries, at most what crosses the data's port (its capacity).
	type back struct{ rate, bits, link float64 }
	var backs []back
	if ctl > 0 {
		backs = make([]back, len(n.ports))
	}
	for _, f := range n.flows {
		sent := f.lineRate * fast * dur
		if changes {
			sent = math.Inf(1)
		}
		if f.size > 0 && !resends(cfg) {
			sent = math.Min(sent, 8*float64(f.size+int64(cfg.FrameBytes)))
		}
		from := int32(-1 - f.host)
		for k, j := range f.route {
			ins = append(ins, input{port: j, from: from, rate: f.lineRate * fast, bits: sent})
			from = j
			if backs == nil {
				continue
			}
			var p int32
			var b *back
			if k < len(f.route)-1 {
				p = n.portOf[n.ports[j]^1]
				b = &backs[p]
				b.link = t.Ports[n.ports[j]].Capacity
			} else {
				p = n.portOf[t.NIC(f.host)^1]
				b = &backs[p]
				b.link = t.Ports[t.NIC(f.host)].Capacity * fast
			}
			if b.rate == 0 && b.bits == 0 {
				ins = append(ins, input{port: p, from: controlInput}) // so that p is bounded, its control frames counted
			}
			b.rate += f.lineRate * fast
			b.bits += sent + 8*float64(cfg.FrameBytes) // and a short last frame
		}
	}
	slices.SortFunc(ins, func(a, b input) int { return cmp.Or(cmp.Compare(a.port, b.port), cmp.Compare(a.from, b.from)) })
	jitter := cfg.SwitchJitter.Seconds()
	const ctlBits = 8 * ControlBytes
	for i := 0; i < len(ins); {
		j := ins[i].port
		capacity := t.Ports[n.ports[j]].Capacity
		drain := capacity
		if cfg.PFC != nil && n.streams(int(j))&streamOnward != 0 {
			drain = 0 // paused by the switch it leads to, it may serve nothing (a host pauses no one)
		}
		inflow, bits, burst, ctlFrames, ctlHeld := 0.0, 0.0, 0.0, 0.0, 0.0
		for i < len(ins) && ins[i].port == j {
			from, rate := ins[i].from, 0.0
			if from == controlInput {
				// Control frames are served first and never paused, one a
				// data frame (or more: controlPerFrame) of the data they
				// answer, each a record in the port's rings. Sources no
				// scheme slows keep sending at their line rate: the
				// control frames' share of the port's capacity is taken
				// from its data, which falls behind over the whole run
				// (ACKs of 64 B for 1,500 B frames: 4%). Other schemes'
				// sources answer the queue that builds (ACK-clocked ones
				// send as their ACKs return), as they do at a port loaded
				// to its capacity.
				b := backs[j]
				frames := ctl * math.Min(b.rate, b.link) / frameBits
				if cfg.Scheme.Uncontrolled {
					drain = math.Max(0, drain-frames*ctlBits)
				}
				ctlFrames = ctl * b.bits / frameBits
				ctlHeld = 2 + jitter*frames // beyond what the buffer admits: never dropped
				burst += ctlHeld
				i++
				continue
			}
			var link float64
			if from >= 0 {
				link = t.Ports[n.ports[from]].Capacity
			} else {
				link = t.Ports[t.NIC(int(-1-from))].Capacity * fast
			}
			for ; i < len(ins) && ins[i].port == j && ins[i].from == from; i++ {
				rate += ins[i].rate
				bits += ins[i].bits
			}
			inflow += math.Min(rate, link)
			burst += 2 + jitter*link/frameBits // frames bunched by the jitter, and the one in hand
		}
		grown := burst + math.Max(0, inflow-drain)*dur/frameBits
		if changes {
			grown = math.Inf(1)
		}
		q[j] = math.Min(limit[j]+ctlHeld, math.Min(bits/frameBits+ctlFrames+1, grown))
	}
	return q
}

// controlInput marks a port's input of control frames in queueBounds:
// below every host's NIC and port.
const controlInput = math.MinInt32

// controlPerFrame is the most control frames a data frame may draw back
// as frames of ControlBytes: none unless they are sent as frames; a
// transport's ACK or NACK (one a frame received at most), a notification
// point's CNP and, for the schemes fed back by their switches, a
// congestion point's feedback, each at most one a frame.
func controlPerFrame(cfg *Config) float64 {
	if !cfg.ControlFrames || cfg.Scheme == nil {
		return 0
	}
	k := 0.0
	if cfg.transportOn() {
		k++
	}
	if cfg.Scheme.NewNP != nil {
		k++
	} else if !cfg.Scheme.Uncontrolled && !cfg.Scheme.NeedsTransport() {
		k++
	}
	return k
}

// queueLimits is, per simulated port, the most frames its queues may hold
// by what its switch admits, in frames of FrameBytes: each class's queue
// (one without classes) holds up to its port's buffer; with PFC's dynamic
// thresholds the ports of a switch share their buffers, and each may hold
// all of them (startIngressPFC); in a shared buffer (switchBuffer.take) a
// lossless class's queue may hold the whole switch's buffer, and a lossy
// one its reserve and, beyond it, alpha / (1 + alpha) of the shared part
// (and a frame: the threshold is checked against the space free before the
// frame). Queues that fill in turn each keep their rings, so a port counts
// every class's most, and a switch every port's, not the switch's buffer
// once.
func queueLimits(cfg *Config, n *network) []float64 {
	t := n.topo
	k := cfg.classCount()
	frame := float64(cfg.FrameBytes)
	out := make([]float64, len(n.ports))
	var switchBytes []float64 // by node: the buffer a port's queues share
	if cfg.Shared != nil || cfg.PFC != nil && cfg.PFC.Dynamic {
		switchBytes = make([]float64, len(t.Nodes))
		for j, tp := range n.ports {
			switchBytes[n.portNode(int32(j))] += float64(t.Ports[tp].Buffer)
		}
	}
	var queues []float64 // by node: its queues (port, class), for a shared buffer's reserves
	if sh := cfg.Shared; sh != nil {
		queues = make([]float64, len(t.Nodes))
		for j := range n.ports {
			node := n.portNode(int32(j))
			queues[node] += float64(k)
			if sh.Switch > 0 {
				switchBytes[node] = float64(sh.Switch)
			}
		}
	}
	for j, tp := range n.ports {
		node := n.portNode(int32(j))
		bytes := float64(k) * float64(t.Ports[tp].Buffer)
		switch sh := cfg.Shared; {
		case sh != nil:
			size := switchBytes[node]
			shared := size - queues[node]*float64(sh.Reserve)
			lossy := math.Min(size, float64(sh.Reserve)+sh.Alpha*(shared+frame)/(1+sh.Alpha))
			bytes = 0
			for c := range k {
				if cfg.PFC != nil && (cfg.PFC.Lossless == 0 || cfg.PFC.Lossless&(1<<c) != 0) {
					bytes += size
				} else {
					bytes += lossy
				}
			}
		case switchBytes != nil: // PFC's dynamic thresholds
			bytes = float64(k) * switchBytes[node]
		}
		out[j] = bytes / frame
	}
	return out
}

// resends says whether a flow may send more than its size: a transport
// that recovers losses sends some frames again.
func resends(cfg *Config) bool {
	return cfg.transportOn() && cfg.Transport.Recovery != RecoveryNone
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

// limiterBytes is a rate limiter's memory with its reaction point, route
// and propagation to each hop (propTo).
func limiterBytes(hops int, rpBytes, npBytes float64, cfg *Config) float64 {
	b := float64(unsafe.Sizeof(limiter{})) + rpBytes + 4*float64(hops) + 8*float64(hops+1) + float64(unsafe.Sizeof(loopStats{})) + 16
	if cfg.Scheme.NewNP != nil {
		b += npBytes
	}
	if !cfg.FeedbackLatency.IsFixed() {
		b += float64(unsafe.Sizeof(feedbackPath{})) + 8*float64(hops+1) + 80 // and its generator
	}
	return b
}

// schemeSizes measures the scheme's congestion, reaction and notification
// points: one of each, built for the run's network, their structs' sizes
// and those of the structs they point to (one level down), an
// allocation's overhead each and a generator. Telemetry says its senders
// keep a telemetry ring, which each flow sizes by its path (flowINTBytes).
func schemeSizes(cfg *Config, n *network) (cp, rp, np float64, telemetry bool) {
	netw := cfg.networkOf(n)
	r := rand.New(rand.NewPCG(1, 1))
	size := func(x any) float64 {
		v := reflect.ValueOf(x)
		if v.Kind() != reflect.Pointer {
			return float64(v.Type().Size())
		}
		n := float64(v.Elem().Type().Size()) + 16
		// And the structs it points to, one level down: QCN's congestion
		// point keeps its sampler's state apart, most schemes a generator.
		if e := v.Elem(); e.Kind() == reflect.Struct {
			for i := range e.NumField() {
				if f := e.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.Struct {
					n += float64(f.Elem().Type().Size()) + 16
				}
			}
		}
		return n
	}
	c := cfg.Scheme.NewCP(algos.CPEnv{Network: netw, CPID: 1, Capacity: netw.Capacity, Buffer: netw.Buffer, Rand: r}, cfg.Params)
	switch {
	case cfg.rateTransport(): // a reaction point and a transport around it (transport.go)
		rp = size(cfg.Scheme.NewRP(algos.RPEnv{Network: netw, LineRate: netw.LineRate, InitialRate: netw.LineRate, Rand: r}, cfg.Params)) + 64 +
			float64(unsafe.Sizeof(transport{})) + 2*64
	case cfg.transportOn(): // a Sender and its transport (transport.go)
		snd := cfg.Scheme.NewSender(algos.SenderEnv{Network: netw, LineRate: netw.LineRate, BaseRTT: netw.MaxLoopDelay, Hops: 1, Rand: r}, cfg.Params)
		rp = size(snd) + float64(unsafe.Sizeof(transport{})) + 2*64 + 80
		_, telemetry = snd.(algos.TelemetrySender)
	default:
		rp = size(cfg.Scheme.NewRP(algos.RPEnv{Network: netw, LineRate: netw.LineRate, InitialRate: netw.LineRate, Rand: r}, cfg.Params)) + 64
	}
	if cfg.Scheme.NewNP != nil {
		np = size(cfg.Scheme.NewNP(algos.NPEnv{Network: netw, Rand: r}, cfg.Params)) + 64
	}
	return size(c) + 64, rp, np, telemetry
}

// flowINTBytes is the telemetry ring of flow f on route, as newTransport
// sizes it: frames by its path's bandwidth-delay product, each a stamp a
// hop.
func flowINTBytes(cfg *Config, n *network, f flowSpec, route []int32) float64 {
	base, _ := n.pathRTT(cfg.FrameBytes, f.host, f.lineRate, route)
	frames := intRingFrames(f.lineRate, base, cfg.FrameBytes)
	return float64(frames*min(f.hops, maxINTHops)) * float64(unsafe.Sizeof(algos.Hop{}))
}

// estimateSlack is how far above a run's needs Estimate may be (TestEstimate).
const estimateSlack = 4
