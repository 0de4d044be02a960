package model

import "qcnlab/algos"

// The life of a frame, in the order it lives it (doc.go tells it in words).

// hostFrameArrives: host h's next frame reaches its switch, where routing
// hands it to the first port of its route.
func (s *Packet) hostFrameArrives(h *host) {
	if h.due(s.now) { // catchUp: frames released up to now are on the link
		s.runLocal(h, s.now)
	}
	h.arrivalAt = -1 // consumed: syncArrival must set the next one
	if h.inflight.n == 0 || h.inflight.front().arrive > s.now {
		// No frame has arrived yet: the slot was keyed at the soonest a
		// frame an ACK let go could arrive, and the ACK let none go by
		// then (early, transport.go), or at a release's arrival without
		// its forwarding jitter, which the release has just drawn
		// (clock.go): the frame is entered when it arrives.
		s.syncTimers(h)
		s.syncArrival(h)
		return
	}
	f := h.inflight.front() // valid until the host releases another frame
	h.inflight.drop()
	l := h.solo
	if l == nil {
		l = s.lims[f.lim]
	}
	l.arrived += int64(f.bytes)
	in := int32(len(s.ports)) + h.id // the link it came in by
	p, pi := l.first, int32(0)
	if p != nil { // its route's first port, at hand
		pi = l.route[0]
	} else {
		pi = s.nextPort(l, h.node, f)
		p = &s.portStore[pi]
	}
	if p.classes() {
		s.enterClasses(p, pi, f, l, in)
	} else {
		s.enter(p, pi, f, l, in)
	}
	if h.solo == nil { // syncTimers, the solo limiter's case inline
		s.syncTimers(h)
	} else if h.solo.rpTimer < h.solo.timerAt {
		s.armTimer(h.solo)
	}
	s.syncArrival(h)
}

// linkFrameArrives: the next frame on port pi's link reaches the next
// switch, where routing hands it to its next port.
func (s *Packet) linkFrameArrives(pi int32) {
	p := &s.portStore[pi]
	// The frame may have left the port unseen (serve): if it is not in
	// flight yet, the port is brought up to now first. (Only then: the
	// port's queue is one memory access more per hop on a large fabric.)
	if p.link.len() == int(p.onward) {
		s.events += uint64(s.serve(p, pi, s.now))
	}
	f := p.link.front() // valid until the port sends another frame on
	p.link.drop()
	s.syncLinkOf(p, pi)
	if p.unwatched() && (!p.classes() || p.classesUnwatched()) {
		s.syncService(pi)
	}
	if f.flags&frameCtl != 0 { // a control frame, on its way back
		s.enterControl(&s.portStore[f.route], int32(f.route), f)
		return
	}
	l := s.lims[f.lim]
	next := int32(f.route) // on a fixed route, set as it left the port before
	if s.net.spray {
		next = s.spray(p.to, l.dst)
	}
	if q := &s.portStore[next]; q.classes() {
		s.enterClasses(q, next, f, l, pi)
	} else {
		s.enter(q, next, f, l, pi)
	}
}

// nextPort is the port at node that frame f of limiter l takes first: the
// first of its route, or, sprayed, one of the equal-cost next hops toward
// its host.
func (s *Packet) nextPort(l *limiter, node int32, f *frame) int32 {
	if l.route != nil {
		return l.route[0]
	}
	return s.spray(node, l.dst)
}

