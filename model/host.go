package model

import (
	"fmt"

	"qcnlab/algos"
)

// host is a NIC: its flows' rate limiters, and its link to its switch,
// which serves the limiters with a frame ready in turn (round robin), at
// line rate, work-conserving. A limiter alone on its host (solo) never
// waits for the link: its rate is at most the line rate, so its frames are
// at least a frame time apart.
//
// A host's own events (frames released, reaction-point timers) change
// nothing outside it until its frames reach the switch, so they run late
// (catchUp), in order, whenever something from outside reaches the host
// or its next frame arrives: the agenda holds one slot per host, keyed by
// that arrival.
type host struct {
	id          int32
	solo        *limiter           // its only limiter, nil if it has none or several
	lims        []*limiter         // its rate limiters, in round-robin order
	inflight    ring[frame]        // frames on its link, in order
	fwd, bwd    algos.Time         // its link's propagation to its switch and back
	node        int32              // the switch its link leads to
	free        algos.Time         // when its link has sent the last frame released
	turn        int                // the index in lims of the limiter served last
	arrivalAt   algos.Time         // the key of its agenda slot, Never if none
	paused      int                // PFC: ports pausing it (pfc.go)
	classPaused *[MaxClasses]int32 // PFC with several classes: ports pausing each class (classes.go)
	pausedAt0   algos.Time         // PFC: when its link was last paused
	pausedFor   algos.Time         // PFC: time paused, to pausedAt0
	sent        int64              // bytes its link sent
	capacity    float64            // its link's rate
	clock       float64            // 1 + its clock's offset (clock.go)
	name        string
}

// addLimiter makes l one of h's limiters.
func (h *host) addLimiter(l *limiter) {
	h.lims = append(h.lims, l)
	h.setSolo()
}

// removeLimiter takes l off h's round robin.
func (h *host) removeLimiter(l *limiter) {
	for k, x := range h.lims {
		if x == l {
			h.lims = append(h.lims[:k], h.lims[k+1:]...)
			if h.turn >= k && h.turn > 0 {
				h.turn--
			}
			break
		}
	}
	h.setSolo()
}

func (h *host) setSolo() {
	h.solo = nil
	if len(h.lims) == 1 {
		h.solo = h.lims[0]
	}
}

// nextRelease is the limiter whose frame the host's link sends next, and
// when: the next limiter in turn among those with a frame ready when the
// link is free, or the first ready after. l is nil if none will send.
func (h *host) nextRelease() (l *limiter, at algos.Time) {
	if h.solo != nil {
		return h.solo, h.solo.nextEmit
	}
	return h.nextShared()
}

// nextShared is nextRelease for a host with other than one limiter.
//
//go:noinline (so that nextRelease, the solo limiter's case, inlines)
func (h *host) nextShared() (*limiter, algos.Time) {
	ready := algos.Never
	for _, l := range h.lims {
		ready = min(ready, l.nextEmit)
	}
	if ready == algos.Never {
		return nil, algos.Never
	}
	at := max(ready, h.free)
	n := len(h.lims)
	for k := 1; k <= n; k++ {
		if l := h.lims[(h.turn+k)%n]; l.nextEmit <= at {
			return l, at
		}
	}
	panic("model: no limiter ready at its release")
}

// nextAck is the limiter whose next ACK lands first, and when.
func (h *host) nextAck() (*limiter, algos.Time) {
	var next *limiter
	at := algos.Never
	for _, l := range h.lims {
		if l.ackAt < at {
			next, at = l, l.ackAt
		}
	}
	return next, at
}

// nextTimer is the limiter whose reaction-point timer is the host's
// earliest, and that timer.
func (h *host) nextTimer() (*limiter, algos.Time) {
	var next *limiter
	at := algos.Never
	for _, l := range h.lims {
		if l.rpTimer < at {
			next, at = l, l.rpTimer
		}
	}
	return next, at
}

// catchUp runs host h's own events (frame releases and timer expiries) in
// time order up to t. They change nothing outside the host until its frames
// arrive, so they can run late, as long as they run in order and before
// anything from outside (feedback, a PAUSE) reaches the host.
func (s *Packet) catchUp(h *host, t algos.Time) {
	if h.due(t) {
		s.runLocal(h, t)
	}
}

