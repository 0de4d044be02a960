package model

import (
	"qcnlab/algos"
)

// The transport layer of the ACK-clocked schemes (algos.Sender): it sits
// between a flow's rate limiter and its scheme, deciding what is sent,
// resent and acknowledged, while the scheme decides how much may be in
// flight (a window) and how fast (a pacing rate).
//
// A flow's bytes are numbered from 0; each data frame carries the index of
// its first byte's frame (seq / frame size) in the frame's CPID field, which
// the ACK-clocked schemes do not use. The receiver (transportReceive) keeps
// the next byte it expects and acknowledges as the HPCC code's NIC does
// (ReceiverCheckSeq, rdma-hw.cc:453-480): an in-order frame that carries
// the cumulative sequence past the next multiple of ack_every bytes is
// acknowledged; an out-of-order frame is answered with a NACK; a duplicate
// is not answered. The first milestone is ack_every (the HPCC code's
// m_milestone_rx starts there).
//
// A sender that can send nothing more until an ACK comes asks for one, as
// RoCE's AckReq bit on a message's last packet and TCP's immediate ACK of
// what a receiver holds back do: its message's last frame, and a frame
// after which the window lets no new one go, carry a flag (the frame stays
// the same size). The receiver answers such a frame at once, a duplicate
// too, if it holds bytes in order that no ACK has reported; else a window
// below ack_every would wait for a milestone it never reaches. (The HPCC
// code also acknowledges each m_chunk boundary the sequence reaches, in
// ReceiverCheckSeq, which bounds the wait when L2_CHUNK_SIZE is set.) With
// ack_every at most a frame every frame in order is acknowledged, and the
// flag changes nothing.
//
// An ACK carries the cumulative sequence, the ECN echo
// and send time of the frame that triggered it and, for a telemetry sender,
// the INT each egress port stamped on that frame as it left.
//
// ACKs travel the reverse of the data's path in a class of their own, as the
// references send them (the HPCC code's RdmaEnqueueHighPrioQ). On a fabric
// routed by ECMP with control frames (Config.ControlFrames, the default
// there for these schemes) an ACK or NACK is a 64 B control frame
// (control.go): it crosses the receiver's link (its propagation and its
// transmission: the receiver's NIC does not queue it behind its own data),
// then queues at each switch port of the reverse path in the control
// queue, served before every class, never paused or dropped, waits for
// the frame on the wire and for other control frames, takes the reverse
// links' capacity and is counted there, and lands at the sender as it
// leaves the last switch (sendAckFrame, ackFrameLands). On a chain, whose
// reverse ports are not simulated, and on a sprayed fabric, whose frames
// have no route to reverse, an ACK takes the reverse path's propagation
// and its own transmission on each link, never queued, dropped or charged
// to the reverse links.
//
// Loss recovery (Transport.Recovery): go-back-N rewinds the next byte to
// send to the cumulative ACK on a NACK or a timeout (RecoverQueue,
// rdma-hw.cc:495-497); selective repeat keeps the receiver's out-of-order
// frames, and the sender resends only the frames below the highest one a
// NACK reported that have not been reported, each once per recovery
// episode (IRN, Mishra et al., SIGCOMM 2018); none resends nothing and the
// receiver acknowledges the highest byte it has, so a lost frame counts as
// done, as the open-loop schemes' flows do. A retransmission timer (RFC
// 6298: srtt + 4 rttvar, at least rto_min, doubled at each expiry up to
// 64 times) covers the losses no NACK reports.
//
// A flow of a given size with recovery completes when its receiver has
// every byte; its sender then stops (the last ACK would reach it half a
// round trip later, which changes nothing the summary shows).

// Recovery is a transport's loss recovery.
type Recovery uint8

const (
	RecoveryGoBackN   Recovery = iota // resend from the first byte not acknowledged
	RecoverySelective                 // resend only the frames reported missing (IRN)
	RecoveryNone                      // resend nothing: a lost frame is lost
)

// Recoveries are the recovery names, in the order of the constants.
var Recoveries = []string{"go_back_n", "selective", "none"}

func (r Recovery) String() string { return Recoveries[r] }

// Transport configures the transport layer of the ACK-clocked schemes, and
// of the rate-based schemes when RateSchemes is set.
type Transport struct {
	// AckEvery: the receiver acknowledges when its cumulative sequence
	// passes each multiple of AckEvery bytes (the HPCC code's
	// L2_ACK_INTERVAL; its run.py sets 1: every frame), and at once a
	// frame whose sender asks for an ACK (a message's last, one that
	// fills its window). 0 is 1.
	AckEvery int64
	Recovery Recovery
	// RTOMin is the least retransmission timeout; 0 is DefaultRTOMin.
	RTOMin algos.Time
	// RateSchemes runs the rate-based schemes (the 802.1Qau family,
	// DCQCN) over the transport too, with Recovery go-back-N or selective:
	// the scheme's reaction point still sets the rate from its feedback,
	// and the transport acknowledges, resends what is lost and completes a
	// sized flow only when every byte arrived. False (the default), or
	// Recovery none: they run open loop, as their seeds' sources do.
	RateSchemes bool
}

// DefaultRTOMin is the least retransmission timeout by default: 1 ms, a
// data-center setting (Linux's 200 ms is the wide area's; the HPCC code has
// no timer and relies on NACKs).
const DefaultRTOMin = algos.Millisecond

// AckBytes is an ACK frame's size: a minimum Ethernet frame, as the HPCC
// code pads its ACKs (rdma-hw.cc:324).
const AckBytes = 64

// nackInterval is how long the receiver waits before it answers the same
// gap with another NACK: the HPCC code's default (rdma-hw.cc:37-41).
const nackInterval = 500 * algos.Microsecond

// maxINTHops is the most switch ports whose telemetry an ACK carries.
const maxINTHops = 8

// maxBackoff bounds the doubling of the retransmission timeout.
const maxBackoff = 64

