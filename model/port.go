package model

import (
	"math"

	"qcnlab/algos"
)

// port is a switch's egress port: a drop-tail buffer feeding one link, and
// the congestion point that watches it. The port serves its queue in order
// at its link's rate: the frame at its head is in service, with a known
// departure (Packet.serve); the frames behind
// it start when it leaves, unless the port is paused. A frame moves onto
// the link, or to its receiver, as it departs.
type port struct {
	// The fields every frame touches come first, together, in the first
	// four cache lines (the ports are 64-byte aligned: TestPortLayout),
	// for they are read for every frame at every port of a fabric, which
	// is larger than the caches: a departure, then an arrival, then the
	// way on. The ports are one array (Packet.portStore), in topology
	// order, so that neighbouring ports are neighbours in memory.
	//
	// The first line is the link's, which is all that a frame reaching
	// the next switch reads of the port it left, once that port is up to
	// date (linkFrameArrives, syncLink, unwatched); the second the
	// queue's, which an arriving frame and a departure read with the
	// first; the third the counters, and the side of the frames that
	// leave the network here, whose records are on a cold line (exits);
	// the fourth the queue's level statistics.
	//
	// The queue is the records of its frames, in the streams they will
	// join (link and exits): a port whose frames all go on, or all leave
	// here, serves them in their stream's order; one that may mix them
	// keeps their order as well (order, portOddOrdered).
	//
	// The frames it sends on to the next switch: at the front of link,
	// those that have left, in flight; behind them the records of the
	// onward frames queued, the one in service with its arrival set, the
	// others with only their forwarding jitter (clock.go). Alike, exits
	// holds the frames that leave the network here (exiting of them
	// queued), with, when the scheme has a notification point, those on
	// their way to their receivers before them.
	link      ring[frame]
	onward    int32 // see link
	headFlags uint8 // the queue's front's flags, if it has one (serve)
	// odd says, in one word the hot paths test, what this port has that
	// most ports do not (portOdd...): the fields it stands for are read
	// only then, from the cold lines.
	odd       uint8
	held      bool       // paused by the next switch: no frame starts service
	headClass uint8      // the class of the queue's front (classes.go; ctlClass for a control frame)
	svcAt     algos.Time // the key of its service slot (syncService)
	// linkSeq and exitSeq are the agenda's sequence numbers for the next
	// frame to reach an empty link or receivers' stream: taken when the
	// stream was last keyed, as if the queued frame were already on its
	// way, so that ties fall as they would with its departure known early.
	linkSeq uint64

	queued    int32  // the frames in its queue: the one in service and those behind it
	headBytes uint16 // the queue's front's size (serve)
	svcBytes  uint16 // the frame size whose service time is svc
	// headDone is the queue's front's departure: pendingDone while it
	// waits (the port is paused), Never if the queue is empty. The frames
	// behind the front all wait.
	headDone algos.Time
	bytes    int // occupancy, including the frame on the wire
	buffer   int
	delay    algos.Time // its link's propagation
	svc      algos.Time
	cp       algos.CongestionPoint

	// arrivals is the data frames that arrived, dropped or not: a fabric
	// lists the ports that carried traffic. admitted is the bytes the
	// queue took in, control frames' too. What left, frames and bytes, is
	// derived from them (framesLeft, sent), not counted as it leaves: a
	// frame that goes on to the next switch, as four hops in five of a
	// fat-tree's do, then touches no counter at its departure.
	arrivals  int64
	admitted  int64
	exiting   int        // see exits
	exitDelay algos.Time // the propagation to the receivers of the frames that leave the network here
	exitCount uint64     // frames that left the network here: a frame at its last port
	exitSeq   uint64
	// PFC (pfc.go): xoff is MaxInt without it, and read only with it
	// (portOddPFC).
	xoff  int
	_     uint64     // room: the level statistics start the next line
	level levelStats // since the last boundary, of bytes: a whole line, touched at every change

	// What only some frames, or some networks, touch.
	exits ring[frame]
	order ring[uint8] // the queue flags of its frames, in order, at a port that keeps them
	to    int32       // the node its link leads to: read by spraying
	cls   *classSet   // its traffic classes, nil with one (classes.go; portOddClasses)
	// sw is its switch's shared buffer, nil with a buffer per port
	// (buffer.go), which comes with classes.
	sw  *switchBuffer
	dcp algos.DepartingCP // cp, if it also acts on departures; else nil (portOddDepart)
	pfc *portPFC
	inq ring[int32] // with ingress accounting, the link each queued frame came in by (pfc_ingress.go)
	// bins is the rest of level's statistics: the bins above the lowest,
	// read only while the queue is that long, and what boundaries read.
	bins levelBins

	// Counters over the whole run; the summary takes the differences
	// between their marks at the window's and the phases' boundaries.
	drops     int64
	dropped   int64 // bytes
	feedbacks int64
	marked    int64 // frames its CP marked (ECN)

	name     string
	tier     string
	capacity float64
	capBits  float64    // capacity integrated up to capSince, bits
	capSince algos.Time // when the capacity last changed
	// The frame on the wire when the capacity last changed finishes at the
	// old rate, until wireDone: the link's capacity until then is oldRate
	// (retime), so that a change cannot make a busy link read above 1.
	oldRate  float64
	wireDone algos.Time
	marks    []portMark // the counters at each boundary passed
	segments []levelSummary
	_        [portPad]byte
}

