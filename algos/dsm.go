package algos

import (
	"fmt"
	"math"
)

// DSM, the Delay-tolerant Sliding Mode scheme of Cheng et al., "Congestion
// Control in Converged Ethernet with Heterogeneous and Time-Varying Delays"
// (seed 004), section IV: the CP estimates the queue offset and its change m
// sampling periods ahead from the feedback it sent in the last m periods (the
// "new congestion detector", eqs. 14 and 25), picks one of three linear laws
// by the region of the sliding-mode plane it is in (eq. 24), and the RP adds
// the feedback to its rate (eq. 26).
//
// Units: queue lengths Qf, Qv and their estimates are in bytes, the sampling
// period T in seconds and a, b, c in 1/s (Hz), so Fb = -a*Qf^ is a rate in
// bytes per second, and T*Fb is the change of the queue over one period it
// causes (eq. 9). The RP works in bits per second: Feedback.Fb carries 8*Fb.

func init() {
	Register(&Scheme{
		Name:      "dsm",
		QueueBand: SetPoint("q0"),
		Display:   "DSM",
		Ref:       "004 section IV (eqs. 19-31), section V-A",
		Summary:   "Delay-tolerant Sliding Mode: a CP that predicts the queue one feedback loop ahead and sends signed rate changes",
		Params:    DSMParams(),
		Check:     dsmCheck,
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewDSMCongestionPoint(env, v) },
		NewRP:     func(env RPEnv, v Values) ReactionPoint { return NewDSMReactionPoint(env, v) },
	})
}

// DSMPeriod is the sampling period T: the time the bottleneck takes to send
// 1/p frames, T = 1/(pC) with C in frames per second (section III-A: "the
// switch transmit 1/p packets during the sampling interval"; section V-A:
// 1 KB frames at 10 Gbps with p = 0.01 give T = 80 us).
func DSMPeriod(frameBytes, p, capacity float64) Time {
	return Seconds(frameBytes * 8 / (p * capacity))
}

// DSMLoopPeriods is m of eq. 6: the smallest whole number of sampling
// periods not shorter than the largest feedback loop delay, at least 1.
func DSMLoopPeriods(maxLoopDelay, period Time) int {
	if period <= 0 {
		return 1
	}
	m := (maxLoopDelay + period - 1) / period
	return int(max(m, 1))
}

// dsmMaxQvFrames is p*max(Qv) of eq. 31 with Qv in frames: the queue cannot
// change by more than the buffer between two samples.
func dsmMaxQvFrames(n Network, p float64) float64 {
	if n.FrameBytes <= 0 {
		return 0
	}
	return p * n.Buffer / n.FrameBytes
}

// dsmNetPeriod is T for the scheme's network and a resolved p.
func dsmNetPeriod(n Network, p float64) Time {
	if n.Capacity <= 0 || n.FrameBytes <= 0 {
		return 0
	}
	return DSMPeriod(n.FrameBytes, p, n.Capacity)
}

// dsmH is section V-A's Ha = Hb = Hc: "By default, we set ... Ha = Hb = Hc
// = 20KHz", below eq. 31's 2/T = 25 kHz at T = 80 us.
const dsmH = 20e3

