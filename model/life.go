package model

import "qcnlab/algos"

// The life of a frame, in the order it lives it (doc.go tells it in words).

// hostFrameArrives: host h's next frame reaches its switch, where routing
// hands it to the first port of its route.
func (s *Packet) hostFrameArrives(h *host) {
	if h.due(s.now) { // catchUp: frames released up to now are on the link
		s.runLocal(h, s.now)
	}
	h.arrivalAt = -1        // consumed: syncArrival must set the next one
	f := h.inflight.front() // valid until the host releases another frame
	h.inflight.drop()
	l := h.solo
	if l == nil {
		l = s.lims[f.lim]
	}
	l.arrived += int64(f.bytes)
	in := int32(len(s.ports)) + h.id // the link it came in by
	if l.first != nil {              // its route's first port, at hand
		s.enter(l.first, l.route[0], f, l, in)
	} else {
		pi := s.nextPort(l, h.node, f)
		s.enter(s.ports[pi], pi, f, l, in)
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
	p := s.ports[pi]
	if s.marking && p.dcp != nil { // its departure, and the CP's mark, must have happened
		s.events += uint64(s.depart(p, s.now))
		p.departedOn--
	}
	f := p.link.front() // valid until the port sends another frame on
	p.link.drop()
	s.syncLink(pi)
	l := s.lims[f.lim]
	next := int32(f.route) // on a fixed route, set as it left the port before
	if s.net.spray {
		next = s.spray(p.to, l.dst)
	}
	s.enter(s.ports[next], next, f, l, pi)
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
// or drops it, its congestion point sees it and may answer, and a frame
// with more ports to cross goes onto the port's link toward the next
// switch; one that leaves the network here is delivered as it leaves the
// queue (depart).
func (s *Packet) enter(p *port, pi int32, f *frame, l *limiter, in int32) {
	s.events += uint64(s.depart(p, s.now)) + 1
	s.setFrame(f)
	last := int32(f.hop) == l.hops-1
	var flags uint8
	if last {
		flags = l.exitFlags | (f.flags&frameEnd)<<1 // queuedEnd
		if l.route == nil {
			s.pathTaken(l, mixPath(f.route, pi))
		}
	}
	done, send := p.arrive(s.now, &s.frame, flags, &s.fb)
	if s.frame.ECN {
		f.flags |= frameECN
	}
	if done == algos.Never {
		s.frameLost(l, f)
	}
	if p.bytes > p.xoff && !p.pfc.pausing {
		s.startPausing(pi)
	}
	if s.ingress != nil && done != algos.Never {
		s.ingressArrive(pi, in, int(f.bytes))
	}
	if send {
		s.sendFeedback(f, s.fb, evFeedback)
	}
	if done == algos.Never {
		return
	}
	if !last {
		// The port's departures are in order, so its link's arrivals are.
		var next *frame
		if done == pendingDone { // the port is paused (pfc.go)
			next = p.pfc.held.pushSlot()
		} else {
			next = p.link.pushSlot()
		}
		*next = *f
		next.hop++
		next.prop += p.delay
		if l.route != nil {
			next.route = uint32(l.route[next.hop])
		} else {
			next.route = mixPath(f.route, pi)
		}
		if done == pendingDone {
			return
		}
		next.arrive = done + p.delay
		if s.jitter.max != 0 {
			s.jitter.delay(&p.link, next)
		}
		if p.link.len() == 1 {
			s.syncLink(pi)
		}
		return
	}
	if s.receivers { // the notification point will see it at its receiver
		var r *frame
		if done == pendingDone {
			r = p.pfc.heldExits.pushSlot()
		} else {
			r = p.exits.pushSlot()
		}
		*r = *f
		r.prop += p.exitDelay
		if done == pendingDone {
			return
		}
		r.arrive = done + p.exitDelay
		if p.exits.len() == 1 {
			s.syncReceive(pi)
		}
	}
}

// depart applies every departure from port p up to t and returns how many
// it applied. A frame that leaves the network here is delivered: its bytes
// count for its flow, and a flow's last frame completes it.
func (s *Packet) depart(p *port, t algos.Time) int {
	n := 0
	marking := p.dcp != nil
	for p.queue.n > 0 {
		q := p.queue.front()
		if q.done > t {
			break
		}
		p.bytes -= int(q.bytes)
		p.level.set(q.done, float64(p.bytes))
		p.sentBytes += int64(q.bytes)
		if marking {
			s.departMark(p, q)
		}
		if s.ingress != nil {
			in := &s.ingress[p.inq.pop()]
			in.bytes -= int(q.bytes)
			s.nodeBytes[in.node] -= int(q.bytes)
		}
		if q.flags&queuedExit != 0 {
			s.delivered[q.lim] += int64(q.bytes)
			p.exitCount++
			if q.flags != queuedExit { // a flow ends, or has a size
				if q.flags&queuedEnd != 0 {
					s.flowEnded(q.lim, q.done)
				}
				if q.flags&queuedSized != 0 && !s.receivers { // else at the receiver
					s.sizedDelivered(s.lims[q.lim], q.done+p.exitDelay)
				}
			}
		}
		p.queue.pop()
		n++
	}
	p.frames += uint64(n)
	return n
}

// departMark runs a departing congestion point on q as it leaves port p:
// its mark goes with the frame's record, on the port's link or on its way
// to its receiver.
func (s *Packet) departMark(p *port, q *queued) {
	var rec *frame
	switch {
	case q.flags&queuedExit == 0:
		rec = p.link.at(p.departedOn)
		p.departedOn++
	case s.receivers:
		rec = p.exits.at(p.departedExit)
		p.departedExit++
	}
	f := algos.Frame{Source: int(q.lim), Bytes: int(q.bytes)}
	if rec != nil {
		f.CPID, f.Sent, f.ECN = int(rec.cpid), rec.sent, rec.flags&frameECN != 0
	}
	ecn := f.ECN
	p.dcp.Depart(q.done, &f, p.bytes)
	if f.ECN && !ecn {
		p.marked++
		if rec != nil {
			rec.flags |= frameECN
		}
	}
}

// receiveFrame: the next frame delivered at port pi reaches its receiver,
// whose notification point sees it and may send a CNP back.
func (s *Packet) receiveFrame(pi int32) {
	p := s.ports[pi]
	// Its departure has happened, and is applied before the receiver acts
	// on it: its bytes are delivered (and its CP's mark made) first.
	s.events += uint64(s.depart(p, s.now))
	if p.dcp != nil {
		p.departedExit--
	}
	f := p.exits.front() // valid until the port delivers another frame
	p.exits.drop()
	s.syncReceive(pi)
	s.events++
	l := s.lims[f.lim]
	if l.sized != nil {
		s.sizedDelivered(l, s.now)
	}
	if l.np == nil {
		return
	}
	s.setFrame(f)
	if l.np.Receive(s.now, &s.frame, &s.fb) {
		s.sendFeedback(f, s.fb, evNotification)
	}
}

// setFrame fills the scratch frame the schemes see from f, field by field
// (a composite literal is built on the stack and copied, and the copy
// stalls on the stores it reads).
func (s *Packet) setFrame(f *frame) {
	x := &s.frame
	x.Source, x.Bytes, x.CPID, x.Sent, x.ECN = int(f.lim), int(f.bytes), int(f.cpid), f.sent, f.flags&frameECN != 0
}

// syncLink keeps port pi's link slot at its next arrival.
func (s *Packet) syncLink(pi int32) {
	at := algos.Never
	if link := &s.ports[pi].link; link.len() > 0 {
		at = link.front().arrive
	}
	s.agenda.setStream(s.agenda.linkSlot(pi), at)
}

// syncReceive keeps port pi's deliveries' slot at the next.
func (s *Packet) syncReceive(pi int32) {
	at := algos.Never
	if exits := &s.ports[pi].exits; exits.len() > 0 {
		at = exits.front().arrive
	}
	s.agenda.setStream(s.agenda.receiveSlot(pi), at)
}

// mixPath folds port pi into a frame's path hash.
func mixPath(h uint32, pi int32) uint32 { return (h ^ uint32(pi)) * 0x9e3779b1 }