// transport is the transport state of one flow: its sender's half (what is
// sent and acknowledged, the retransmission timer) and its receiver's.
// It is the flow's limiter's reaction point: the limiter reads its rate and
// its timer as it reads any scheme's.
type transport struct {
	// The fields a frame touches come first, in the order its sender, its
	// ACK and its receiver read them, a few cache lines for the many a
	// transport has; 448 bytes, a size the allocator aligns to its lines.
	//
	// rp is a rate-based scheme's reaction point (Transport.RateSchemes):
	// it sets the rate, the transport only numbers, acknowledges and
	// resends; nil for an ACK-clocked scheme, whose sender decides.
	rp algos.ReactionPoint
	// rpT is rp.Timer() as last read, after the reaction point's feedback,
	// expiry and a transmission that changed it (the ReactionPoint
	// contract); Never without one.
	rpT algos.Time
	// Sender: the next new byte (snd_nxt), the cumulative ACK (snd_una),
	// the highest byte sent.
	nxt, una, high int64
	rtoAt          algos.Time
	srtt, rttvar   algos.Time
	backoff        int64
	rtoMin         algos.Time
	recover        int64 // selective repeat: the byte whose acknowledgement ends the episode (0: none)
	sndSeq, sndK   int64 // the byte that follows the frame sent last, and its frame index
	acks           int64
	frame          int64 // the data frame size
	size           int64 // bytes to send; 0: greedy
	mode           Recovery
	done           bool // the receiver has every byte: the flow is over
	// Receiver.
	tailSlow bool  // one of its frames in its last port's deliveries is foreseen not to be received early
	inNet    int   // frames sent and neither received nor dropped
	queuedN  int   // its frames in its last port's deliveries (receiveQueued)
	tailK    int64 // the frame index that follows them
	rcvK     int64 // rcvNxt's frame index if it starts a frame, else -1 (markEarly)
	rcvNxt   int64 // the next byte expected (none: the highest byte received)
	// lose, in tests, says a frame is lost on its way to the receiver.
	lose      func(index int64) bool
	milestone int64
	acked     int64      // the cumulative sequence the receiver's last ACK or NACK carried
	early     int64      // receipts taken as their frames left the last port (markEarly)
	ackEvery  int64      // Transport.AckEvery
	ackBack   algos.Time // an ACK's way back, but for the data's propagation: its host's back less forth, and an ACK's transmission on its path
	// INT: per frame index modulo len/hops, per hop, what the egress
	// ports stamped (telemetry senders only).
	ints  []algos.Hop
	intN  int // the ring's frames, a power of two: len(ints) / nhops
	nhops int

	retx   int64 // bytes resent
	s      *Packet
	l      *limiter
	sender algos.Sender
	// Selective repeat: the frames NACKs reported received (sacked), the
	// highest of them, and the episode: the next frame to consider for a
	// resend and the frame it resends up to (recover above).
	sacked        seqBits
	highSack      int64 // frame index past the highest sacked, 0 none
	cursor, limit int64 // frame indices
	lineRate      float64
	baseRTT       algos.Time
	nackAt        algos.Time
	lastNack      int64
	rcvd          seqBits // selective: the frames received beyond rcvNxt
	timeouts      int64
	nacks         int64
}

// ackMsg is an ACK or NACK in flight back to its sender, in its flow's
// limiter's FIFO: 40 bytes, for it is written and read once per frame; the
// telemetry it carries, if any, waits in Packet.ackINT.
type ackMsg struct {
	at    algos.Time // when it reaches the sender
	seq   int64      // cumulative
	sack  int64      // selective NACK: the frame index that arrived out of order; -1 none
	sent  algos.Time
	ints  int32 // its telemetry's slot in Packet.ackINT, -1 none
	ece   bool
	nack  bool
	nhops uint8
}

// ackINT is the telemetry of one ACK.
type ackINT [maxINTHops]algos.Hop

// transportOn says the scheme's flows run over the transport layer: an
// ACK-clocked scheme's always, a rate-based one's when asked to recover.
func (c *Config) transportOn() bool {
	return c.Scheme != nil && (c.Scheme.NeedsTransport() || c.rateTransport())
}

// rateTransport says a rate-based scheme's flows run over the transport.
func (c *Config) rateTransport() bool {
	return c.Transport.RateSchemes && c.Transport.Recovery != RecoveryNone && !c.Scheme.NeedsTransport()
}

// newTransport builds the transport of limiter l, flow f, with its
// scheme's sender, or around rp, a rate-based scheme's reaction point.
func (s *Packet) newTransport(l *limiter, f flowSpec, netw *algos.Network, stream uint64, rp algos.ReactionPoint) *transport {
	cfg := &s.cfg
	tp := &transport{s: s, l: l, rp: rp, rpT: algos.Never, mode: cfg.Transport.Recovery, ackEvery: cfg.Transport.AckEvery,
		frame: int64(cfg.FrameBytes), size: f.size,
		rtoAt: algos.Never, rtoMin: cfg.Transport.RTOMin, backoff: 1, lineRate: f.lineRate}
	if tp.rtoMin <= 0 {
		tp.rtoMin = DefaultRTOMin
	}
	tp.milestone = tp.nextMilestone() // ack_every, as the HPCC code's m_milestone_rx starts
	base, ackTx := s.pathRTT(l)
	h := &s.hosts[l.host]
	tp.ackBack = h.bwd - h.fwd + algos.Time(ackTx*float64(algos.Second)+0.5)
	tp.baseRTT = base
	if rp != nil && s.net.chain && l.np == nil && l.back == nil && tp.mode == RecoveryGoBackN {
		l.ackGuard = s.leastBackDelay()
	}
	if rp != nil {
		tp.sender = rateSender{}
		tp.rpT = rp.Timer()
		return tp
	}
	tp.sender = cfg.Scheme.NewSender(algos.SenderEnv{Network: *netw, LineRate: f.lineRate, BaseRTT: base,
		MaxBaseRTT: s.largestRTT, Hops: f.hops, Start: f.start, Rand: newRand(cfg.Seed, streamRP+stream)}, cfg.Params)
	if _, ok := tp.sender.(algos.TelemetrySender); ok {
		tp.nhops = min(f.hops, maxINTHops)
		n := intRingFrames(tp.lineRate, base, cfg.FrameBytes)
		tp.ints, tp.intN = make([]algos.Hop, n*tp.nhops), n
		s.telemetry = true
	}
	return tp
}

// intRingFrames is how many frames' telemetry a sender's ring holds at
// first: four times its path's bandwidth-delay product at lineRate over
// baseRTT, a power of two, at least 64 (fitINT doubles it if need be).
func intRingFrames(lineRate float64, baseRTT algos.Time, frameBytes int) int {
	n := 64
	for float64(n) < 4*lineRate*baseRTT.Seconds()/8/float64(frameBytes) {
		n *= 2
	}
	return n
}

// leastBackDelay is, on a chain, the least propagation from a switch back
// to a source's host: a lower bound of the time an ACK takes to its
// sender from its receiver.
func (s *Packet) leastBackDelay() algos.Time {
	least := algos.Never
	for _, f := range s.net.flows {
		least = min(least, s.hosts[f.host].bwd)
	}
	return least
}

// rateSender is the sender of a rate-based scheme's flow over the
// transport: no window, no pacing of its own (its reaction point paces),
// and no reaction to ACKs or losses, which the seeds' sources never see.
type rateSender struct{}

