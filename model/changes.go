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

// retime makes port j serve at capacity from now on. The frame on the wire
// finishes at the rate it started at; the frames queued behind it leave at
// the new rate, back to back after it. The frames among them that go on to
// the next switch are the newest on the port's link, whose arrival times
// move with them (and so do those followed to their receivers).
func (s *Packet) retime(j int32, capacity float64) {
	p, t := s.ports[j], s.now
	s.events += uint64(s.depart(p, t))
	old := p.capacity
	p.capBits = p.capAt(t)
	p.capSince, p.capacity, p.svcBytes, p.wireDone = t, capacity, 0, 0
	n := p.queue.len()
	if n == 0 {
		return
	}
	first, start := 0, t
	if f := p.queue.at(0); f.done-algos.TransmitTime(int(f.bytes), old) < t {
		first, start = 1, f.done // on the wire
		if f.done != pendingDone {
			p.oldRate, p.wireDone = old, f.done
		}
	}
	onward, exits := 0, 0
	for k := first; k < n; k++ {
		f := p.queue.at(k)
		if f.done == pendingDone { // held by PFC: released at the new rate
			continue
		}
		f.done = start + algos.TransmitTime(int(f.bytes), capacity)
		start = f.done
		if f.flags&queuedExit == 0 {
			onward++
		} else {
			exits++
		}
	}
	if !p.held {
		p.tail = start
	}
	if onward > 0 {
		s.moveArrivals(p, &p.link, first, onward, false, p.delay)
		s.syncLink(j)
	}
	if exits > 0 && s.receivers {
		s.moveArrivals(p, &p.exits, first, exits, true, p.exitDelay)
		s.syncReceive(j)
	}
}

// moveArrivals sets the arrival of the newest n frames of link, queued at p
// from index first on (exits or onward ones), to their new departures plus
// the propagation d.
func (s *Packet) moveArrivals(p *port, link *ring[frame], first, n int, exits bool, d algos.Time) {
	i := link.len() - n
	for k := first; k < p.queue.len(); k++ {
		if f := p.queue.at(k); (f.flags&queuedExit != 0) == exits && f.done != pendingDone {
			link.at(i).arrive = f.done + d
			i++
		}
	}
}
