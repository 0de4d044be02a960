package algos

import (
	"math"
	"math/rand/v2"
)

// QCN, from R. Pan's "QCN Pseudo Code, Version 2.2" (seed 001). Line numbers
// in the comments are the pseudo-code's. Queue lengths are in bytes here, not
// in 64-byte pages: Fb is only ever used through its quantisation against
// Q_EQ*(2W+1), so the unit cancels.

func init() {
	Register(&Scheme{
		Name:      "qcn",
		QueueBand: SetPoint("q_eq"),
		Display:   "QCN",
		Ref:       "001 (pseudo-code v2.2), 000 section II",
		Summary:   "the IEEE 802.1Qau standard: quantised negative feedback, byte counter and timer self-increase",
		Params:    QCNParams(),
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewQCNCongestionPoint(env, v) },
		NewRP:     func(env RPEnv, v Values) ReactionPoint { return NewQCNReactionPoint(env, v) },
		// Seed 000's fluid model is QCN with the byte counter only.
		Fluid: true,
		// Seed 002 eq. 25: five FR cycles of BC_LIMIT, AI cycles of half.
		Convergence: &ConvergenceLaw{Cycles: func(v Values) (float64, float64) { return v["bc_limit"], v["bc_limit"] / 2 }},
	})
}

// QCNParams are the parameters of QCN with the baseline values of seeds 000,
// 001 and 002. Schemes derived from QCN start from this list.
func QCNParams() []Param {
	return []Param{
		{Key: "q_eq", Kind: Bytes, Min: 1,
			Doc:     "Q_EQ, the queue length the CP aims at (default: 20% of the buffer, seed 000 footnote 1)",
			Default: func(n Network, _ Values) float64 { return math.Round(0.2 * n.Buffer) }},
		{Key: "w", Kind: Number, Default: Fixed(2),
			Doc: "W, weight of the queue change in Fb = -(Qoff + W*Qdelta)"},
		{Key: "gd", Kind: Number, Default: Fixed(1.0 / 128), Max: 1,
			Doc: "GD, decrease gain: CR *= 1 - GD*qntz_Fb (GD*63 is about 0.5)"},
		{Key: "bc_limit", Kind: Bytes, Default: Fixed(150e3), Min: 1,
			Doc: "BC_LIMIT, bytes sent per byte-counter cycle (half of it in AI/HAI)"},
		{Key: "timer_period", Kind: Duration, Default: Fixed(10e-3), Min: 1e-9,
			Doc: "TIMER_PERIOD, length of a timer cycle (half of it in AI/HAI); 10 ms in seed 000, 15 ms in seed 002"},
		{Key: "r_ai", Kind: Rate,
			Doc:     "R_AI, target-rate step in active increase (5 Mbps at 10 Gbps, scaled with capacity)",
			Default: func(n Network, _ Values) float64 { return 5e6 * n.Capacity / 10e9 }},
		{Key: "r_hai", Kind: Rate,
			Doc:     "R_HAI, target-rate step in hyper-active increase (default 10 x R_AI)",
			Default: func(_ Network, v Values) float64 { return 10 * v["r_ai"] }},
		{Key: "fast_recovery_th", Kind: Count, Default: Fixed(5),
			Doc: "FAST_RECOVERY_TH, cycles of fast recovery before active increase"},
		{Key: "min_rate", Kind: Rate, Default: Fixed(10e6), Min: 1,
			Doc: "MIN_RATE, floor of the current rate"},
		{Key: "min_dec_factor", Kind: Number, Default: Fixed(0.5), Max: 1,
			Doc: "MIN_DEC_FACTOR, the largest single decrease is CR *= this"},
		{Key: "literal_activation", Kind: Switch, Default: Fixed(0), Max: 1,
			Doc: "activate a rate limiter only if qoff > 0 too, as line 19 reads literally (SPEC point 1)"},
	}
}

// qcnMarkTable is Mark_Table (lines 196-208): bytes between samples, indexed
// by qntz_Fb/8.
var qcnMarkTable = [8]float64{150e3, 75e3, 50e3, 37.5e3, 30e3, 25e3, 21.5e3, 18.5e3}

// qcnFbLevels is the number of quantisation levels of -Fb (6 bits).
const qcnFbLevels = 64

// jitter draws random_number_between(0.85, 1.15), the 30% margin of
// randomness of lines 118, 138 and 180.
func jitter(r *rand.Rand) float64 { return 0.85 + 0.3*r.Float64() }

