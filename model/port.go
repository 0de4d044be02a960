package model

import (
	"math"

	"qcnlab/algos"
)

// queued is a frame in the switch queue; done is when its last bit leaves.
// src is the source of a frame that leaves the network here (its path's
// last link), and ^src of one that goes on: 16 bytes, one per frame.
type queued struct {
	done  algos.Time
	bytes uint16
	end   bool // the last frame of a short flow, leaving the network here
	src   int32
}

// port is an output-queued switch port with a drop-tail buffer feeding one
// link, and the congestion point that watches it. The link serves frames in
// order at a fixed rate, so a frame's departure time is known when it is
// enqueued; departures are applied when the clock passes them.
type port struct {
	name     string
	capacity float64
	buffer   int
	cp       algos.CongestionPoint

	queue ring[queued]
	bytes int        // occupancy, including the frame on the wire
	tail  algos.Time // when the last accepted frame finishes

	svcBytes int        // frame size whose service time is cached
	svc      algos.Time // its time on the link

	// Counters over the whole run; the summary takes the differences
	// between their marks at the window's and the phases' boundaries.
	level     levelStats // since the last boundary
	sentBytes int64      // bytes that finished
	delivered []int64    // per source, bytes that left the network here
	frames    uint64     // frames that left
	exits     uint64     // frames that left the network here
	drops     int64
	dropped   int64 // bytes
	feedbacks int64
	capBits   float64    // capacity integrated up to capSince, bits
	capSince  algos.Time // when the capacity last changed
	marks     []portMark // the counters at each boundary passed
	segments  []levelSummary

	onEnd func(src int32, at algos.Time) // a short flow's last frame left the network at

	// PFC (pfc.go): xoff is MaxInt without it, so one comparison per frame
	// is all it costs.
	xoff int
	held bool // paused by the next switch: frames queue with pendingDone
	pfc  *portPFC
}

// portMark is a port's counters at a boundary.
type portMark struct {
	at                              algos.Time
	sent, drops, dropped, feedbacks int64
	delivered                       []int64
	capBits                         float64
}

func newPort(name string, capacity float64, buffer, frame int, cp algos.CongestionPoint, sources int) *port {
	p := &port{
		name: name, capacity: capacity, buffer: buffer, cp: cp,
		xoff:      math.MaxInt,
		level:     newLevelStats(float64(frame), float64(buffer)),
		delivered: make([]int64, sources),
	}
	p.marks = []portMark{p.mark(0)}
	return p
}

// mark returns the counters at t, after advance(t).
func (p *port) mark(t algos.Time) portMark {
	return portMark{at: t, sent: p.sentBytes, drops: p.drops, dropped: p.dropped, feedbacks: p.feedbacks,
		delivered: append([]int64(nil), p.delivered...),
		capBits:   p.capBits + p.capacity*float64(t-p.capSince)/float64(algos.Second)}
}

// boundary closes the stretch of time that ends at t.
func (p *port) boundary(t algos.Time) {
	p.marks = append(p.marks, p.mark(t))
	p.segments = append(p.segments, p.level.restart(t))
}

// advance applies every departure up to t and returns how many it applied.
func (p *port) advance(t algos.Time) int {
	n := 0
	for p.queue.n > 0 {
		f := p.queue.front()
		if f.done > t {
			break
		}
		p.bytes -= int(f.bytes)
		p.level.set(f.done, float64(p.bytes))
		p.sentBytes += int64(f.bytes)
		if f.src >= 0 {
			p.delivered[f.src] += int64(f.bytes)
			p.exits++
			if f.end {
				p.onEnd(f.src, f.done)
			}
		}
		p.queue.pop()
		n++
	}
	p.frames += uint64(n)
	return n
}

// arrive handles a frame arriving at time now, after advance(now): it is
// dropped if the buffer cannot hold it, and the congestion point sees it
// either way. It returns when the frame will have left (Never if dropped),
// and whether the CP filled fb for the frame's source. last says the frame
// leaves the network after this link.
func (p *port) arrive(now algos.Time, f *algos.Frame, last bool, fb *algos.Feedback) (algos.Time, bool) {
	done := algos.Never
	if p.bytes+f.Bytes <= p.buffer {
		if f.Bytes != p.svcBytes {
			p.svcBytes, p.svc = f.Bytes, algos.TransmitTime(f.Bytes, p.capacity)
		}
		done = max(now, p.tail) + p.svc
		p.tail = done
		if p.held {
			done = pendingDone
		}
		src := int32(f.Source)
		if !last {
			src = ^src
		}
		p.queue.push(queued{done: done, bytes: uint16(f.Bytes), src: src})
		p.bytes += f.Bytes
		p.level.set(now, float64(p.bytes))
	} else {
		p.drops++
		p.dropped += int64(f.Bytes)
	}
	send := p.cp.Arrive(now, f, p.bytes, fb)
	if send {
		p.feedbacks++
	}
	return done, send
}
