package model

import (
	"fmt"
	"maps"
	"math/bits"

	"qcnlab/algos"
)

// Classes are the traffic classes of every switch egress port: each class
// has its own queue, and the port's scheduler picks the class whose head
// it serves next as each frame departs. The first Strict classes are
// served by strict priority, class 0 first, before any other; the rest
// share what is left by deficit weighted round robin (Shreedhar and
// Varghese's DRR with a quantum per class of Quantum x its weight), as
// 802.1Qaz ETS shares a port among its traffic classes. With one class a
// port is the plain FIFO of the seeds.
//
// Under the per-port buffer model each class's queue is drop-tail on its
// own buffer, the port's: a class cannot crowd another out.
type Classes struct {
	N       int   // classes, 1 to MaxClasses
	Strict  int   // the first Strict classes are strict priority
	Weights []int // DWRR weight of each class (len N); those of strict classes are unused
	Quantum int   // bytes a weight of 1 earns per round; 0 for the frame size
	// Params, if set, override the scheme's parameters for each class's
	// congestion point (nil or empty for none): RED's k_min, k_max and
	// p_max per class for a scheme that marks, at enqueue or dequeue as
	// its mark_on says.
	Params []algos.Values
}

// MaxClasses is the most traffic classes a port has: 802.1Q's eight
// priorities.
const MaxClasses = 8

// validateClasses checks c.Classes and every flow's class.
func (c *Config) validateClasses(bad func(string, ...any)) {
	k := c.Classes
	if k == nil {
		return
	}
	if k.N < 1 || k.N > MaxClasses {
		bad("classes: from 1 to %d", MaxClasses)
		return
	}
	if k.Strict < 0 || k.Strict > k.N {
		bad("classes: the strict classes must be from 0 to the %d classes", k.N)
	}
	if len(k.Weights) != k.N {
		bad("classes: a weight for each of the %d classes", k.N)
	}
	for i, w := range k.Weights {
		if w < 1 || w > 1<<16 {
			bad("classes: class %d's weight must be a whole number from 1 to 65536", i)
		}
	}
	if len(k.Params) > k.N {
		bad("classes: parameters for %d classes of %d", len(k.Params), k.N)
	}
	if c.Scheme != nil {
		for i, v := range k.Params {
			if len(v) == 0 {
				continue
			}
			over := maps.Clone(c.Params)
			maps.Copy(over, v)
			if _, err := c.Scheme.Resolve(c.Network(), over); err != nil {
				bad("classes: class %d's parameters: %v", i, err)
			}
		}
	}
	if k.Quantum < 0 || k.Quantum > 1<<24 {
		bad("classes: the DWRR quantum must be from 1 B to 16 MiB")
	}
	if c.PFC != nil && k.N > 1 && !c.PFC.Ingress {
		bad("classes: PFC per class is decided per link into a switch: several classes need ingress accounting")
	}
	if c.PFC != nil && c.PFC.Lossless>>k.N != 0 {
		bad("classes: PFC's lossless classes must be among the %d classes", k.N)
	}
	inRange := func(what string, class int) {
		if class < 0 || class >= k.N {
			bad("%s: class %d is not one of the %d classes", what, class, k.N)
		}
	}
	for i, s := range c.Sources {
		inRange(fmt.Sprintf("source %d", i), s.Class)
	}
	if f := c.Fabric; f != nil {
		for i, fl := range f.Flows {
			inRange(fmt.Sprintf("flow %d", i), fl.Class)
		}
		if f.Short != nil {
			inRange("short flows", f.Short.Class)
		}
	}
}

// classCount is the number of classes of every port.
func (c *Config) classCount() int {
	if c.Classes == nil {
		return 1
	}
	return c.Classes.N
}