func (rateSender) Window() float64               { return 0 }
func (rateSender) Rate() float64                 { return 0 }
func (rateSender) OnSend(algos.Time, int64, int) {}
func (rateSender) OnAck(algos.Time, *algos.Ack)  {}
func (rateSender) OnLoss(algos.Time)             {}
func (rateSender) OnTimeout(algos.Time)          {}

// pathRTT is the base round trip of limiter l's path: the propagation both
// ways, a data frame's transmission on each link forward and an ACK's on
// each link back (the HPCC code's pairRtt, third.cc:915-923, which leaves
// out the ACK's), and the ACK's transmissions alone, in seconds.
func (s *Packet) pathRTT(l *limiter) (base algos.Time, ackTx float64) {
	route := l.route
	if route == nil {
		route = s.ecmpRoute(l)
	}
	return s.net.pathRTT(s.cfg.FrameBytes, int(l.host), l.lineRate, route)
}

// pathRTT is Packet.pathRTT of a route from host at lineRate, from the
// network alone, for Estimate too.
func (n *network) pathRTT(frameBytes, host int, lineRate float64, route []int32) (base algos.Time, ackTx float64) {
	rates, delays, tail := n.routeStages(host, lineRate, route)
	nic := n.topo.Ports[n.topo.NIC(host)]
	fwd := tail
	for _, d := range delays {
		fwd += d
	}
	back := fwd - nic.Delay.Seconds() + nic.Back.Seconds()
	var dataTx float64
	for _, r := range rates {
		dataTx += float64(frameBytes) * 8 / r
		ackTx += AckBytes * 8 / r
	}
	return algos.Time((fwd+back+dataTx+ackTx)*float64(algos.Second) + 0.5), ackTx
}

// largestBaseRTT is, once measured, the largest base round trip over the network's pairs
// of hosts (a fabric's; a chain's sources'), each on its ECMP route, as
// pathRTT measures it: the HPCC code's maxRtt (third.cc:910-930).
func (s *Packet) largestBaseRTT() algos.Time {
	if s.maxRTT > 0 {
		return s.maxRTT
	}
	var most algos.Time
	if s.net.chain {
		for _, f := range s.net.flows {
			l := &limiter{host: int32(f.host), dst: int32(f.dst), lineRate: f.lineRate, route: f.route}
			most = max(most, first(s.pathRTT(l)))
		}
		s.maxRTT = most
		return most
	}
	t := s.net.topo
	for from := range t.Hosts {
		for to := range t.Hosts {
			if from == to {
				continue
			}
			l := &limiter{host: int32(from), dst: int32(to), lineRate: t.Ports[t.NIC(from)].Capacity,
				route: s.net.route(s.cfg.Seed, from, to, 0)}
			most = max(most, first(s.pathRTT(l)))
		}
	}
	s.maxRTT = most
	return most
}

func first[T, U any](t T, _ U) T { return t }

// The transport as its limiter's reaction point: a rate-based scheme's
// reaction point behind it sees its feedback, transmissions and timer as
// it would without one.

// Rate is the reaction point's rate, or the sender's pacing rate, or line
// rate if it does not pace.
func (tp *transport) Rate() float64 {
	if tp.rp != nil {
		return tp.rp.Rate()
	}
	if r := tp.sender.Rate(); r > 0 {
		return r
	}
	return tp.lineRate
}

func (tp *transport) CPID() int {
	if tp.rp != nil {
		return tp.rp.CPID()
	}
	return 0
}

func (tp *transport) Feedback(now algos.Time, fb algos.Feedback) {
	if tp.rp != nil {
		tp.rp.Feedback(now, fb)
		tp.rpT = tp.rp.Timer()
	}
}

func (tp *transport) Transmit(now algos.Time, bytes int, backlogEmpty bool) bool {
	if tp.rp == nil || !tp.rp.Transmit(now, bytes, backlogEmpty) {
		return false
	}
	tp.rpT = tp.rp.Timer()
	return true
}

// Timer is the retransmission timer, or the reaction point's if sooner.
func (tp *transport) Timer() algos.Time {
	if tp.done {
		return tp.rtoAt
	}
	return min(tp.rtoAt, tp.rpT)
}

// Expire runs the reaction point's timer and the retransmission timer,
// whichever are due.
func (tp *transport) Expire(now algos.Time) {
	if tp.rpT <= now {
		tp.rp.Expire(now)
		tp.rpT = tp.rp.Timer()
	}
	if tp.rtoAt <= now {
		tp.timeout(now)
	}
	tp.s.transportSettle(tp.l, now)
}

// timeout is the retransmission timeout: go-back-N and selective repeat
// resend from the cumulative ACK (selective: the frames not reported).
func (tp *transport) timeout(now algos.Time) {
	tp.rtoAt = algos.Never
	if tp.done || tp.una >= tp.high {
		return
	}
	tp.timeouts++
	tp.sender.OnTimeout(now)
	switch tp.mode {
	case RecoveryGoBackN:
		tp.nxt = tp.una
	case RecoverySelective:
		tp.cursor, tp.limit, tp.recover = tp.una/tp.frame, (tp.high+tp.frame-1)/tp.frame, tp.high
	}
	tp.backoff = min(2*tp.backoff, maxBackoff)
	tp.rtoAt = now + tp.rto()
}

// rto is the retransmission timeout in force: RFC 6298's, backed off.
func (tp *transport) rto() algos.Time {
	r := tp.rtoMin
	if tp.srtt > 0 {
		r = max(r, tp.srtt+4*tp.rttvar)
	}
	return r * algos.Time(tp.backoff)
}

// next is the first byte of the frame to send next, if there is one: a
// frame selective repeat resends, or the next new one.
func (tp *transport) next() (int64, bool) {
	if tp.done {
		return 0, false
	}
	if tp.mode == RecoverySelective && tp.recover > 0 {
		for k := max(tp.cursor, tp.una/tp.frame); k < tp.limit; k++ {
			if !tp.sacked.has(k) {
				tp.cursor = k
				return k * tp.frame, true
			}
		}
		tp.cursor = tp.limit
	}
	if tp.size > 0 && tp.nxt >= tp.size {
		return 0, false
	}
	return tp.nxt, true
}

// bytesAt is the size of the frame that starts at byte seq.
func (tp *transport) bytesAt(seq int64) int {
	if tp.size > 0 {
		return int(min(tp.frame, tp.size-seq))
	}
	return int(tp.frame)
}

// windowBlocks says the window stops a new frame at seq: the bytes in
// flight have reached it (IsWinBound, rdma-queue-pair.cc). A resend is
// never stopped: its bytes are in flight already.
func (tp *transport) windowBlocks(seq int64) bool {
	w := tp.sender.Window()
	return w > 0 && seq >= tp.nxt && float64(tp.nxt-tp.una) >= w
}

