package model

import (
	"fmt"
	"math/rand/v2"

	"qcnlab/algos"
)

// Random stream ids: every CP and RP draws from its own generator made from
// the experiment seed and its stream, so adding a source does not change the
// numbers another one sees.
const (
	streamCP = 1 << 32
	streamRP = 2 << 32
)

// Packet is the packet-level simulation: N sources, a chain of congestible
// switch ports each with its congestion point (one for the dumbbell, several
// for a parking lot), and receivers.
type Packet struct {
	cfg Config
	now algos.Time
	// Frame arrivals, one per source, are a tournament tree; the rare
	// events (feedback, timers) a heap. Both draw their tie-breaking
	// sequence numbers from seq.
	arrivals arrivalTree
	rare     eventHeap
	seq      uint64
	sources  []source // by value, for locality; never resized after NewPacket
	ports    []*port
	links    []ring[hop]  // links[j]: frames leaving port j for port j+1
	delays   []algos.Time // delays[j]: propagation from port j to port j+1
	events   uint64       // discrete events handled: emissions, arrivals, departures, feedback, timers
	frame    algos.Frame  // scratch for the congestion point: no allocation per frame
	fb       algos.Feedback
	done     bool

	nextSample algos.Time
	timeline   // capacity changes, the window's and phases' boundaries
	sample     Sample
	arrived    []float64 // per source, bytes that reached the bottleneck: the sampler's input
	rates      rateSampler

	short *shortFlows // nil unless Config.Traffic is set

	pausedMarks [][]algos.Time // PFC: [boundary][source] time paused (pfc.go)
}

// NewPacket builds a packet-level simulation at time zero.
func NewPacket(cfg Config) (*Packet, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	net := cfg.Network()
	n := len(cfg.Sources)
	s := &Packet{
		cfg:        cfg,
		nextSample: cfg.SampleInterval,
		arrived:    make([]float64, n),
		rates:      newRateSampler(&cfg),
	}
	links := cfg.links()
	for j, l := range links {
		cp := cfg.Scheme.NewCP(algos.CPEnv{
			Network: net, CPID: j + 1, Capacity: l.Capacity, Buffer: float64(l.Buffer),
			Rand: rand.New(rand.NewPCG(cfg.Seed, streamCP+uint64(j))),
		}, cfg.Params)
		s.ports = append(s.ports, newPort(fmt.Sprintf("sw%d", j), l.Capacity, l.Buffer, cfg.FrameBytes, cp, n))
	}
	s.links = make([]ring[hop], len(links))
	for _, l := range links {
		s.delays = append(s.delays, l.Delay)
	}
	// The tree's leaves: one per source, then one per link between ports.
	s.arrivals, s.rare.seq = newArrivalTree(n+len(links), &s.seq), &s.seq
	s.sample = Sample{Queues: make([]int, len(links)), Rates: make([]float64, n), CurrentRates: make([]float64, n),
		Capacity: make([]float64, len(links))}
	for i, sc := range cfg.Sources {
		rp := cfg.Scheme.NewRP(algos.RPEnv{
			Network: net, LineRate: sc.LineRate, InitialRate: sc.InitialRate, Start: sc.Start,
			Rand: rand.New(rand.NewPCG(cfg.Seed, streamRP+uint64(i))),
		}, cfg.Params)
		path := sc.path()
		fbDelay := make([]algos.Time, len(path))
		for pos := range path {
			fbDelay[pos] = sc.BackwardDelay + cfg.hopDelay(path, pos)
		}
		s.sources = append(s.sources, source{
			id: i, rp: rp, lineRate: sc.LineRate, path: path, first: s.ports[path[0]], fbDelay: fbDelay,
			fwd: sc.ForwardDelay, bwd: sc.BackwardDelay,
			serial:     algos.TransmitTime(cfg.FrameBytes, sc.LineRate),
			nextSerial: algos.TransmitTime(cfg.FrameBytes, sc.LineRate),
			start:      sc.Start, stop: sc.Stop,
			frameBits: float64(cfg.FrameBytes) * 8,
			mark:      sc.Start,
			arrivalAt: algos.Never, timerAt: algos.Never,
			feedback: make([]ring[algos.Feedback], len(path)),
		})
	}
	if cfg.Traffic != nil {
		s.startTraffic()
	}
	if cfg.PFC != nil {
		if err := s.startPFC(); err != nil {
			return nil, err
		}
	}
	for i := range s.sources {
		src := &s.sources[i]
		// A source that starts at its initial rate has its first frame
		// ready at once, as a source starting at line rate would.
		src.credit = src.frameBits
		src.rate = -1 // so that readRP sets it
		s.readRP(src, src.start)
		s.syncTimer(src)
		s.syncArrival(src)
	}
	s.initTimeline()
	return s, nil
}

// Now is the simulated time the run has reached.
func (s *Packet) Now() algos.Time { return s.now }

// Done reports whether the run has reached its duration.
func (s *Packet) Done() bool { return s.done }