// classQueue is one class's queue at a port with several: the frames that
// wait, in arrival order, and the records of those that go on (each with
// the forwarding jitter it drew as it was queued), until the port's
// scheduler starts them.
type classQueue struct {
	// What every frame of the class touches, first, 64-byte aligned
	// (classQueuePad): as it departs, its occupancy, bytes sent and
	// statistics (the first cache line); as it arrives, those, its
	// congestion point, its buffer and waiting frames (the second) and
	// their onward records (the third).
	bytes   int // its occupancy, the frame in service included
	sent    int64
	cp      algos.CongestionPoint
	level   meanMax // its occupancy's mean and largest since the last boundary
	buffer  int
	wait    ring[queued] // its waiting frames, in arrival order
	deficit int          // DWRR: bytes it may still send this turn
	onward  ring[frame]  // the records of the waiting frames that go on to the next switch

	dcp     algos.DepartingCP
	turn    bool        // DWRR: its quantum for this turn is in deficit
	quantum int         // DWRR: its weight times the quantum
	exits   ring[frame] // those of the waiting frames that leave the network here
	inq     ring[int32] // with ingress accounting, the link each came in by

	// Whole-run counters, marked at the summary's boundaries (and sent).
	drops, dropped, marked int64
	marks                  []classMark
	segments               []meanMax
	_                      [classQueuePad]byte
}

// classQueuePad makes a classQueue a whole number of cache lines, so that
// each of a port's classes starts a line (TestClassQueueLayout).
const classQueuePad = 32

// classMark is a class's counters at a boundary.
type classMark struct{ sent, drops, dropped, marked int64 }

// classSet is a port's classes, when it has more than one. The port's own
// queue then holds the frame in service, and its link's and exits' tails
// that frame's record: a frame moves from its class's queue to the port's
// as it starts. Behind them wait only the direct frames (direct), while
// one class alone has frames.
type classSet struct {
	// What every frame reads, as it arrives, starts and departs (the
	// scheduler's pick, the counts of waiting frames that syncService
	// looks at), in the first 64 bytes: one cache line, the set being a
	// 128-byte object.
	q   []classQueue
	ctl *classQueue // the control queue (control.go), nil without control frames
	// waitOnward and waitExits count the waiting frames that go on and
	// that leave the network here: a departure that starts one for an
	// empty stream (with receivers followed, for the exits) must run at
	// its time (syncService). waitCtlExits, alike, the control frames
	// waiting that leave the network here.
	waitOnward, waitExits, waitCtlExits int
	held                                uint8 // PFC: the classes paused (pfc_classes.go)
	// waiting is the classes with frames waiting (bit c: q[c].wait.n > 0),
	// so that the scheduler finds them without reading every class's
	// queue, a cache line each.
	waiting    uint8
	strict     uint8 // the first strict classes are served by strict priority
	strictMask uint8 // their bits: 1<<strict - 1
	// direct is the class of the frames waiting in the port's own queue
	// behind the one in service, if it holds more than that frame: while
	// one class alone has frames, and nothing may change their order, a
	// frame that would wait in its class's queue waits there, in order,
	// and starts from there as the one before it departs, as at a port
	// with one class; its record waits at the tail of its stream. The
	// scheduler's choice is then forced (directStarts); whatever could
	// change it (a frame of another class, a control frame, a PAUSE of
	// the class) first returns them to their class's queue (demote).
	direct uint8
	// fifo keeps every waiting frame in its class's queue, the
	// scheduler choosing at each departure: the path the direct frames
	// save, which tests compare them with.
	fifo bool
	// watch: the port may mix frames that leave and go on (a chain's,
	// portOddMixed) or has control frames, so that a departure may have
	// to run at its time (mustServeClasses); never at a fabric's port
	// without control frames (TestFabricClassPortsNeverMix).
	watch bool

	rr      int // DWRR: the class whose turn it is
	demoted int // times direct frames went back to their class's queue
	// ctlArrivals is the control frames that arrived (port.framesLeft):
	// the port's arrivals are its data frames'.
	ctlArrivals int64
	// landing is the control frames that leave the network here, in
	// order: they have no record.
	landing ring[ctlLanding]
}

