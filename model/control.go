package model

import (
	"math"

	"qcnlab/algos"
)

// Control frames (Config.ControlFrames): a congestion point's feedback, a
// notification point's CNP and a transport's ACK or NACK (transport.go)
// travel back to the flow's host as frames of ControlBytes, as both public
// ns-3 RDMA simulators send CNPs and ACKs
// (alibaba-edu/High-Precision-Congestion-Control's qbb-net-device puts
// ACK, NACK, CNP and PFC frames in queue 0, served before the data queues
// by strict priority; bobzhuyb/ns3-rdma likewise). A control frame joins
// each switch port of the reverse path in a control queue of its own,
// served before every traffic class, never paused and never dropped, and
// is serialised at the port's rate: it waits for the frame on the wire
// and delays the data behind it. It leaves the switch that generates it
// after the switch's feedback latency (a CNP after its receiver's NIC
// link), crosses the reverse of its data frame's route (ECMP's; the
// ports 2l and 2l+1 of a link are each other's reverse) and, from the
// last switch's port to the host, reaches the rate limiter. Chains, whose
// reverse ports are not simulated, and sprayed fabrics, whose frames have
// no route to reverse, keep feedback out of band.

// ControlBytes is a control frame's size: Ethernet's minimum frame.
const ControlBytes = 64

// ctlClass is the class a queue record of a control frame names.
const ctlClass = MaxClasses

// validateControl checks that control frames have reverse ports to take.
func (c *Config) validateControl(bad func(string, ...any)) {
	if !c.ControlFrames {
		return
	}
	if c.Fabric == nil {
		bad("control frames need a fabric's reverse ports: a chain sends feedback out of band")
	} else if c.Fabric.Routing != ECMP {
		bad("control frames take the reverse of their flow's route: they need ECMP routing")
	}
	if c.PFC != nil && !c.PFC.Ingress {
		bad("control frames pass PAUSE in their own queue: PFC must be decided per link into a switch (ingress accounting)")
	}
}

// queue is class c's queue, the control queue for ctlClass.
func (cs *classSet) queue(c uint8) *classQueue {
	if c == ctlClass {
		return cs.ctl
	}
	return &cs.q[c]
}

// backRoute is the ports a control frame crosses back to flow f's host:
// the reverse of its route's links between switches, last first, then the
// port down to the host. A congestion point at route position h sends
// from position len - 1 - h, a CNP from 0.
func (s *Packet) backRoute(f flowSpec) []int32 {
	n := s.net
	back := make([]int32, 0, len(f.route))
	for k := len(f.route) - 2; k >= 0; k-- {
		back = append(back, n.portOf[n.ports[f.route[k]]^1])
	}
	return append(back, n.portOf[n.topo.NIC(f.host)^1])
}

// sendControl sends fb back to limiter l as a control frame from where
// frame f is, having crossed prop: it enters its first port once
// generated (injectControl).
func (s *Packet) sendControl(f *frame, l *limiter, fb algos.Feedback, kind eventKind, prop algos.Time) {
	first := len(l.back) - 1 - int(f.hop)
	lat := s.cfg.FeedbackLatency.Lo
	if s.fbPaths != nil {
		lat = s.cfg.FeedbackLatency.Draw(s.fbPaths[f.lim].rand)
	}
	at := s.now + fb.Hold + lat
	if kind == evNotification { // from the receiver, over its NIC's link
		first = 0
		r := &s.hosts[l.dst]
		at += r.fwd + algos.TransmitTime(ControlBytes, r.capacity)
		s.released++ // onto the receiver's link: a transmission (Transmissions)
	}
	msg := s.messages.add(message{fb: fb, epoch: l.epoch, back: l.back, first: int32(first), prop: prop, born: s.now, kind: kind})
	s.agenda.schedule(event{kind: evControlFrame, at: at, limiter: f.lim, msg: msg})
}

// injectControl: the control frame msg to limiter lim, generated, enters
// its first port.
func (s *Packet) injectControl(lim, msg int32) {
	m := s.messages.at(msg)
	if m.epoch != s.lims[lim].epoch { // its flow has ended
		s.messages.remove(msg)
		return
	}
	f := &s.ctlFrame
	*f = frame{lim: lim, cpid: msg, flags: frameCtl, bytes: ControlBytes, hop: uint8(m.first), sent: s.now}
	pi := m.back[m.first]
	s.enterControl(s.ports[pi], pi, f)
}

// enterControl queues control frame f at port p (index pi), in its
// control queue: served before any class, never paused, never dropped.
// Its message's ports say where it goes next; from the last it lands at
// its flow's host (controlLands).
func (s *Packet) enterControl(p *port, pi int32, f *frame) {
	if p.due(s.now) {
		s.events += uint64(s.serve(p, pi, s.now))
	}
	s.events++
	cs := p.cls
	m := s.messages.at(f.cpid)
	last := int(f.hop) == len(m.back)-1
	e := queued{bytes: ControlBytes, lim: f.lim, flags: queuedCtl, class: ctlClass}
	if last {
		e.flags |= queuedExit
	}
	started := p.queued == 0
	if started {
		// It starts at once, the departure the port's.
		p.queued = 1
		if p.ordered() {
			p.order.push(e.flags)
		}
		p.headDone, p.headFlags, p.headBytes, p.headClass = s.now+p.serviceTime(ControlBytes), e.flags, e.bytes, ctlClass
	} else {
		p.demote(s.ingress != nil) // served before the direct frames (classSet.direct)
		cs.ctl.wait.push(e)
	}
	cs.ctl.bytes += ControlBytes
	cs.ctlArrivals++
	p.level.set(s.now, float64(p.bytes), s.levelInv, &p.bins)
	p.bytes += ControlBytes
	p.admitted += ControlBytes
	if last {
		cs.landing.push(ctlLanding{lim: f.lim, msg: f.cpid})
		if !started {
			cs.waitCtlExits++
		}
		s.syncService(pi)
		return
	}
	var r *frame
	if started {
		r = p.link.pushSlot()
		p.onward++
	} else {
		r = cs.ctl.onward.pushSlot()
		cs.waitOnward++
	}
	*r = *f
	r.hop++
	r.route = uint32(m.back[r.hop])
	r.arrive = 0
	if s.jitter.max != 0 { // drawn as it is queued, as a data frame's (enterClasses)
		r.arrive = s.jitter.draw()
	}
	if started {
		r.arrive += p.headDone + p.delay
		if n := p.link.len(); s.jitter.max != 0 && n > 1 {
			r.arrive = max(r.arrive, p.link.at(n-2).arrive)
		}
		if p.link.len() == 1 {
			s.syncLink(pi)
		}
	}
	s.syncService(pi)
}

// controlLands: the control frame in service leaves port p at done down
// to its flow's host, which it reaches after the link's propagation.
func (s *Packet) controlLands(p *port, done algos.Time) {
	c := p.cls.landing.pop()
	m := s.messages.at(c.msg)
	at := max(done+p.exitDelay, s.now)
	if m.ack {
		s.ackFrameLands(c.lim, m, at)
		s.messages.remove(c.msg)
		return
	}
	s.agenda.schedule(event{kind: m.kind, at: at, limiter: c.lim, msg: c.msg})
}

// newControlQueue is a port's control queue.
func newControlQueue() *classQueue { return &classQueue{buffer: math.MaxInt} }
