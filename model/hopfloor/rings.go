package hopfloor

import (
	"unsafe"

	"qcnlab/model/prefetch"
)

// ringSlots is a port's ring of queued frames: the next power of two
// above BufferFrames.
const ringSlots = 128

// rings is the lean general layout, the shape an engine with congestion
// points and pause needs: a port owns a FIFO of its frames and its
// service is an event (a departure a frame time after the previous one).
// A port's state is 2 bytes (ring head and count, 7 bits each) in one
// array, so that 32 ports share a cache line; a queued frame is its
// 4-byte event (flow and hop) stored in the port's ring, with no frame
// record elsewhere; the agenda is one bucket of arrivals and one of
// departures per tick, departures first, so a frame that leaves at t
// frees its place for one that arrives at t. A hop is two events: the
// frame's departure from the port (ring head read) and its arrival at the
// next node (route read, port state and ring tail written).
//
// With prefetch, the loop over a bucket asks, eight events ahead, for the
// port state the event will read and, four ahead, for the ring slot that
// state points at (the arrival's tail, the departure's head).
type rings struct {
	fab      *Fabric
	state    []uint16 // by switch port: head | count<<7
	slots    []uint32 // ringSlots per switch port
	arrivals buckets  // frame events, as in stream
	departs  buckets  // switch ports whose head frame leaves then
	now      Tick
	prefetch bool
	c        Counts
}

func newRings(f *Fabric, prefetch bool) Sim {
	s := &rings{fab: f, state: make([]uint16, f.Ports), slots: make([]uint32, f.Ports*ringSlots), prefetch: prefetch}
	for _, fl := range f.flows {
		if fl.Src >= 0 {
			s.arrivals.push(fl.Start+Serialization, uint32(fl.Src)<<hopBits|hopEmit)
		}
	}
	return s
}

func (s *rings) Run(until Tick) {
	routes, state, slots := s.fab.route, s.state, s.slots
	c := s.c
	for ; s.now < until; s.now++ {
		now := s.now
		bucket := &s.departs.b[now&(horizon-1)]
		departs := *bucket
		c.Events += uint64(len(departs))
		for i, q := range departs {
			if s.prefetch {
				if i+8 < len(departs) {
					prefetch.Line(unsafe.Pointer(&state[departs[i+8]]))
				}
				if i+4 < len(departs) {
					p := departs[i+4]
					prefetch.Line(unsafe.Pointer(&slots[p*ringSlots+uint32(state[p]&0x7f)]))
				}
			}
			st := uint32(state[q])
			head, count := st&0x7f, st>>7
			e := slots[q*ringSlots+head]
			count--
			state[q] = uint16((head+1)&(ringSlots-1) | count<<7)
			s.arrivals.push(now+Propagation, e+1)
			if count > 0 {
				s.departs.push(now+Serialization, q)
			}
		}
		*bucket = departs[:0]

		bucket = &s.arrivals.b[now&(horizon-1)]
		events := *bucket
		c.Events += uint64(len(events))
		for i, e := range events {
			if s.prefetch {
				s.ahead(events, i)
			}
			hop := e & hopMask
			if hop == hopEmit {
				s.arrivals.push(now+Propagation, e&^hopMask)
				s.arrivals.push(now+Serialization, e)
				c.Sent++
				continue
			}
			r := &routes[e>>hopBits]
			if hop > 0 {
				c.FrameHops++
			}
			if hop == uint32(r.n) {
				c.Delivered++
				continue
			}
			q := uint32(r.port[hop])
			st := uint32(state[q])
			head, count := st&0x7f, st>>7
			if count >= BufferFrames {
				c.Dropped++
				continue
			}
			slots[q*ringSlots+(head+count)&(ringSlots-1)] = e
			count++
			state[q] = uint16(head | count<<7)
			if count == 1 {
				s.departs.push(now+Serialization, q)
			}
		}
		*bucket = events[:0]
	}
	s.c = c
}

// ahead prefetches, for the arrival events eight and four ahead of i, the
// port state and the ring's tail slot they will write.
func (s *rings) ahead(events []uint32, i int) {
	port := func(e uint32) (uint32, bool) {
		hop := e & hopMask
		if hop == hopEmit {
			return 0, false
		}
		r := &s.fab.route[e>>hopBits]
		if hop == uint32(r.n) {
			return 0, false
		}
		return uint32(r.port[hop]), true
	}
	if i+8 < len(events) {
		if q, ok := port(events[i+8]); ok {
			prefetch.Line(unsafe.Pointer(&s.state[q]))
		}
	}
	if i+4 < len(events) {
		if q, ok := port(events[i+4]); ok {
			st := uint32(s.state[q])
			prefetch.Line(unsafe.Pointer(&s.slots[q*ringSlots+(st&0x7f+st>>7)&(ringSlots-1)]))
		}
	}
}

func (s *rings) Counts() Counts { return s.c }

func (s *rings) InFlight() uint64 {
	var n uint64
	for _, b := range s.arrivals.b {
		for _, e := range b {
			if e&hopMask != hopEmit {
				n++
			}
		}
	}
	for _, st := range s.state {
		n += uint64(st >> 7)
	}
	return n
}

// HotBytes counts the ring slots that hold frames, not the rings' room.
func (s *rings) HotBytes() int64 {
	var queued int64
	for _, st := range s.state {
		queued += int64(st >> 7)
	}
	return int64(len(s.state))*2 + int64(len(s.fab.route))*24 + queued*4 + s.arrivals.bytes() + s.departs.bytes()
}
