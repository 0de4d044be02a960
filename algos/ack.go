package algos

import "math/rand/v2"

// The ACK-clocked schemes (DCTCP, TIMELY, HPCC, Swift) do not run through a
// congestion point's feedback and a rate limiter's timers: a sender reacts
// to the acknowledgements of its own data, and the transport (which decides
// what is sent, resent and acknowledged) asks it how much may be in flight
// and how fast to send. A Sender is that reaction; it never sees the engine.

// Ack is what one acknowledgement (or negative acknowledgement) tells the
// sender of a flow. The transport fills it; the sender must not keep Hops
// past the call (the transport reuses the slice: no allocation per ACK).
type Ack struct {
	// Seq is cumulative: every byte of the flow below Seq has arrived (the
	// receiver's next expected byte, as the HPCC code's ACKs carry it,
	// rdma-hw.cc:316).
	Seq int64
	// ECE is the ECN echo: the data frame this ACK answers arrived marked
	// (TCP's ECE flag; the CNP flag of the HPCC code's ACKs, rdma-hw.cc:321).
	ECE bool
	// Nack says the receiver saw a gap at Seq. Schemes treat its Seq and
	// echoes as an ACK's (the HPCC code runs the same handlers on both,
	// rdma-hw.cc:416-434); recovery is the transport's.
	Nack bool
	// Sent is the send timestamp of the data frame this ACK answers: now -
	// Sent is an RTT sample (TIMELY's completion RTT, Swift's delay).
	Sent Time
	// Hops is HPCC's in-band telemetry, one entry per egress port the data
	// frame crossed, in path order; nil without INT.
	Hops []Hop
}

// Hop is the telemetry one egress port stamps on a data frame as it leaves
// (HPCC paper section 3; the HPCC code's IntHop, int-header.h).
type Hop struct {
	TS      Time    // when the port stamped it
	TxBytes int64   // bytes the port had transmitted by then, cumulative
	QLen    int     // the port's queue in bytes then
	Rate    float64 // the port's link rate, bits per second
}

// Sender is the congestion control of one flow's sender, clocked by ACKs.
// The transport reads Window and Rate after every call.
//
// A scheme may limit a flow by a window (bytes in flight), by a rate
// (pacing), or both: the HPCC code's HAS_WIN (a window applies) and VAR_WIN
// (the window follows the rate, W = BDP * R / line rate, rdma-queue-pair.cc:
// 125-137). Each scheme says which in its doc comment.
type Sender interface {
	// Window is the most bytes the flow may have in flight; 0: no window.
	Window() float64
	// Rate is the pacing rate in bits per second; 0: not paced (frames go
	// as fast as the window and the link allow).
	Rate() float64
	// OnSend runs as a data frame of bytes starting at byte seq leaves;
	// seq below the highest sent is a retransmission (go-back-N rewinds).
	OnSend(now Time, seq int64, bytes int)
	// OnAck runs on every ACK or NACK of the flow.
	OnAck(now Time, a *Ack)
	// OnLoss runs when the transport detects a loss without a timeout
	// (duplicate ACKs or a NACK): TCP's fast retransmit, Swift's fast
	// recovery.
	OnLoss(now Time)
	// OnTimeout runs when the retransmission timer fires.
	OnTimeout(now Time)
}

// TelemetrySender is a Sender that reads in-band telemetry (HPCC's). Stamping
// costs work at every hop, so the transport has the egress ports stamp a
// flow's data frames, and the receiver copy the stamps into Ack.Hops, only
// when the flow's sender is one of these.
type TelemetrySender interface {
	Sender
	// UsesTelemetry marks the sender; it does nothing.
	UsesTelemetry()
}

// SenderEnv is what a sender is built from.
type SenderEnv struct {
	Network
	LineRate float64 // the sender's NIC rate, bits per second
	// BaseRTT is the flow's round trip with empty queues: propagation both
	// ways plus one data frame's transmission on each hop forward and an
	// ACK's back (the HPCC code's pairRtt, third.cc:915-923, but for the
	// ACK's). HPCC's T by default, the BDP of VAR_WIN windows.
	BaseRTT Time
	// MaxBaseRTT, if set, measures the largest base RTT over all pairs of
	// hosts (the HPCC code's maxRtt, third.cc:910-930, which its run.py's
	// GLOBAL_T 1 gives every flow as T, third.cc:138). A function: the
	// network measures it only for a sender that asks.
	MaxBaseRTT func() Time
	// Hops is the number of switches the flow's data crosses (Swift's
	// per-hop scaling of its target delay).
	Hops  int
	Start Time       // when the flow starts
	Rand  *rand.Rand // its own random stream
}

// BDP is the sender's bandwidth-delay product in bytes: LineRate x BaseRTT.
func (env SenderEnv) BDP() float64 { return env.LineRate * env.BaseRTT.Seconds() / 8 }

// frameBytes is the data frame size, with 1000 B (the HPCC code's MTU) if
// the network gives none.
func (env SenderEnv) frameBytes() float64 {
	if env.FrameBytes > 0 {
		return env.FrameBytes
	}
	return 1000
}

// seqs tracks a flow's sequence space as its sender sees it: the next byte to
// send (snd_nxt, which go-back-N moves back) and the highest cumulative ACK
// (snd_una).
type seqs struct{ nxt, una int64 }

func (s *seqs) sent(seq int64, bytes int) { s.nxt = seq + int64(bytes) }

// acked moves snd_una to a's Seq and returns the bytes newly acknowledged.
func (s *seqs) acked(a *Ack) int64 {
	if a.Seq <= s.una {
		return 0
	}
	n := a.Seq - s.una
	s.una = a.Seq
	return n
}

// NeedsTransport says the scheme is ACK-clocked: a Sender per flow, run by
// the transport layer.
func (s *Scheme) NeedsTransport() bool { return s != nil && s.NewSender != nil }
