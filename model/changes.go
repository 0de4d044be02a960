package model

import "qcnlab/algos"

// CapacityChange sets the capacity of a link from a time on: seed 000
// section II asks that a scheme follow link bandwidth that swings "from
// 10 Gbps to 0.5 Gbps and back up again".
type CapacityChange struct {
	At algos.Time
	// Link is the port: a chain's link index; on a fabric the index among
	// its switch egress ports in topology port order (link l's A->B, then
	// its B->A, hosts' NICs skipped); -1 for every port.
	Link     int
	Capacity float64 // bits per second
}

// changeCapacity applies c at s.now.
func (s *Packet) changeCapacity(c CapacityChange) {
	for j := range s.ports {
		if c.Link < 0 || c.Link == j {
			s.retime(int32(j), c.Capacity)
		}
	}
}

// retime makes port j serve at capacity from now on. The frame on the
// wire finishes at the rate it started at; one that starts now, and every
// frame after it, leaves at the new rate.
func (s *Packet) retime(j int32, capacity float64) {
	p, t := s.ports[j], s.now
	s.events += uint64(s.serve(p, j, t))
	old := p.capacity
	p.capBits = p.capAt(t)
	p.capSince, p.capacity, p.svcBytes, p.wireDone = t, capacity, 0, 0
	if p.queued == 0 {
		return
	}
	first := 0
	if p.headDone != pendingDone {
		if p.headDone-algos.TransmitTime(int(p.headBytes), old) < t { // on the wire
			first, p.oldRate, p.wireDone = 1, old, p.headDone
		} else { // it starts now, at the new rate
			was := p.headDone
			p.headDone = t + algos.TransmitTime(int(p.headBytes), capacity)
			switch {
			case p.headFlags&queuedExit == 0:
				p.link.at(p.link.len() - int(p.onward)).arrive += p.headDone - was
			case s.receivers:
				p.exits.at(p.exits.len() - p.exiting).arrive = p.headDone + p.exitDelay
			}
			s.syncService(j)
		}
	}
	// The streams that would carry the frames whose departures moved are
	// keyed again (their ties then fall as if the departures had been
	// fixed at enqueue, as linkSeq says).
	onward, exits := 0, 0
	p.eachQueued(p.inOrder(), func(k int, flags uint8, _ int) bool {
		switch {
		case k < first:
		case k > 0 && p.held || k == 0 && p.headDone == pendingDone:
			return false
		case flags&queuedExit == 0:
			onward++
		default:
			exits++
		}
		return true
	})
	if onward > 0 {
		s.syncLink(j)
	}
	if exits > 0 && s.receivers {
		s.syncReceive(j)
	}
}