// transportSettle brings limiter l up to its transport at t: what it sends
// next, whether it has anything it may send, and its rate.
func (s *Packet) transportSettle(l *limiter, t algos.Time) {
	tp := l.tp
	hold := l.hold &^ (holdIdle | holdWindow)
	if seq, ok := tp.next(); !ok {
		hold |= holdIdle
	} else {
		if tp.rp == nil && tp.windowBlocks(seq) { // a rate-based scheme has no window
			hold |= holdWindow
		}
		if b := tp.bytesAt(seq); b == int(tp.frame) {
			l.nextSerial = l.serial
		} else {
			l.nextSerial = algos.TransmitTime(b, l.lineRate*l.clock)
		}
	}
	changed := hold != l.hold
	l.hold = hold
	switch r := l.clampRate(tp.Rate()); {
	case r != l.rate:
		l.setRate(max(t, l.mark), r) // credit earned while held, up to a frame
	case changed:
		l.resume(max(t, l.mark))
	}
	l.rpTimer = tp.Timer()
}

// transportFrame is the size of limiter l's next frame.
func (s *Packet) transportFrame(l *limiter) int {
	seq, _ := l.tp.next()
	return l.tp.bytesAt(seq)
}

// transportSent: limiter l released frame f of bytes at e. The frame
// carries its index; the sender sees it; the window and the next frame
// are settled.
func (s *Packet) transportSent(l *limiter, f *frame, bytes int, e algos.Time) {
	tp := l.tp
	seq, _ := tp.next()
	end := s.numberFrame(tp, f, seq, bytes)
	if seq == tp.nxt {
		tp.nxt = end
	} else if tp.mode == RecoverySelective {
		tp.cursor = seq/tp.frame + 1
	}
	tp.high = max(tp.high, end)
	tp.inNet++
	if tp.size > 0 && end >= tp.size || tp.rp == nil && tp.windowBlocks(tp.nxt) {
		// The message's last frame, or one after which the window lets
		// no new frame go: the sender can send nothing more until an
		// ACK comes, so it asks for one at once (ackRequested).
		f.flags |= frameAckReq
	}
	if tp.ints != nil {
		tp.fitINT()
	}
	if tp.rtoAt == algos.Never {
		tp.rtoAt = e + tp.rto()
	}
	if tp.rp != nil && tp.size == 0 && tp.recover == 0 {
		// A rate-based scheme's greedy flow: its next frame is a whole
		// new one, never held; only its timer may have moved.
		l.rpTimer = tp.Timer()
		return
	}
	tp.sender.OnSend(e, seq, bytes)
	if l.sized != nil {
		l.sized.left = max(tp.size-tp.nxt, 0)
	}
	s.transportSettle(l, e)
}

// numberFrame tags frame f, of bytes from seq, with its index (seq /
// frame, without the division when it follows the frame sent last),
// counts it as resent if it is, and returns its end.
func (s *Packet) numberFrame(tp *transport, f *frame, seq int64, bytes int) int64 {
	k := tp.sndK
	if seq != tp.sndSeq {
		k = seq / tp.frame
	}
	tp.sndSeq, tp.sndK = seq+tp.frame, k+1
	f.cpid = s.tagFrame(f.cpid, k)
	if seq < tp.high {
		tp.retx += int64(bytes)
	}
	return seq + int64(bytes)
}

// plainRate says transportSent is rateFrameSent: a rate-based scheme's
// greedy flow, going on, outside a selective repeat's episode.
func (tp *transport) plainRate() bool {
	return tp.rp != nil && tp.size == 0 && tp.recover == 0 && !tp.done
}

// rateFrameSent is transportSent when plainRate: the frame is the next new
// one, it asks for no ACK, carries no telemetry, and only the limiter's
// timer may move.
func (s *Packet) rateFrameSent(l *limiter, f *frame, bytes int, e algos.Time) {
	tp := l.tp
	seq := tp.nxt
	end := s.numberFrame(tp, f, seq, bytes)
	tp.nxt = end
	tp.high = max(tp.high, end)
	tp.inNet++
	if tp.rtoAt == algos.Never {
		tp.rtoAt = e + tp.rto()
	}
	l.rpTimer = tp.Timer()
}

// fitINT doubles the telemetry ring when the frames in flight could
// overwrite the stamps of one not yet acknowledged; it keeps theirs.
func (tp *transport) fitINT() {
	n := tp.intN
	if tp.high-tp.una+2*tp.frame <= int64(n/2)*tp.frame {
		return // the frames in flight span fewer than n/2 (the test below, without its divisions)
	}
	lo, hi := tp.una/tp.frame, (tp.high+tp.frame-1)/tp.frame
	if hi-lo < int64(n)/2 {
		return
	}
	m := 2 * n
	for hi-lo >= int64(m)/2 {
		m *= 2
	}
	ints := make([]algos.Hop, m*tp.nhops)
	for k := lo; k < hi; k++ {
		copy(ints[int(k)%m*tp.nhops:][:tp.nhops], tp.ints[int(k)%n*tp.nhops:][:tp.nhops])
	}
	tp.ints, tp.intN = ints, m
}

// A transport's data frame carries its index (seq / frame size) in its
// CPID field. A rate-based scheme's frame carries its CM-Tag's CPID there
// too (ECM's congestion point reads it): the low cpidShift bits are the
// CPID, the rest the index modulo 2^(32-cpidShift), which the receiver
// reads as the index nearest its own (the frames in flight span far less
// than half that).

// tagFrame is the CPID field of a transport's frame k whose CM-Tag says
// cpid.
func (s *Packet) tagFrame(cpid int32, k int64) int32 {
	if s.cpidShift == 0 {
		return int32(k)
	}
	return int32(uint32(k)<<s.cpidShift | uint32(cpid))
}

// frameIndex is the index of the frame whose CPID field is cpid, as its
// receiver reads it.
func (tp *transport) frameIndex(cpid int32) int64 {
	shift := tp.s.cpidShift
	if shift == 0 {
		return int64(cpid)
	}
	m := int64(1) << (32 - shift)
	base := tp.rcvNxt / tp.frame
	d := (int64(uint32(cpid)>>shift) - base) & (m - 1)
	if d >= m/2 {
		d -= m
	}
	return base + d
}

// stampINT records the telemetry egress port p stamps, as hop hop of its
// route, on frame rec as it leaves at t: the time, the bytes the port has
// transmitted, its queue, its rate (HPCC's IntHop), as the frame's last bit
// leaves, with the port's counters then: the bytes including the frame's,
// the queue without it (with the frame that starts now and what arrived
// during its transmission). The HPCC code stamps at dequeue, as the frame
// starts its transmission (SwitchNotifyDequeue, switch-node.cc:224, called
// just before TransmitStart, qbb-net-device.cc:310-317): the time then,
// the bytes before the frame's (m_txBytes grows after the stamp,
// switch-node.cc:302), the queue without it then. A rate from two stamps
// is the same measure either way (the bytes sent between them over the
// time between them), a frame time earlier in the code; the queues differ
// by what one frame time changes.
func (s *Packet) stampINT(p *port, rec *frame, t algos.Time, hop int) {
	tp := s.lims[rec.lim].tp
	if tp == nil || tp.ints == nil || hop >= tp.nhops {
		return
	}
	tp.ints[int(rec.cpid)&(tp.intN-1)*tp.nhops+hop] = algos.Hop{TS: t, TxBytes: p.sent(), QLen: p.bytes, Rate: p.capacity}
}