// portPad makes a port a whole number of cache lines, so that each port
// of the array starts a line (TestPortLayout).
const portPad = 16

// What a port has that most do not (port.odd).
const (
	portOddClasses   uint8 = 1 << iota // cls is set
	portOddDepart                      // dcp is set
	portOddReceivers                   // the frames that leave here are followed to their receivers (exits, exiting)
	portOddPFC                         // it pauses its feeders above xoff (pfc.go)
	// Its queue may hold both frames that leave the network here and
	// frames that go on: on a chain, at a bottleneck that flows both
	// leave and cross (network.streams). A fabric's port leads to a host,
	// where every frame leaves, or to a switch, where none does
	// (TestFabricPortsNeverMix). Only then is a departure due at its time
	// for the other kind's stream (unwatched).
	portOddMixed
	// It keeps its queue's order (order): its frames may go to both of
	// its streams in one queue, or a control frame may land here
	// (classSet.watch). Elsewhere the stream with frames queued says it.
	portOddOrdered
	// Its frames all leave the network here and are not followed to their
	// receivers, and it has no classes: its queue is its exits ring, which
	// holds nothing else, and serveLeaving serves it (the dumbbell's
	// bottleneck, a fabric's port to a host).
	portOddLeaves
)

// syncOdd sets p.odd from what the port has, once its classes are set
// up, whether the run follows frames to their receivers, whether the
// port is a chain's (mixed), and where its frames go (streams,
// network.streams). A chain's port whose frames go both ways may mix them
// (portOddMixed; one whose frames all go one way never does, as a
// fabric's). A port whose frames go both ways, or where control frames
// land (its classes watch it), keeps its queue's order (portOddOrdered);
// one whose frames all leave here, unfollowed, without classes, is served
// by serveLeaving (portOddLeaves).
func (p *port) syncOdd(receivers, mixed bool, streams uint8) {
	p.odd = 0
	if receivers {
		p.odd |= portOddReceivers
	}
	if mixed && streams == streamOnward|streamExit {
		p.odd |= portOddMixed
	}
	if streams == streamOnward|streamExit || p.cls != nil && p.cls.watch {
		p.odd |= portOddOrdered
	}
	if streams == streamExit && !receivers && p.cls == nil {
		p.odd |= portOddLeaves
	}
	if p.xoff != math.MaxInt {
		p.odd |= portOddPFC
	}
	if p.cls != nil {
		p.odd |= portOddClasses
	}
	if p.dcp != nil {
		p.odd |= portOddDepart
	}
}

// classes reports whether the port has traffic classes (cls).
func (p *port) classes() bool { return p.odd&portOddClasses != 0 }

// ordered reports whether the port keeps its queue's order (order).
func (p *port) ordered() bool { return p.odd&portOddOrdered != 0 }

