package model

import "qcnlab/algos"

// limiter is a flow's rate limiter and its reaction point: a chain's
// source, or one flow of a fabric host (802.1Qau keeps one rate limiter per
// flow that feedback names). The limiter earns credit at its current rate
// and releases a frame when it has earned the frame's bits, so a rate
// change in the middle of a gap stretches or shortens the rest of the gap.
// A limiter serves one greedy flow, one flow of a given size, or on a chain
// with traffic (traffic.go) several flows round robin.
type limiter struct {
	// The fields are in the order of the cache lines the hot paths read
	// (the limiters are 64-byte aligned: TestLimiterLayout): every hop's
	// first, then the ACK path's, then the host's next events' times,
	// then the release's.
	//
	// A hop reads where its frame goes next (onwardRecord), whether the
	// port is its last (enter) and, into a port with classes, the frame's
	// class (enterClasses); the host's frame enters first.
	route []int32 // the simulated ports its frames cross; nil when sprayed
	first *port   // the port of route[0], nil when sprayed
	hops  int32   // the ports a frame crosses
	dst   int32   // the receiving host, -1 on a chain
	// path holds route when it is short, as a fat-tree's and a chain's
	// are, on the hop's line (setRoute): else route is a slice of its own.
	path  [inlineHops]int32
	class uint8 // its frames' traffic class (classes.go)

	id   int32 // its index: frames and events name it so
	host int32
	tp   *transport // its transport, for an ACK-clocked scheme (transport.go); then also rp
	// ackGuard, if not 0, is the least time from a frame's arrival at its
	// receiver to its ACK's at its sender, over every flow: the frames of
	// this flow that nothing at the receiver but its ACK can tell are
	// received as they leave the last port (markEarly, transport.go).
	ackGuard algos.Time
	// The transport's ACKs on their way back, in the order they land
	// (transport.go), and the first one's time, Never if none: the host
	// runs them as its own events. As control frames, an ACK's landing is
	// known only as it leaves the last switch: the first acksLanded have
	// theirs, the rest are still in the network.
	acks       ring[ackMsg]
	ackAt      algos.Time
	ackLast    algos.Time // the newest ACK's time, while acks holds any (sendAck)
	acksLanded int32
	nextEmit   algos.Time // when the next frame leaves, Never if none

	rp      algos.ReactionPoint
	rpTimer algos.Time // rp.Timer() as last read
	timerAt algos.Time // the timer deadline scheduled in the agenda

	rate       float64    // the rate the limiter runs at
	interval   algos.Time // a whole frame's time at rate: the gap between frames
	mark       algos.Time // credit is counted from here
	credit     float64    // bits earned toward the next frame at mark
	emitted    int64      // bytes released since the start
	arrived    int64      // bytes that reached the first port of the route
	nextSerial algos.Time // the next frame's: serial but for a flow's last frame

	rpCPID    int32  // rp.CPID() as last read
	tgen      uint32 // generation of the live timer event
	greedy    bool   // it serves one greedy flow: neither fl nor sized
	hold      uint8  // holdIdle, holdPaused, holdWindow: the limiter sends nothing while set
	frameBits float64
	stop      algos.Time

	fl     *sourceFlows            // a chain source's flows, if Config.Traffic is set
	back   []int32                 // with control frames, the ports back to its host (control.go)
	np     algos.NotificationPoint // the receiver's, if the scheme has one
	sized  *sizedFlow              // the flow's size and completion, for a flow of a given size (flows.go)
	serial algos.Time              // a full frame's time on the host's link
	clock  float64                 // its host's clock: 1 + its offset (clock.go); its times run at rates times clock

	lineRate  float64
	start     algos.Time
	epoch     uint32 // bumped when a fabric's ended flow's limiter is reused: messages to the old flow are dropped
	feedbacks int64  // feedback frames received
	cnps      int64  // notifications (CNPs) received
	// propTo is the propagation its frames have crossed as they reach
	// each hop's port, from their host's link on, and, last, their
	// receiver: the forward half of the loop their feedback, CNPs and ACKs
	// close (propOf). Nil where sprayed frames' depends on their path
	// (propLanes).
	propTo []algos.Time
	_      [limiterPad]byte
}

// inlineHops is the longest route a limiter holds on its hop's line
// (path): a 3-tier fat-tree's longest, edge to edge through the core, is
// five ports. (Six would leave no room there for class.)
const inlineHops = 5

// limiterPad makes a limiter a whole number of cache lines, so that the
// allocator's size class for it starts each on a line (TestLimiterLayout).
const limiterPad = 32

// setRoute sets the ports l's frames cross, on its hop's line if they fit.
func (l *limiter) setRoute(route []int32) {
	l.route = route
	if route != nil && len(route) <= inlineHops {
		l.route = l.path[:len(route):len(route)]
		copy(l.route, route)
	}
}

// Reasons a limiter holds its frames.
const (
	holdIdle   uint8 = 1 << iota // no flow has data to send
	holdPaused                   // PFC: its host's link is paused (pfc.go)
	holdWindow                   // the transport's window is full (transport.go)
)

// settle derives what the hot path reads from what the limiter serves.
func (l *limiter) settle() {
	l.greedy = l.fl == nil && l.sized == nil
}

// clampRate keeps a scheme's rate within what the host's link can carry.
func (l *limiter) clampRate(r float64) float64 {
	if r != r || r < 0 {
		return 0
	}
	return min(r, l.lineRate)
}

// setRate changes the limiter's rate at time t (t >= the last emission),
// keeping the credit earned so far.
func (l *limiter) setRate(t algos.Time, r float64) {
	if t > l.mark {
		l.credit = min(l.frameBits, l.credit+float64(t-l.mark)*l.rate*l.clock/float64(algos.Second))
		l.mark = t
	}
	l.rate = r
	if r > 0 {
		l.interval = algos.Time(l.frameBits*float64(algos.Second)/(r*l.clock) + 0.5)
	}
	l.schedule()
}

// resume is setRate at the same rate: the credit earned to t, the next
// emission from it (after a hold changed).
func (l *limiter) resume(t algos.Time) {
	if t > l.mark {
		l.credit = min(l.frameBits, l.credit+float64(t-l.mark)*l.rate*l.clock/float64(algos.Second))
		l.mark = t
	}
	l.schedule()
}

// schedule computes nextEmit from the credit and the rate.
func (l *limiter) schedule() {
	if l.rate <= 0 || l.hold != 0 {
		l.nextEmit = algos.Never
		return
	}
	wait := l.interval // the usual case: a whole frame of credit to earn
	if l.credit != 0 {
		w := (l.frameBits - l.credit) * float64(algos.Second) / (l.rate * l.clock)
		if w > float64(algos.Never/2) {
			l.nextEmit = algos.Never
			return
		}
		wait = algos.Time(w + 0.5)
	}
	next := l.mark + wait
	if next >= l.stop || next < l.mark {
		next = algos.Never
	}
	l.nextEmit = next
}