// transportReceive: frame f of limiter l reaches its receiver, which
// acknowledges it, or answers a gap with a NACK (ReceiverCheckSeq,
// rdma-hw.cc:453-480).
func (s *Packet) transportReceive(l *limiter, f *frame) {
	tp := l.tp
	tp.inNet--
	k := tp.frameIndex(f.cpid)
	seq, bytes := k*tp.frame, int64(f.bytes)
	if tp.lose != nil && tp.lose(k) {
		s.delivered[l.id].bytes -= bytes
		if !l.recovers() && l.sized != nil {
			s.sizedLost(l, f)
		}
		return
	}
	if tp.done {
		s.delivered[l.id].bytes -= bytes // a copy after the flow is over
		s.transportFree(l)
		return
	}
	if tp.mode == RecoveryNone {
		// Every frame counts; the ACK says the highest byte received.
		tp.rcvNxt = max(tp.rcvNxt, seq+bytes)
		tp.syncRcvK()
		if tp.rcvNxt >= tp.milestone || (tp.size > 0 && tp.rcvNxt >= tp.size) || tp.ackRequested(f) {
			tp.milestone = tp.nextMilestone()
			s.sendAck(l, f, false, -1, s.now)
		}
		if l.sized != nil {
			s.sizedDelivered(l, s.now)
		}
		return
	}
	switch {
	case seq == tp.rcvNxt:
		tp.rcvNxt += bytes
		if tp.mode == RecoverySelective {
			for k++; tp.rcvd.has(k); k++ {
				tp.rcvNxt += int64(tp.bytesAt(k * tp.frame))
			}
			tp.rcvd.advance(k)
		}
		tp.syncRcvK()
		complete := tp.size > 0 && tp.rcvNxt >= tp.size
		if tp.rcvNxt >= tp.milestone || complete || tp.ackRequested(f) {
			tp.milestone = tp.nextMilestone()
			s.sendAck(l, f, false, -1, s.now)
		}
		if complete {
			s.transportComplete(l)
		}
	case seq > tp.rcvNxt:
		if tp.mode == RecoverySelective {
			if tp.rcvd.has(k) {
				s.delivered[l.id].bytes -= bytes // a duplicate
				return
			}
			tp.rcvd.set(tp.rcvNxt/tp.frame, k)
			s.sendAck(l, f, true, k, s.now)
			return
		}
		s.delivered[l.id].bytes -= bytes // go-back-N drops what is out of order
		if s.now >= tp.nackAt || tp.lastNack != tp.rcvNxt {
			tp.nackAt, tp.lastNack = s.now+nackInterval, tp.rcvNxt
			s.sendAck(l, f, true, -1, s.now)
		}
	default:
		s.delivered[l.id].bytes -= bytes // a duplicate
		if tp.ackRequested(f) {          // and what it has is not yet acknowledged
			tp.milestone = tp.nextMilestone()
			s.sendAck(l, f, false, -1, s.now)
		}
	}
}

// Receipts taken early. A frame that leaves its route's last port reaches
// its receiver a known time later (the exit link's propagation), and a
// receipt in order that does not complete its flow changes nothing but the
// receiver's sequence and the ACK it sends, which reaches the sender no
// sooner than ackGuard after the receipt: such a receipt is taken as the
// frame leaves the port, timed at its arrival (receiveEarly), with no
// event of its own. The other receipts (a gap, a duplicate, the last byte,
// a notification point, an ACK as a control frame, selective repeat's)
// run at their arrival, in order, as events of their own (receiveFrame).
//
// Receipts are taken early for a rate-based scheme on a chain (a dumbbell,
// a parking lot), whose receivers are at the last port's egress, under
// go-back-N. (On a fabric, where a frame's arrival at its receiver follows
// its departure by the last link's propagation, the runs were found to
// differ in the order of events at equal times: its receipts run at their
// arrival. So do an ACK-clocked scheme's: its ACK lets frames go at once,
// and an ACK sent late keys its sender's host after another host whose
// frame reaches the same port at the same picosecond, which the exact run
// keys before it: the two frames enter in the other order.)
//
// The port's deliveries' slot then guards the ACKs: keyed ackGuard (less a
// tick) after the arrival of the frame in service, it makes sure that the
// port's departures, and the receipts and ACKs they bring, are applied
// before any of those ACKs can land, whatever else looks at the port
// meanwhile (receiveStarts, syncReceive). It may do so only while every
// frame queued behind will be received early too, else a departure it
// lets run late would start a frame whose receipt must run at its
// arrival: as a frame joins the deliveries, whether it will is foreseen
// from its flow's frames queued before it (receiveQueued), and while any
// that will not waits, or at a port with classes, whose queues the
// deliveries do not show, the slot is keyed at each arrival, as without
// early receipts.

// A port's exitSeq holds, besides the sequence number for its deliveries'
// slot (exitSeqMask), the frames in its deliveries foreseen not to be
// received early (slowOne each; once the count saturates, it stays), and
// whether the slot is keyed at a time (guardKeyed), at a guard
// (guardLazy): packed in the word the port already reads as its
// deliveries' slot is keyed, so that early receipts add nothing to the
// port's size.
const (
	exitSeqMask = 1<<44 - 1 // the agenda's sequence numbers fit 44 bits (slotBits)
	slowOne     = 1 << 44
	slowMask    = (1<<18 - 1) << 44
	guardLazy   = 1 << 62
	guardKeyed  = 1 << 63
)

// syncRcvK sets rcvK from rcvNxt.
func (tp *transport) syncRcvK() {
	tp.rcvK = -1
	if tp.rcvNxt%tp.frame == 0 {
		tp.rcvK = tp.rcvNxt / tp.frame
	}
}

// indexIs says a frame whose CPID field is cpid has index k.
func (s *Packet) indexIs(cpid int32, k int64) bool {
	if shift := s.cpidShift; shift != 0 {
		return k >= 0 && uint32(cpid)>>shift == uint32(k)<<shift>>shift
	}
	return int64(cpid) == k
}

