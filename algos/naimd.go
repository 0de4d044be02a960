package algos

import (
	"math"
	"math/rand/v2"
)

// N-AIMD, from Alizadeh et al. (seed 000) section III-B: network AIMD, "a
// version of the BCN algorithm studied by the IEEE DCTG, with some minor
// features disabled". The switch samples arriving frames with probability
// 1% (T = 100 packets), computes Fb as in eq. (1) and sends it "whether F_b
// is positive or negative"; the source applies eq. (14): additive increase on
// Fb >= 0, multiplicative decrease on Fb < 0.
//
// Units: the seed gives Q_eq = 16 packets and the gains of the baseline BCN
// implementation with Fb "in packets". The code keeps queues in bytes and
// counts Fb in units of fb_unit bytes (default: one frame, so Fb is in
// packets); the built-in experiment ap-n-aimd-2-sources records why packets and not
// 64-byte pages or bytes.

func init() {
	Register(&Scheme{
		Name:      "n-aimd",
		QueueBand: SetPoint("q_eq"),
		Display:   "N-AIMD",
		Ref:       "000 section III-B, eq. 14",
		Summary:   "network AIMD: the switch feeds back signed Fb on 1% of frames; the source adds Gi*Ru*Fb or scales by 1 - Gd*|Fb|",
		Params:    NAIMDParams(),
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewNAIMDCongestionPoint(env, v) },
		NewRP:     func(env RPEnv, v Values) ReactionPoint { return NewNAIMDReactionPoint(env, v) },
	})
}

// framePackets is a network's frame size, or 1500 B (the seeds' packet) when
// it does not say.
func framePackets(n Network) float64 {
	if n.FrameBytes > 0 {
		return n.FrameBytes
	}
	return 1500
}

// NAIMDParams are N-AIMD's parameters with the baseline BCN values of seed 000
// section III-B.
func NAIMDParams() []Param {
	return []Param{
		{Key: "q_eq", Kind: Bytes, Min: 1,
			Doc:     "Q_eq, the queue the CP aims at: 16 packets of the frame size (seed 000 section III-B)",
			Default: func(n Network, _ Values) float64 { return 16 * framePackets(n) }},
		{Key: "w", Kind: Number, Default: Fixed(2),
			Doc: "w, weight of the queue change in Fb = -(Qoff + w*Qdelta) (eq. 1)"},
		{Key: "fb_unit", Kind: Bytes, Min: 1,
			Doc:     "queue bytes per unit of Fb: one frame, so Fb is in packets (seed 000; the built-in ap-n-aimd-2-sources records why)",
			Default: func(n Network, _ Values) float64 { return framePackets(n) }},
		{Key: "sample_probability", Kind: Number, Default: Fixed(0.01), Min: 1e-6, Max: 1,
			Doc: "probability that the CP samples an arriving frame: 1%, so T = 100 packets"},
		{Key: "sampling", Kind: Choice, Choices: []string{"random", "regular"}, Default: Fixed(SampleRandom),
			Doc: "random: each frame sampled with probability p, as section III-B says; regular: exactly every T = 1/p frames (Remark 1's best case for AP)"},
		{Key: "sample_jitter", Kind: Number, Default: Fixed(0), Max: 1,
			Doc: "regular sampling only (random ignores it, so that a sweep can switch sampling): each interval is T*(1 + j*U(-1,1)) frames, rounded; 0 keeps it exactly T, which can lock onto a few of many sources"},
		{Key: "gi", Kind: Number, Default: Fixed(0.53333),
			Doc: "Gi, increase gain: R += Gi*Ru*Fb for Fb >= 0 (eq. 14a)"},
		{Key: "ru", Kind: Rate, Default: Fixed(1e6),
			Doc: "Ru, rate unit of the increase: 1 Mbps (eq. 14a)"},
		{Key: "gd", Kind: Number, Default: Fixed(0.0026667),
			Doc: "Gd, decrease gain: R *= 1 - Gd*|Fb| for Fb < 0 (eq. 14b)"},
		{Key: "min_rate", Kind: Rate, Default: Fixed(10e6), Min: 1,
			Doc: "floor of the rate (seed 000 gives none: QCN's MIN_RATE, pseudo-code line 34)"},
		{Key: "fb_filter", Kind: Choice, Choices: []string{"none", "theorem1"}, Default: Fixed(FbFilterNone),
			Doc: "none: eq. 14 on each Fb[n]; theorem1: eq. 14 on 3/4 Fb[n] - 1/4 Fb[n-1], System 2 of seed 000 section III-C (Theorem 1: the AP's equivalent without averaging)"},
	}
}

// The values of N-AIMD's fb_filter parameter.
const (
	FbFilterNone     = 0 // eq. (14) on the feedback as it comes
	FbFilterTheorem1 = 1 // eq. (14) on 3/4 Fb[n] - 1/4 Fb[n-1] (seed 000, Theorem 1's System 2)
)

// The values of the sampling parameter of N-AIMD and AP-N-AIMD.
const (
	SampleRandom  = 0 // Bernoulli sampling with probability p (seed 000 section III-B)
	SampleRegular = 1 // one sample every T = 1/p frames
)

// NAIMDCongestionPoint is the N-AIMD switch: sampling and eq. (1).
type NAIMDCongestionPoint struct {
	cpid    int
	qEq     float64 // bytes
	w       float64
	unit    float64 // bytes per unit of Fb
	p       float64
	qlenOld float64 // queue at the last sample, bytes
	rand    *rand.Rand

	regular   bool
	period    float64 // T = 1/p frames
	jitter    float64 // regular sampling: relative half-width of the interval
	countdown int     // regular sampling: frames until the next sample
}

