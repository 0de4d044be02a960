package model

import (
	"fmt"
	"math"

	"qcnlab/algos"
)

// PFC is IEEE 802.1Qbb priority flow control on every switch port, one
// priority. With Ingress, a switch pauses each link into it on its own
// count (pfc_ingress.go). Without, a port whose queue rises above Xoff
// pauses whatever feeds it
// (the switch ports upstream whose frames routing may send through it, the
// links of the hosts whose flows start there) until it falls to Xon. On a
// fabric congestion so spreads hop by hop up the tree. Seed 000 section
// II: "when the buffer at a congested link fills up, it issues a PAUSE
// message to upstream buffers, an action which ensures packets do not get
// dropped", at the price of congestion spreading.
//
// PAUSE and its release are modelled as XOFF and XON messages (not as
// refreshed pause quanta). Each takes the hop's propagation delay back: the
// link delay between switches, a source's backward delay to the source. A
// paused port finishes the frame on the wire and sends nothing more until
// released; a paused source releases no frame from its rate limiter, which
// keeps earning credit up to one frame, as when it is idle.
type PFC struct {
	// Xoff and Xon are the queue thresholds in bytes; a negative value is
	// derived per port (DefaultPFC), or per ingress link.
	Xoff, Xon int
	// Ingress decides PAUSE per link into a switch, from the bytes that
	// arrived through it and still sit in the switch (pfc_ingress.go), as
	// the ns-3 RDMA switches do; else per egress port, from its queue,
	// pausing every link that routing may send through it.
	Ingress bool
	// DeadlockAfter, if positive, stops the run when a cycle of ports has
	// been paused with frames queued, each waiting on the next, for this
	// long (deadlock.go; ingress accounting only).
	DeadlockAfter algos.Time
	// Lossless are the traffic classes PFC pauses, a bit per class; 0
	// for all. The others are lossy: drop-tail, never paused.
	Lossless uint8
	// Dynamic makes each ingress link's XOFF Alpha times the switch's
	// free shared buffer (pfc_ingress.go), as HPCC's switch does; the
	// switch's ports then share its buffer. Ingress accounting only.
	Dynamic bool
	Alpha   float64
}

// PFCThreshold is a port's XOFF and XON and the headroom above XOFF that
// absorbs what is in flight when it pauses its feeders.
type PFCThreshold struct {
	Xoff, Xon, Headroom int
}

// PFCThresholds resolves each port's thresholds. The headroom is one frame
// (the one that crosses XOFF) plus, for every feeder, what it can still
// send before the PAUSE reaches it and what is already on its link: its
// rate times the round trip of the hop, and two frames (the one on the
// wire when the PAUSE lands, and a rate limiter's one frame of credit),
// and what it sends over the switch's forwarding jitter (clock.go), by
// which a frame may land after the PAUSE's round trip.
// XOFF defaults to the buffer less the headroom, XON to XOFF less two
// frames. An error names the port whose buffer cannot hold what is asked:
// a chain's by its index, a fabric's by its name.
func (c *Config) PFCThresholds() ([]PFCThreshold, error) {
	if c.PFC == nil {
		return nil, nil
	}
	n, err := c.network()
	if err != nil {
		return nil, err
	}
	if c.PFC.Ingress {
		_, err := c.ingressThresholds(n)
		return nil, err
	}
	return c.pfcThresholds(n)
}