// startClasses gives every port of a run with several classes its class
// queues, each with its own congestion point: class 0 keeps the port's,
// the others draw from streams of their own.
func (s *Packet) startClasses(netw *algos.Network) {
	s.classes = int32(s.cfg.classCount())
	k := s.cfg.Classes
	if (s.cfg.Shared != nil || s.cfg.ControlFrames) && (k == nil || k.N < 2) { // one class, in a shared buffer or beside the control queue
		k = &Classes{N: 1, Strict: 1, Weights: []int{1}}
	} else if k == nil || k.N < 2 {
		return
	}
	s.classPorts = true
	buffers := s.startSharedBuffers()
	quantum := k.Quantum
	if quantum == 0 {
		quantum = s.cfg.FrameBytes
	}
	cps := algos.NewCPSlab(len(s.ports) * (k.N - 1)) // the classes' own CPs together
	for j, p := range s.ports {
		cs := &classSet{q: make([]classQueue, k.N), strict: uint8(k.Strict), strictMask: uint8(1<<k.Strict - 1)}
		for c := range cs.q {
			q := &cs.q[c]
			q.buffer, q.quantum = p.buffer, quantum*k.Weights[c]
			if buffers != nil { // a queue may hold the whole switch's buffer
				p.sw = buffers[s.net.portNode(int32(j))]
				q.buffer = p.sw.size
			}
			q.marks = []classMark{{}}
			q.cp = p.cp
			own := c < len(k.Params) && len(k.Params[c]) > 0
			if c > 0 || own {
				params, stream := s.cfg.Params, streamCPClass+uint64(j)*MaxClasses+uint64(c)
				if own {
					params = maps.Clone(params)
					maps.Copy(params, k.Params[c])
				}
				if c == 0 { // the port's own stream, as without classes
					stream = streamCP + uint64(j)
				}
				q.cp = s.cfg.Scheme.NewCP(algos.CPEnv{
					Network: *netw, CPID: j + 1, Capacity: p.capacity, Buffer: float64(p.buffer),
					Rand: newRand(s.cfg.Seed, stream), Slab: cps,
				}, params)
			}
			q.dcp, _ = q.cp.(algos.DepartingCP)
		}
		p.cls = cs
		if s.cfg.ControlFrames {
			cs.ctl = newControlQueue()
		}
		cs.watch = s.net.chain || cs.ctl != nil
		// The port's occupancy is its classes' together.
		p.level, p.bins = newLevelStats(float64(s.cfg.FrameBytes), float64(cs.q[0].buffer*k.N))
	}
}

// ctlLanding is a control frame that lands at its flow's host from a
// port: the flow's limiter and its message.
type ctlLanding struct{ lim, msg int32 }

// streamCPClass is the random stream of a port's class's congestion point
// (+ port x MaxClasses + class), for classes above 0.
const streamCPClass = 8 << 32

// alone reports whether a frame of class c that finds a data frame in
// service may wait in the port's own queue, a direct frame: no class has
// frames waiting, nor has the control queue, and c is not paused, so that
// the scheduler will start it next. (Behind a control frame it may not:
// one that lands at its host has no record, and the records of the
// direct frames would look like its.)
func (cs *classSet) alone(c uint8) bool {
	return cs.waiting == 0 && cs.held&(1<<c) == 0 && (cs.ctl == nil || cs.ctl.wait.n == 0) && !cs.fifo
}