// DSMParams are the parameters of DSM. Section V-A sets Ha = (m^2+4m+2)a,
// Hb = (2m+3)b and Hc = 2c to 20 kHz; a, b and c follow m. Where T is longer
// than 80 us (slower links, larger frames) 20 kHz would break eq. 31's
// bound H < 2/T, and H keeps V-A's ratio to it instead, 0.8*2/T.
func DSMParams() []Param {
	return []Param{
		{Key: "q0", Kind: Bytes, Min: 0,
			Doc:     "q0, the target queue length (default half the buffer: 64 KB of 128 KB in section V-A)",
			Default: func(n Network, _ Values) float64 { return math.Round(n.Buffer / 2) }},
		{Key: "p", Kind: Number, Default: Fixed(0.01), Min: 1e-6, Max: 1,
			Doc: "p, sampling probability: one sample per 1/p frames sent, T = 1/(pC) (0.01, section V-A)"},
		{Key: "m", Kind: Count, Min: 1,
			Doc: "m, the largest feedback loop delay in sampling periods (eq. 6; default: the smallest m with m*T >= the largest rtt)",
			Default: func(n Network, v Values) float64 {
				return float64(DSMLoopPeriods(n.MaxLoopDelay, dsmNetPeriod(n, v["p"])))
			}},
		{Key: "h", Kind: Number, Min: 0,
			Doc: "H = Ha = Hb = Hc in Hz (20 kHz, section V-A; 0.8*2/T where eq. 31's bound 2/T is under 25 kHz, T > 80 us)",
			Default: func(n Network, v Values) float64 {
				t := dsmNetPeriod(n, v["p"]).Seconds()
				if t <= 0 {
					return 0
				}
				return math.Min(dsmH, 0.8*2/t)
			}},
		{Key: "a", Kind: Number, Min: 0,
			Doc: "a in Hz, Fb = -a*Qf^ in state A (default H/(m^2+4m+2), section V-A from eq. 31)",
			Default: func(_ Network, v Values) float64 {
				m := v["m"]
				return v["h"] / (m*m + 4*m + 2)
			}},
		{Key: "b", Kind: Number, Min: 0,
			Doc: "b in Hz, Fb = -b*Qv^ in state B (default H/(2m+3), section V-A from eq. 31)",
			Default: func(_ Network, v Values) float64 {
				return v["h"] / (2*v["m"] + 3)
			}},
		{Key: "reaching_gain", Kind: Choice, Choices: []string{"paper", "damped"}, Default: Fixed(DSMReachingPaper),
			Doc: "the default of c: paper = H/2 (section V-A, Hc = 2c: 10 kHz, cT = 0.8 at 10 Gbps); damped = 1.6/((m^2+4m+2)T), a's V-A rule for c (eq. 30 with its m term kept) with H at 0.8 of 2/T: c = a at 10 Gbps, about 400 Hz at 100 Gbps and 160 us"},
		{Key: "c", Kind: Number, Min: 0,
			Doc: "c in Hz, Fb = -c*Qf^ in state C (default from reaching_gain: H/2, section V-A from eq. 31, or 1.6/((m^2+4m+2)T)); set it directly to try other gains",
			Default: func(n Network, v Values) float64 {
				if v["reaching_gain"] == DSMReachingDamped {
					return dsmDampedC(n, v)
				}
				return v["h"] / 2
			}},
		{Key: "omega", Kind: Number, Min: 1e-9,
			Doc: "omega, slope of the boundary delta = Qf^ + omega*Qv^ (5, section V-A; raised to the next whole number above m + p*max(Qv) - 1 when eq. 31 needs it)",
			Default: func(n Network, v Values) float64 {
				bound := v["m"] + dsmMaxQvFrames(n, v["p"]) - 1
				return math.Max(5, math.Floor(bound)+1)
			}},
		{Key: "u_max", Kind: Rate, Min: 0,
			Doc:     "the largest |Fb| of one sample (eq. 27: |u|max <= C; default the capacity)",
			Default: func(n Network, _ Values) float64 { return n.Capacity }},
		{Key: "min_rate", Kind: Rate, Default: Fixed(10e6), Min: 1,
			Doc: "the floor of the RP's rate (seed 004 gives none; 10 Mbps as QCN's MIN_RATE, seed 001)"},
	}
}

// The values of DSM's reaching_gain parameter, the default of c.
const (
	DSMReachingPaper  = 0 // c = H/2, section V-A
	DSMReachingDamped = 1 // c = a: eq. 30's bound on c, the m term kept
)

// dsmDampedC is c under reaching_gain = damped: eq. 30 bounds c as it bounds
// a, and section V-A turns that bound into Ha = (m^2+4m+2)a; keeping the m
// term for c, with H at V-A's 0.8 of eq. 31's 2/T, gives
// c = 1.6/((m^2+4m+2)T): a itself at 10 Gbps (T = 80 us, H = 20 kHz), and
// at 100 Gbps a gain that scales with the link where V-A's fixed 20 kHz
// does not.
func dsmDampedC(n Network, v Values) float64 {
	t := dsmNetPeriod(n, v["p"]).Seconds()
	if t <= 0 {
		return v["a"]
	}
	m := v["m"]
	return 0.8 * 2 / t / (m*m + 4*m + 2)
}

// dsmCheck enforces eq. 31's condition on omega, with max(Qv) the buffer.
func dsmCheck(n Network, v Values) error {
	bound := v["m"] + dsmMaxQvFrames(n, v["p"]) - 1
	if !(v["omega"] > bound) {
		return fmt.Errorf("dsm: omega = %g must exceed m + p*max(Qv) - 1 = %g (eq. 31, max(Qv) = the buffer)", v["omega"], bound)
	}
	return nil
}

// DSMRegion names the part of the (Qf^, Qv^) plane a sample falls in
// (section IV-A, figure 2).
type DSMRegion int

// Regions of eq. 24 and the boundaries between them.
const (
	DSMStateA   DSMRegion = iota // Qv^*delta < 0: Fb = -a*Qf^
	DSMStateB                    // Qf^*delta < 0: Fb = -b*Qv^
	DSMStateC                    // Qf^*Qv^ > 0: Fb = -c*Qf^
	DSMAxisQf                    // Qv^ = 0: taken as state A
	DSMBoundary                  // Qf^ = 0 or delta = 0 (Qv^ != 0): taken as state B
	DSMOrigin                    // Qf^ = Qv^ = 0: Fb = 0
)