// Events is the number of discrete events handled so far.
func (s *Packet) Events() uint64 { return s.events }

// Frames is the number of frames that have left the network: their path's
// last bottleneck.
func (s *Packet) Frames() uint64 {
	var n uint64
	for _, p := range s.ports {
		n += p.exits
	}
	return n
}

// Run advances to the end of the run.
func (s *Packet) Run() { s.Advance(s.cfg.Duration) }

// Advance runs every event up to time until (or the end of the run).
func (s *Packet) Advance(until algos.Time) {
	if s.done {
		return
	}
	end := min(until, s.cfg.Duration)
	for {
		ev := s.arrivals.top()
		fromRare := s.rare.len() > 0 && s.rare.peek().before(&ev)
		if fromRare {
			ev = *s.rare.peek()
		}
		next := ev.at
		for s.nextTick <= end && s.nextTick <= next {
			s.tick()
		}
		if next > end {
			break
		}
		if fromRare {
			ev = s.rare.take()
		}
		s.now = ev.at
		n := int32(len(s.sources))
		switch {
		case ev.kind == evArrival && ev.src >= n: // leaves past the sources are links
			s.hop(int(ev.src - n))
		case ev.kind == evArrival:
			s.arrival(&s.sources[ev.src])
		case ev.kind == evFeedback:
			s.deliverFeedback(&s.sources[ev.src], int(ev.gen))
		case ev.kind == evFlow:
			s.flowArrival()
		case ev.kind == evPause:
			s.pauseArrives(ev.src, ev.gen == 1)
		case ev.kind == evXon:
			s.xonCheck(int(ev.src), ev.gen)
		case ev.gen == s.sources[ev.src].tgen: // a timer event still current
			s.expire(&s.sources[ev.src])
		}
	}
	s.now = end
	for _, p := range s.ports {
		s.events += uint64(p.advance(end))
	}
	if end == s.cfg.Duration {
		for i := range s.sources {
			s.catchUp(&s.sources[i], end)
		}
		s.done = true
	}
}

// expire runs src's reaction-point timer when its event comes.
func (s *Packet) expire(src *source) {
	src.timerAt = algos.Never
	s.runLocal(src, s.now)
	s.syncTimer(src)
	s.syncArrival(src)
}

// arrival delivers the next frame of src to the first port of its path.
func (s *Packet) arrival(src *source) {
	s.catchUp(src, s.now)
	src.arrivalAt = -1 // consumed: syncArrival must set the next one
	f := src.inflight.pop()
	src.arrived += int64(f.bytes)
	s.enter(src, src.first, &f, 0)
	s.syncTimer(src)
	s.syncArrival(src)
}

// hop delivers the next frame on the link out of port j to port j+1.
func (s *Packet) hop(j int) {
	h := s.links[j].pop()
	s.syncLink(j)
	src := &s.sources[h.src]
	s.enter(src, s.ports[src.path[h.pos]], &h.flight, h.pos)
}

// enter hands frame f of src to port p, at position pos of its path: the
// port queues or drops it, its congestion point may answer, and a frame with
// more links to cross is sent on toward the next port.
func (s *Packet) enter(src *source, p *port, f *flight, pos int32) {
	s.events += uint64(p.advance(s.now)) + 1
	s.frame = algos.Frame{Source: src.id, Bytes: int(f.bytes), CPID: int(f.cpid), Sent: f.sent}
	if f.cpid < 0 { // a short flow's last frame (traffic.go)
		s.frame.CPID = int(f.cpid &^ flowEnd)
	}
	last := int(pos) == len(src.path)-1
	done, send := p.arrive(s.now, &s.frame, last, &s.fb)
	if f.cpid < 0 {
		s.flowFrameEntered(src, p, f, last, done)
	}
	if p.bytes > p.xoff && !p.pfc.pausing {
		s.startPausing(src.path[pos])
	}
	if send {
		s.sendFeedback(src, pos)
	}
	if !last && done != algos.Never {
		// The port's departures are in order, so the link's are.
		j := src.path[pos]
		next := hop{flight: *f, src: int32(src.id), pos: pos + 1}
		if done == pendingDone { // the port is paused (pfc.go)
			p.pfc.held.push(next)
			return
		}
		next.arrive = done + s.delays[j]
		s.links[j].push(next)
		if s.links[j].len() == 1 {
			s.syncLink(j)
		}
	}
}

// syncLink keeps the link's leaf of the arrival tree at its next arrival.
func (s *Packet) syncLink(j int) {
	at := algos.Never
	if s.links[j].len() > 0 {
		at = s.links[j].front().arrive
	}
	s.arrivals.set(len(s.sources)+j, at)
}

// deliverFeedback hands src the oldest feedback frame in flight from the
// port at position pos of its path.
func (s *Packet) deliverFeedback(src *source, pos int) {
	s.catchUp(src, s.now)
	fb := src.feedback[pos].pop()
	src.feedbacks++
	s.events++
	src.rp.Feedback(s.now, fb)
	s.readRP(src, s.now)
	s.syncTimer(src)
	s.catchUp(src, s.now)
	s.syncTimer(src)
	s.syncArrival(src)
}