// due reports whether h may have events of its own due by t. Between
// handlers a limiter's timerAt is at or before its reaction point's timer,
// so a solo limiter's is a quick check.
func (h *host) due(t algos.Time) bool {
	l := h.solo
	return l == nil || l.nextEmit <= t || l.timerAt <= t || l.ackAt <= t
}

// runLocal is catchUp without the fast path.
func (s *Packet) runLocal(h *host, t algos.Time) {
	for {
		var l, tl, al *limiter
		var at, timer, ack algos.Time
		if l = h.solo; l != nil { // the usual case, kept free of calls
			tl, al, at, timer, ack = l, l, l.nextEmit, l.rpTimer, l.ackAt
		} else {
			l, at = h.nextShared()
			tl, timer = h.nextTimer()
			al, ack = h.nextAck()
		}
		switch {
		case at <= t && at <= timer && at <= ack:
			s.release(h, l, at)
		case ack <= t && ack < timer: // an ACK after the timer due with it
			s.ackLands(al)
		case timer <= t:
			s.events++
			tl.rp.Expire(timer)
			s.readRP(tl, timer)
			if tl.rpTimer <= timer {
				panic(fmt.Sprintf("model: %s reaction point left its timer at %d after it expired", s.cfg.Scheme.Name, timer))
			}
		default:
			return
		}
	}
}

// release sends limiter l's next frame onto host h's link at e: the frame
// reaches the host's switch after its transmission and the link's
// propagation.
func (s *Packet) release(h *host, l *limiter, e algos.Time) {
	bytes, end := s.cfg.FrameBytes, int32(-1) // a greedy flow's
	if !l.greedy {
		bytes, end = s.nextFrame(l)
	}
	// Field by field: a composite literal would be built on the stack and
	// copied, and the copy stalls on the stores it reads (store forwarding).
	f := pushFrame(&h.inflight)
	f.arrive, f.sent = e+l.nextSerial+h.fwd, e
	if s.jitter.max != 0 { // never before the frame ahead: written out, so the profile inlines the draw
		f.arrive += s.jitter.draw()
		if n := h.inflight.len(); n > 1 {
			f.arrive = max(f.arrive, h.inflight.at(n-2).arrive)
		}
	}
	f.lim, f.cpid, f.route = l.id, l.rpCPID, 0
	f.bytes, f.hop, f.flags = uint16(bytes), 0, 0
	if !l.greedy {
		if end >= 0 { // a chain's short flow's last frame (traffic.go)
			l.fl.ends.push(flowEnded{sent: e, flow: end})
			f.flags |= frameEnd
		}
		if l.sized != nil && l.sized.left == 0 {
			f.flags |= frameLast
		}
	}
	h.free = e + l.nextSerial
	h.sent += int64(bytes)
	if h.solo == nil {
		h.turn = h.turnOf(l)
	}
	l.emitted += int64(bytes)
	s.events++
	s.released++
	// The gap after a frame is its own bits at the rate: a flow's last,
	// shorter frame is followed by a shorter gap.
	l.mark, l.credit = e, 0
	if bytes != s.cfg.FrameBytes {
		l.credit = l.frameBits - float64(bytes)*8
	}
	if !l.greedy {
		s.afterFrame(l)
	}
	if tp := l.tp; tp != nil {
		if tp.plainRate() {
			s.rateFrameSent(l, f, bytes, e)
		} else {
			s.transportSent(l, f, bytes, e)
		}
	}
	l.schedule()
	if tp := l.tp; tp != nil && tp.rp != nil { // tp.Transmit, one call the less
		if tp.rp.Transmit(e, bytes, l.nextEmit == algos.Never) {
			tp.rpT = tp.rp.Timer()
			s.readRP(l, e)
		}
	} else if l.rp.Transmit(e, bytes, l.nextEmit == algos.Never) {
		s.readRP(l, e)
	}
}