// NewNAIMDCongestionPoint builds a CP from resolved N-AIMD values.
func NewNAIMDCongestionPoint(env CPEnv, v Values) *NAIMDCongestionPoint {
	cp := place(env, func(s *CPSlab) *slab[NAIMDCongestionPoint] { return &s.naimd })
	*cp = NAIMDCongestionPoint{cpid: env.CPID, qEq: v["q_eq"], w: v["w"], unit: v["fb_unit"],
		p: v["sample_probability"], rand: env.Rand,
		regular: v["sampling"] == SampleRegular, period: 1 / v["sample_probability"], jitter: v["sample_jitter"]}
	if cp.regular {
		cp.countdown = cp.interval()
	}
	return cp
}

// interval draws the frames until the next regular sample: T, or
// T*(1 + j*U(-1,1)) with a jitter j, at least one frame.
func (cp *NAIMDCongestionPoint) interval() int {
	t := cp.period
	if cp.jitter > 0 {
		t *= 1 + cp.jitter*(2*cp.rand.Float64()-1)
	}
	return max(1, int(math.Round(t)))
}

// sample decides whether the arriving frame is sampled.
func (cp *NAIMDCongestionPoint) sample() bool {
	if !cp.regular {
		return cp.rand.Float64() < cp.p
	}
	cp.countdown--
	if cp.countdown > 0 {
		return false
	}
	cp.countdown = cp.interval()
	return true
}

// Fb is eq. (1) in units of fb_unit: -(Qoff + w*Qdelta), Qoff = Q - Q_eq,
// Qdelta = Q - Q_old, Q_old the queue at the last sample. No clamp and no
// quantisation: seed 000 gives neither for N-AIMD.
func (cp *NAIMDCongestionPoint) Fb(qlen float64) float64 {
	return -((qlen - cp.qEq) + cp.w*(qlen-cp.qlenOld)) / cp.unit
}

// Arrive samples the frame (with probability p, or every T frames) and, if sampled, sends Fb to
// its source whatever its sign, 0 included (section III-B: "whether F_b is
// positive or negative, N-AIMD sends the F_b value"; eq. 14a covers Fb = 0,
// and the AP source needs every sample as a feedback to keep its period T).
// Fb carries Fb in fb_unit; Qoff (Q - Q_eq) and Qdelta are in bytes.
func (cp *NAIMDCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	if !cp.sample() {
		return false
	}
	q := float64(qlen)
	*fb = Feedback{CPID: cp.cpid, Fb: cp.Fb(q), Qoff: q - cp.qEq, Qdelta: q - cp.qlenOld, Sent: f.Sent}
	cp.qlenOld = q
	return true
}

// NAIMDReactionPoint is the N-AIMD source: eq. (14) on every feedback, the
// rate kept in [min_rate, line rate]. It has no timer and no byte counter.
type NAIMDReactionPoint struct {
	c       float64 // line rate
	minRate float64
	gi, ru  float64
	gd      float64
	rate    float64
	cpid    int
	filter  bool    // fb_filter = "theorem1"
	prevFb  float64 // Fb[n-1] for the filter; 0 before the first feedback
}

// NewNAIMDReactionPoint builds an RP from resolved N-AIMD values. Sources
// start at their initial rate (line rate unless told otherwise, seed 000
// section II item 4).
func NewNAIMDReactionPoint(env RPEnv, v Values) *NAIMDReactionPoint {
	rp := &NAIMDReactionPoint{c: env.LineRate, minRate: v["min_rate"], gi: v["gi"], ru: v["ru"], gd: v["gd"], rate: env.LineRate,
		filter: v["fb_filter"] == FbFilterTheorem1}
	if env.InitialRate > 0 && env.InitialRate < env.LineRate {
		rp.rate = env.InitialRate
	}
	rp.rate = max(rp.rate, min(rp.minRate, rp.c))
	return rp
}

func (rp *NAIMDReactionPoint) Rate() float64 { return rp.rate }
func (rp *NAIMDReactionPoint) CPID() int     { return rp.cpid }
func (rp *NAIMDReactionPoint) Timer() Time   { return Never }

// Feedback applies eq. (14), to Fb[n] or, with fb_filter = "theorem1", to
// 3/4 Fb[n] - 1/4 Fb[n-1] (seed 000 section III-C, System 2; Fb[0] = 0).
func (rp *NAIMDReactionPoint) Feedback(now Time, fb Feedback) {
	rp.cpid = fb.CPID
	x := fb.Fb
	if rp.filter {
		x, rp.prevFb = 0.75*fb.Fb-0.25*rp.prevFb, fb.Fb
	}
	rp.rate = rp.Apply(rp.rate, x)
}

// Apply returns rate after eq. (14) with feedback fb, clamped to
// [min_rate, line rate]: R + Gi*Ru*Fb if Fb >= 0 (14a), R*(1 - Gd*|Fb|) if
// Fb < 0 (14b). A decrease factor below 0 (|Fb| > 1/Gd) is taken as 0, so
// the rate falls to min_rate.
func (rp *NAIMDReactionPoint) Apply(rate, fb float64) float64 {
	if fb >= 0 {
		rate += rp.gi * rp.ru * fb
	} else {
		rate *= max(0, 1+rp.gd*fb)
	}
	return min(max(rate, rp.minRate), rp.c)
}

// Transmit does nothing: N-AIMD changes its rate only on feedback.
func (rp *NAIMDReactionPoint) Transmit(now Time, bytes int, backlogEmpty bool) bool { return false }

// Expire does nothing: N-AIMD has no timer.
func (rp *NAIMDReactionPoint) Expire(now Time) {}
