package hopfloor

// structs is the conventional layout, for comparison: a port is a 64-byte
// record (head, count, busy flag, statistics, and the header of its ring
// of frame indices, a 400-byte array of its own with room for a full
// buffer); a frame is a 24-byte record in a slab with a free list,
// referenced by index; the agenda is a binary heap of 32-byte events
// ordered by time, kind (departures first, as in the other layouts) and
// sequence number. A hop is two events, as in rings, but reads the frame
// record as well as the port's, and each event climbs and sinks through a
// heap as large as the ports. With inline, there is no frame record: the
// ring holds a frame's 4-byte event (flow and hop) itself, as rings does,
// so that the frame record's cost can be told from the port record's.
type structs struct {
	fab      *Fabric
	ports    []portRecord
	frames   []frameRecord
	free     []int32
	heap     []event
	arrivals buckets // instead of the heap, as in rings
	departs  buckets
	seq      uint64
	now      Tick
	c        Counts
	inline   bool // frames as their events in the rings, no frame record
}

type portRecord struct {
	queue       []int32 // frame indices, a ring of BufferFrames
	head, count int32
	busy        bool
	hops, drops uint64
	queuedBytes int64
}

type frameRecord struct {
	flow, hop int32
	sent      Tick
	size      int32
	_         int32
}

const (
	kindDepart = iota // a port's head frame leaves
	kindArrive        // a frame reaches the node before its next port
	kindEmit          // a host finishes a frame
)

type event struct {
	t     Tick
	seq   uint64
	kind  int32
	port  int32
	frame int32
	_     int32
}

func newStructs(f *Fabric, heap, inline bool) Sim {
	s := &structs{fab: f, ports: make([]portRecord, f.Ports), inline: inline}
	if !heap {
		s.arrivals, s.departs = newBuckets(16), newBuckets(16)
	}
	for i := range s.ports {
		s.ports[i].queue = make([]int32, BufferFrames)
	}
	for _, fl := range f.flows {
		if fl.Src >= 0 {
			s.schedule(event{t: fl.Start + Serialization, kind: kindEmit, frame: fl.Src})
		}
	}
	return s
}

func (s *structs) less(a, b *event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}

