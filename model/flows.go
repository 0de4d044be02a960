package model

import "qcnlab/algos"

// A fabric's flow of a given size, static (Fabric.Flows) or short
// (Fabric.Short), has a rate limiter of its own that sends its bytes and
// stops. There is no transport: a frame lost is not sent again. The flow is
// over when every frame it sent has been delivered or dropped: it completed
// if its last frame was delivered, at the latest delivery (frames sprayed
// over several paths may arrive out of order), and is lost if its last
// frame was dropped, as a chain's short flows are (traffic.go). Flow
// completion times and slowdowns go to the summary's flows, by size.

// sizedFlow is the state of a flow of a given size.
type sizedFlow struct {
	id          int64 // FlowRecord.ID
	size, left  int64 // bytes, and bytes not yet released
	start       algos.Time
	ideal       float64    // seconds alone on its path (idealFCT)
	outstanding int        // frames released, neither delivered nor dropped
	last        algos.Time // its latest delivery, at its receiver
	endLost     bool       // its last frame was dropped
	inWindow    bool       // it started in [warmup, duration]: counted in the summary
	incast      bool
	short       bool // a short flow: its limiter is reused once it is over
	over        bool
	paths       []uint32 // sprayed: the distinct paths (hashes) its frames took to its receiver
}

// startSized starts the flow of limiter l.
func (s *Packet) startSized(l *limiter) {
	sz := l.sized
	sz.ideal = s.idealFCT(l, sz.size)
	sz.inWindow = sz.start >= s.cfg.Warmup
	if !sz.short {
		sz.id = int64(l.id) // a [[flows]] entry's index
	}
	s.short.alive++
	if sz.inWindow {
		s.short.stats.start(sz.size)
	}
	if sz.incast {
		s.incast.flows++
		s.incast.start = min(s.incast.start, sz.start)
	}
}

// nextSizedFrame releases limiter l's next frame: a whole frame, or what is
// left.
func (s *Packet) nextSizedFrame(l *limiter) int {
	sz := l.sized
	if tp := l.tp; tp != nil {
		seq, _ := tp.next()
		b := tp.bytesAt(seq)
		sz.left = max(tp.size-max(tp.nxt, seq+int64(b)), 0)
		if !l.recovers() {
			sz.outstanding++
		}
		return b
	}
	b := min(int64(s.cfg.FrameBytes), sz.left)
	sz.left -= b
	sz.outstanding++
	return int(b)
}

// afterSizedFrame holds a limiter whose flow has sent everything, and
// readies the transmission time of its next frame.
func (s *Packet) afterSizedFrame(l *limiter) {
	if l.tp != nil {
		return // the transport settles it (transportSent)
	}
	sz := l.sized
	switch {
	case sz.left == 0:
		l.hold |= holdIdle
	case sz.left < int64(s.cfg.FrameBytes):
		l.nextSerial = algos.TransmitTime(int(sz.left), l.lineRate*l.clock)
	default:
		l.nextSerial = l.serial
	}
}

// sizedDelivered records that a frame of l's flow reached its receiver at.
func (s *Packet) sizedDelivered(l *limiter, at algos.Time) {
	sz := l.sized
	sz.outstanding--
	sz.last = max(sz.last, at)
	s.sizedCheck(l)
}

// frameLost follows a frame f of limiter l dropped at a full buffer: a
// chain's short flow whose last frame it was is lost (traffic.go); a
// fabric's flow of a given size counts it out.
func (s *Packet) frameLost(l *limiter, f *frame) {
	if l.tp != nil {
		l.tp.inNet--
		if l.recovers() { // the transport resends it
			s.transportFree(l)
			return
		}
	}
	if f.flags&frameEnd != 0 {
		s.flowLost(l, f.sent)
	}
	if l.sized != nil {
		s.sizedLost(l, f)
	}
}

// sizedLost counts frame f of l's flow of a given size out: dropped.
func (s *Packet) sizedLost(l *limiter, f *frame) {
	sz := l.sized
	sz.outstanding--
	if f.flags&frameLast != 0 {
		sz.endLost = true
	}
	s.sizedCheck(l)
}