// QCNCongestionPoint is the QCN CP (lines 146-208). A frame that is not
// sampled reads timeToMark alone, so the CP is that and a pointer to the
// rest, which only a sample reads: 16 bytes, four to a cache line in a
// CPSlab.
type QCNCongestionPoint struct {
	timeToMark float64 // bytes before the next sample (line 171)
	*qcnSampler
}

// qcnSampler is what a QCN CP reads when it samples.
type qcnSampler struct {
	cpid    int
	qEq, w  float64
	fbMax   float64 // Q_EQ*(2W+1), the largest -Fb (line 157)
	fbScale float64 // quantisation levels per byte of -Fb
	qlenOld float64 // queue length at the last sample (line 177)
	rand    *rand.Rand
}

// NewQCNCongestionPoint builds a CP from resolved QCN values.
func NewQCNCongestionPoint(env CPEnv, v Values) *QCNCongestionPoint {
	cp := place(env, func(s *CPSlab) *slab[QCNCongestionPoint] { return &s.qcn })
	cp.timeToMark = qcnMarkTable[0] // line 150
	cp.qcnSampler = place(env, func(s *CPSlab) *slab[qcnSampler] { return &s.qcnSampler })
	*cp.qcnSampler = qcnSampler{
		cpid:    env.CPID,
		qEq:     v["q_eq"],
		w:       v["w"],
		fbMax:   v["q_eq"] * (2*v["w"] + 1),
		fbScale: qcnFbLevels / (v["q_eq"] * (2*v["w"] + 1)),
		rand:    env.Rand,
	}
	return cp
}

// Quantize maps a clamped Fb (<= 0) to qntz_Fb in 0..63 (line 166): 64
// uniform levels over [0, Q_EQ*(2W+1)], the 6 most significant bits of -Fb.
func (cp *QCNCongestionPoint) Quantize(fb float64) int {
	q := int(-fb * cp.fbScale)
	return min(max(q, 0), qcnFbLevels-1)
}

// Fb computes the clamped congestion measure of lines 156-161.
func (cp *QCNCongestionPoint) Fb(qlen float64) float64 {
	fb := (cp.qEq - qlen) - cp.w*(qlen-cp.qlenOld)
	if fb < -cp.fbMax {
		fb = -cp.fbMax
	} else if fb > 0 {
		fb = 0
	}
	return fb
}

// Arrive runs lines 153-192 for one incoming frame. Fb carries qntz_Fb.
func (cp *QCNCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	cp.timeToMark -= float64(f.Bytes) // line 171
	if cp.timeToMark >= 0 {
		return false // Fb only matters at a sample: skip computing it
	}
	q := float64(qlen)
	qntz := cp.Quantize(cp.Fb(q))
	// Line 189 reads qdelta after line 177 has set qlen_old = qlen, which
	// would always give 0; the intent is the change since the last sample.
	qdelta := q - cp.qlenOld
	cp.qlenOld = q                                         // line 177
	cp.timeToMark = jitter(cp.rand) * qcnMarkTable[qntz/8] // lines 179-180
	if qntz == 0 {                                         // line 174
		return false
	}
	*fb = Feedback{CPID: cp.cpid, Fb: float64(qntz), Qoff: cp.qEq - q, Qdelta: qdelta, Sent: f.Sent}
	return true
}

// QCNVariant selects which of QCN's rate-increase mechanisms a reaction
// point runs. Standard QCN (seed 001) is QCNStandard; the variants of seed 002
// (QCN-TIMER, QCN-AIMD, QCN-T) switch parts of it off or change the increase
// rule, and reuse every other line of the RP.
type QCNVariant struct {
	// ByteCounter runs the byte counter of lines 110-125. Without it
	// si_count stays 0, and the first-cycle rule of lines 38-41 looks at
	// the timer stage instead (see Feedback).
	ByteCounter bool
	// Timer runs the timer of lines 59 and 129-145.
	Timer bool
	// HalfAICycles makes the cycles after FAST_RECOVERY_TH half as long
	// (lines 117-121 and 137-141).
	HalfAICycles bool
	// AIMD replaces fast recovery, active and hyper-active increase with
	// CR += R_AI at the end of every cycle (seed 002 eq. 27, QCN-AIMD).
	AIMD bool
	// TimerHAI, for a timer-only RP (ByteCounter false), enters HAI when
	// timer_scount > TimerHAI, with Ri = R_HAI*(timer_scount - TimerHAI)
	// (seed 002 section VI, QCN-T). 0 keeps lines 67-79, under which a
	// timer alone never reaches HAI (QCN-TIMER).
	TimerHAI int
}