func (c *Config) pfcThresholds(n *network) ([]PFCThreshold, error) {
	t := n.topo
	out := make([]PFCThreshold, len(n.ports))
	frame := c.FrameBytes
	for j, tp := range n.ports {
		buffer := t.Ports[tp].Buffer
		name := t.Ports[tp].Name
		if n.chain {
			name = fmt.Sprint(j)
		}
		room := float64(frame)
		for _, f := range n.feeders[j] {
			if f.port >= 0 {
				up := t.Ports[n.ports[f.port]]
				room += (2*up.Delay+c.SwitchJitter).Seconds()*up.Capacity/8 + 2*float64(frame)
			} else {
				nic := t.Ports[t.NIC(int(f.host))]
				room += (nic.Delay+nic.Back+c.SwitchJitter).Seconds()*nic.Capacity/8 + 2*float64(frame)
			}
		}
		th := PFCThreshold{Headroom: int(math.Ceil(room))}
		th.Xoff = buffer - th.Headroom
		if c.PFC.Xoff >= 0 {
			if c.PFC.Xoff > th.Xoff {
				return nil, fmt.Errorf("XOFF %d B is above port %s's buffer (%d B) less its headroom (%d B)", c.PFC.Xoff, name, buffer, th.Headroom)
			}
			th.Xoff = c.PFC.Xoff
		}
		if th.Xoff < frame {
			return nil, fmt.Errorf("port %s's buffer (%d B) cannot hold its PFC headroom (%d B) and a frame below XOFF: give it a buffer of at least %d B",
				name, buffer, th.Headroom, th.Headroom+2*frame)
		}
		th.Xon = max(0, th.Xoff-2*frame)
		if c.PFC.Xon >= 0 {
			th.Xon = c.PFC.Xon
		}
		if th.Xon >= th.Xoff {
			return nil, fmt.Errorf("XON %d B must be below XOFF %d B (port %s)", th.Xon, th.Xoff, name)
		}
		out[j] = th
	}
	return out, nil
}

// pendingDone is the departure of a queued frame that has not started
// service: it waits behind the port's head, or the port is paused.
const pendingDone = algos.Never - 1

// portPFC is a port's PFC state.
type portPFC struct {
	xoff, xon     int
	pausing       bool       // its feeders are paused (XOFF sent, XON not yet)
	since         algos.Time // when pausing began
	xonGen        uint32     // generation of the live XON check
	feeders       []feeder
	pausedBy      int     // ports pausing it: it is held while any is
	classPausedBy []int32 // with several classes, the ports pausing each class
	// pausingLinks counts, with ingress accounting, the links into its
	// switch paused on its account: it is pausing while any is.
	pausingLinks int
	holdGen      uint32 // generation of its current hold, for the deadlock check
	heldSince    algos.Time

	// Whole-run counters, marked at the summary's boundaries as the
	// port's other counters are (phases.go).
	pauseFrames int64      // XOFF frames sent
	pausingTime algos.Time // time spent pausing, to since
	heldTime    algos.Time // time paused by the next switch, to heldSince
	marks       []pfcMark
}

// pfcMark is a port's PFC counters at a boundary.
type pfcMark struct {
	frames        int64
	pausing, held algos.Time
}

// pfcAt is port p's PFC counters at t, the current pause included.
func (p *port) pfcAt(t algos.Time) pfcMark {
	st := p.pfc
	m := pfcMark{frames: st.pauseFrames, pausing: st.pausingTime, held: st.heldTime}
	if st.pausing {
		m.pausing += t - st.since
	}
	if p.held || p.cls != nil && p.cls.held != 0 {
		m.held += t - st.heldSince
	}
	return m
}

// pausedAt is a host's link's time paused up to t.
func (h *host) pausedAt(t algos.Time) algos.Time {
	if h.paused > 0 {
		return h.pausedFor + t - h.pausedAt0
	}
	return h.pausedFor
}

// pfcBoundary marks the PFC counters at boundary t.
func (s *Packet) pfcBoundary(t algos.Time) {
	if s.cfg.PFC == nil {
		return
	}
	for _, p := range s.ports {
		p.pfc.marks = append(p.pfc.marks, p.pfcAt(t))
	}
	m := make([]algos.Time, len(s.hosts))
	for i := range s.hosts {
		m[i] = s.hosts[i].pausedAt(t)
	}
	s.pausedMarks = append(s.pausedMarks, m)
}

// pfcMeasure fills in the PFC numbers of measure's segments from to to,
// which end at t1 and last span seconds: every port's, and every source's
// (its host's link's).
func (s *Packet) pfcMeasure(from, to int, t1 algos.Time, span float64, bs []BottleneckSummary, srcs []SourceSummary) {
	if s.cfg.PFC == nil || from > to || span <= 0 {
		return
	}
	for j, p := range s.ports {
		marks := p.pfc.marks
		a, b := marks[min(from, len(marks)-1)], p.pfcAt(t1)
		if to+1 < len(marks) {
			b = marks[to+1]
		}
		bs[j].PauseFrames = b.frames - a.frames
		bs[j].PausedFraction = (b.pausing - a.pausing).Seconds() / span
		bs[j].HeldFraction = (b.held - a.held).Seconds() / span
	}
	for i := range srcs {
		h := s.lims[i].host
		srcs[i].PausedFraction = s.hostPaused(h, from, to, t1).Seconds() / span
	}
}