// startNext starts the next frame at port p (index pi), the frame before
// it having left at done: the scheduler's pick among the classes with
// frames that are not paused. Its record moves to the tail of the stream
// it will join, its ingress link to the port's.
func (s *Packet) startNext(p *port, pi int32, done algos.Time) {
	cs := p.cls
	c := cs.pick(p.held)
	if c == pickDWRR {
		c = cs.dwrr()
	}
	if c < 0 {
		return
	}
	q := cs.queue(uint8(c))
	h := q.wait.front()
	flags, bytes := h.flags, h.bytes
	q.wait.drop()
	if q.wait.n == 0 && c != ctlClass {
		cs.waiting &^= 1 << c
	}

	if s.ingress != nil && c != ctlClass {
		p.inq.push(q.inq.pop())
	}
	// The port's queue was empty (serve, pauseClass): it is its front.
	p.queued = 1
	if p.ordered() {
		p.order.push(flags)
	}
	p.headDone, p.headFlags, p.headBytes, p.headClass = done+p.serviceTime(int(bytes)), flags, bytes, uint8(c)
	switch {
	case flags&queuedExit == 0:
		r := p.link.pushSlot()
		*r = *q.onward.front()
		if s.lanes != nil && c != ctlClass {
			s.lanes.link[pi].keepProp(&p.link, r, *s.lanes.onward[pi][c].slot(&q.onward, q.onward.front()))
		}
		q.onward.drop()
		cs.waitOnward--
		p.onward++
		s.started(p, pi) // its record holds the jitter it drew as it was queued
	case c == ctlClass:
		cs.waitCtlExits--
	default:
		r := p.exits.pushSlot()
		*r = *q.exits.front()
		if s.lanes != nil {
			s.lanes.exits[pi].keepProp(&p.exits, r, *s.lanes.waiting[pi][c].slot(&q.exits, q.exits.front()))
		}
		q.exits.drop()
		cs.waitExits--
		p.exiting++
		if s.receivers {
			s.started(p, pi)
		}
	}
}

// directStarts accounts for direct frame h as it starts at port p (serve
// starts it as a plain FIFO's): the scheduler's choice, forced, moves the
// DWRR's turn as if it had chosen it from its class's queue. Its record,
// at its place in its stream, holds the forwarding jitter it drew as it
// was queued (enterClasses).
func (s *Packet) directStarts(p *port, h *frame) {
	cs := p.cls
	p.headClass = cs.direct
	if cs.direct >= cs.strict {
		cs.dwrrAlone(int(cs.direct), int(h.bytes), int(p.queued))
	}
}

// demote returns the direct frames of port p, if it has any, to their
// class's queue, in order, with their records and, with ingress
// accounting (ingress), the links they came in by: the scheduler chooses
// again at each departure.
func (p *port) demote(ingress bool) {
	k := int(p.queued) - 1
	if k <= 0 {
		return
	}
	cs := p.cls
	q := &cs.q[cs.direct]
	// Their entries from their records, which are the tails of the
	// streams: the direct frames' kinds counted first.
	onward, exits := 0, 0
	p.eachQueued(k+1, func(i int, flags uint8, _ int) bool {
		switch {
		case i == 0:
		case flags&queuedExit == 0:
			onward++
		default:
			exits++
		}
		return true
	})
	li, ei := p.link.n-onward, p.exits.n-exits
	p.eachQueued(k+1, func(i int, flags uint8, _ int) bool {
		var r *frame
		switch {
		case i == 0:
			return true
		case flags&queuedExit == 0:
			r, li = p.link.at(li), li+1
		default:
			r, ei = p.exits.at(ei), ei+1
		}
		q.wait.push(queued{lim: r.lim, bytes: r.bytes, flags: flags, class: cs.direct})
		return true
	})
	p.queued = 1
	if p.ordered() {
		p.order.n = 1
	}
	cs.waiting |= 1 << cs.direct
	cs.demoted++
	moveTail(&p.link, &q.onward, onward)
	p.onward -= int32(onward)
	cs.waitOnward += onward
	moveTail(&p.exits, &q.exits, exits)
	p.exiting -= exits
	cs.waitExits += exits
	if ingress {
		moveTail(&p.inq, &q.inq, k)
	}
}

// moveTail moves the last n elements of from to the tail of to, in order.
func moveTail[T any](from, to *ring[T], n int) {
	for i := from.n - n; i < from.n; i++ {
		to.push(*from.at(i))
	}
	from.n -= n
}