// enter hands frame f of limiter l, come in by link in (its sender's
// index, ingress accounting's), to port p (index pi): the port queues
// or drops it, and its congestion point sees it and may answer. A frame
// that goes on, to the next switch or to its receiver, has its record put
// at the tail of the stream it will join, behind the frames that have
// left: it is on its way when it departs (serve).
//
// At a port with classes, enterClasses does (its callers choose: one
// function for both would be too large for the compiler to inline the
// small calls of either).
func (s *Packet) enter(p *port, pi int32, f *frame, l *limiter, in int32) {
	if p.due(s.now) { // serve, the call saved when nothing is due, as is usual
		s.events += uint64(s.serve(p, pi, s.now))
	}
	s.events++
	s.setFrame(f)
	last := int32(f.hop) == l.hops-1
	var flags uint8
	if last {
		flags = queuedExit | f.flags&frameEnd // queuedEnd
		if l.route == nil {
			s.pathTaken(l, mixPath(f.route, pi))
		}
	}
	// The port's arrival, written out here, not called: the profile
	// (default.pgo) inlines the calls it sees hot in enter's own body (the
	// queue's push, its statistics, the CP's Arrive), not in a body it
	// inlined. The frame is dropped if the buffer cannot hold it, and
	// the congestion point sees it either way; done is its departure if
	// it starts service at once, pendingDone if it waits, Never if it is
	// dropped.
	p.arrivals++
	bytes := int(f.bytes)
	done := algos.Never
	if p.bytes+bytes <= p.buffer {
		done = pendingDone
		if p.queued == 0 && !p.held {
			done = s.now + p.serviceTime(bytes)
		}
		n := p.queued + 1
		if p.queued = n; p.ordered() { // (a line the profile knows: the offsets below are its)
			p.order.push(flags)
		}
		if n == 1 {
			p.headDone, p.headFlags, p.headBytes = done, flags, f.bytes
		}
		p.admitted += int64(bytes)
		p.bytes += bytes
		p.level.set(s.now, float64(p.bytes-bytes), s.levelInv, &p.bins) // the level before it came
	} else {
		p.drops++
		p.dropped += int64(bytes)
	}
	send := p.cp.Arrive(s.now, &s.frame, p.bytes, &s.fb)
	if s.frame.ECN && f.flags&frameECN == 0 { // marked by the CP
		f.flags |= frameECN
		p.marked++
	}
	if send {
		p.feedbacks++
	}
	if done == algos.Never {
		s.enterDropped(p, pi, f, l, in, send)
		return
	}
	if p.odd&portOddPFC != 0 && p.bytes > p.xoff && !p.pfc.pausing {
		s.startPausing(pi)
	}
	if s.ingress != nil {
		s.ingressArrive(pi, in, int(f.bytes), &p.inq)
	}
	if send {
		s.sendFeedback(f, in, s.fb, evFeedback)
	}
	if !last {
		r := pushFrame(&p.link)
		p.onwardRecord(r, f, l, pi)
		p.onward++
		// Until it departs, arrive holds its forwarding jitter (clock.go),
		// drawn as it is queued behind a port that serves (else as the
		// port resumes).
		var arrive algos.Time
		if !p.held {
			if s.jitter.max != 0 {
				arrive = s.jitter.draw()
			}
			if done != pendingDone { // it starts at once
				arrive += done + p.delay
				if n := p.link.len(); s.jitter.max != 0 && n > 1 {
					arrive = max(arrive, p.link.at(n-2).arrive)
				}
			}
			r.arrive = arrive
			if p.link.len() == 1 {
				s.syncLinkOf(p, pi)
			}
		} else {
			r.arrive = 0
		}
		if s.lanes != nil { // after the hot calls above: the profile (default.pgo) knows them by their lines
			s.lanes.link[pi].keepProp(&p.link, r, s.propOf(l, f, in)+p.delay)
		}
		if p.unwatched() {
			s.syncService(pi)
		}
		return
	}
	r := pushFrame(&p.exits) // its record, which its receiver sees if followed
	*r = *f
	if s.lanes != nil {
		s.lanes.exits[pi].keepProp(&p.exits, r, s.propOf(l, f, in)+p.exitDelay)
	}
	r.arrive = done + p.exitDelay // meaningless until it starts
	p.exiting++
	if s.receivers { // the notification point will see it at its receiver
		s.receiveQueued(p, pi, r)
		if !p.held && p.exits.len() == 1 {
			s.syncReceive(pi)
		}
	}
	if p.unwatched() {
		s.syncService(pi)
	}
}

