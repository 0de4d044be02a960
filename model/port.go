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
	// five cache lines (the ports are 64-byte aligned: TestPortLayout),
	// for they are read for every frame at every port of a fabric, which
	// is larger than the caches: a departure, then an arrival, then the
	// way on. The ports are one array (Packet.portStore), in topology
	// order, so that neighbouring ports are neighbours in memory.
	//
	// The first line is the queue's side, which an arriving frame and a
	// departure read; the second the link's, which is all that a frame
	// reaching the next switch reads of the port it left, once that port
	// is up to date (linkFrameArrives, syncLink, unwatched).
	queue ring[queued]
	// headDone is the queue's front's departure: pendingDone while it
	// waits (the port is paused), Never if the queue is empty. The frames
	// behind the front all wait.
	headDone algos.Time
	bytes    int // occupancy, including the frame on the wire
	buffer   int
	// The frames it sends on to the next switch: at the front of link,
	// those that have left, in flight; behind them the records of the
	// onward frames queued, the one in service with its arrival set, the
	// others with only their forwarding jitter (clock.go). When the scheme
	// has a notification point, exits holds, alike, the frames that leave
	// the network here on their way to their receivers (toReceivers of
	// them queued).
	link      ring[frame]
	onward    int32 // see link
	headFlags uint8 // the queue's front's flags, if it has one (syncHead)
	// odd says, in one word the hot paths test, what this port has that
	// most ports do not (portOdd...): the fields it stands for are read
	// only then, from the cold lines.
	odd   uint8
	held  bool       // paused by the next switch: no frame starts service
	svcAt algos.Time // the key of its service slot (syncService)
	// linkSeq and exitSeq are the agenda's sequence numbers for the next
	// frame to reach an empty link or receivers' stream: taken when the
	// stream was last keyed, as if the queued frame were already on its
	// way, so that ties fall as they would with its departure known early.
	linkSeq   uint64
	headBytes uint16     // the queue's front's size (syncHead)
	svcBytes  uint16     // the frame size whose service time is svc
	delay     algos.Time // its link's propagation
	svc       algos.Time
	cp        algos.CongestionPoint
	arrivals  int64      // frames that arrived: a fabric lists the ports that carried traffic
	sentBytes int64      // bytes that finished
	frames    uint64     // frames that left
	level     levelStats // since the last boundary: two whole lines, the first read at every change

	// What only some frames, or some networks, touch.
	exitCount uint64 // frames that left the network here: a frame at its last port
	// PFC (pfc.go): xoff is MaxInt without it, and read only with it
	// (portOddPFC).
	xoff        int
	toReceivers int   // see exits; read only with receivers followed (portOddReceivers)
	to          int32 // the node its link leads to: read by spraying
	// What only some frames, or some networks, touch.
	cls *classSet // its traffic classes, nil with one (classes.go; portOddClasses)
	// sw is its switch's shared buffer, nil with a buffer per port
	// (buffer.go), which comes with classes.
	sw        *switchBuffer
	dcp       algos.DepartingCP // cp, if it also acts on departures; else nil (portOddDepart)
	exits     ring[frame]
	exitDelay algos.Time // the propagation to the receivers of the frames that leave the network here
	exitSeq   uint64
	pfc       *portPFC
	inq       ring[int32] // with ingress accounting, the link each queued frame came in by (pfc_ingress.go)

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
}

// What a port has that most do not (port.odd).
const (
	portOddClasses   uint8 = 1 << iota // cls is set
	portOddDepart                      // dcp is set
	portOddReceivers                   // the frames that leave here are followed to their receivers (exits, toReceivers)
	portOddPFC                         // it pauses its feeders above xoff (pfc.go)
	// Its queue may hold both frames that leave the network here and
	// frames that go on: on a chain, whose bottlenecks a flow may leave or
	// cross. A fabric's port leads to a host, where every frame leaves,
	// or to a switch, where none does (TestFabricPortsNeverMix). Only
	// then is a departure due at its time for the other kind's stream
	// (unwatched).
	portOddMixed
)

// syncOdd sets p.odd from what the port has, once its classes are set
// up, whether the run follows frames to their receivers, and whether
// the port may mix frames that leave and go on (portOddMixed).
func (p *port) syncOdd(receivers, mixed bool) {
	p.odd = 0
	if receivers {
		p.odd |= portOddReceivers
	}
	if mixed {
		p.odd |= portOddMixed
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

// inOrder is how many frames at the front of p's queue it will serve in
// the order they are in, if nothing else arrives: all of them with one
// class; with classes the frame in service only, for the scheduler
// chooses each next as the one before departs (the frames behind it in
// the queue, classSet.direct, wait there only while its choice is
// forced, and what would not force it first moves them out).
func (p *port) inOrder() int {
	if p.classes() {
		return min(p.queue.n, 1)
	}
	return p.queue.n
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
		level: newLevelStats(float64(frame), float64(buffer)),
	}
	p.dcp, _ = cp.(algos.DepartingCP)
	p.syncOdd(false, true)
	p.headDone = algos.Never
	p.marks = []portMark{p.mark(0)}
}

// syncHead caches the queue's front (headDone, headFlags, headBytes)
// after a departure that starts no frame: the next, if there is one,
// waits (pendingDone).
func (p *port) syncHead() {
	if p.queue.n == 0 {
		p.headDone = algos.Never
		return
	}
	h := &p.queue.buf[p.queue.head]
	p.headDone, p.headFlags, p.headBytes = pendingDone, h.flags, h.bytes
}

// emptyHead caches the head of an empty queue (Never) and leaves a
// started one's: serve calls it at a port with classes after the
// scheduler's pick (startNext), which starts a frame in the empty queue,
// or none.
func (p *port) emptyHead() {
	if p.queue.n == 0 {
		p.headDone = algos.Never
	}
}

// startHead caches the queue's front as it starts service, to depart at
// done.
func (p *port) startHead(done algos.Time) {
	h := &p.queue.buf[p.queue.head]
	p.headDone, p.headFlags, p.headBytes = done, h.flags, h.bytes
}

// mark returns the counters at t, after the departures up to t. A frame
// counts as sent when it finishes, so the part of the frame on the wire
// already sent at t is marked too: the bits served in a window are then
// exact at both of its edges, and a busy link reads 1, not a frame more or
// less (it read up to 1.0008 over a 10 ms phase).
func (p *port) mark(t algos.Time) portMark {
	return portMark{at: t, sent: p.sentBytes, drops: p.drops, dropped: p.dropped, feedbacks: p.feedbacks,
		marked: p.marked, partial: p.onWire(t), capBits: p.capAt(t)}
}

// onWire is the bits of the frame on the wire at t that have been sent.
func (p *port) onWire(t algos.Time) float64 {
	if p.queue.n == 0 {
		return 0
	}
	h, done := p.queue.front(), p.headDone
	if done == pendingDone || done <= t {
		return 0
	}
	rate := p.capacity
	if done == p.wireDone {
		rate = p.oldRate
	}
	start := done - algos.TransmitTime(int(h.bytes), rate)
	if start >= t {
		return 0
	}
	return 8 * float64(h.bytes) * float64(t-start) / float64(done-start)
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
	p.segments = append(p.segments, p.level.restart(t))
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