// QCNStandard is QCN as pseudo-code v2.2 specifies it.
var QCNStandard = QCNVariant{ByteCounter: true, Timer: true, HalfAICycles: true}

// QCNReactionPoint is the QCN RP (lines 1-145) for one rate limiter.
//
// What Transmit reads at every frame comes first, in the first 64 bytes:
// a fabric's hosts release frames at random, each RP a cache miss, and
// the two lines from its start then hold all of it (TestQCNRPLayout).
type QCNReactionPoint struct {
	active   bool
	variant  QCNVariant
	crate    float64
	c        float64 // line rate C
	txBcount float64 // bytes left in this byte-counter cycle
	bcLimit  float64

	gd           float64
	timerPeriod  Time
	rAI, rHAI    float64
	frTh         int
	minRate      float64
	minDecFactor float64
	literal      bool

	trate       float64
	siCount     int  // byte-counter stage
	timerScount int  // timer stage
	timer       Time // deadline of the timer, Never when not armed
	cpid        int
	rand        *rand.Rand
}

// NewQCNReactionPoint builds an RP from resolved QCN values (lines 1-11). A
// source that starts below line rate starts with an active rate limiter at
// that rate, its byte counter and timer in their first cycle.
func NewQCNReactionPoint(env RPEnv, v Values) *QCNReactionPoint {
	return NewQCNVariantReactionPoint(env, v, QCNStandard)
}

// NewQCNVariantReactionPoint builds an RP that runs the given variant of
// QCN. Values a variant does not use (bc_limit without a byte counter,
// r_hai and fast_recovery_th under AIMD) may be absent.
func NewQCNVariantReactionPoint(env RPEnv, v Values, variant QCNVariant) *QCNReactionPoint {
	rp := &QCNReactionPoint{
		c:            env.LineRate,
		gd:           v["gd"],
		bcLimit:      v["bc_limit"],
		timerPeriod:  Seconds(v["timer_period"]),
		rAI:          v["r_ai"],
		rHAI:         v["r_hai"],
		frTh:         int(v["fast_recovery_th"]),
		minRate:      v["min_rate"],
		minDecFactor: v["min_dec_factor"],
		literal:      v["literal_activation"] != 0,
		variant:      variant,
		crate:        env.LineRate,
		trate:        env.LineRate,
		txBcount:     v["bc_limit"],
		timer:        Never,
		rand:         env.Rand,
	}
	if env.InitialRate > 0 && env.InitialRate < env.LineRate {
		rp.active = true
		rp.crate, rp.trate = env.InitialRate, env.InitialRate
		if variant.Timer {
			rp.timer = env.Start + rp.timerPeriod
		}
	}
	return rp
}

func (rp *QCNReactionPoint) Rate() float64 { return rp.crate }
func (rp *QCNReactionPoint) CPID() int     { return rp.cpid }
func (rp *QCNReactionPoint) Timer() Time   { return rp.timer }

// Active reports whether the rate limiter is installed.
func (rp *QCNReactionPoint) Active() bool { return rp.active }

// TargetRate is TR, the rate before the last decrease plus increases.
func (rp *QCNReactionPoint) TargetRate() float64 { return rp.trate }

// Stages returns the byte-counter and timer stages (si_count, timer_scount).
func (rp *QCNReactionPoint) Stages() (byteCounter, timer int) { return rp.siCount, rp.timerScount }

// Feedback handles a feedback frame (lines 13-61); fb.Fb is qntz_Fb.
func (rp *QCNReactionPoint) Feedback(now Time, fb Feedback) {
	if !rp.active {
		// Line 19 reads "fb != 0 && qoff > 0"; SPEC point 1 takes the
		// intent (activate on congestion feedback) unless asked otherwise.
		if fb.Fb == 0 || (rp.literal && fb.Qoff <= 0) {
			return // line 29
		}
		rp.active = true // lines 21-26
		rp.crate, rp.trate = rp.c, rp.c
		rp.txBcount = rp.bcLimit // line 25: this rate limiter only (SPEC point 2)
		rp.siCount = 0
	}
	if fb.Fb == 0 {
		return
	}
	rp.cpid = fb.CPID
	// Lines 38-41: in the first cycle of fast recovery a new feedback does
	// not reset the target rate. The pseudo-code tests the byte-counter
	// stage; with no byte counter si_count never leaves 0 and TR would stay
	// at C forever, so a timer-only RP (QCN-TIMER, QCN-T) tests the stage of
	// the counter it has, timer_scount.
	stage := rp.siCount
	if !rp.variant.ByteCounter {
		stage = rp.timerScount
	}
	switch {
	case rp.variant.AIMD:
		// Seed 002 eq. 28 counts increases from the last decrease: every
		// feedback restarts the byte counter. There is no target rate.
		rp.txBcount = rp.bcLimit
	case stage != 0:
		rp.trate = rp.crate
		rp.txBcount = rp.bcLimit
	}
	rp.siCount, rp.timerScount = 0, 0 // lines 44-45
	dec := 1 - rp.gd*fb.Fb            // lines 49-52
	if dec < rp.minDecFactor {
		dec = rp.minDecFactor
	}
	rp.crate *= dec // lines 53-56
	if rp.crate < rp.minRate {
		rp.crate = rp.minRate
	}
	if rp.variant.AIMD {
		rp.trate = rp.crate
	}
	if rp.variant.Timer {
		rp.timer = now + rp.timerPeriod // line 59
	}
}