// enterClasses is enter at a port with classes. The port's arrival is
// written out here, as in enter, so that the profile inlines the calls it
// sees hot in this body (the queue's push, the class CP's Arrive, the
// statistics' set), and the frame's class queue is looked up once: the
// frame joins its class's queue, or is dropped if the class's buffer
// cannot hold it, and the class's congestion point sees it with the
// class's occupancy. The frame starts service at once if the port is idle
// and its class not paused; otherwise it waits (pendingDone) for the
// scheduler: in its class's queue, or, a direct frame, in the port's
// (classSet.direct), which then holds more than one frame.
func (s *Packet) enterClasses(p *port, pi int32, f *frame, l *limiter, in int32) {
	if p.due(s.now) {
		s.events += uint64(s.serve(p, pi, s.now))
	}
	s.events++
	s.setFrame(f)
	last := int32(f.hop) == l.hops-1
	var flags uint8
	if last {
		flags = queuedExit | f.flags&frameEnd // queuedEnd
		if l.route == nil {
			s.pathTaken(l, mixPath(f.route, pi))
		}
	}
	p.arrivals++
	class, bytes := l.class, int(f.bytes)
	cs := p.cls
	q := &cs.q[class]
	done := algos.Never
	// In a shared buffer the switch's room is the queue's: its buffer, the
	// switch's or more (share), holds what the switch admits.
	if p.sw == nil && q.bytes+bytes <= q.buffer || p.sw != nil && p.sw.take(q, class, bytes) {
		done = pendingDone
		// It joins the port's queue (join) or waits in its class's (the push written out, as in enter).
		switch {
		case p.queued == 0 && !p.held && cs.held&(1<<class) == 0:
			done = s.now + p.serviceTime(bytes)
			p.headDone, p.headFlags, p.headBytes, p.headClass = done, flags, f.bytes, class // the head: it is the front
			p.join(flags)
		case p.queued > 1 && class == cs.direct: // behind the direct frames of its class
			p.join(flags)
		case p.queued == 1 && cs.alone(class) && p.headFlags&queuedCtl == 0 && !p.held:
			cs.direct = class // the first direct frame
			p.join(flags)
		default:
			if p.queued > 1 { // a frame of another class: the scheduler chooses again
				s.demote(p, pi)
			}
			q.wait.room()
			e, n := &q.wait.buf[(q.wait.head+q.wait.n)&(len(q.wait.buf)-1)], q.wait.n+1
			e.lim, e.bytes, e.flags, e.class, q.wait.n = f.lim, f.bytes, flags, class, n
			cs.waiting |= 1 << class
		}
		q.bytes, p.bytes, p.admitted = q.bytes+bytes, p.bytes+bytes, p.admitted+int64(bytes)
	} else {
		p.drops++
		p.dropped += int64(bytes)
		q.drops++
		q.dropped += int64(bytes)
	}
	send := q.cp.Arrive(s.now, &s.frame, q.bytes, &s.fb)
	if s.frame.ECN {
		if f.flags&frameECN == 0 { // marked by the CP
			p.marked++
			q.marked++
		}
		f.flags |= frameECN
	}
	if send {
		p.feedbacks++
	}
	if done == algos.Never {
		s.enterDropped(p, pi, f, l, in, send)
		return
	}
	// (The port's level before the frame joined it: the line keeps the offsets default.pgo knows.)
	p.level.set(s.now, float64(p.bytes-bytes), s.levelInv, &p.bins)
	q.level.set(s.now, float64(q.bytes))
	if p.odd&portOddPFC != 0 && p.bytes > p.xoff && !p.pfc.pausing {
		s.startPausing(pi)
	}
	if s.ingress != nil { // counted per link and class
		inq := &p.inq
		if done == pendingDone && p.queued <= 1 { // it waits in its class's queue
			inq = &q.inq
		}
		s.ingressArrive(pi, in*s.classes+int32(class), int(f.bytes), inq)
	}
	if send {
		s.sendFeedback(f, in, s.fb, evFeedback)
	}
	if last {
		s.enterClassExit(p, pi, f, l, in, class, done)
		return
	}
	// A frame that goes on, its record written out here as in enter: at
	// the tail of the port's stream if it started or waits in the port's
	// queue (a direct frame), else in its class's queue until it starts
	// (startNext). It draws its forwarding jitter now, as it is queued, whether it starts or waits (clock.go).
	to, inPort := &p.link, done != pendingDone || p.queued > 1
	if !inPort {
		to = &q.onward
	}
	// The push written out: the profile sees too few samples here to
	// inline to.pushSlot, whose cost (its grow inlined) is above the
	// inliner's default budget.
	if to.n == len(to.buf) {
		to.grow()
	}
	r := &to.buf[(to.head+to.n)&(len(to.buf)-1)]
	to.n++
	p.onwardRecord(r, f, l, pi)
	r.arrive = 0
	if s.jitter.max != 0 {
		r.arrive = algos.Time(remainder(s.jitter.rng.Uint64(), uint64(s.jitter.max), s.jitter.inv)) // jitter.draw written out: its cost, the PCG inlined in it, is above the inliner's budget
	}
	if inPort {
		p.onward++
	} else {
		cs.waitOnward++
	}
	if done != pendingDone { // it starts at once
		r.arrive += done + p.delay
		if n := p.link.len(); s.jitter.max != 0 && n > 1 {
			r.arrive = max(r.arrive, p.link.at(n-2).arrive)
		}
		if p.link.len() == 1 {
			s.syncLinkOf(p, pi)
		}
	}
	if p.classesUnwatched() {
		s.syncService(pi)
	}
	if s.lanes != nil { // last: the profile (default.pgo) knows the hot calls above by their lines
		s.lanes.classLane(pi, false, inPort, class).keepProp(to, r, s.propOf(l, f, in)+p.delay)
	}
}

