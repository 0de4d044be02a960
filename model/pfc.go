package model

import (
	"fmt"
	"math"

	"qcnlab/algos"
)

// PFC is IEEE 802.1Qbb priority flow control on every switch port, one
// priority: a port whose queue rises above Xoff pauses whatever feeds it
// (the upstream switch port of a parking lot, the access links of the
// sources whose path starts there) until it falls to Xon. Seed 000 section
// II: "when the buffer at a congested link fills up, it issues a PAUSE
// message to upstream buffers, an action which ensures packets do not get
// dropped", at the price of congestion spreading.
//
// PAUSE and its release are modelled as XOFF and XON messages (not as
// refreshed pause quanta). Each takes the hop's propagation delay back: the
// link delay between switches, a source's backward delay to the source. A
// paused port finishes the frame on the wire and sends nothing more until
// released; a paused source releases no frame from its rate limiter, which
// keeps earning credit up to one frame, as when it is idle.
type PFC struct {
	// Xoff and Xon are the queue thresholds in bytes; a negative value is
	// derived per port (DefaultPFC).
	Xoff, Xon int
}

// PFCThreshold is a port's XOFF and XON and the headroom above XOFF that
// absorbs what is in flight when it pauses its feeders.
type PFCThreshold struct {
	Xoff, Xon, Headroom int
}

// PFCThresholds resolves each port's thresholds. The headroom is one frame
// (the one that crosses XOFF) plus, for every feeder, what it can still
// send before the PAUSE reaches it and what is already on its link: its
// rate times the round trip of the hop, and two frames (the one on the wire
// when the PAUSE lands, and a rate limiter's one frame of credit). XOFF
// defaults to the buffer less the headroom, XON to XOFF less two frames.
// An error names the port whose buffer cannot hold what is asked.
func (c *Config) PFCThresholds() ([]PFCThreshold, error) {
	if c.PFC == nil {
		return nil, nil
	}
	links := c.links()
	out := make([]PFCThreshold, len(links))
	frame := c.FrameBytes
	for j, l := range links {
		room := float64(frame)
		if j > 0 {
			room += 2*links[j-1].Delay.Seconds()*links[j-1].Capacity/8 + 2*float64(frame)
		}
		for _, s := range c.Sources {
			if s.path()[0] == j {
				room += (s.ForwardDelay+s.BackwardDelay).Seconds()*s.LineRate/8 + 2*float64(frame)
			}
		}
		t := PFCThreshold{Headroom: int(math.Ceil(room))}
		t.Xoff = l.Buffer - t.Headroom
		if c.PFC.Xoff >= 0 {
			if c.PFC.Xoff > t.Xoff {
				return nil, fmt.Errorf("XOFF %d B is above port %d's buffer (%d B) less its headroom (%d B)", c.PFC.Xoff, j, l.Buffer, t.Headroom)
			}
			t.Xoff = c.PFC.Xoff
		}
		if t.Xoff < frame {
			return nil, fmt.Errorf("port %d's buffer (%d B) cannot hold its PFC headroom (%d B) and a frame below XOFF: give it a buffer of at least %d B",
				j, l.Buffer, t.Headroom, t.Headroom+2*frame)
		}
		t.Xon = max(0, t.Xoff-2*frame)
		if c.PFC.Xon >= 0 {
			t.Xon = c.PFC.Xon
		}
		if t.Xon >= t.Xoff {
			return nil, fmt.Errorf("XON %d B must be below XOFF %d B (port %d)", t.Xon, t.Xoff, j)
		}
		out[j] = t
	}
	return out, nil
}

// pendingDone is the departure of a frame queued behind a paused port: not
// known until the port is released.
const pendingDone = algos.Never - 1

// Reasons a source's rate limiter holds its frames, beyond holdIdle.
const holdPaused uint8 = 2