// inOrder is how many frames at the front of p's queue it will serve in
// the order they are in, if nothing else arrives: all of them with one
// class; with classes the frame in service only, for the scheduler
// chooses each next as the one before departs (the frames behind it in
// the queue, classSet.direct, wait there only while its choice is
// forced, and what would not force it first moves them out).
func (p *port) inOrder() int {
	if p.classes() {
		return min(int(p.queued), 1)
	}
	return int(p.queued)
}

// portMark is a port's counters at a boundary.
type portMark struct {
	at                              algos.Time
	sent, drops, dropped, feedbacks int64
	marked                          int64
	partial                         float64 // bits of the frame on the wire already sent
	capBits                         float64
}

// newPort makes *p a port with no frame.
func newPort(p *port, name string, capacity float64, buffer, frame int, cp algos.CongestionPoint) {
	*p = port{
		name: name, capacity: capacity, buffer: buffer, cp: cp,
		xoff: math.MaxInt, svcAt: algos.Never,
	}
	p.level, p.bins = newLevelStats(float64(frame), float64(buffer))
	p.dcp, _ = cp.(algos.DepartingCP)
	p.syncOdd(false, true, streamOnward|streamExit)
	p.headDone = algos.Never
	p.marks = []portMark{p.mark(0)}
}

// waitHead caches the queue's front, which waits (pendingDone): the port
// is held.
func (p *port) waitHead() {
	r, exit := p.front()
	p.headDone, p.headFlags, p.headBytes = pendingDone, queueFlags(r, exit), r.bytes
}

// emptyHead caches the head of an empty queue (Never) and leaves a
// started one's: serve calls it at a port with classes after the
// scheduler's pick (startNext), which starts a frame in the empty queue,
// or none.
func (p *port) emptyHead() {
	if p.queued == 0 {
		p.headDone = algos.Never
	}
}

// front is the record of the frame at the front of p's queue, which
// must hold a frame that has one, and queuedExit if it leaves the network
// here (0 if it goes on): the port's order says which stream's it is, or,
// at a port that does not keep it, whichever has frames queued (its
// frames all go on, or all leave here). Small enough to be inlined: serve
// calls it for every frame.
func (p *port) front() (*frame, uint8) {
	q, k, exit := &p.link, int(p.onward), uint8(0)
	if k == 0 || p.odd&portOddOrdered != 0 && p.order.buf[p.order.head]&queuedExit != 0 {
		q, k, exit = &p.exits, p.exiting, queuedExit
	}
	return &q.buf[(q.head+q.n-k)&(len(q.buf)-1)], exit
}

// queueFlags is the queue flags of frame record r, queued at a port where
// it goes on (exit 0) or leaves the network (exit queuedExit): an onward
// frame's are its frameCtl (queuedCtl); one that leaves has queuedExit,
// and its frameEnd (queuedEnd).
func queueFlags(r *frame, exit uint8) uint8 { return exit | r.flags&(frameCtl|exit>>1) }

// join counts a frame with queue flags flags into p's queue, at its tail.
func (p *port) join(flags uint8) {
	if p.queued++; p.odd&portOddOrdered != 0 {
		p.order.push(flags)
	}
}

// popHead counts the frame at the front of p's queue out as it departs.
func (p *port) popHead() {
	if p.queued--; p.odd&portOddOrdered != 0 {
		p.order.drop()
	}
}

// headRecord is the record of the frame in service, or at the front of
// the queue, if it has one: nil for a control frame landing here.
func (p *port) headRecord() *frame {
	switch {
	case p.headFlags&queuedExit == 0:
		return p.link.at(p.link.n - int(p.onward))
	case p.headFlags&queuedCtl != 0:
		return nil
	}
	return p.exits.at(p.exits.n - p.exiting)
}

// eachQueued calls f with each of the first n frames of p's queue, in
// order, until it returns false: its queue flags and size. The front's
// are the port's (headFlags, headBytes); a port that does not keep its
// order has frames of one kind only behind it.
func (p *port) eachQueued(n int, f func(k int, flags uint8, bytes int) bool) {
	li, ei := p.link.n-int(p.onward), p.exits.n-p.exiting
	for k := range min(n, int(p.queued)) {
		flags, bytes := p.headFlags, int(p.headBytes)
		var r *frame
		switch {
		case k > 0 && p.ordered():
			flags = p.order.buf[(p.order.head+k)&(len(p.order.buf)-1)]
		case k > 0 && p.onward > 0:
			flags = p.link.at(li).flags & frameCtl
		case k > 0:
			flags = queueFlags(p.exits.at(ei), queuedExit)
		}
		switch {
		case flags&queuedExit == 0:
			r, li = p.link.at(li), li+1
		case flags&queuedCtl == 0:
			r, ei = p.exits.at(ei), ei+1
		}
		if r != nil {
			bytes = int(r.bytes)
		}
		if !f(k, flags, bytes) {
			return
		}
	}
}