// enterDropped is what follows a frame's drop at port p (index pi): its
// loss is counted, the port may start pausing, and the feedback its
// congestion point filled (send) goes back, in the order a queued frame
// has them.
func (s *Packet) enterDropped(p *port, pi int32, f *frame, l *limiter, in int32, send bool) {
	s.frameLost(l, f)
	if p.odd&portOddPFC != 0 && p.bytes > p.xoff && !p.pfc.pausing {
		s.startPausing(pi)
	}
	if send {
		s.sendFeedback(f, in, s.fb, evFeedback)
	}
}

// serviceEnds: the frame port pi is serving departs.
func (s *Packet) serviceEnds(pi int32) {
	p := &s.portStore[pi]
	n := s.serve(p, pi, s.now)
	s.events += uint64(n)
	if n == 0 { // nothing due: the slot was stale
		p.svcAt = -1
		s.syncService(pi)
	}
}

// due reports whether the frame port p serves has left by t.
func (p *port) due(t algos.Time) bool { return p.headDone <= t }

// serve applies every departure from port p (index pi) up to t, in order,
// and returns how many it applied: each frame leaves onto the port's link,
// or to its receiver, or is delivered (its bytes count for its flow, and a
// flow's last frame completes it), and the next frame starts service
// unless the port is paused. Anything that looks at the port at time t
// first brings it up to t; its service slot makes sure that a departure
// that would feed an empty stream, which nothing else would look at, runs
// at its time (syncService). The head's departure, flags, size and class
// are the port's: the frame's record is read only for what few frames
// need (its flow, its marks). A port whose frames all leave here,
// unfollowed, is served by serveLeaving.
func (s *Packet) serve(p *port, pi int32, t algos.Time) int {
	if p.odd&portOddLeaves != 0 { // (three lines, as the comment they replace: default.pgo knows the calls below by their offsets)
		return s.serveLeaving(p, pi, t)
	}
	n := 0
	for p.headDone <= t {
		done, bytes, flags := p.headDone, int(p.headBytes), p.headFlags
		if p.classes() {
			if c := p.departClass(p.headClass, bytes); c != nil {
				c.level.set(done, float64(c.bytes))
			}
		}
		p.bytes -= bytes
		p.level.set(done, float64(p.bytes+bytes), s.levelInv, &p.bins) // the level before it left
		s.countDeparture(pi, bytes)                                    // a test's, compiled away: what left is derived (port.sent, port.framesLeft)
		if s.ingress != nil && flags&queuedCtl == 0 {
			in := &s.ingress[p.inq.pop()]
			in.bytes -= bytes
			s.nodeBytes[in.node] -= bytes
		}
		// Its record, if it has one, is on its way (its arrival was set as
		// it started): it leaves the queued records at the stream's tail.
		if flags&queuedExit == 0 {
			if p.odd&portOddDepart != 0 {
				s.departMark(p, p.link.at(p.link.len()-int(p.onward)), true, done)
			}
			if s.telemetry && flags&queuedCtl == 0 { // a control frame carries none
				rec := p.link.at(p.link.len() - int(p.onward))
				s.stampINT(p, rec, done, int(rec.hop)-1)
			}
			p.onward--
		} else if flags&queuedCtl != 0 {
			s.controlLands(p, done)
		} else {
			rec := p.exits.at(p.exits.len() - p.exiting)
			d, lim := &s.delivered[rec.lim], rec.lim
			if p.exiting--; s.receivers {
				if p.odd&portOddDepart != 0 {
					s.departMark(p, rec, true, done)
				}
				if s.telemetry {
					s.stampINT(p, rec, done, int(rec.hop))
				}
				s.receiveAsItLeaves(p)
			} else if p.odd&portOddDepart != 0 {
				s.departMark(p, rec, false, done)
			}
			if d.bytes += int64(bytes); !s.receivers { // its record goes: none follows it
				p.exits.drop()
			}
			p.exitCount++
			if flags&queuedEnd != 0 { // a chain's short flow ends
				s.flowEnded(lim, done)
			}
			if d.sized && !s.receivers { // a flow with a size: else counted at the receiver
				s.sizedDelivered(s.lims[lim], done+p.exitDelay)
			}
		}
		p.popHead()
		n++
		// (The calls below keep the offsets default.pgo knows them by.)
		if p.queued > 0 && !p.held { // with classes, a direct frame (classSet.direct)
			h, exit := p.front()
			if p.classes() {
				s.directStarts(p, h)
			}
			p.headDone = done + p.serviceTime(int(h.bytes)) // the departure is the port's alone
			p.headFlags, p.headBytes = queueFlags(h, exit), h.bytes
			if exit == 0 || s.receivers { // its record's arrival
				s.started(p, pi)
			}
		} else if p.classes() {
			if cs := p.cls; cs.waiting&^cs.held != 0 || cs.ctl != nil && cs.ctl.wait.n > 0 { // the scheduler has a frame to start
				s.startNext(p, pi, done) // in the empty queue: a port with classes is never held whole
			}
			p.emptyHead() // if it started none
		} else if p.headDone = algos.Never; p.queued > 0 { // none left, or the port is held
			p.waitHead()
		}
	}
	if n > 0 {
		// (a line kept where a count was: default.pgo knows the calls below by their offsets)
		if p.classes() { // unwatched is true at a port with classes
			if p.classesUnwatched() {
				s.syncService(pi)
			}
		} else if p.unwatched() {
			s.syncService(pi)
		}
	}
	return n
}