// portPFC is a port's PFC state.
type portPFC struct {
	xoff, xon int
	pausing   bool       // its feeders are paused (XOFF sent, XON not yet)
	since     algos.Time // when pausing began
	xonGen    uint32     // generation of the live XON check
	feeders   []int32    // sources, and ^k for upstream port k
	held      ring[hop]  // frames for the next switch held while the port is paused
	heldSince algos.Time

	// Whole-run counters, marked at the summary's boundaries as the
	// port's other counters are (phases.go).
	pauseFrames int64      // XOFF frames sent
	pausingTime algos.Time // time spent pausing, to since
	heldTime    algos.Time // time paused by the next switch, to heldSince
	marks       []pfcMark
}

// pfcMark is a port's PFC counters at a boundary.
type pfcMark struct {
	frames        int64
	pausing, held algos.Time
}

// pfcAt is port p's PFC counters at t, the current pause included.
func (p *port) pfcAt(t algos.Time) pfcMark {
	st := p.pfc
	m := pfcMark{frames: st.pauseFrames, pausing: st.pausingTime, held: st.heldTime}
	if st.pausing {
		m.pausing += t - st.since
	}
	if p.held {
		m.held += t - st.heldSince
	}
	return m
}

// pausedAt is a source's time paused up to t.
func (src *source) pausedAt(t algos.Time) algos.Time {
	if src.hold&holdPaused != 0 {
		return src.pausedTime + t - src.pausedSince
	}
	return src.pausedTime
}

// pfcBoundary marks the PFC counters at boundary t.
func (s *Packet) pfcBoundary(t algos.Time) {
	if s.cfg.PFC == nil {
		return
	}
	for _, p := range s.ports {
		p.pfc.marks = append(p.pfc.marks, p.pfcAt(t))
	}
	m := make([]algos.Time, len(s.sources))
	for i := range s.sources {
		m[i] = s.sources[i].pausedAt(t)
	}
	s.pausedMarks = append(s.pausedMarks, m)
}

// pfcMeasure fills in the PFC numbers of measure's segments from to to,
// which end at t1 and last span seconds.
func (s *Packet) pfcMeasure(from, to int, t1 algos.Time, span float64, bs []BottleneckSummary, srcs []SourceSummary) {
	if s.cfg.PFC == nil || from > to || span <= 0 {
		return
	}
	for j, p := range s.ports {
		marks := p.pfc.marks
		a, b := marks[min(from, len(marks)-1)], p.pfcAt(t1)
		if to+1 < len(marks) {
			b = marks[to+1]
		}
		bs[j].PauseFrames = b.frames - a.frames
		bs[j].PausedFraction = (b.pausing - a.pausing).Seconds() / span
		bs[j].HeldFraction = (b.held - a.held).Seconds() / span
	}
	for i := range srcs {
		a, b := s.pausedMarks[min(from, len(s.pausedMarks)-1)][i], s.sources[i].pausedAt(t1)
		if to+1 < len(s.pausedMarks) {
			b = s.pausedMarks[to+1][i]
		}
		srcs[i].PausedFraction = (b - a).Seconds() / span
	}
}

// startPFC sets every port's thresholds and feeders.
func (s *Packet) startPFC() error {
	th, err := s.cfg.PFCThresholds()
	if err != nil {
		return err
	}
	for j, p := range s.ports {
		p.pfc = &portPFC{xoff: th[j].Xoff, xon: th[j].Xon, marks: []pfcMark{{}}}
		p.xoff = th[j].Xoff
		if j > 0 {
			p.pfc.feeders = append(p.pfc.feeders, ^int32(j-1))
		}
	}
	s.pausedMarks = [][]algos.Time{make([]algos.Time, len(s.sources))}
	for i := range s.sources {
		j := s.sources[i].path[0]
		s.ports[j].pfc.feeders = append(s.ports[j].pfc.feeders, int32(i))
	}
	return nil
}

// startPausing sends XOFF to port p's feeders: its queue is above XOFF.
func (s *Packet) startPausing(j int) {
	p := s.ports[j]
	st := p.pfc
	st.pausing, st.since = true, s.now
	st.pauseFrames += int64(len(st.feeders))
	s.signal(j, 1)
	s.checkXon(j)
}

