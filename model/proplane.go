package model

import (
	"unsafe"

	"qcnlab/algos"
)

// A frame's propagation so far, from its host's link on, is the forward
// half of the loop its congestion point's feedback, its receiver's CNP or
// ACK closes (feedback.go, control.go, transport.go). It is its flow's and
// its hop's (limiter.propTo): on a fixed route, and sprayed where every
// equal-cost path crosses the same propagation to each switch
// (topo.Routes.EvenDelays). Where sprayed paths differ, each record holds
// its own in a lane beside its ring (propLanes).

// atReceiver, as the link a frame came in by, asks propOf for its
// propagation to its receiver: its route's, and the last port's link.
const atReceiver int32 = -1

// propTo lists the propagation a frame of flow f crosses to each hop's
// port and, last, to its receiver: its host's link, then the ports of
// its route (a sprayed flow's first equal-cost path: all cross the same).
// Where sprayed paths differ it is one path's, which the lanes replace.
func (s *Packet) propTo(f flowSpec) []algos.Time {
	route := f.route
	if route == nil {
		route = s.net.routes.Path(f.host, f.dst, func(_ int, hops []int32) int32 { return hops[0] })
		for k, p := range route {
			route[k] = s.net.portOf[p]
		}
	}
	prop := make([]algos.Time, len(route)+1)
	prop[0] = s.hosts[f.host].fwd
	for k, j := range route {
		d := s.ports[j].delay
		if k == len(route)-1 {
			d = s.ports[j].exitDelay
		}
		prop[k+1] = prop[k] + d
	}
	return prop
}

// propOf is the propagation frame f of limiter l has crossed: to the port
// it enters, come in by link in (a port's index, or its host's after
// them), or, in = atReceiver, to its receiver, f being its record among
// the last port's exits.
func (s *Packet) propOf(l *limiter, f *frame, in int32) algos.Time {
	if s.lanes != nil {
		return s.laneProp(l, f, in)
	}
	if in == atReceiver {
		return l.propTo[l.hops]
	}
	return l.propTo[f.hop]
}

// propLanes hold, in a run whose sprayed frames cross propagation that
// depends on their paths, each frame record's propagation so far: a lane
// beside each ring of records (a port's link and exits, a class queue's
// onward and exits), indexed as the ring's buffer is. A lane is written
// where a record is pushed or moved from ring to ring (keepProp: enter,
// enterClasses, enterClassExit, startNext, demote) and read where its
// propagation is (laneProp), by the record's address in its ring. Code
// that moves records to another ring must move their entries too; code
// that only pushes, drops or grows a ring need not (ring.grow).
type propLanes struct {
	link, exits     []propLane   // per port
	onward, waiting [][]propLane // per port with classes, per class: its waiting frames' onward and exit records
}

// propLane is the lane beside one ring.
type propLane []algos.Time

// startLanes gives the run its propagation lanes.
func (s *Packet) startLanes() {
	ln := &propLanes{link: make([]propLane, len(s.ports)), exits: make([]propLane, len(s.ports))}
	if s.classPorts {
		ln.onward, ln.waiting = make([][]propLane, len(s.ports)), make([][]propLane, len(s.ports))
		for j, p := range s.ports {
			ln.onward[j], ln.waiting[j] = make([]propLane, len(p.cls.q)), make([]propLane, len(p.cls.q))
		}
	}
	s.lanes = ln
}

// slot is the lane's entry for record f in ring r, the lane first grown
// by doubling as r grew (ring.grow keeps each element at its index modulo
// the old size, which the copies keep).
func (ln *propLane) slot(r *ring[frame], f *frame) *algos.Time {
	if len(*ln) == 0 {
		*ln = make(propLane, len(r.buf))
	}
	for len(*ln) < len(r.buf) {
		*ln = append(*ln, *ln...)
	}
	i := (uintptr(unsafe.Pointer(f)) - uintptr(unsafe.Pointer(unsafe.SliceData(r.buf)))) / unsafe.Sizeof(frame{})
	if i >= uintptr(len(r.buf)) {
		panic("model: a frame's propagation looked up beside a ring that does not hold it")
	}
	return &(*ln)[i]
}

// keepProp sets the propagation of rec, just pushed onto r, to prop. It
// is called where the hot paths push records, and kept out of them.
//
//go:noinline
func (ln *propLane) keepProp(r *ring[frame], rec *frame, prop algos.Time) {
	*ln.slot(r, rec) = prop
}

// laneProp is propOf in a run with lanes: a frame from its host has
// crossed its host's link, any other has its record's lane entry.
func (s *Packet) laneProp(l *limiter, f *frame, in int32) algos.Time {
	switch {
	case in == atReceiver:
		pi := s.net.portOf[s.net.topo.NIC(int(l.dst))^1] // the port down to it, every path's last
		return *s.lanes.exits[pi].slot(&s.ports[pi].exits, f)
	case in >= int32(len(s.ports)):
		return s.hosts[l.host].fwd
	}
	return *s.lanes.link[in].slot(&s.ports[in].link, f)
}

// classLane is the lane of the ring a class frame's record joins at port
// pi: the port's (link or exits) if inPort, else its class queue's.
func (ln *propLanes) classLane(pi int32, exit, inPort bool, class uint8) *propLane {
	switch {
	case inPort && exit:
		return &ln.exits[pi]
	case inPort:
		return &ln.link[pi]
	case exit:
		return &ln.waiting[pi][class]
	}
	return &ln.onward[pi][class]
}

// demote is p.demote (port pi), its records' lanes moved with them.
func (s *Packet) demote(p *port, pi int32) {
	if s.lanes == nil {
		p.demote(s.ingress != nil)
		return
	}
	c := p.cls.direct
	q := &p.cls.q[c]
	link, exits, onward, waiting := p.link.n, p.exits.n, q.onward.n, q.exits.n
	p.demote(s.ingress != nil)
	moveLane(&s.lanes.link[pi], &p.link, p.link.n, link, &s.lanes.onward[pi][c], &q.onward, onward)
	moveLane(&s.lanes.exits[pi], &p.exits, p.exits.n, exits, &s.lanes.waiting[pi][c], &q.exits, waiting)
}

// moveLane copies the lane entries of from's records first..end-1 (left
// behind its tail, still in its buffer) to those of to's from at on.
func moveLane(fromLane *propLane, from *ring[frame], first, end int, toLane *propLane, to *ring[frame], at int) {
	for k := first; k < end; k++ {
		toLane.keepProp(to, to.at(at+k-first), *fromLane.slot(from, from.at(k)))
	}
}