// serveLeaving is serve at a port whose frames all leave the network
// here, not followed to their receivers, and that has no classes
// (portOddLeaves): the queue is its exits ring, whole, front first, and
// what serve asks of each frame (which stream, which class, receivers,
// a control frame) is known. It applies the same departures, in the same
// order, as serve would; it is serve's work for every frame at the
// dumbbell's bottleneck and at a fabric's ports to hosts.
func (s *Packet) serveLeaving(p *port, pi int32, t algos.Time) int {
	n := 0
	for p.headDone <= t {
		done, bytes, flags := p.headDone, int(p.headBytes), p.headFlags
		if l := &p.level; done > l.last { // l.set (stats.go), written out: above the inliner's budget where the profile does not know it; keep the two alike (the goldens tell)
			dt, old := float64(done-l.last), float64(p.bytes)
			l.sum += old * dt
			l.sumSq += old * (old * dt)
			if k := int(old*s.levelInv + ceilBias); k < lowBins {
				l.low[k] += dt
			} else if b := &p.bins; k < len(b.hist) {
				b.hist[k] += dt
			} else {
				b.grow(k, dt)
			}
			if old < l.min {
				l.min = old
			}
			if old > l.max {
				l.max = old
			}
			l.last = done
		}
		p.bytes -= bytes
		s.countDeparture(pi, bytes) // a test's, compiled away: what left is derived (port.sent, port.framesLeft)
		if s.ingress != nil {
			in := &s.ingress[p.inq.pop()]
			in.bytes -= bytes
			s.nodeBytes[in.node] -= bytes
		}
		x := &p.exits
		rec := &x.buf[x.head] // the frame that departs: its record goes, none follows it
		d, lim := &s.delivered[rec.lim], rec.lim
		p.exiting--
		if p.odd&portOddDepart != 0 {
			s.departMark(p, rec, false, done)
		}
		d.bytes += int64(bytes)
		x.drop()
		p.exitCount++
		if flags&queuedEnd != 0 { // a chain's short flow ends
			s.flowEnded(lim, done)
		}
		if d.sized { // a flow with a size
			s.sizedDelivered(s.lims[lim], done+p.exitDelay)
		}
		p.queued--
		n++
		if p.queued > 0 && !p.held {
			h := &x.buf[x.head]
			if h.bytes != p.svcBytes { // p.serviceTime, written out as l.set above
				p.svcBytes, p.svc = h.bytes, algos.TransmitTime(int(h.bytes), p.capacity)
			}
			p.headDone = done + p.svc
			p.headFlags, p.headBytes = queueFlags(h, queuedExit), h.bytes
		} else if p.headDone = algos.Never; p.queued > 0 { // the port is held
			p.waitHead()
		}
	}
	if n > 0 {
		// (a line kept where a count was: default.pgo knows the calls below by their offsets)
		if p.unwatched() {
			s.syncService(pi)
		}
	}
	return n
}