// catchUp runs src's own events (frame releases and timer expiries) in time
// order up to t. They change nothing outside the source until its frames
// arrive, so they can run late, as long as they run in order and before
// anything from outside (feedback) reaches the source.
func (s *Packet) catchUp(src *source, t algos.Time) bool {
	// Fast path: between handlers src.timerAt is at or before the RP's timer.
	if src.nextEmit > t && src.timerAt > t {
		return false
	}
	s.runLocal(src, t)
	return true
}

// runLocal is catchUp without the fast path.
func (s *Packet) runLocal(src *source, t algos.Time) {
	for {
		timer := src.rpTimer
		switch {
		case src.nextEmit <= t && src.nextEmit <= timer:
			s.emit(src)
		case timer <= t:
			s.events++
			src.rp.Expire(timer)
			s.readRP(src, timer)
			if src.rpTimer <= timer {
				panic(fmt.Sprintf("model: %s reaction point left its timer at %d after it expired", s.cfg.Scheme.Name, timer))
			}
		default:
			return
		}
	}
}

// emit releases the next frame of src from its rate limiter.
func (s *Packet) emit(src *source) {
	if src.fl != nil {
		s.emitFlow(src)
		return
	}
	e := src.nextEmit
	bytes := s.cfg.FrameBytes
	src.inflight.push(flight{arrive: e + src.serial + src.fwd, sent: e, bytes: int32(bytes), cpid: src.rpCPID})
	src.emitted += int64(bytes)
	s.events++
	src.mark, src.credit = e, 0
	src.schedule()
	if src.rp.Transmit(e, bytes, src.nextEmit == algos.Never) {
		s.readRP(src, e)
	}
}

// readRP picks up the reaction point's rate, timer and CPID after it may
// have changed them at time t.
func (s *Packet) readRP(src *source, t algos.Time) {
	if r := src.clampRate(src.rp.Rate()); r != src.rate {
		src.setRate(t, r)
	}
	src.rpTimer = src.rp.Timer()
	src.rpCPID = int32(src.rp.CPID())
}

// syncTimer makes sure a timer event is scheduled no later than src's
// reaction-point timer. Timers are re-armed on every feedback, almost always
// later than before, so the scheduled event is kept and simply finds the
// deadline moved when it fires: the heap holds about one timer per source.
func (s *Packet) syncTimer(src *source) {
	t := src.rpTimer
	if t >= src.timerAt {
		return
	}
	src.timerAt = t
	src.tgen++
	// A timer armed for the present runs at once, never in the past.
	s.rare.push(event{at: max(t, s.now), src: int32(src.id), gen: src.tgen, kind: evTimer})
}

// syncArrival keeps src's leaf of the arrival tree at its next arrival.
func (s *Packet) syncArrival(src *source) {
	if t := src.nextArrival(); t != src.arrivalAt {
		src.arrivalAt = t
		s.arrivals.set(src.id, t)
	}
}

// takeSample records the time series at t, between events. Rates are
// measured where the congestion point sees them, as bytes arriving at the
// bottleneck over the rate window: every arrival up to t has been handled, so
// they are exact without bringing the sources up to date. The rate limiter's
// own rate is as of the source's last frame, at most one frame gap old.
func (s *Packet) takeSample(t algos.Time) {
	for j, p := range s.ports {
		s.events += uint64(p.advance(t))
		s.sample.Queues[j] = p.bytes
		s.sample.Capacity[j] = p.capacity
	}
	s.sample.Time = t
	for i := range s.sources {
		s.arrived[i] = float64(s.sources[i].arrived)
		s.sample.CurrentRates[i] = s.sources[i].rate
	}
	s.rates.observe(t, s.arrived, s.sample.Rates)
	if s.cfg.OnSample != nil {
		s.cfg.OnSample(&s.sample)
	}
}

// Summary reports the metrics over [warmup, now]: the whole window once the
// run is done, and over each phase begun.
func (s *Packet) Summary() Summary {
	cfg := &s.cfg
	sum := Summary{
		Algorithm:  cfg.Scheme.Name,
		Model:      "packet",
		Seed:       cfg.Seed,
		SimSeconds: s.now.Seconds(),
		Events:     s.events,
		Frames:     s.Frames(),
	}
	sum.Bottlenecks, sum.Sources, sum.JainFairness = s.measure(s.segAt(cfg.Warmup), len(s.bounds), true)
	if s.short != nil {
		sum.Flows = s.short.stats.summary()
	}
	sum.TimeToFairness = s.rates.fair.result()
	sum.Phases = s.phases()
	return sum
}

// QueueTarget is the queue length a scheme aims at (its q_eq or q0
// parameter), or 0 if it has none.
func QueueTarget(v algos.Values) float64 {
	for _, key := range []string{"q_eq", "q0"} {
		if x, ok := v[key]; ok {
			return x
		}
	}
	return 0
}
