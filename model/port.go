package model

import "qcnlab/algos"

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

	warmup, end algos.Time
	level       levelStats
	sentBytes   int64   // bytes that finished in (warmup, end]
	delivered   []int64 // per source, bytes that left the network here in (warmup, end]
	frames      uint64  // frames that left, whole run
	exits       uint64  // frames that left the network here, whole run
	drops       int64   // in the window
	dropped     int64   // bytes, in the window
	dropsTotal  int64
	feedbacks   int64

	onEnd func(src int32, at algos.Time) // a short flow's last frame left the network at
}

func newPort(name string, capacity float64, buffer int, cp algos.CongestionPoint, sources int, warmup, end algos.Time) *port {
	return &port{
		name: name, capacity: capacity, buffer: buffer, cp: cp,
		warmup: warmup, end: end,
		level:     newLevelStats(warmup, end),
		delivered: make([]int64, sources),
	}
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
		if f.done > p.warmup && f.done <= p.end {
			p.sentBytes += int64(f.bytes)
			if f.src >= 0 {
				p.delivered[f.src] += int64(f.bytes)
			}
		}
		if f.src >= 0 {
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
		src := int32(f.Source)
		if !last {
			src = ^src
		}
		p.queue.push(queued{done: done, bytes: uint16(f.Bytes), src: src})
		p.bytes += f.Bytes
		p.level.set(now, float64(p.bytes))
	} else {
		p.dropsTotal++
		if now >= p.warmup && now <= p.end {
			p.drops++
			p.dropped += int64(f.Bytes)
		}
	}
	send := p.cp.Arrive(now, f, p.bytes, fb)
	if send {
		p.feedbacks++
	}
	return done, send
}