// started sets the arrival of frame h's record, h starting service at
// port pi after the one before it left (its departure is the port's
// headDone), and keys the stream it will join if it is that stream's
// front: with the sequence number the stream took when it was last keyed
// (linkSeq), as if the frame's departure had been known since then.
func (s *Packet) started(p *port, pi int32) {
	switch {
	case p.headFlags&queuedExit == 0:
		i := p.link.len() - int(p.onward)
		r := p.link.at(i)
		r.arrive += p.headDone + p.delay // it held its jitter
		if i == 0 {
			s.agenda.setStreamSeq(s.agenda.linkSlot(pi), r.arrive, p.linkSeq)
		} else if s.jitter.max != 0 { // never overtaking the frame before it
			r.arrive = max(r.arrive, p.link.at(i-1).arrive)
		}
	case s.receivers:
		i := p.exits.len() - p.exiting
		r := p.exits.at(i)
		r.arrive = p.headDone + p.exitDelay
		if i == 0 {
			s.receiveStarts(p, pi, r)
		}
	}
}

// departMark runs a departing congestion point on the frame in service,
// record rec, as it leaves port p at done. Its tag (CPID, sent time, ECN)
// is seen only if it goes on with the frame (tagged: it goes on, or to
// its receiver), and so is its mark.
func (s *Packet) departMark(p *port, rec *frame, tagged bool, done algos.Time) {
	if p.headFlags&queuedCtl != 0 { // a control frame: no CP sees it
		return
	}
	f := algos.Frame{Source: int(rec.lim), Bytes: int(rec.bytes)}
	if tagged {
		f.CPID, f.Sent, f.ECN = int(rec.cpid&s.cpidMask), rec.sent, rec.flags&frameECN != 0
	}
	ecn := f.ECN
	if !p.classes() {
		p.dcp.Depart(done, &f, p.bytes)
	} else { // its class's CP, on its class's queue
		c := &p.cls.q[p.headClass]
		c.dcp.Depart(done, &f, c.bytes)
		if f.ECN && !ecn {
			c.marked++
		}
	}
	if f.ECN && !ecn {
		p.marked++
		if tagged {
			rec.flags |= frameECN
		}
	}
}

