package model

import "qcnlab/algos"

// flight is a frame on a source's access link, on its way to the first
// port of its path. It is kept small: one is pushed and popped per frame.
type flight struct {
	arrive algos.Time
	sent   algos.Time
	bytes  int32
	cpid   int32 // with flowEnd set on a short flow's last frame (traffic.go)
}

// hop is a frame on a link between two switches of a parking lot.
type hop struct {
	flight
	src int32
	pos int32 // the index in its source's path of the port it is going to
}

// source is a greedy sender behind a rate limiter (the scheme's reaction
// point). The rate limiter earns credit at its current rate and releases a
// frame when it has earned the frame's bits, so a rate change in the middle
// of a gap stretches or shortens the rest of the gap.
type source struct {
	id          int
	rp          algos.ReactionPoint
	path        []int        // the links the frames cross
	first       *port        // the port of path[0]
	fbDelay     []algos.Time // feedback delay back from each port of the path
	lineRate    float64
	fwd, bwd    algos.Time
	serial      algos.Time // a frame's time on the access link
	nextSerial  algos.Time // the next frame's: serial but for a short flow's last frame
	start, stop algos.Time
	frameBits   float64
	fl          *sourceFlows // its flows, if Config.Traffic is set
	hold        uint8        // holdIdle, ...: the limiter sends nothing while set

	rate     float64    // the rate the limiter runs at
	interval algos.Time // a whole frame's time at rate: the gap between frames
	mark     algos.Time // credit is counted from here
	credit   float64    // bits earned toward the next frame at mark
	nextEmit algos.Time // when the next frame leaves, Never if none

	rpTimer algos.Time // rp.Timer() as last read
	rpCPID  int32      // rp.CPID() as last read

	arrivalAt algos.Time // the live arrival event's time, Never if none
	timerAt   algos.Time // the timer deadline scheduled in the heap
	tgen      uint32     // generation of the live timer event

	inflight ring[flight]
	// feedback in flight from each port of the path: each comes back with
	// its own constant delay, so each is a FIFO.
	feedback []ring[algos.Feedback]

	pausedSince algos.Time // PFC: when its access link was last paused
	pausedTime  algos.Time // PFC: time paused, in the window

	emitted   int64 // bytes released since the start
	arrived   int64 // bytes that reached the first link of the path
	feedbacks int64 // feedback frames received
}

// Reasons a source's rate limiter holds its frames.
const (
	holdIdle uint8 = 1 << iota // no flow has data to send
)

// clampRate keeps a scheme's rate within what the access link can carry.
func (s *source) clampRate(r float64) float64 {
	if r != r || r < 0 {
		return 0
	}
	return min(r, s.lineRate)
}

// setRate changes the limiter's rate at time t (t >= the last emission),
// keeping the credit earned so far.
func (s *source) setRate(t algos.Time, r float64) {
	if t > s.mark {
		s.credit = min(s.frameBits, s.credit+float64(t-s.mark)*s.rate/float64(algos.Second))
		s.mark = t
	}
	s.rate = r
	if r > 0 {
		s.interval = algos.Time(s.frameBits*float64(algos.Second)/r + 0.5)
	}
	s.schedule()
}

// schedule computes nextEmit from the credit and the rate.
func (s *source) schedule() {
	if s.rate <= 0 || s.hold != 0 {
		s.nextEmit = algos.Never
		return
	}
	wait := s.interval // the usual case: a whole frame of credit to earn
	if s.credit != 0 {
		w := (s.frameBits - s.credit) * float64(algos.Second) / s.rate
		if w > float64(algos.Never/2) {
			s.nextEmit = algos.Never
			return
		}
		wait = algos.Time(w + 0.5)
	}
	next := s.mark + wait
	if next >= s.stop || next < s.mark {
		next = algos.Never
	}
	s.nextEmit = next
}

// nextArrival is when the next frame of this source reaches the switch.
func (s *source) nextArrival() algos.Time {
	if s.inflight.len() > 0 {
		return s.inflight.front().arrive
	}
	if s.nextEmit == algos.Never {
		return algos.Never
	}
	return s.nextEmit + s.nextSerial + s.fwd
}