func (s *structs) push(e event) {
	e.seq = s.seq
	s.seq++
	s.heap = append(s.heap, e)
	h := s.heap
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s.less(&h[i], &h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (s *structs) pop() event {
	h := s.heap
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s.less(&h[r], &h[l]) {
			m = r
		}
		if !s.less(&h[m], &h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	s.heap = h
	return top
}

func (s *structs) newFrame(flow int32) int32 {
	if n := len(s.free); n > 0 {
		i := s.free[n-1]
		s.free = s.free[:n-1]
		s.frames[i] = frameRecord{flow: flow, sent: s.now, size: 1500}
		return i
	}
	s.frames = append(s.frames, frameRecord{flow: flow, sent: s.now, size: 1500})
	return int32(len(s.frames) - 1)
}

// schedule puts e in the agenda: the heap, or the buckets of its tick
// (a departure's port; a host's number above bit 31, or a frame's index).
func (s *structs) schedule(e event) {
	switch {
	case s.arrivals.b == nil:
		s.push(e)
	case e.kind == kindDepart:
		s.departs.push(e.t, uint32(e.port))
	case e.kind == kindEmit:
		s.arrivals.push(e.t, 1<<31|uint32(e.frame))
	default:
		s.arrivals.push(e.t, uint32(e.frame))
	}
}

func (s *structs) Run(until Tick) {
	if s.arrivals.b != nil {
		for ; s.now < until; s.now++ {
			bucket := s.departs.at(s.now)
			for _, q := range *bucket {
				s.handle(event{t: s.now, kind: kindDepart, port: int32(q)})
			}
			*bucket = (*bucket)[:0]
			bucket = s.arrivals.at(s.now)
			for _, x := range *bucket {
				if x&(1<<31) != 0 {
					s.handle(event{t: s.now, kind: kindEmit, frame: int32(x &^ (1 << 31))})
				} else {
					s.handle(event{t: s.now, kind: kindArrive, frame: int32(x)})
				}
			}
			*bucket = (*bucket)[:0]
		}
		return
	}
	for len(s.heap) > 0 && s.heap[0].t < until {
		e := s.pop()
		s.now = e.t
		s.handle(e)
	}
	s.now = until
}

func (s *structs) handle(e event) {
	s.c.Events++
	if s.inline {
		s.handleInline(e)
		return
	}
	switch e.kind {
	case kindEmit:
		fr := s.newFrame(e.frame)
		s.schedule(event{t: e.t + Propagation, kind: kindArrive, frame: fr})
		s.schedule(event{t: e.t + Serialization, kind: kindEmit, frame: e.frame})
		s.c.Sent++
	case kindArrive:
		fr := &s.frames[e.frame]
		r := &s.fab.route[fr.flow]
		if fr.hop > 0 {
			s.c.FrameHops++
		}
		if fr.hop == r.n {
			s.c.Delivered++
			s.free = append(s.free, e.frame)
			return
		}
		p := &s.ports[r.port[fr.hop]]
		if p.count >= BufferFrames {
			p.drops++
			s.c.Dropped++
			s.free = append(s.free, e.frame)
			return
		}
		p.queue[(p.head+p.count)%BufferFrames] = e.frame
		p.count++
		p.queuedBytes += int64(fr.size)
		if !p.busy {
			p.busy = true
			s.schedule(event{t: e.t + Serialization, kind: kindDepart, port: r.port[fr.hop]})
		}
	case kindDepart:
		p := &s.ports[e.port]
		fi := p.queue[p.head]
		p.head = (p.head + 1) % BufferFrames
		p.count--
		fr := &s.frames[fi]
		p.queuedBytes -= int64(fr.size)
		p.hops++
		fr.hop++
		s.schedule(event{t: e.t + Propagation, kind: kindArrive, frame: fi})
		if p.count > 0 {
			s.schedule(event{t: e.t + Serialization, kind: kindDepart, port: e.port})
		} else {
			p.busy = false
		}
	}
}

// handleInline is handle without frame records: an event's frame is its
// flow<<hopBits | hop, and so is its entry in a port's ring.
func (s *structs) handleInline(e event) {
	switch e.kind {
	case kindEmit:
		s.schedule(event{t: e.t + Propagation, kind: kindArrive, frame: e.frame << hopBits})
		s.schedule(event{t: e.t + Serialization, kind: kindEmit, frame: e.frame})
		s.c.Sent++
	case kindArrive:
		hop := e.frame & hopMask
		r := &s.fab.route[e.frame>>hopBits]
		if hop > 0 {
			s.c.FrameHops++
		}
		if hop == r.n {
			s.c.Delivered++
			return
		}
		p := &s.ports[r.port[hop]]
		if p.count >= BufferFrames {
			p.drops++
			s.c.Dropped++
			return
		}
		p.queue[(p.head+p.count)%BufferFrames] = e.frame
		p.count++
		p.queuedBytes += 1500
		if !p.busy {
			p.busy = true
			s.schedule(event{t: e.t + Serialization, kind: kindDepart, port: r.port[hop]})
		}
	case kindDepart:
		p := &s.ports[e.port]
		f := p.queue[p.head]
		p.head = (p.head + 1) % BufferFrames
		p.count--
		p.queuedBytes -= 1500
		p.hops++
		s.schedule(event{t: e.t + Propagation, kind: kindArrive, frame: f + 1})
		if p.count > 0 {
			s.schedule(event{t: e.t + Serialization, kind: kindDepart, port: e.port})
		} else {
			p.busy = false
		}
	}
}

func (s *structs) Counts() Counts { return s.c }

func (s *structs) InFlight() uint64 {
	var n uint64
	for _, e := range s.heap {
		if e.kind == kindArrive {
			n++
		}
	}
	for _, b := range s.arrivals.b {
		for _, x := range b {
			if x&(1<<31) == 0 {
				n++
			}
		}
	}
	for _, p := range s.ports {
		n += uint64(p.count)
	}
	return n
}

// HotBytes counts the port records, the queue slots that hold frames, the
// frame slab and the heap.
func (s *structs) HotBytes() int64 {
	var queued int64
	for _, p := range s.ports {
		queued += int64(p.count)
	}
	return int64(len(s.ports))*64 + int64(len(s.fab.route))*24 + queued*4 +
		int64(cap(s.frames))*24 + int64(cap(s.heap))*32 + s.arrivals.bytes() + s.departs.bytes()
}