// receiveQueued foresees, as record r joins port pi's deliveries, whether
// its receipt will be taken early: its limiter takes receipts early
// (ackGuard), and r comes in order after its flow's frames queued before
// it, all of them foreseen early, without completing its flow. If not, r
// is counted in the port's exitSeq until it goes (frameSlow), and the
// port's slot, if keyed at a guard, is keyed at the next arrival.
func (s *Packet) receiveQueued(p *port, pi int32, r *frame) {
	l := s.lims[r.lim]
	tp := l.tp
	if tp == nil {
		return
	}
	if tp.queuedN == 0 { // in step with the receiver again
		tp.tailK, tp.tailSlow = tp.rcvK, false
	}
	tp.queuedN++
	if l.ackGuard != 0 && !tp.tailSlow && tp.lose == nil && !tp.done && s.indexIs(r.cpid, tp.tailK) &&
		(tp.size == 0 || tp.tailK*tp.frame+int64(r.bytes) < tp.size) {
		tp.tailK++
		r.flags = r.flags&^frameSlow | frameQueued | frameEarly
		return
	}
	tp.tailSlow = true
	r.flags = r.flags&^frameEarly | frameQueued | frameSlow
	if p.exitSeq&slowMask != slowMask { // else it saturated: the slot stays keyed at each arrival
		p.exitSeq += slowOne
	}
	if p.exitSeq&guardLazy != 0 {
		s.syncReceive(pi)
	}
}

// receiveGone accounts for record r of limiter l leaving port p's
// deliveries, received.
func (s *Packet) receiveGone(p *port, l *limiter, r *frame) {
	if r.flags&frameQueued != 0 {
		l.tp.queuedN--
		if r.flags&frameSlow != 0 && p.exitSeq&slowMask != slowMask {
			p.exitSeq -= slowOne
		}
	}
}

// receiveEarly: frame f of limiter l, which markEarly found may be
// received early, reaches its receiver at f.arrive (transportReceive's case
// of a frame in order, under go-back-N).
func (s *Packet) receiveEarly(l *limiter, f *frame) {
	s.events++
	tp := l.tp
	tp.early++
	tp.inNet--
	tp.rcvNxt += int64(f.bytes) // a whole frame: only a flow's last may be shorter
	tp.rcvK++
	if tp.rcvNxt >= tp.milestone || tp.ackRequested(f) {
		tp.milestone = tp.nextMilestone()
		s.sendAck(l, f, false, -1, f.arrive)
	}
}

// receiveAsItLeaves: the frame leaving port p now for its receiver is
// received at once if it is the front of the port's deliveries and will
// be received early (frameEarly: as receiveQueued foresaw, or markEarly
// found); its record goes.
func (s *Packet) receiveAsItLeaves(p *port) {
	if p.exits.len() != p.exiting+1 {
		return // a frame before it is on its way still
	}
	if f := p.exits.front(); f.flags&frameEarly != 0 {
		l := s.lims[f.lim]
		if f.flags&frameQueued != 0 { // receiveGone, inline
			l.tp.queuedN--
			if f.flags&frameSlow != 0 && p.exitSeq&slowMask != slowMask {
				p.exitSeq -= slowOne
			}
		}
		s.receiveEarly(l, f)
		p.exits.drop()
	}
}

// receiveDeparted receives, as receiveAsItLeaves, the frames that have
// left port p, at the front of its deliveries, that markEarly allows, and
// says whether it received any.
func (s *Packet) receiveDeparted(p *port) bool {
	any := false
	for p.exits.len() > p.exiting {
		f := p.exits.front()
		if !s.markEarly(f) {
			break
		}
		l := s.lims[f.lim]
		s.receiveEarly(l, f)
		s.receiveGone(p, l, f)
		p.exits.drop()
		any = true
	}
	return any
}

// receiveStarts keys port pi's deliveries' slot as frame r, the front of
// its deliveries, starts service: at its arrival, or at its guard if it
// will be received early, as receiveQueued foresaw (frameEarly) if it
// arrives within the run, and the port may wait for it (lazyGuard),
// unless the slot is keyed already (at a guard or an arrival before, no
// later).
func (s *Packet) receiveStarts(p *port, pi int32, r *frame) {
	at, lazy := r.arrive, uint64(0)
	if r.flags&frameEarly != 0 {
		if r.arrive > s.cfg.Duration {
			r.flags &^= frameEarly
		} else if p.lazyGuard() {
			if p.exitSeq&guardKeyed != 0 {
				return
			}
			at, lazy = at+s.lims[r.lim].ackGuard-1, guardLazy
		}
	}
	s.agenda.setStreamSeq(s.agenda.receiveSlot(pi), at, p.exitSeq&exitSeqMask)
	p.exitSeq = p.exitSeq&^guardLazy | guardKeyed | lazy
}

// lazyGuard says port p's deliveries' slot may be keyed at the guard of
// the frame in service: nothing foreseen not to be received early waits.
func (p *port) lazyGuard() bool { return p.exitSeq&slowMask == 0 && p.cls == nil }

// markEarly says whether frame r, at the front of its port's deliveries
// (every frame before it received), in service or gone, may be received
// as it leaves the port, in its record (frameEarly), and returns it: its
// limiter takes receipts early, and r arrives within the run, comes in
// order and leaves its flow incomplete.
func (s *Packet) markEarly(r *frame) bool {
	r.flags &^= frameEarly
	l := s.lims[r.lim]
	tp := l.tp
	if l.ackGuard == 0 || tp.lose != nil || tp.done || r.arrive > s.cfg.Duration || !s.indexIs(r.cpid, tp.rcvK) {
		return false
	}
	if tp.size == 0 || tp.rcvNxt+int64(r.bytes) < tp.size {
		r.flags |= frameEarly
		return true
	}
	return false
}

// ackRequested says frame f asks for an ACK at once and the receiver owes
// one: it has bytes in order that no ACK or NACK has reported yet. An ACK
// it sent reaches the sender (ACKs are never dropped), so one it does not
// owe would tell nothing new. With ack_every at most a frame the receiver
// never owes one (every frame in order is acknowledged), so the request
// changes nothing there.
func (tp *transport) ackRequested(f *frame) bool {
	return f.flags&frameAckReq != 0 && tp.rcvNxt > tp.acked
}

// nextMilestone is the next multiple of ack_every above the receiver's
// cumulative sequence: the HPCC code adds ack_every once per ACK, which is
// the same while the sequence moves a frame at a time.
func (tp *transport) nextMilestone() int64 {
	every := tp.ackEvery
	if every <= 1 { // every frame, the default: no division
		return tp.rcvNxt + 1
	}
	return (tp.rcvNxt/every + 1) * every
}

