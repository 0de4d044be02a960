package hopfloor

// stream is the leanest layout: a port is one int32, the tick its last
// accepted frame leaves. All frames are the same size and every port
// serves at the same rate, so a FIFO port is a stream of departures a
// frame time apart: an arriving frame's departure is known when it
// arrives (max(now, busy)+Serialization), and the frames in the port at
// tick t are ceil((busy-t)/Serialization), those not yet gone (a frame
// leaving at t is gone for one arriving at t). A frame then lives only in
// the agenda, as the event of its arrival at the next node, scheduled
// when it joins a port: one event per hop, and a hop reads one event (in
// memory order), one route (24 bytes) and one port (4 bytes). This only
// holds for drop-tail FIFOs of equal frames with no pause: it is the floor
// of the work, not a general engine.
type stream struct {
	fab    *Fabric
	busy   []int32 // by switch port: the tick its last accepted frame leaves
	agenda buckets
	now    Tick
	c      Counts
}

func newStream(f *Fabric) Sim {
	// The farthest ahead: a full queue's wait, a frame time and a link.
	s := &stream{fab: f, busy: make([]int32, f.Ports), agenda: newBuckets(1024)}
	for _, fl := range f.flows {
		if fl.Src >= 0 {
			s.agenda.push(fl.Start+Serialization, uint32(fl.Src)<<hopBits|hopEmit)
		}
	}
	return s
}

func (s *stream) Run(until Tick) {
	if until >= 1<<31 {
		panic("hopfloor: ports keep their ticks in 31 bits")
	}
	routes, busy := s.fab.route, s.busy
	c := s.c
	for ; s.now < until; s.now++ {
		now := s.now
		bucket := s.agenda.at(now)
		events := *bucket
		c.Events += uint64(len(events))
		for _, e := range events {
			hop := e & hopMask
			if hop == hopEmit {
				s.agenda.push(now+Propagation, e&^hopMask)
				s.agenda.push(now+Serialization, e)
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
			q := r.port[hop]
			b := Tick(busy[q])
			// More than 99 frame times of work ahead: 100 frames there.
			if b-now > (BufferFrames-1)*Serialization {
				c.Dropped++
				continue
			}
			leave := max(b, now) + Serialization
			busy[q] = int32(leave)
			s.agenda.push(leave+Propagation, e+1)
		}
		*bucket = events[:0]
	}
	s.c = c
}

func (s *stream) Counts() Counts { return s.c }

func (s *stream) InFlight() uint64 {
	var n uint64
	for _, b := range s.agenda.b {
		for _, e := range b {
			if e&hopMask != hopEmit {
				n++
			}
		}
	}
	return n
}

func (s *stream) HotBytes() int64 {
	return int64(len(s.busy))*4 + int64(len(s.fab.route))*24 + s.agenda.bytes()
}
