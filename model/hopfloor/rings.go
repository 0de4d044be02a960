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
// array, so that 32 ports share a cache line (or, to measure what that is
// worth, one port a line, as a 64-byte port record); a queued frame is its
// 4-byte event (flow and hop) in the port's ring, with no frame record
// elsewhere. A hop is two events: the frame's departure from the port
// (state and ring head read) and its arrival at the next node (route
// read, state and ring tail written). A frame that leaves at a tick frees
// its place for one that arrives at that tick: departures go first.
//
// The agenda is either a bucket of arrivals and one of departures per
// tick (16 ticks of them: the farthest ahead is a frame time), or a 4-ary
// heap, or a calendar. The heap and the calendar can keep time in fine
// units (Fine to a tick), where the flows' phases put events off the
// tick grid, as a congestion-controlled source's would be. With
// prefetch, the loop over a bucket asks, eight events ahead, for the port
// state an event will read and, four ahead, for the ring slot that state
// points at.
type rings struct {
	fab      *Fabric
	state    []uint16 // by switch port (every stride-th): head | count<<7
	stride   uint32
	slots    []uint32  // ringSlots per switch port
	arrivals buckets   // frame events, as in stream
	departs  buckets   // switch ports whose head frame leaves then
	heap     *heap4    // instead of the buckets
	cal      *calendar // instead of the buckets, in fine time
	scale    Tick      // time units per tick: 1, or Fine with the calendar or heap in fine time
	now      Tick
	prefetch bool
	c        Counts
}

// The agendas of rings.
const (
	withBuckets = iota
	withHeap
	withCalendar
)

// newRings lays a port's state out in stride uint16s (1, or 32 for a
// line per port) and runs with an agenda, in ticks or in fine time (the
// flows' phases then count).
func newRings(f *Fabric, stride uint32, agenda int, fine, prefetch bool) Sim {
	s := &rings{fab: f, state: make([]uint16, f.Ports*int(stride)), stride: stride,
		slots: make([]uint32, f.Ports*ringSlots), scale: 1, prefetch: prefetch}
	switch agenda {
	case withHeap:
		s.heap = &heap4{}
	case withCalendar:
		s.cal = &calendar{}
	default:
		s.arrivals, s.departs = newBuckets(16), newBuckets(16)
	}
	for _, fl := range f.flows {
		if fl.Src < 0 {
			continue
		}
		start := fl.Start + Serialization
		if fine {
			s.scale = Fine
			start = start*Fine + Tick(fl.Phase)
		}
		s.schedule(start, true, uint32(fl.Src)<<hopBits|hopEmit)
	}
	return s
}

func (s *rings) schedule(t Tick, arrival bool, e uint32) {
	switch {
	case s.heap != nil:
		s.heap.push(t, arrival, e)
	case s.cal != nil:
		s.cal.push(t, arrival, e)
	case arrival:
		s.arrivals.push(t, e)
	default:
		s.departs.push(t, e)
	}
}

// depart sends port q's head frame on: its event for the next node, and
// whether a frame is left to serve.
func (s *rings) depart(q uint32) (e uint32, more bool) {
	st := uint32(s.state[q*s.stride])
	head, count := st&0x7f, st>>7
	e = s.slots[q*ringSlots+head]
	count--
	s.state[q*s.stride] = uint16((head+1)&(ringSlots-1) | count<<7)
	return e + 1, count > 0
}

// enqueue puts e's frame in port q unless q is full; idle is whether the
// port was idle and starts serving it.
func (s *rings) enqueue(q, e uint32) (accepted, idle bool) {
	st := uint32(s.state[q*s.stride])
	head, count := st&0x7f, st>>7
	if count >= BufferFrames {
		return false, false
	}
	s.slots[q*ringSlots+(head+count)&(ringSlots-1)] = e
	s.state[q*s.stride] = uint16(head | (count+1)<<7)
	return true, count == 0
}

// arrive handles a frame or host event (not a departure) at now.
func (s *rings) arrive(now Tick, e uint32) {
	hop := e & hopMask
	if hop == hopEmit {
		s.schedule(now+Propagation*s.scale, true, e&^hopMask)
		s.schedule(now+Serialization*s.scale, true, e)
		s.c.Sent++
		return
	}
	r := &s.fab.route[e>>hopBits]
	if hop > 0 {
		s.c.FrameHops++
	}
	if hop == uint32(r.n) {
		s.c.Delivered++
		return
	}
	q := uint32(r.port[hop])
	accepted, idle := s.enqueue(q, e)
	if !accepted {
		s.c.Dropped++
	} else if idle {
		s.schedule(now+Serialization*s.scale, false, q)
	}
}