func (r DSMRegion) String() string {
	return [...]string{"A", "B", "C", "Qv^=0 (A)", "Qf^=0 or delta=0 (B)", "origin"}[r]
}

// DSMControl is eq. 24: the feedback for the detector (qf, qv) = (Qf^, Qv^).
// For omega > 0 the three regions are disjoint (in A and B, Qf^ and Qv^ have
// opposite signs, while delta has their common sign in C), but on the axes
// and on the line delta = 0 all three conditions fail. There:
//   - Qv^ = 0, Qf^ != 0 (delta = Qf^) counts as state A, Fb = -a*Qf^, as
//     the appendix's "delta < 0 and Qf^ < 0 (i.e. StateA)" includes it;
//   - Qf^ = 0 or delta = 0 with Qv^ != 0 counts as state B, Fb = -b*Qv^:
//     on delta = 0 the control that keeps the state on the line is
//     -Qv^/((omega+1)T), a B law with b at its lower bound (eq. 23), and at
//     Qf^ = 0 a growing (shrinking) queue must still slow down (speed up);
//   - the origin, the stable state (section III-D), gives Fb = 0.
func DSMControl(qf, qv, omega, a, b, c float64) (float64, DSMRegion) {
	delta := qf + omega*qv // eq. 19
	switch {
	case qv*delta < 0:
		return -a * qf, DSMStateA
	case qf*delta < 0:
		return -b * qv, DSMStateB
	case qf*qv > 0:
		return -c * qf, DSMStateC
	case qf == 0 && qv == 0:
		return 0, DSMOrigin
	case qv == 0:
		return -a * qf, DSMAxisQf
	default:
		return -b * qv, DSMBoundary
	}
}

// DSMCongestionPoint is the DSM CP (section IV-B, eqs. 24-25, with the O(1)
// running sums of section IV-D).
type DSMCongestionPoint struct {
	cpid    int
	q0      float64
	period  Time    // T
	t       float64 // T in seconds
	m       int
	omega   float64
	a, b, c float64
	uMax    float64 // eq. 27's bound on |Fb|, bytes per second

	hist   []float64 // Fb(k-1) .. Fb(k-m) in bytes/s, a ring; hist[pos] is Fb(k-m)
	pos    int
	s1, s2 float64 // S1(k) = sum Fb(k-i), S2(k) = sum i*Fb(k-i), i = 1..m
	k      int     // samples taken
	qPrev  float64 // q(k-1)
	next   Time    // the next sampling instant
	begun  bool

	// The last sample's detector (Qf^, Qv^ in bytes) and region.
	QfHat, QvHat float64
	Region       DSMRegion
}

// NewDSMCongestionPoint builds a CP from resolved DSM values.
func NewDSMCongestionPoint(env CPEnv, v Values) *DSMCongestionPoint {
	m := int(v["m"])
	period := DSMPeriod(env.FrameBytes, v["p"], env.Capacity)
	return &DSMCongestionPoint{
		cpid:   env.CPID,
		q0:     v["q0"],
		period: period,
		t:      period.Seconds(),
		m:      m,
		omega:  v["omega"],
		a:      v["a"],
		b:      v["b"],
		c:      v["c"],
		uMax:   v["u_max"] / 8,
		hist:   make([]float64, m),
	}
}

// Period is the sampling period T.
func (cp *DSMCongestionPoint) Period() Time { return cp.period }

// Sums returns S1(k) and S2(k) for the next sample, in bytes per second.
func (cp *DSMCongestionPoint) Sums() (s1, s2 float64) { return cp.s1, cp.s2 }

// History returns Fb(k-1), ..., Fb(k-m) in bytes per second.
func (cp *DSMCongestionPoint) History() []float64 {
	out := make([]float64, cp.m)
	for i := 1; i <= cp.m; i++ {
		out[i-1] = cp.hist[(cp.pos-i+cp.m)%cp.m]
	}
	return out
}