// sent is the bytes that finished leaving p: what its queue took in,
// less what it holds (the frame on the wire included).
func (p *port) sent() int64 { return p.admitted - int64(p.bytes) }

// framesLeft is the frames that left p: those that arrived, less those
// dropped and those it holds, in its queue and its classes' (control
// frames, which arrivals does not count, counted by its classes).
func (p *port) framesLeft() uint64 {
	n := p.arrivals - p.drops - int64(p.queued)
	if cs := p.cls; cs != nil {
		n += cs.ctlArrivals
		for c := range cs.q {
			n -= int64(cs.q[c].wait.n)
		}
		if cs.ctl != nil {
			n -= int64(cs.ctl.wait.n)
		}
	}
	return uint64(n)
}

// mark returns the counters at t, after the departures up to t. A frame
// counts as sent when it finishes, so the part of the frame on the wire
// already sent at t is marked too: the bits served in a window are then
// exact at both of its edges, and a busy link reads 1, not a frame more or
// less (it read up to 1.0008 over a 10 ms phase).
func (p *port) mark(t algos.Time) portMark {
	return portMark{at: t, sent: p.sent(), drops: p.drops, dropped: p.dropped, feedbacks: p.feedbacks,
		marked: p.marked, partial: p.onWire(t), capBits: p.capAt(t)}
}

// onWire is the bits of the frame on the wire at t that have been sent.
func (p *port) onWire(t algos.Time) float64 {
	if p.queued == 0 {
		return 0
	}
	bytes, done := p.headBytes, p.headDone
	if done == pendingDone || done <= t {
		return 0
	}
	rate := p.capacity
	if done == p.wireDone {
		rate = p.oldRate
	}
	start := done - algos.TransmitTime(int(bytes), rate)
	if start >= t {
		return 0
	}
	return 8 * float64(bytes) * float64(t-start) / float64(done-start)
}

// capAt is the link's capacity integrated up to t, in bits: the frame on
// the wire at the last change counts at its old rate until it finishes.
func (p *port) capAt(t algos.Time) float64 {
	c := p.capBits + p.capacity*float64(t-p.capSince)/float64(algos.Second)
	if d := min(t, p.wireDone) - p.capSince; p.wireDone > p.capSince && d > 0 {
		c += (p.oldRate - p.capacity) * float64(d) / float64(algos.Second)
	}
	return c
}

// boundary closes the stretch of time that ends at t.
func (p *port) boundary(t algos.Time) {
	p.marks = append(p.marks, p.mark(t))
	p.segments = append(p.segments, p.level.restart(&p.bins, t, float64(p.bytes)))
	if p.cls != nil {
		p.cls.boundary(t)
	}
}

// serviceTime is a frame of the given size's time on the link.
func (p *port) serviceTime(bytes int) algos.Time {
	if uint16(bytes) != p.svcBytes {
		p.svcBytes, p.svc = uint16(bytes), algos.TransmitTime(bytes, p.capacity)
	}
	return p.svc
}

// departures is what left each port, frames and bytes, counted as they
// leave, as the ports did before they derived it from what arrived and
// what they hold (port.framesLeft, port.sent). Only a build for the tests
// that compare the two counts it (countingDepartures): elsewhere
// countDeparture is empty, and compiled away.
type departures struct{ frames, bytes []int64 }

// countDeparture counts a frame of bytes leaving port pi, in a build that
// counts them (-tags countdepartures) and a run a test asked to
// (Packet.counted).
func (s *Packet) countDeparture(pi int32, bytes int) {
	if countingDepartures && s.counted != nil {
		s.counted.frames[pi]++
		s.counted.bytes[pi] += int64(bytes)
	}
}