// hostPaused is host h's link's time paused over segments from to to,
// which end at t1.
func (s *Packet) hostPaused(h int32, from, to int, t1 algos.Time) algos.Time {
	a, b := s.pausedMarks[min(from, len(s.pausedMarks)-1)][h], s.hosts[h].pausedAt(t1)
	if to+1 < len(s.pausedMarks) {
		b = s.pausedMarks[to+1][h]
	}
	return b - a
}

// startPFC sets every port's thresholds and feeders.
func (s *Packet) startPFC() error {
	if s.cfg.PFC.Ingress {
		return s.startIngressPFC()
	}
	th, err := s.cfg.pfcThresholds(s.net)
	if err != nil {
		return err
	}
	for j, p := range s.ports {
		p.pfc = &portPFC{xoff: th[j].Xoff, xon: th[j].Xon, marks: []pfcMark{{}}, feeders: s.net.feeders[j]}
		p.xoff = th[j].Xoff
		p.syncOdd(s.receivers, s.net.chain, s.net.streams(j))
	}
	s.pausedMarks = [][]algos.Time{make([]algos.Time, len(s.hosts))}
	return nil
}

// startPausing sends XOFF to port j's feeders: its queue is above XOFF.
func (s *Packet) startPausing(j int32) {
	st := s.ports[j].pfc
	st.pausing, st.since = true, s.now
	st.pauseFrames += int64(len(st.feeders))
	s.signal(j, true)
	s.checkXon(j)
}

// signal sends XOFF (on) or XON from port j to its feeders, each over its
// link back: a host's backward delay, a port's link delay.
func (s *Packet) signal(j int32, on bool) {
	for _, f := range s.ports[j].pfc.feeders {
		if f.host >= 0 {
			s.agenda.schedule(event{kind: evPauseHost, at: s.now + s.hosts[f.host].bwd, host: f.host, on: on})
		} else {
			s.agenda.schedule(event{kind: evPausePort, at: s.now + s.ports[f.port].delay, port: f.port, on: on})
		}
	}
}

// checkXon schedules the check of port j's queue at the departure that
// will take it to XON, if no more frames arrive; none while the port is
// itself paused (its release schedules one).
func (s *Packet) checkXon(j int32) {
	p := s.ports[j]
	st := p.pfc
	st.xonGen++
	b := p.bytes
	p.eachDeparture(s.now, func(_ int, at algos.Time, bytes int) bool {
		b -= bytes
		if b <= st.xon {
			s.agenda.schedule(event{kind: evXonCheck, at: max(at, s.now), port: j, gen: st.xonGen})
			return false
		}
		return true
	})
}

// eachDeparture calls f with each queued frame's place, departure time and
// size, from the head, as the port will serve them if nothing more
// arrives, until f returns false or a paused port would hold the rest.
func (p *port) eachDeparture(now algos.Time, f func(k int, at algos.Time, bytes int) bool) {
	at := now
	p.eachQueued(p.inOrder(), func(k int, flags uint8, bytes int) bool {
		done := pendingDone // the front's is the port's, the others wait
		if k == 0 {
			done = p.headDone
		}
		if flags&queuedCtl != 0 { // a control frame: no ingress link's, no PFC's
			at = done
			return true
		} else if done != pendingDone {
			at = done
		} else if p.held {
			return false
		} else {
			at += algos.TransmitTime(bytes, p.capacity)
		}
		return f(k, at, bytes)
	})
}