// sendAck sends the ACK (or NACK) of frame f, received at now, back to
// limiter l's sender, over the reverse of f's path.
func (s *Packet) sendAck(l *limiter, f *frame, nack bool, sack int64, now algos.Time) {
	tp := l.tp
	at := algos.Never // as a control frame, known when it leaves the last switch
	if l.back == nil {
		at = now + s.propOf(l, f, atReceiver) + tp.ackBack
		if l.acks.len() > 0 {
			at = max(at, l.ackLast) // ACKs on one path stay in order
		}
		l.ackLast = at
	} else {
		s.sendAckFrame(l, f)
	}
	tp.acked = tp.rcvNxt
	r := &l.acks // its pushSlot, inline
	if r.n == len(r.buf) {
		r.grow()
	}
	m := &r.buf[(r.head+r.n)&(len(r.buf)-1)]
	r.n++
	m.at, m.seq, m.sack, m.sent, m.ints = at, tp.rcvNxt, sack, f.sent, -1
	m.ece, m.nack, m.nhops = f.flags&frameECN != 0, nack, 0
	if tp.ints != nil {
		m.ints = s.ackINT.add(ackINT{})
		m.nhops = uint8(copy(s.ackINT.at(m.ints)[:tp.nhops], tp.ints[int(f.cpid)&(tp.intN-1)*tp.nhops:]))
	}
	if l.back == nil {
		l.acksLanded++
		if l.acks.len() == 1 { // the host's next event may be sooner
			l.ackAt = at
			s.syncArrival(&s.hosts[l.host])
		}
	}
}

// sendAckFrame sends the ACK of frame f, just received, back to limiter
// l's sender as a control frame (control.go): it crosses the receiver's
// link (its propagation and its own transmission; the receiver's NIC does
// not queue it behind its own data), then queues and is serialised at
// each switch port of the reverse path, in the control queue, and lands
// as it leaves the last (ackFrameLands). Its contents wait in l.acks.
func (s *Packet) sendAckFrame(l *limiter, f *frame) {
	r := &s.hosts[l.dst]
	at := s.now + r.fwd + algos.TransmitTime(ControlBytes, r.capacity)
	msg := s.messages.add(message{epoch: l.epoch, back: l.back, prop: s.propOf(l, f, atReceiver), born: s.now, ack: true})
	s.released++ // onto the receiver's link: a transmission (Transmissions)
	s.agenda.schedule(event{kind: evControlFrame, at: at, limiter: f.lim, msg: msg})
}

// ackFrameLands: the control frame of limiter lim's next ACK leaves the
// last switch at now and reaches the sender's host at at. The ACKs of a
// flow take one path in one FIFO queue per port, so they land in the
// order they were sent: it is the first in l.acks without a time.
func (s *Packet) ackFrameLands(lim int32, m *message, at algos.Time) {
	l := s.lims[lim]
	if m.epoch != l.epoch || l.tp.done {
		return // its flow has ended: its ACKs were let go
	}
	l.acks.at(int(l.acksLanded)).at = at
	l.acksLanded++
	if l.acksLanded == 1 { // the host's next event may be sooner
		l.ackAt = at
		s.syncArrival(&s.hosts[l.host])
	}
}

// ackLands hands limiter l's sender its next ACK, which reaches the host
// at l.ackAt. An ACK changes nothing outside its host until the frames it
// lets go arrive, so the host runs it with its own events, in order
// (runLocal): the host's next arrival is never later than its next ACK's
// time plus a frame's way to the switch (host.nextArrival).
func (s *Packet) ackLands(l *limiter) {
	m := l.acks.front() // valid until the next push: nothing here sends an ACK
	l.acks.drop()
	l.acksLanded--
	l.ackAt = algos.Never
	if l.acksLanded > 0 {
		l.ackAt = l.acks.front().at
	}
	if m.ints >= 0 {
		copy(s.ackHops[:m.nhops], s.ackINT.at(m.ints)[:m.nhops])
		s.ackINT.remove(m.ints)
	}
	tp := l.tp
	if tp.done {
		return // the flow is over
	}
	now := m.at
	s.events++
	tp.acks++
	progress := m.seq > tp.una
	if progress {
		tp.una = m.seq
		tp.nxt = max(tp.nxt, tp.una)
		tp.backoff = 1
		if tp.mode == RecoverySelective {
			tp.sacked.advance(tp.una / tp.frame)
		}
	}
	if rtt := now - m.sent; rtt > 0 { // RFC 6298 section 2
		if tp.srtt == 0 {
			tp.srtt, tp.rttvar = rtt, rtt/2
		} else {
			// Both sums are positive: unsigned, the division is a shift.
			d := tp.srtt - rtt
			tp.rttvar = algos.Time(uint64(3*tp.rttvar+max(d, -d)) / 4)
			tp.srtt = algos.Time(uint64(7*tp.srtt+rtt) / 8)
		}
	}
	if tp.rp != nil && !m.nack && tp.recover == 0 {
		// A rate-based scheme's plain ACK, the case below without what it
		// skips: it moves neither the rate nor what is sent next, only the
		// retransmission timer.
		switch {
		case tp.una >= tp.high:
			tp.rtoAt = algos.Never
		case progress || tp.rtoAt == algos.Never:
			tp.rtoAt = now + tp.rto()
		}
		l.rpTimer = tp.Timer()
		s.syncTimer(l)
		return
	}
	if tp.rp == nil { // a rate-based scheme's sender reads no ACK
		a := &s.ack
		a.Seq, a.ECE, a.Nack, a.Sent, a.Hops = m.seq, m.ece, m.nack, m.sent, s.ackHops[:m.nhops]
		tp.sender.OnAck(now, a)
	}
	nxt, recover := tp.nxt, tp.recover
	if m.nack {
		tp.nacks++
		switch tp.mode {
		case RecoveryGoBackN:
			tp.nxt = tp.una // RecoverQueue, rdma-hw.cc:495-497
			tp.sender.OnLoss(now)
		case RecoverySelective:
			tp.sacked.set(tp.una/tp.frame, m.sack)
			tp.highSack = max(tp.highSack, m.sack+1)
			if tp.recover == 0 {
				tp.recover, tp.cursor = tp.high, tp.una/tp.frame
				tp.sender.OnLoss(now)
			}
			tp.limit = max(tp.limit, tp.highSack)
		}
	}
	if tp.mode == RecoverySelective && tp.recover > 0 && tp.una >= tp.recover {
		tp.recover, tp.cursor, tp.limit = 0, 0, 0
	}
	switch {
	case tp.una >= tp.high:
		tp.rtoAt = algos.Never
	case progress || tp.rtoAt == algos.Never:
		tp.rtoAt = now + tp.rto()
	}
	if tp.rp != nil && !m.nack && tp.nxt == nxt && tp.recover == recover && recover == 0 {
		// Nothing the limiter reads has changed but the timer: a plain
		// ACK of a rate-based scheme neither moves its window nor its
		// rate, nor what it sends next.
		l.rpTimer = tp.Timer()
	} else {
		s.transportSettle(l, now)
	}
	s.syncTimer(l)
}