// receiveFrame: the next frame delivered at port pi reaches its receiver,
// whose notification point sees it and may send a CNP back.
//
// Or the slot guards the ACKs of receipts taken early (receiveStarts): the
// port is brought up to now, which takes them, and the slot keyed again.
func (s *Packet) receiveFrame(pi int32) {
	p := &s.portStore[pi]
	// The port is brought up to now first, as before anything that looks
	// at it: a departure due now is applied before the receiver acts.
	s.events += uint64(s.serve(p, pi, s.now))
	if p.exits.len() == p.exiting || p.exits.front().arrive > s.now {
		s.syncReceive(pi) // a guard's
		return
	}
	f := p.exits.front() // valid until the port delivers another frame
	p.exits.drop()
	s.receiveGone(p, s.lims[f.lim], f)
	s.syncReceive(pi)
	if p.unwatched() && (!p.classes() || p.classesUnwatched()) {
		s.syncService(pi)
	}
	s.events++
	l := s.lims[f.lim]
	if l.tp != nil {
		s.transportReceive(l, f)
		if l.ackGuard != 0 && s.receiveDeparted(p) { // the frames behind it, early
			s.syncReceive(pi)
			if p.unwatched() && (!p.classes() || p.classesUnwatched()) {
				s.syncService(pi)
			}
		}
	} else if l.sized != nil {
		s.sizedDelivered(l, s.now)
	}
	if l.np == nil {
		return
	}
	s.setFrame(f)
	if l.np.Receive(s.now, &s.frame, &s.fb) {
		s.sendFeedback(f, atReceiver, s.fb, evNotification)
	}
}

// setFrame fills the scratch frame the schemes see from f, field by field
// (a composite literal is built on the stack and copied, and the copy
// stalls on the stores it reads).
func (s *Packet) setFrame(f *frame) {
	x := &s.frame
	x.Source, x.Bytes, x.CPID, x.Sent, x.ECN = int(f.lim), int(f.bytes), int(f.cpid&s.cpidMask), f.sent, f.flags&frameECN != 0
}

// syncLink keys port pi's link slot at its next arrival: its front
// frame's, in flight or in service (the record of a frame in service is
// on its way as it departs, unseen: the slot's event brings the port up
// to date first). With neither, the slot's sequence number is kept for the
// frame that starts later (linkSeq).
func (s *Packet) syncLink(pi int32) { s.syncLinkOf(&s.portStore[pi], pi) }

// syncLinkOf is syncLink given the port: the index need not be checked
// again, nor the port's address worked out, on every hop.
func (s *Packet) syncLinkOf(p *port, pi int32) {
	if n := p.link.len(); n > int(p.onward) || n > 0 && p.serving(0) {
		s.agenda.setStream(s.agenda.linkSlot(pi), p.link.front().arrive)
		return
	}
	p.linkSeq = s.agenda.setStream(s.agenda.linkSlot(pi), algos.Never)
}

// syncReceive keys port pi's deliveries' slot at the next, as syncLink; at
// the guard of a frame in service that may be received early (markEarly, receiveStarts).
func (s *Packet) syncReceive(pi int32) {
	p := &s.portStore[pi]
	if n := p.exits.len(); n > p.exiting || n > 0 && p.serving(queuedExit) {
		f := p.exits.front()
		at, lazy := f.arrive, uint64(0)
		if n == p.exiting && s.markEarly(f) && p.lazyGuard() {
			at, lazy = at+s.lims[f.lim].ackGuard-1, guardLazy
		}
		s.agenda.setStream(s.agenda.receiveSlot(pi), at)
		p.exitSeq = p.exitSeq&^guardLazy | guardKeyed | lazy
		return
	}
	p.exitSeq = p.exitSeq&slowMask | s.agenda.setStream(s.agenda.receiveSlot(pi), algos.Never)
}

// serving reports whether port p is serving a frame that goes on (exit
// 0) or leaves the network here (exit queuedExit).
func (p *port) serving(exit uint8) bool {
	return p.headDone < pendingDone && p.headFlags&queuedExit == exit
}

