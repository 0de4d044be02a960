package model

import (
	"math/bits"
	"math/rand/v2"

	"qcnlab/algos"
)

// Clocks and forwarding jitter: what real hardware has that breaks the
// lock-step of perfectly periodic senders.
//
// Without them, a line-rate source sends a frame every frame time exactly,
// a saturated port serves one every frame time exactly, and the order in
// which the frames of two sources reach a full drop-tail queue is the same
// at every departure: the source whose frames land first after the
// departure that frees a slot always gets it, the other never does (10 / 0
// Gbps), and a round-robin sprayer sees its flows in the same order at
// every turn, so each flow keeps one next hop. These are Floyd and
// Jacobson's traffic phase effects ("On traffic phase effects in
// packet-switched gateways", 1992); they belong to the simulation's
// perfectly periodic senders, not to switches.
//
// A host's clock offset alone does not break them in time: Ethernet allows
// +-100 ppm (IEEE 802.3 clause 4, 22, 36: the transmit clock within 100 ppm
// of nominal), so two clocks differ by at most 200 ppm and the phase of one
// sender's frames against another's sweeps a frame time in 1/(200e-6) =
// 5,000 frames, 6 ms at 10 Gbps and 1500 B, and at the typical 70 ppm
// apart 17 ms: longer than a 5 ms window, over which one sender still gets
// everything. What breaks the lock in a real switch is that its
// forwarding latency is not a constant to the picosecond: arbitration for
// the shared packet memory, cell scheduling and the ingress pipeline vary
// it from frame to frame by tens to hundreds of nanoseconds. Even a few
// nanoseconds of such variation decides the ties that identical delays
// make, and a variation of the order of a 64 B frame's time reorders the
// arrivals that land within it of each other at every port, as they are
// reordered in hardware.
//
// Each frame's arrival at a switch (from a host's link or another
// switch's port) is therefore delayed by a draw from [0, SwitchJitter),
// never overtaking the frame before it on its link; each host's clock runs
// 1 + e fast, e drawn within +-ClockPPM.

// jitter is the switches' forwarding-latency variation: one stream of
// draws for the whole network, in event order, so a run is deterministic.
// A switch draws a frame's as the frame is queued (enter, enterClasses,
// enterControl) or as a paused port resumes (releasePort): in an event's
// handler, never as a port is brought up to date (serve), which happens
// whenever something looks at the port, a sample or the end of a step of
// Advance among them, and would give the draws to the ports in the order
// they were looked at.
type jitter struct {
	max algos.Time // 0: none
	rng rand.PCG
	// inv is (2^64-1)/max: draw divides by multiplying, for a 64-bit
	// division costs tens of cycles a frame-hop.
	inv uint64
}

func newJitter(max algos.Time, seed uint64) jitter {
	return jitter{max: max, rng: *rand.NewPCG(seed, streamJitter), inv: ^uint64(0) / uint64(max)}
}

// draw is a frame's forwarding delay: its arrival is that much later,
// though never before the frame before it on its link's (enter, release).
// It is the draw modulo max, exactly (remainder): the same numbers as
// the plain division.
func (j *jitter) draw() algos.Time {
	return algos.Time(remainder(j.rng.Uint64(), uint64(j.max), j.inv))
}

// remainder is x mod d, given inv = (2^64-1)/d (d > 0). The high word of
// x*inv undershoots x/d by less than 1, so the quotient it gives is
// exact or one short, and one subtraction makes the remainder exact.
func remainder(x, d, inv uint64) uint64 {
	q, _ := bits.Mul64(x, inv)
	r := x - q*d
	if r >= d {
		r -= d
	}
	return r
}

// startClocks draws each host's clock offset and seeds the jitter.
func (s *Packet) startClocks() {
	if ppm := s.cfg.ClockPPM; ppm > 0 {
		r := rand.New(rand.NewPCG(s.cfg.Seed, streamClock))
		for i := range s.hosts {
			s.hosts[i].clock = 1 + (2*r.Float64()-1)*ppm*1e-6
		}
	}
	if s.cfg.SwitchJitter > 0 {
		s.jitter = newJitter(s.cfg.SwitchJitter, s.cfg.Seed)
	}
}

// The bounds validation puts on them: a clock 1% off, a microsecond of
// jitter, are already far beyond any real switch or NIC.
const (
	MaxClockPPM     = 10_000
	MaxSwitchJitter = 10 * algos.Microsecond
)

const (
	streamClock  = 8 << 32 // hosts' clock offsets
	streamJitter = 9 << 32 // switches' forwarding jitter
)
