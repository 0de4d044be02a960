package model

import (
	"fmt"
	"math/rand/v2"

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
	if k.Quantum < 0 || k.Quantum > 1<<24 {
		bad("classes: the DWRR quantum must be from 1 B to 16 MiB")
	}
	if c.PFC != nil && k.N > 1 {
		bad("classes: PFC pauses a port's single class; several classes run without PFC")
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
// wait, in arrival order, and the records of those that go on (their
// forwarding jitter drawn as they start), until the port's scheduler
// starts them.
type classQueue struct {
	wait    ring[queued]
	onward  ring[frame] // the records of the waiting frames that go on to the next switch
	exits   ring[frame] // those of the waiting frames followed to their receivers
	inq     ring[int32] // with ingress accounting, the link each came in by
	bytes   int         // its occupancy, the frame in service included
	buffer  int
	deficit int  // DWRR: bytes it may still send this turn
	turn    bool // DWRR: its quantum for this turn is in deficit
	quantum int  // DWRR: its weight times the quantum
	cp      algos.CongestionPoint
	dcp     algos.DepartingCP
	level   levelStats

	// Whole-run counters, marked at the summary's boundaries.
	sent, drops, dropped, marked int64
	marks                        []classMark
	segments                     []levelSummary
}

// classMark is a class's counters at a boundary.
type classMark struct{ sent, drops, dropped, marked int64 }

// classSet is a port's classes, when it has more than one. The port's own
// queue then holds only the frame in service, and its link's and exits'
// tails only that frame's record: a frame moves from its class's queue to
// the port's as it starts.
type classSet struct {
	q      []classQueue
	strict int
	rr     int // DWRR: the class whose turn it is
	// waitOnward and waitExits count the waiting frames that go on and,
	// with receivers followed, that leave the network here: a departure
	// that starts one for an empty stream must run at its time
	// (syncService).
	waitOnward, waitExits int
}

// startClasses gives every port of a run with several classes its class
// queues, each with its own congestion point: class 0 keeps the port's,
// the others draw from streams of their own.
func (s *Packet) startClasses(netw *algos.Network) {
	k := s.cfg.Classes
	if k == nil || k.N < 2 {
		return
	}
	quantum := k.Quantum
	if quantum == 0 {
		quantum = s.cfg.FrameBytes
	}
	for j, p := range s.ports {
		cs := &classSet{q: make([]classQueue, k.N), strict: k.Strict}
		for c := range cs.q {
			q := &cs.q[c]
			q.buffer, q.quantum = p.buffer, quantum*k.Weights[c]
			q.level = newLevelStats(float64(s.cfg.FrameBytes), float64(p.buffer))
			q.marks = []classMark{{}}
			q.cp = p.cp
			if c > 0 {
				q.cp = s.cfg.Scheme.NewCP(algos.CPEnv{
					Network: *netw, CPID: j + 1, Capacity: p.capacity, Buffer: float64(p.buffer),
					Rand: rand.New(rand.NewPCG(s.cfg.Seed, streamCPClass+uint64(j)*MaxClasses+uint64(c))),
				}, s.cfg.Params)
			}
			q.dcp, _ = q.cp.(algos.DepartingCP)
		}
		p.cls = cs
		// The port's occupancy is its classes' together.
		p.level = newLevelStats(float64(s.cfg.FrameBytes), float64(p.buffer*k.N))
	}
}

// streamCPClass is the random stream of a port's class's congestion point
// (+ port x MaxClasses + class), for classes above 0.
const streamCPClass = 8 << 32

// arriveClass is arrive at a port with classes: the frame joins its
// class's queue, or is dropped if the class's buffer cannot hold it, and
// the class's congestion point sees it with the class's occupancy. The
// frame starts service at once if the port is idle and its class not
// paused; otherwise it waits (pendingDone) for the scheduler.
func (p *port) arriveClass(now algos.Time, f *algos.Frame, class uint8, flags uint8, fb *algos.Feedback) (algos.Time, bool) {
	p.arrivals++
	q := &p.cls.q[class]
	done := algos.Never
	if q.bytes+f.Bytes <= q.buffer {
		done = pendingDone
		e := queued{done: done, bytes: uint16(f.Bytes), lim: int32(f.Source), flags: flags, class: class}
		if p.queue.n == 0 && !p.held {
			e.done = now + p.serviceTime(f.Bytes)
			done = e.done
			p.queue.push(e)
		} else {
			q.wait.push(e)
		}
		q.bytes += f.Bytes
		p.bytes += f.Bytes
		p.level.reach(float64(p.bytes))
		p.level.set(now, float64(p.bytes))
		q.level.reach(float64(q.bytes))
		q.level.set(now, float64(q.bytes))
	} else {
		p.drops++
		p.dropped += int64(f.Bytes)
		q.drops++
		q.dropped += int64(f.Bytes)
	}
	ecn := f.ECN
	send := q.cp.Arrive(now, f, q.bytes, fb)
	if f.ECN && !ecn {
		p.marked++
		q.marked++
	}
	if send {
		p.feedbacks++
	}
	return done, send
}

// queueRecord is the slot for the record of a frame queued at port p (of
// class class) that will go on to the next switch (exit false) or is
// followed to its receiver: at the tail of the port's stream if it
// started service, else in its class's queue until it starts.
func (s *Packet) queueRecord(p *port, class uint8, exit, started bool) *frame {
	q := &p.cls.q[class]
	switch {
	case !started && !exit:
		p.cls.waitOnward++
		return q.onward.pushSlot()
	case !started:
		p.cls.waitExits++
		return q.exits.pushSlot()
	case !exit:
		p.onward++
		return p.link.pushSlot()
	}
	p.toReceivers++
	return p.exits.pushSlot()
}

// startNext starts the next frame at port p (index pi), the frame before
// it having left at done: the scheduler's pick among the classes with
// frames that are not paused. Its record moves to the tail of the stream
// it will join, its ingress link to the port's.
func (s *Packet) startNext(p *port, pi int32, done algos.Time) {
	cs := p.cls
	c := cs.pick(p.held)
	if c < 0 {
		return
	}
	q := &cs.q[c]
	h := p.queue.pushSlot()
	*h = *q.wait.front()
	q.wait.drop()
	if s.ingress != nil {
		p.inq.push(q.inq.pop())
	}
	h.done = done + p.serviceTime(int(h.bytes))
	switch {
	case h.flags&queuedExit == 0:
		r := p.link.pushSlot()
		*r = *q.onward.front()
		q.onward.drop()
		cs.waitOnward--
		p.onward++
		r.arrive = 0
		if s.jitter.max != 0 {
			r.arrive = s.jitter.draw()
		}
		s.started(p, pi, h)
	case s.receivers:
		r := p.exits.pushSlot()
		*r = *q.exits.front()
		q.exits.drop()
		cs.waitExits--
		p.toReceivers++
		s.started(p, pi, h)
	}
}

// pick is the class whose head the port serves next, -1 if none may start
// (every class empty or paused): the first strict class with frames, else
// the DWRR's, whose turn moves on when a class has no frames or its
// deficit cannot pay for its head.
func (cs *classSet) pick(held bool) int {
	if held {
		return -1
	}
	for c := 0; c < cs.strict; c++ {
		if cs.q[c].wait.n > 0 {
			return c
		}
	}
	ready := false
	for c := cs.strict; c < len(cs.q); c++ {
		if cs.q[c].wait.n > 0 {
			ready = true
			break
		}
	}
	if !ready {
		return -1
	}
	for {
		q := &cs.q[cs.rr]
		if q.wait.n > 0 {
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

// next moves the DWRR turn to the next class.
func (cs *classSet) next() {
	if cs.rr++; cs.rr == len(cs.q) {
		cs.rr = cs.strict
	}
}

// departClass counts a frame of class c leaving port p at done.
func (p *port) departClass(h *queued) {
	q := &p.cls.q[h.class]
	q.bytes -= int(h.bytes)
	q.sent += int64(h.bytes)
	q.level.set(h.done, float64(q.bytes))
}

// enterClass keeps the record of frame f of limiter l, queued at port p
// (index pi) with departure done (pendingDone while it waits), as enter
// does at a port with one class: a frame in service has its arrival set,
// a waiting one draws its forwarding jitter when it starts (startNext).
func (s *Packet) enterClass(p *port, pi int32, f *frame, l *limiter, last bool, done algos.Time) {
	started := done != pendingDone
	switch {
	case !last:
		r := s.queueRecord(p, l.class, false, started)
		*r = *f
		r.hop++
		r.prop += p.delay
		if l.route != nil {
			r.route = uint32(l.route[r.hop])
		} else {
			r.route = mixPath(f.route, pi)
		}
		r.arrive = 0
		if started {
			if s.jitter.max != 0 {
				r.arrive = s.jitter.draw()
			}
			r.arrive += done + p.delay
			if n := p.link.len(); s.jitter.max != 0 && n > 1 {
				r.arrive = max(r.arrive, p.link.at(n-2).arrive)
			}
			if p.link.len() == 1 {
				s.syncLink(pi)
			}
		}
	case s.receivers:
		r := s.queueRecord(p, l.class, true, started)
		*r = *f
		r.prop += p.exitDelay
		if started {
			r.arrive = done + p.exitDelay
			if p.exits.len() == 1 {
				s.syncReceive(pi)
			}
		}
	}
	s.syncService(pi)
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
			var lv levelSummary
			for k := from; k <= to; k++ {
				if k < len(q.segments) {
					lv.add(q.segments[k])
				} else {
					lv.add(q.level.snapshot(now))
				}
			}
			cl.QueueMean, _, _, cl.QueueMax, _ = lv.result()
			cl.Drops, cl.DroppedBytes, cl.MarkedFrames = b.drops-a.drops, b.dropped-a.dropped, b.marked-a.marked
			if span > 0 {
				cl.ThroughputBps = float64(b.sent-a.sent) * 8 / span
			}
		}
		out[c] = cl
	}
	return out
}