// pick is the class whose head the port serves next, -1 if none may start
// (every class empty or paused): the first strict class with frames, else
// pickDWRR, for the DWRR's choice (dwrr). Small enough to be inlined where
// a frame departs.
func (cs *classSet) pick(held bool) int {
	if cs.ctl != nil && cs.ctl.wait.n > 0 {
		return ctlClass
	}
	if held {
		return -1
	}
	ready := cs.waiting &^ cs.held // classes with frames, not paused
	if strict := ready & cs.strictMask; strict != 0 {
		return bits.TrailingZeros8(strict) // the first strict class with frames
	}
	if ready == 0 {
		return -1
	}
	return pickDWRR
}

// pickDWRR is pick's answer when the DWRR chooses among the classes past
// the strict ones.
const pickDWRR = -2

// dwrr is the DWRR's pick among the classes past the strict ones, some
// of which have frames and are not paused: its turn moves on when a class
// has no frames or its deficit cannot pay for its head.
func (cs *classSet) dwrr() int {
	ready := cs.waiting &^ cs.held
	for {
		q := &cs.q[cs.rr]
		if ready&(1<<cs.rr) != 0 {
			if !q.turn {
				q.deficit += q.quantum
				q.turn = true
			}
			if b := int(q.wait.front().bytes); b <= q.deficit {
				c := cs.rr
				q.deficit -= b
				if q.wait.n == 1 { // it empties: DRR keeps no credit for an idle class
					q.deficit, q.turn = 0, false
					cs.next()
				}
				return c
			}
		} else {
			q.deficit = 0
		}
		q.turn = false
		cs.next()
	}
}

// dwrrAlone is dwrr when class c alone has frames and is not paused, n
// of them, the first of bytes bytes: the turn moves as dwrr would move
// it to choose c.
func (cs *classSet) dwrrAlone(c, bytes, n int) {
	for {
		q := &cs.q[cs.rr]
		if cs.rr == c {
			if !q.turn {
				q.deficit += q.quantum
				q.turn = true
			}
			if bytes <= q.deficit {
				q.deficit -= bytes
				if n == 1 {
					q.deficit, q.turn = 0, false
					cs.next()
				}
				return
			}
		} else {
			q.deficit = 0
		}
		q.turn = false
		cs.next()
	}
}

// next moves the DWRR turn to the next class.
func (cs *classSet) next() {
	if cs.rr++; cs.rr == len(cs.q) {
		cs.rr = int(cs.strict)
	}
}

// departClass counts a frame of class class and bytes bytes leaving port
// p, and returns its class's queue, whose level statistics the caller
// updates (serve, where the profile inlines the call); nil for the
// control queue, which has none.
func (p *port) departClass(class uint8, bytes int) *classQueue {
	if class == ctlClass { // the control queue: no buffer's, no summary's
		p.cls.ctl.bytes -= bytes
		return nil
	}
	q := &p.cls.q[class]
	if p.sw != nil { // before the queue shrinks: it counts what was beyond the reserve
		p.sw.leave(q, bytes)
	}
	q.bytes -= bytes
	q.sent += int64(bytes)
	return q
}

// enterClassExit keeps the record of frame f, which leaves the network
// at port p (index pi) with departure done (pendingDone while it waits):
// at the tail of the port's exits if it started or waits in the port's
// queue (a direct frame), else in its class's queue until it starts
// (startNext). The records of frames that go on are enterClasses' own.
func (s *Packet) enterClassExit(p *port, pi int32, f *frame, l *limiter, in int32, class uint8, done algos.Time) {
	to, inPort := &p.exits, done != pendingDone || p.queued > 1
	if inPort {
		p.exiting++
	} else {
		p.cls.waitExits++
		to = &p.cls.q[class].exits
	}
	r := to.pushSlot()
	*r = *f
	if s.lanes != nil {
		s.lanes.classLane(pi, true, inPort, class).keepProp(to, r, s.propOf(l, f, in)+p.exitDelay)
	}
	if done != pendingDone {
		r.arrive = done + p.exitDelay
		if s.receivers && p.exits.len() == 1 {
			s.syncReceive(pi)
		}
	}
	if p.classesUnwatched() {
		s.syncService(pi)
	}
}

