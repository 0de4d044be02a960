package model

import (
	"math"

	"qcnlab/algos"
)

// PFC with several traffic classes (802.1Qbb's priorities): a switch
// counts the bytes in it per link into it and class, and pauses that
// class only on that link (pfc_ingress.go, with (link, class) for link);
// a paused class of a port starts no frame while the port's other classes
// go on, and a paused class of a host's link holds that class's rate
// limiters only. Only the lossless classes (PFC.Lossless) pause; the
// others are drop-tail. Each (link, lossless class) has its own headroom
// and thresholds, the link's: under the per-port buffer model each class
// has the port's buffer (classes.go).

// lossless reports whether PFC pauses class c.
func (p *PFC) lossless(c int) bool { return p.Lossless == 0 || p.Lossless&(1<<c) != 0 }

// classLinks makes the (link, class) counts of ingress accounting from the
// links' own: link i's class c at i x classes + c, with the link's
// thresholds and headroom for a lossless class and none for a lossy one.
func (s *Packet) classLinks(links []ingressLink) []ingressLink {
	C := int(s.classes)
	out := make([]ingressLink, len(links)*C)
	for i, l := range links {
		for c := range C {
			x := l
			if !s.cfg.PFC.lossless(c) {
				x.feeds, x.xoff, x.xon, x.room = false, math.MaxInt, 0, 0
			}
			out[i*C+c] = x
		}
	}
	return out
}

// hostClassPaused reports whether host h's link is paused for class c.
func (s *Packet) hostClassPaused(h *host, c uint8) bool {
	if h.classPaused != nil {
		return h.classPaused[c] > 0
	}
	return h.paused > 0
}

// pauseHostClass handles an XOFF (on) or XON for class c reaching host h:
// its limiters of that class release nothing while any port pauses it. The
// link counts as paused (its time paused) while any class is.
func (s *Packet) pauseHostClass(h *host, c uint8, on bool) {
	n := &h.classPaused[c]
	switch {
	case on:
		*n++
		if *n == 1 {
			for _, l := range h.lims {
				if l.class == c {
					l.hold |= holdPaused
					l.schedule()
				}
			}
		}
		if h.paused++; h.paused == 1 {
			h.pausedAt0 = s.now
		}
	case *n > 0:
		*n--
		if *n == 0 {
			for _, l := range h.lims {
				if l.class == c {
					l.hold &^= holdPaused
					l.setRate(max(s.now, l.mark), l.rate) // credit earned while paused, up to a frame
				}
			}
		}
		if h.paused--; h.paused == 0 {
			h.pausedFor += s.now - h.pausedAt0
		}
	}
	s.syncTimers(h)
	s.syncArrival(h)
}

// pauseClass handles an XOFF (on) or XON for class c reaching port k: the
// class is held while any port downstream pauses it. A held class starts
// no frame; the frame on the wire finishes (one that starts at the very
// time the PAUSE lands is sent).
func (s *Packet) pauseClass(k int32, c uint8, on bool) {
	p := s.ports[k]
	st, cs := p.pfc, p.cls
	s.events += uint64(s.serve(p, k, s.now))
	if st.classPausedBy == nil {
		st.classPausedBy = make([]int32, len(cs.q))
	}
	n := &st.classPausedBy[c]
	switch {
	case on:
		if *n++; *n > 1 {
			return
		}
		if cs.held == 0 {
			st.heldSince = s.now
			s.armDeadlockCheck(k)
		}
		if c == cs.direct { // its frames wait in the port's queue: back to the class's
			s.demote(p, k)
		}
		cs.held |= 1 << c
		st.pausedBy++
	case *n > 0:
		if *n--; *n > 0 {
			return
		}
		cs.held &^= 1 << c
		st.pausedBy--
		if cs.held == 0 {
			st.heldTime += s.now - st.heldSince
		}
		if p.queued == 0 { // idle: the class's frames may start now
			s.startNext(p, k, s.now)
		}
		s.syncService(k)
		s.recheckIngress(s.net.portNode(k))
	}
}

// nextDeparture is the earliest departure of a frame in service at a port
// of switch node, Never if none serves.
func (s *Packet) nextDeparture(node int32) algos.Time {
	at := algos.Never
	for _, j := range s.switchPorts[node] {
		if p := s.ports[j]; p.queued > 0 && p.headDone != pendingDone {
			at = min(at, p.headDone)
		}
	}
	return at
}