// unwatched reports whether port pi's service slot may have to be armed,
// or is (syncService): when it is false, syncService would change
// nothing. Cheap, for every arrival and departure: a port whose frames
// all leave here, or all go on, has no departure that must run at its
// time (portOddMixed); true at a port with classes, whose frames' ways
// are its classes' (mustServeClasses).
func (p *port) unwatched() bool {
	return p.svcAt != algos.Never || p.odd&(portOddClasses|portOddMixed) != 0 && p.mixedUnwatched()
}

// mixedUnwatched is unwatched at a port with classes, or that may mix
// frames that leave and go on, whose service slot is not armed.
func (p *port) mixedUnwatched() bool {
	return p.classes() ||
		int(p.onward) > 0 && p.link.n == int(p.onward) && p.headFlags&queuedExit != 0 ||
		p.odd&portOddReceivers != 0 && p.exiting > 0 && p.exits.n == p.exiting && p.headFlags&queuedExit == 0
}

// mustServe reports whether the departure of the frame port p serves, if
// it serves one (headDone), must run at its time: it starts nothing anyone
// watches, and a frame behind it, queued or waiting in its class, will
// join an empty stream (an onward frame behind one that leaves the
// network here, or the reverse with receivers followed), or a control
// frame lands at its host as it departs.
func (p *port) mustServe() bool {
	if p.classes() {
		return p.mustServeClasses()
	}
	if p.headFlags&queuedExit != 0 {
		return int(p.onward) > 0 && p.link.n == int(p.onward)
	}
	return p.odd&portOddReceivers != 0 && p.exiting > 0 && p.exits.n == p.exiting
}

// classesUnwatched is unwatched at a port with classes.
func (p *port) classesUnwatched() bool {
	return p.svcAt != algos.Never || p.headDone < pendingDone && p.mustServeClasses()
}

// mustServeClasses is mustServe at a port with classes: the frames
// waiting in the classes' queues count too. A port that never mixes
// frames that leave and go on, in its queue or its classes', and has no
// control frames, never must (classSet.watch).
func (p *port) mustServeClasses() bool {
	cs := p.cls
	if !cs.watch {
		return false
	}
	if cs.waitCtlExits > 0 || p.headFlags&(queuedCtl|queuedExit) == queuedCtl|queuedExit {
		return true
	}
	if p.headFlags&queuedExit != 0 {
		return int(p.onward)+cs.waitOnward > 0 && p.link.n == int(p.onward)
	}
	return p.odd&portOddReceivers != 0 && p.exiting+cs.waitExits > 0 && p.exits.n == p.exiting
}

// syncService arms port pi's service slot at its head's departure when
// that departure must run at its time: the head starts nothing anyone
// watches, and a frame behind it will join an empty stream (an onward
// frame behind one that leaves the network here, or the reverse with
// receivers followed). Otherwise the streams' own events, and everything
// that looks at the port, bring its service up to date (serve).
func (s *Packet) syncService(pi int32) {
	p := &s.portStore[pi]
	at := algos.Never
	if p.headDone < pendingDone && p.mustServe() { // it serves a frame, and must
		at = p.headDone
	}
	if at != p.svcAt {
		p.svcAt = at
		s.agenda.setService(pi, at)
	}
}

// mixPath folds port pi into a frame's path hash.
func mixPath(h uint32, pi int32) uint32 { return (h ^ uint32(pi)) * 0x9e3779b1 }

// onwardRecord fills r, frame f's record as it goes on from port pi: its
// next hop and the port it leaves by next (its route's, or a spraying hash
// of the ports it crossed).
func (p *port) onwardRecord(r, f *frame, l *limiter, pi int32) {
	// The new fields are worked out from f and stored over the copy, not
	// read back from it: a narrow read of a wide store just made waits.
	hop := f.hop + 1
	route := mixPath(f.route, pi)
	if l.route != nil {
		route = uint32(l.route[hop])
	}
	*r = *f
	r.hop, r.route = hop, route
}