// signal sends XOFF (on = 1) or XON (on = 0) from port j to its feeders.
func (s *Packet) signal(j int, on uint32) {
	for _, f := range s.ports[j].pfc.feeders {
		if f >= 0 {
			s.rare.push(event{at: s.now + s.sources[f].bwd, src: f, gen: on, kind: evPause})
		} else {
			s.rare.push(event{at: s.now + s.delays[^f], src: f, gen: on, kind: evPause})
		}
	}
}

// checkXon schedules the check of port j's queue at the departure that
// will take it to XON, if no more frames arrive; none while the port is
// itself paused (its release schedules one).
func (s *Packet) checkXon(j int) {
	p := s.ports[j]
	st := p.pfc
	st.xonGen++
	b := p.bytes
	for k := 0; k < p.queue.len(); k++ {
		q := p.queue.at(k)
		if q.done == pendingDone {
			return
		}
		b -= int(q.bytes)
		if b <= st.xon {
			s.rare.push(event{at: max(q.done, s.now), src: int32(j), gen: st.xonGen, kind: evXon})
			return
		}
	}
}

// xonCheck runs port j's scheduled check: below XON, its feeders are
// released; otherwise frames arrived meanwhile and the check moves on.
func (s *Packet) xonCheck(j int, gen uint32) {
	p := s.ports[j]
	st := p.pfc
	if gen != st.xonGen || !st.pausing {
		return
	}
	s.events += uint64(p.advance(s.now))
	if p.bytes > st.xon {
		s.checkXon(j)
		return
	}
	st.pausing = false
	st.pausingTime += s.now - st.since
	s.signal(j, 0)
}

// pauseArrives handles an XOFF (on) or XON reaching feeder f.
func (s *Packet) pauseArrives(f int32, on bool) {
	s.events++
	if f >= 0 {
		src := &s.sources[f]
		s.catchUp(src, s.now) // frames released before the PAUSE landed are on their way
		if on {
			src.hold |= holdPaused
			src.pausedSince = s.now
			src.schedule()
		} else {
			src.hold &^= holdPaused
			src.pausedTime += s.now - src.pausedSince
			src.setRate(max(s.now, src.mark), src.rate) // credit earned while paused, up to a frame
		}
		s.syncTimer(src)
		s.syncArrival(src)
		return
	}
	if on {
		s.holdPort(int(^f))
	} else {
		s.releasePort(int(^f))
	}
}

// holdPort pauses port k: the frame on the wire finishes, the frames
// behind it lose their departure times, and those bound for the next
// switch are taken back off the link into the port.
func (s *Packet) holdPort(k int) {
	p := s.ports[k]
	st := p.pfc
	s.events += uint64(p.advance(s.now))
	p.held, st.heldSince = true, s.now
	first := 0
	if p.queue.len() > 0 {
		if q := p.queue.front(); q.done-algos.TransmitTime(int(q.bytes), p.capacity) < s.now {
			first = 1 // on the wire
		}
	}
	onward := 0
	for i := first; i < p.queue.len(); i++ {
		q := p.queue.at(i)
		q.done = pendingDone
		if q.src < 0 {
			onward++
		}
	}
	link := &s.links[k]
	for i := link.len() - onward; i < link.len(); i++ {
		st.held.push(*link.at(i))
	}
	for range onward {
		link.popBack()
	}
	p.tail = s.now
	if first == 1 {
		p.tail = p.queue.front().done
	}
	s.syncLink(k)
}

// releasePort resumes port k's service where it stopped.
func (s *Packet) releasePort(k int) {
	p := s.ports[k]
	st := p.pfc
	s.events += uint64(p.advance(s.now))
	p.held = false
	st.heldTime += s.now - st.heldSince
	p.tail = s.now
	if p.queue.len() > 0 && p.queue.front().done != pendingDone {
		p.tail = p.queue.front().done // still on the wire
	}
	for i := 0; i < p.queue.len(); i++ {
		q := p.queue.at(i)
		if q.done != pendingDone {
			continue
		}
		p.tail += algos.TransmitTime(int(q.bytes), p.capacity)
		q.done = p.tail
		if q.src < 0 {
			h := st.held.pop()
			h.arrive = q.done + s.delays[k]
			s.links[k].push(h)
		}
	}
	s.syncLink(k)
	if st.pausing {
		s.checkXon(k)
	}
}