func (s *rings) Run(until Tick) {
	if s.heap != nil || s.cal != nil {
		s.runSorted(until)
		return
	}
	for ; s.now < until; s.now++ {
		now := s.now
		bucket := s.departs.at(now)
		departs := *bucket
		s.c.Events += uint64(len(departs))
		for i, q := range departs {
			if s.prefetch {
				s.departsAhead(departs, i)
			}
			e, more := s.depart(q)
			s.arrivals.push(now+Propagation, e)
			if more {
				s.departs.push(now+Serialization, q)
			}
		}
		*bucket = departs[:0]

		bucket = s.arrivals.at(now)
		events := *bucket
		s.c.Events += uint64(len(events))
		for i, e := range events {
			if s.prefetch {
				s.arrivalsAhead(events, i)
			}
			s.arrive(now, e)
		}
		*bucket = events[:0]
	}
}

// runSorted runs with the heap or the calendar, in their time unit.
func (s *rings) runSorted(until Tick) {
	until *= s.scale
	for {
		var now Tick
		var arrival bool
		var e uint32
		if s.heap != nil {
			if len(s.heap.h) == 0 || s.heap.h[0].time() >= until {
				break
			}
			x := s.heap.pop()
			now, arrival, e = x.time(), x.isArrival(), x.e
		} else {
			x, ok := s.cal.next(until)
			if !ok {
				break
			}
			now, arrival, e = Tick(x.t), x.e&calArrival != 0, x.e&^calArrival
		}
		s.c.Events++
		if arrival {
			s.arrive(now, e)
			continue
		}
		next, more := s.depart(e)
		s.schedule(now+Propagation*s.scale, true, next)
		if more {
			s.schedule(now+Serialization*s.scale, false, e)
		}
	}
	s.now = until / s.scale
}

// departsAhead prefetches the port state of the departure eight ahead of
// i, and the ring head of the one four ahead.
func (s *rings) departsAhead(departs []uint32, i int) {
	if i+8 < len(departs) {
		prefetch.Line(unsafe.Pointer(&s.state[departs[i+8]*s.stride]))
	}
	if i+4 < len(departs) {
		q := departs[i+4]
		prefetch.Line(unsafe.Pointer(&s.slots[q*ringSlots+uint32(s.state[q*s.stride]&0x7f)]))
	}
}

// arrivalsAhead prefetches the port state of the arrival eight ahead of i,
// and the ring tail of the one four ahead.
func (s *rings) arrivalsAhead(events []uint32, i int) {
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
			prefetch.Line(unsafe.Pointer(&s.state[q*s.stride]))
		}
	}
	if i+4 < len(events) {
		if q, ok := port(events[i+4]); ok {
			st := uint32(s.state[q*s.stride])
			prefetch.Line(unsafe.Pointer(&s.slots[q*ringSlots+(st&0x7f+st>>7)&(ringSlots-1)]))
		}
	}
}

func (s *rings) Counts() Counts { return s.c }

func (s *rings) InFlight() uint64 {
	var n uint64
	count := func(e uint32) {
		if e&hopMask != hopEmit {
			n++
		}
	}
	if s.heap != nil {
		for _, x := range s.heap.h {
			if x.isArrival() {
				count(x.e)
			}
		}
	}
	if s.cal != nil {
		for i, b := range s.cal.b {
			for j, x := range b {
				done := Tick(i) == s.cal.cur&(calendarBuckets-1) && s.cal.sorted && j < s.cal.pos
				if x.e&calArrival != 0 && !done {
					count(x.e &^ calArrival)
				}
			}
		}
	}
	for _, b := range s.arrivals.b {
		for _, e := range b {
			count(e)
		}
	}
	for q := 0; q < len(s.state); q += int(s.stride) {
		n += uint64(s.state[q] >> 7)
	}
	return n
}

// HotBytes counts the ring slots that hold frames, not the rings' room.
func (s *rings) HotBytes() int64 {
	var queued int64
	for q := 0; q < len(s.state); q += int(s.stride) {
		queued += int64(s.state[q] >> 7)
	}
	n := int64(len(s.state))*2 + int64(len(s.fab.route))*24 + queued*4 + s.arrivals.bytes() + s.departs.bytes()
	if s.heap != nil {
		n += int64(cap(s.heap.h)) * 16
	}
	if s.cal != nil {
		n += s.cal.bytes()
	}
	return n
}
