package model

import "qcnlab/algos"

// CapacityChange sets the capacity of a link from a time on: seed 000
// section II asks that a scheme follow link bandwidth that swings "from
// 10 Gbps to 0.5 Gbps and back up again".
type CapacityChange struct {
	At       algos.Time
	Link     int     // index in the chain; -1 for every link
	Capacity float64 // bits per second
}

// changeCapacity applies c at s.now.
func (s *Packet) changeCapacity(c CapacityChange) {
	for j := range s.ports {
		if c.Link < 0 || c.Link == j {
			s.retime(j, c.Capacity)
		}
	}
}

// retime makes port j serve at capacity from now on. The frame on the wire
// finishes at the rate it started at; the frames queued behind it leave at
// the new rate, back to back after it. The frames among them that go on to
// the next switch are the newest on the link out of the port, whose arrival
// times move with them.
func (s *Packet) retime(j int, capacity float64) {
	p, t := s.ports[j], s.now
	s.events += uint64(p.advance(t))
	old := p.capacity
	p.capBits += old * float64(t-p.capSince) / float64(algos.Second)
	p.capSince, p.capacity, p.svcBytes = t, capacity, 0
	n := p.queue.len()
	if n == 0 {
		return
	}
	first, start := 0, t
	if f := p.queue.at(0); f.done-algos.TransmitTime(int(f.bytes), old) < t {
		first, start = 1, f.done // on the wire
	}
	onward := 0
	for k := first; k < n; k++ {
		f := p.queue.at(k)
		f.done = start + algos.TransmitTime(int(f.bytes), capacity)
		start = f.done
		if f.src < 0 {
			onward++
		}
	}
	p.tail = start
	if onward == 0 {
		return
	}
	link := &s.links[j]
	i := link.len() - onward
	for k := first; k < n; k++ {
		if f := p.queue.at(k); f.src < 0 {
			link.at(i).arrive = f.done + s.delays[j]
			i++
		}
	}
	s.syncLink(j)
}