// Step runs sample k with the queue at q bytes and returns Fb(k) in bytes
// per second.
func (cp *DSMCongestionPoint) Step(q float64) float64 {
	qf := q - cp.q0    // Qf(k) = q(k) - q0
	qv := q - cp.qPrev // Qv(k) = q(k) - q(k-1)
	cp.qPrev = q
	m := float64(cp.m)
	cp.QfHat = qf + m*qv + cp.t*cp.s2 // eq. 25 with S2 (section IV-D)
	cp.QvHat = qv + cp.t*cp.s1        // eq. 25 with S1
	fb, region := DSMControl(cp.QfHat, cp.QvHat, cp.omega, cp.a, cp.b, cp.c)
	cp.Region = region
	// Eq. 27 asks that one step never change the rate by more than C. The
	// defaults of eq. 31 only bound a and b that way (c is exempt: "the item
	// associated with m in (30) can be ignored for c"), and the bound (29)
	// on Qf^ itself assumes |Fb| <= C, so the CP enforces it. Without it a
	// full or empty queue, which hides the sources' response, lets Qf^ feed
	// on its own outputs and grow without limit.
	fb = math.Max(-cp.uMax, math.Min(cp.uMax, fb))
	// Section IV-D: S1(k+1) = S1(k) + Fb(k) - Fb(k-m). For S2 the seed
	// writes S2(k+1) = S2(k) + S1(k) - m*Fb(k-m); the sum of i*Fb(k+1-i)
	// needs S1(k+1) there (with S1(k) it is off by Fb(k) - Fb(k-m)).
	old := cp.hist[cp.pos]
	cp.s1 += fb - old
	cp.s2 += cp.s1 - m*old
	cp.hist[cp.pos] = fb
	cp.pos = (cp.pos + 1) % cp.m
	// Rounding errors of S1 accumulate into S2 at every step; recomputing
	// both from the stored feedbacks now and then (O(m) every
	// dsmResumEvery samples) keeps them exact and the update O(1).
	if cp.k++; cp.k%dsmResumEvery == 0 {
		cp.s1, cp.s2 = 0, 0
		for i := 1; i <= cp.m; i++ {
			f := cp.hist[(cp.pos-i+cp.m)%cp.m]
			cp.s1 += f
			cp.s2 += float64(i) * f
		}
	}
	return fb
}

// dsmResumEvery is how often the CP recomputes S1 and S2 directly.
const dsmResumEvery = 1024

// Arrive samples the first frame to arrive at or after each sampling
// instant, one period T apart, and sends every sample's Fb to the frame's
// source, positive or negative: the RP only ever moves on feedback (eq. 26).
// A fixed period is the model's (eqs. 7-9; section III-A: T is
// "deterministic when the switch is congested", the time to send 1/p
// frames; section V-A: "100KB data will pass CP during a sampling
// interval"). It picks the same frames as counting 1/p transmitted frames
// while the link is busy, and keeps T when the queue runs empty. Fb carries
// 8*Fb(k) in bits per second; Qoff and Qdelta carry Qf^ and Qv^ in bytes.
func (cp *DSMCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	if cp.begun && now < cp.next {
		return false
	}
	if !cp.begun {
		cp.begun = true
		cp.next = now
	}
	cp.next += cp.period
	if cp.next <= now { // no arrival for more than a period
		cp.next = now + cp.period
	}
	u := cp.Step(float64(qlen))
	*fb = Feedback{CPID: cp.cpid, Fb: 8 * u, Qoff: cp.QfHat, Qdelta: cp.QvHat, Sent: f.Sent}
	return true
}

// DSMReactionPoint is the DSM RP: r += Fb (eq. 26), honouring a rate
// increase only from the CP the source stored with its last decrease
// (section IV-D, "Adaptability").
type DSMReactionPoint struct {
	c       float64
	minRate float64
	rate    float64
	cpid    int
}

// NewDSMReactionPoint builds an RP at the source's initial rate.
func NewDSMReactionPoint(env RPEnv, v Values) *DSMReactionPoint {
	rp := &DSMReactionPoint{c: env.LineRate, minRate: v["min_rate"], rate: env.InitialRate}
	rp.rate = math.Max(rp.minRate, math.Min(rp.rate, rp.c))
	return rp
}

func (rp *DSMReactionPoint) Rate() float64 { return rp.rate }
func (rp *DSMReactionPoint) CPID() int     { return rp.cpid }
func (rp *DSMReactionPoint) Timer() Time   { return Never }

// Feedback applies r += Fb (fb.Fb in bits per second), clamped to
// [min_rate, C]. A source that has never been told to slow down is
// associated with no CP and takes increases from any: the seed only says
// which CP's increases an associated source honours.
func (rp *DSMReactionPoint) Feedback(now Time, fb Feedback) {
	switch {
	case fb.Fb < 0:
		rp.cpid = fb.CPID // "store the CPID when receiving a rate-decreased feedback"
	case fb.Fb > 0 && rp.cpid != 0 && rp.cpid != fb.CPID:
		return // another CP's rate-increase
	}
	rp.rate = math.Max(rp.minRate, math.Min(rp.rate+fb.Fb, rp.c))
}

// Transmit and Expire do nothing: DSM's RP moves only on feedback.
func (rp *DSMReactionPoint) Transmit(Time, int, bool) bool { return false }
func (rp *DSMReactionPoint) Expire(Time)                   {}