// transportComplete: the receiver of l's flow has every byte. The flow is
// over; its sender stops, and its limiter is freed once its last frame in
// the network has arrived or been dropped.
func (s *Packet) transportComplete(l *limiter) {
	tp := l.tp
	h := &s.hosts[l.host]
	s.catchUp(h, s.now)
	tp.done = true
	tp.rtoAt = algos.Never
	l.hold |= holdIdle
	l.schedule()
	l.rpTimer = algos.Never
	for l.acks.len() > 0 { // the ACKs on their way change nothing now
		if m := l.acks.pop(); m.ints >= 0 {
			s.ackINT.remove(m.ints)
		}
	}
	l.ackAt, l.acksLanded = algos.Never, 0
	sz := l.sized
	sz.left, sz.outstanding, sz.last = 0, 0, s.now
	s.syncTimers(h)
	s.syncArrival(h)
	s.sizedCheck(l)
}

// transportLost: frame f of limiter l was dropped.
func (s *Packet) transportLost(l *limiter) {
	l.tp.inNet--
	if l.tp.done {
		s.transportFree(l)
	}
}

// transportFree frees the limiter of an ended short flow once nothing of
// it is left in the network, so that a frame of the flow before never
// reaches the next one's receiver.
func (s *Packet) transportFree(l *limiter) {
	if sz := l.sized; sz != nil && sz.short && sz.over && l.tp.inNet == 0 && l.rp != nil {
		s.freeLimiter(l)
	}
}

// transportBoundary brings every host up to just before the boundary t,
// whose milestone runs before anything else at t: a sender's ACKs,
// resends and timeouts count in the phase they happen in, not when its
// host next runs its own events (catchUp). Running them early changes
// nothing: nothing from outside reaches a host before t.
func (s *Packet) transportBoundary(t algos.Time) {
	if !s.cfg.transportOn() {
		return
	}
	for i := range s.hosts {
		h := &s.hosts[i]
		if h.due(t - 1) {
			s.runLocal(h, t-1)
			s.syncTimers(h)
			s.syncArrival(h)
		}
	}
}

// transportCounts are a flow's transport counters, as the summary takes
// them.
type transportCounts struct{ acks, retx, timeouts, nacks int64 }

func (a transportCounts) minus(b transportCounts) transportCounts {
	return transportCounts{a.acks - b.acks, a.retx - b.retx, a.timeouts - b.timeouts, a.nacks - b.nacks}
}

func (a transportCounts) plus(b transportCounts) transportCounts {
	return transportCounts{a.acks + b.acks, a.retx + b.retx, a.timeouts + b.timeouts, a.nacks + b.nacks}
}

// transportCounts are l's counters, zero without a transport.
func (l *limiter) transportCounts() transportCounts {
	if tp := l.tp; tp != nil {
		return transportCounts{tp.acks, tp.retx, tp.timeouts, tp.nacks}
	}
	return transportCounts{}
}

// sourceCounts are each source's transport counters: its greedy
// connection's and, on a chain, those of every short flow it has sent,
// over and going (a chain's short flow over the transport is a
// connection of its own from its source's host, chainFlowArrival). A
// fabric's short flows go between hosts, not from a source: their
// counters are their records' only.
func (s *Packet) sourceCounts() []transportCounts {
	tc := make([]transportCounts, s.statics)
	for i := range tc {
		tc[i] = s.lims[i].transportCounts()
	}
	if !s.net.chain {
		return tc
	}
	for i, r := range s.pool.transport {
		tc[i] = tc[i].plus(r)
	}
	for _, l := range s.lims[s.statics:] {
		tc[l.host] = tc[l.host].plus(l.transportCounts())
	}
	return tc
}

// retireTransport moves the counters of l, a chain's short flow whose
// limiter is freed, to its source's sums in the pool, where sourceCounts
// finds them after the limiter serves another flow. The flow is over, its
// record made: nothing reads them on l again.
func (s *Packet) retireTransport(l *limiter) {
	tp := l.tp
	if tp == nil || !s.net.chain {
		return
	}
	r := &s.pool
	if r.transport == nil {
		r.transport = make([]transportCounts, s.statics)
	}
	r.transport[l.host] = r.transport[l.host].plus(l.transportCounts())
	tp.acks, tp.retx, tp.timeouts, tp.nacks = 0, 0, 0, 0
}

// sendingRate is the rate l sends at: its limiter's, or for a window-limited
// flow its window over its smoothed RTT (the base RTT before a sample) if
// that is lower.
func (l *limiter) sendingRate() float64 {
	tp := l.tp
	if tp == nil {
		return l.rate
	}
	w := tp.sender.Window()
	rtt := tp.srtt
	if rtt == 0 {
		rtt = tp.baseRTT
	}
	if w <= 0 || rtt <= 0 {
		return l.rate
	}
	return min(l.rate, w*8/rtt.Seconds())
}

// recovers says l's flow completes only when every byte has arrived.
func (l *limiter) recovers() bool { return l.tp != nil && l.tp.mode != RecoveryNone }

// seqBits marks frame indices from a base on: a ring of bits that grows
// when a mark lands beyond it (rarely: it keeps its size once it has
// grown), so that marking allocates nothing per frame.
type seqBits struct {
	words []uint64
	base  int64
}

func (b *seqBits) has(k int64) bool {
	d := k - b.base
	if d < 0 || d >= int64(len(b.words))*64 {
		return false
	}
	i := k % (int64(len(b.words)) * 64)
	return b.words[i/64]&(1<<(i%64)) != 0
}

// set marks frame k, with base as the lowest index that may still be
// marked (the marks below it are cleared first).
func (b *seqBits) set(base, k int64) {
	b.advance(base)
	if k < b.base {
		return
	}
	if n := int64(len(b.words)) * 64; k-b.base >= n {
		m := max(n, 64)
		for k-b.base >= m {
			m *= 2
		}
		words := make([]uint64, m/64)
		for j := b.base; j < b.base+n; j++ {
			if b.has(j) {
				words[j%m/64] |= 1 << (j % m % 64)
			}
		}
		b.words = words
	}
	n := int64(len(b.words)) * 64
	i := k % n
	b.words[i/64] |= 1 << (i % 64)
}

// advance clears the marks below base and moves the base there.
func (b *seqBits) advance(base int64) {
	if base <= b.base {
		return
	}
	n := int64(len(b.words)) * 64
	if n == 0 || base-b.base >= n {
		clear(b.words)
		b.base = base
		return
	}
	for j := b.base; j < base; j++ {
		i := j % n
		b.words[i/64] &^= 1 << (i % 64)
	}
	b.base = base
}