// ClassSummary is one traffic class of a port over a window or a phase.
type ClassSummary struct {
	Class         int     `json:"class"`
	ThroughputBps float64 `json:"throughput_bps"` // of the frames that finished leaving
	QueueMean     float64 `json:"queue_mean_bytes"`
	QueueMax      float64 `json:"queue_max_bytes"`
	Drops         int64   `json:"drops"`
	DroppedBytes  int64   `json:"dropped_bytes"`
	MarkedFrames  int64   `json:"marked_frames,omitempty"`
}

// boundary marks every class's counters at t.
func (cs *classSet) boundary(t algos.Time) {
	for c := range cs.q {
		q := &cs.q[c]
		q.marks = append(q.marks, classMark{sent: q.sent, drops: q.drops, dropped: q.dropped, marked: q.marked})
		q.segments = append(q.segments, q.level.restart(t))
	}
}

// measure is every class's numbers over segments from to to (phases.go's
// measure), which last span seconds; passed boundaries are marked.
func (cs *classSet) measure(from, to, passed int, now algos.Time, span float64) []ClassSummary {
	out := make([]ClassSummary, len(cs.q))
	for c := range cs.q {
		q := &cs.q[c]
		a := q.marks[min(from, len(q.marks)-1)]
		b := classMark{sent: q.sent, drops: q.drops, dropped: q.dropped, marked: q.marked}
		if to < passed {
			b = q.marks[to+1]
		}
		cl := ClassSummary{Class: c}
		if from <= to {
			var sum float64
			var dur algos.Time
			for k := from; k <= to; k++ {
				seg := q.level.upTo(now)
				if k < len(q.segments) {
					seg = q.segments[k]
				}
				sum, dur = sum+seg.sum, dur+seg.last-seg.from
				cl.QueueMax = max(cl.QueueMax, seg.max)
			}
			if dur > 0 {
				cl.QueueMean = sum / float64(dur)
			}
			cl.Drops, cl.DroppedBytes, cl.MarkedFrames = b.drops-a.drops, b.dropped-a.dropped, b.marked-a.marked
			if span > 0 {
				cl.ThroughputBps = float64(b.sent-a.sent) * 8 / span
			}
		}
		out[c] = cl
	}
	return out
}

// share gives each class's queue a buffer of buffer bytes (PFC's dynamic
// thresholds: the switch's ports share their buffers).
func (cs *classSet) share(buffer, frame int) {
	for c := range cs.q {
		cs.q[c].buffer = buffer
	}
}

// meanMax follows a class's occupancy from a time on: its integral, for
// the mean, and its largest value; the port's own levelStats keeps the
// distribution. Two additions and a comparison per change.
type meanMax struct {
	last       algos.Time
	level, sum float64 // sum: byte-picoseconds up to last
	max        float64
	from       algos.Time // read only at boundaries: last
}

// set records that the level changes to level at time t.
func (m *meanMax) set(t algos.Time, level float64) {
	if t > m.last {
		m.sum += m.level * float64(t-m.last)
		m.last = t
	}
	m.level = level
	if level > m.max {
		m.max = level
	}
}

// upTo is m integrated up to t, m left as it is.
func (m *meanMax) upTo(t algos.Time) meanMax {
	c := *m
	c.set(t, c.level)
	return c
}

// restart closes the stretch up to t and starts the next from t.
func (m *meanMax) restart(t algos.Time) meanMax {
	c := m.upTo(t)
	*m = meanMax{from: t, last: t, level: c.level, max: c.level}
	return c
}