// turnOf is limiter l's index in h's round robin.
func (h *host) turnOf(l *limiter) int {
	for k, x := range h.lims {
		if x == l {
			return k
		}
	}
	return h.turn
}

// nextFrame is the size of limiter l's next frame and, for a chain's short
// flow's last frame, the flow (else -1).
func (s *Packet) nextFrame(l *limiter) (int, int32) {
	if l.fl != nil {
		return s.nextFlowFrame(l)
	}
	return s.nextSizedFrame(l), -1
}

// afterFrame updates what limiter l will send next, once a frame is out.
func (s *Packet) afterFrame(l *limiter) {
	if l.fl != nil {
		if !l.fl.hasData() {
			l.hold |= holdIdle
		}
		l.nextSerial = l.fl.nextSerial(l)
		return
	}
	s.afterSizedFrame(l)
}

// readRP picks up the reaction point's rate, timer and CPID after it may
// have changed them at time t.
func (s *Packet) readRP(l *limiter, t algos.Time) {
	if r := l.clampRate(l.rp.Rate()); r != l.rate {
		l.setRate(t, r)
	}
	l.rpTimer = l.rp.Timer()
	l.rpCPID = int32(l.rp.CPID())
}

// syncTimer makes sure a timer event is scheduled no later than limiter
// l's reaction-point timer. Timers are re-armed on every feedback, almost
// always later than before, so the scheduled event is kept and simply finds
// the deadline moved when it fires: the agenda holds about one timer per
// limiter.
func (s *Packet) syncTimer(l *limiter) {
	if l.rpTimer < l.timerAt {
		s.armTimer(l)
	}
}

// armTimer schedules limiter l's timer event at its reaction point's timer.
func (s *Packet) armTimer(l *limiter) {
	t := l.rpTimer
	l.timerAt = t
	l.tgen++
	// A timer armed for the present runs at once, never in the past.
	s.agenda.schedule(event{kind: evTimer, at: max(t, s.now), limiter: l.id, gen: l.tgen})
}

// syncTimers is syncTimer for every limiter of h.
func (s *Packet) syncTimers(h *host) {
	if l := h.solo; l != nil {
		if l.rpTimer < l.timerAt {
			s.armTimer(l)
		}
		return
	}
	for _, l := range h.lims {
		s.syncTimer(l)
	}
}

// syncArrival keeps h's agenda slot at its next frame's arrival.
func (s *Packet) syncArrival(h *host) {
	t := h.nextArrival()
	if t != h.arrivalAt {
		h.arrivalAt = t
		s.agenda.setStream(s.agenda.hostSlot(h.id), t)
	}
}

// nextArrival is when the next frame of h reaches its switch: the one on
// its link, which arrives before any it sends later; or, with its link
// idle and an ACK on its way, the soonest a frame the ACK lets go could,
// if sooner than its next release's. Either may be early: the slot's event
// then runs the ACK or the release, and finds a frame that has arrived, or
// none yet (hostFrameArrives).
func (h *host) nextArrival() algos.Time {
	if h.inflight.n > 0 {
		return h.inflight.buf[h.inflight.head].arrive
	}
	next := h.nextReleased()
	if l := h.solo; l != nil {
		if a := later(l.ackAt, l.nextSerial+h.fwd); a < next {
			next = a
		}
		return next
	}
	for _, l := range h.lims {
		if l.ackAt != algos.Never && l.ackAt+l.nextSerial+h.fwd < next {
			next = l.ackAt + l.nextSerial + h.fwd
		}
	}
	return next
}

// nextReleased is when the next frame h's link has still to send reaches
// its switch, but for its forwarding jitter, drawn as it is released: the
// soonest it can arrive (hostFrameArrives).
func (h *host) nextReleased() algos.Time {
	l, at := h.nextRelease()
	if at == algos.Never {
		return algos.Never
	}
	return later(at, l.nextSerial+h.fwd)
}

// later is d after t, or Never if that is past Never: a source may start
// at any time the run never reaches (up to Never), and a key that
// wrapped round to a negative time would come before every other in the
// agenda's queues.
func later(t, d algos.Time) algos.Time {
	if t > algos.Never-d {
		return algos.Never
	}
	return t + d
}