// xonCheck runs port j's scheduled check: below XON, its feeders are
// released; otherwise frames arrived meanwhile and the check moves on.
func (s *Packet) xonCheck(j int32, gen uint32) {
	p := s.ports[j]
	st := p.pfc
	if gen != st.xonGen || !st.pausing {
		return
	}
	s.events += uint64(s.serve(p, j, s.now))
	if p.bytes > st.xon {
		s.checkXon(j)
		return
	}
	st.pausing = false
	st.pausingTime += s.now - st.since
	s.signal(j, false)
}

// pauseHost handles an XOFF (on) or XON reaching host hi: its link stops
// serving its rate limiters while any port pauses it. A paused limiter
// releases no frame and keeps earning credit up to one frame, as when it is
// idle; the frames it released before the PAUSE landed are on their way.
func (s *Packet) pauseHost(hi int32, class uint8, on bool) {
	s.events++
	h := &s.hosts[hi]
	s.catchUp(h, s.now)
	if h.classPaused != nil {
		s.pauseHostClass(h, class, on)
		return
	}
	switch {
	case on:
		h.paused++
		if h.paused == 1 {
			h.pausedAt0 = s.now
			for _, l := range h.lims {
				l.hold |= holdPaused
				l.schedule()
			}
		}
	case h.paused > 0:
		h.paused--
		if h.paused == 0 {
			h.pausedFor += s.now - h.pausedAt0
			for _, l := range h.lims {
				l.hold &^= holdPaused
				l.setRate(max(s.now, l.mark), l.rate) // credit earned while paused, up to a frame
			}
		}
	}
	s.syncTimers(h)
	s.syncArrival(h)
}

// pausePort handles an XOFF (on) or XON reaching port k: it is held while
// any port downstream pauses it.
func (s *Packet) pausePort(k int32, class uint8, on bool) {
	s.events++
	if s.ports[k].cls != nil {
		s.pauseClass(k, class, on)
		return
	}
	st := s.ports[k].pfc
	switch {
	case on:
		st.pausedBy++
		if st.pausedBy == 1 {
			s.holdPort(k)
			s.armDeadlockCheck(k)
		}
	case st.pausedBy > 0:
		st.pausedBy--
		if st.pausedBy == 0 {
			s.releasePort(k)
		}
	}
}

// holdPort pauses port k: the frame on the wire finishes, and no other
// starts until the port is released. Frames for all destinations wait
// alike: with one queue per port, that is 802.1Qbb's head-of-line blocking.
func (s *Packet) holdPort(k int32) {
	p := s.ports[k]
	st := p.pfc
	s.events += uint64(s.serve(p, k, s.now))
	p.held, st.heldSince = true, s.now
	if p.queued > 0 {
		if p.headDone-algos.TransmitTime(int(p.headBytes), p.capacity) >= s.now {
			p.headDone = pendingDone // it starts now: not on the wire yet
			if p.headFlags&queuedExit == 0 {
				p.link.at(p.link.len() - int(p.onward)).arrive = 0 // its jitter is drawn again
			}
		}
	}
	s.syncService(k)
	s.syncLink(k)
	if s.receivers {
		s.syncReceive(k)
	}
}

// releasePort resumes port k's service where it stopped. The frames that
// go on to the next switch draw their forwarding jitter now (clock.go),
// in queue order.
func (s *Packet) releasePort(k int32) {
	p := s.ports[k]
	st := p.pfc
	s.events += uint64(s.serve(p, k, s.now))
	p.held = false
	st.heldTime += s.now - st.heldSince
	if p.queued > 0 {
		if s.jitter.max != 0 { // the frames that start from now on draw theirs
			from := p.link.len() - int(p.onward)
			if p.headDone != pendingDone && p.headFlags&queuedExit == 0 {
				from++ // still on the wire: it keeps its draw
			}
			for i := from; i < p.link.len(); i++ {
				p.link.at(i).arrive = s.jitter.draw()
			}
		}
		if p.headDone == pendingDone {
			p.headDone = s.now + algos.TransmitTime(int(p.headBytes), p.capacity)
			s.started(p, k)
		}
	}
	s.syncService(k)
	s.syncLink(k)
	if s.receivers {
		s.syncReceive(k)
	}
	switch {
	case s.ingress != nil:
		s.recheckIngress(s.net.portNode(k))
	case st.pausing:
		s.checkXon(k)
	}
}