// Transmit runs lines 97-127 as a frame leaves the rate limiter.
func (rp *QCNReactionPoint) Transmit(now Time, bytes int, backlogEmpty bool) bool {
	if !rp.active {
		return false // no rate limiter is associated with the flow
	}
	if rp.crate == rp.c && backlogEmpty { // lines 101-108: release
		rp.active = false
		rp.crate, rp.trate = rp.c, rp.c
		rp.txBcount = rp.bcLimit
		rp.siCount = 0
		rp.timer = Never
		rp.cpid = 0
		return true
	}
	if !rp.variant.ByteCounter {
		return false
	}
	rp.txBcount -= float64(bytes) // line 110
	if rp.txBcount >= 0 {
		return false
	}
	rp.siCount++ // line 114
	thresh := jitter(rp.rand) * rp.bcLimit
	if rp.halfCycle(rp.siCount) { // lines 117-121: AI/HAI cycles are half as long
		thresh /= 2
	}
	rp.txBcount = thresh
	rp.selfIncrease()
	return true
}

// Expire runs timer_expired (lines 129-145).
func (rp *QCNReactionPoint) Expire(now Time) {
	if now < rp.timer {
		return
	}
	if !rp.active {
		rp.timer = Never
		return
	}
	rp.timerScount++
	rp.selfIncrease()
	period := jitter(rp.rand) * float64(rp.timerPeriod)
	if rp.halfCycle(rp.timerScount) { // lines 137-141
		period /= 2
	}
	rp.timer = now + max(Time(period), 1)
}

// halfCycle reports whether the next cycle of a counter at stage is half
// length: past fast recovery, unless the variant keeps cycles whole.
func (rp *QCNReactionPoint) halfCycle(stage int) bool {
	return rp.variant.HalfAICycles && !rp.variant.AIMD && stage >= rp.frTh
}

// selfIncrease is lines 62-95.
func (rp *QCNReactionPoint) selfIncrease() {
	if rp.variant.AIMD {
		// Seed 002 eq. 27: no fast recovery; CR += R_AI every cycle.
		rp.crate = min(rp.crate+rp.rAI, rp.c)
		rp.trate = rp.crate
		return
	}
	toCount := min(rp.siCount, rp.timerScount)
	var ri float64
	if !rp.variant.ByteCounter && rp.variant.TimerHAI > 0 {
		// Seed 002 section VI (QCN-T): the timer alone drives the stages;
		// FR for FAST_RECOVERY_TH cycles, HAI past TimerHAI cycles, with
		// the i-th HAI step i*R_HAI (seed 002 eq. 5).
		switch ts := rp.timerScount; {
		case ts > rp.variant.TimerHAI:
			ri = rp.rHAI * float64(ts-rp.variant.TimerHAI)
		case ts > rp.frTh:
			ri = rp.rAI
		}
	} else if rp.siCount > rp.frTh || rp.timerScount > rp.frTh {
		if rp.siCount > rp.frTh && rp.timerScount > rp.frTh {
			ri = rp.rHAI * float64(toCount-rp.frTh) // hyper-active increase
		} else {
			ri = rp.rAI // active increase
		}
	}
	// Lines 82-87: target rate reduction at the end of the first cycle.
	if (rp.siCount == 1 || rp.timerScount == 1) && rp.trate > 10*rp.crate {
		rp.trate /= 8
	} else {
		rp.trate += ri
	}
	rp.crate = (rp.trate + rp.crate) / 2 // line 89
	if rp.crate > rp.c {
		rp.crate = rp.c
	}
}