// sizedCheck ends l's flow once every frame it sent is accounted for.
func (s *Packet) sizedCheck(l *limiter) {
	sz := l.sized
	if sz.over || sz.left > 0 || sz.outstanding > 0 || l.recovers() && !l.tp.done {
		return
	}
	sz.over = true
	s.short.alive--
	switch {
	case sz.endLost:
		if sz.inWindow {
			s.short.stats.lost++
		}
		s.emitSized(l, FlowLost)
	case sz.last > s.cfg.Duration:
		s.emitSized(l, FlowUnfinished) // its last byte arrives after the end
	default:
		s.emitSized(l, FlowCompleted)
		if sz.inWindow {
			fct := (sz.last - sz.start).Seconds()
			s.short.stats.complete(sz.size, fct, fct/sz.ideal)
		}
		if sz.incast {
			s.incast.done++
			s.incast.end = max(s.incast.end, sz.last)
		}
	}
	if sz.short {
		if l.tp != nil {
			s.transportFree(l) // once its frames in the network are out
		} else {
			s.freeLimiter(l)
		}
	}
}

// incastState follows the flows of an incast.
type incastState struct {
	flows, done int
	start, end  algos.Time
}

// incastSummary adds the incast's completion to the flows' summary: from
// the first incast flow's start to the last byte of the last one, if all
// completed.
func (s *Packet) incastSummary(sum *Summary) {
	in := &s.incast
	if in.flows == 0 || sum.Flows == nil {
		return
	}
	done := in.done
	sum.Flows.IncastFlows, sum.Flows.IncastCompleted = in.flows, &done
	if in.done == in.flows {
		t := (in.end - in.start).Seconds()
		sum.Flows.IncastCompletion = &t
	}
}

// fabricFlowArrival starts a short flow between two random hosts of a
// fabric, with a rate limiter of its own at its host's line rate.
func (s *Packet) fabricFlowArrival() {
	sf := s.short
	size := sf.sizes.Sample(sf.rng)
	n := len(s.hosts)
	from := sf.rng.IntN(n)
	to := sf.rng.IntN(n - 1)
	if to >= from {
		to++
	}
	nw := s.net
	t := nw.topo
	line := t.Ports[t.NIC(from)].Capacity
	spec := flowSpec{host: from, dst: to, lineRate: line, initialRate: line, start: s.now, stop: algos.Never,
		size: size, hops: nw.routes.Hops(from, to), class: uint8(s.cfg.Fabric.Short.Class)}
	key := s.fabric.keys
	s.fabric.keys++
	if !nw.spray {
		spec.route = nw.route(s.cfg.Seed, from, to, key)
	}
	h := &s.hosts[from]
	s.catchUp(h, s.now) // the host's link serves one more limiter from now on
	l := s.addLimiter(spec, &s.netw)
	l.sized.short = true
	l.sized.id = int64(key)
	if s.hostClassPaused(h, l.class) {
		l.hold |= holdPaused
	}
	s.startSized(l)
	s.startLimiter(l)
}

// freeLimiter takes the limiter of an ended short flow off its host and
// keeps it for the next one: memory stays bounded by the flows alive.
// Messages still on their way to it are dropped when they arrive (epoch),
// its timer's event is stale (tgen). It has sent everything, so its host's
// schedule does not change, and the host is not caught up: this runs as a
// frame leaves a port, maybe while a frame of the same host is on its way
// in (hostFrameArrives), whose record a release would overwrite.
func (s *Packet) freeLimiter(l *limiter) {
	h := &s.hosts[l.host]
	h.removeLimiter(l)
	s.pool.retired[0] += l.emitted
	s.pool.retired[1] += s.delivered[l.id].bytes
	s.retireTransport(l)
	l.emitted, s.delivered[l.id].bytes = 0, 0
	l.epoch++
	l.tgen++
	l.rp, l.np = nil, nil
	s.pool.free = append(s.pool.free, l.id)
}

// limiterPool keeps the limiters of ended short flows (a fabric's, or a
// chain's over the transport) for the next ones.
type limiterPool struct {
	free    []int32
	retired [2]int64 // bytes the short flows of reused limiters released and delivered
	// transport sums, per source, the transport counters of a chain's
	// short flows whose limiters were freed (sourceCounts).
	transport []transportCounts
}
