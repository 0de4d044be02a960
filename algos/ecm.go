package algos

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ECM, the Ethernet Congestion Manager (BCN), from D. Bergamasco's
// "Ethernet Congestion Manager", draft 0.1 (seed 003). The congestion point
// is the pseudo-code of section 3.2.1, the reaction point that of section
// 3.3.3 with the rules of sections 3.3.1 and 3.3.2. The seed gives no values
// for most gains and thresholds; the defaults are the baseline BCN values
// quoted in seed 000 section III-B where there are some, and each Doc says
// where the others come from.
//
// Units: Qeq, Qoff and Qdelta are counted in 64-byte pages (section 3.2,
// "The unit of Qeq, Qoff, and Qdelta is multiples of 64 bytes"), so Fb =
// -(Qoff + w*Qdelta) is in pages and the gains Gi, Gd are per page. The
// thresholds Qsc, Qmc and the sampling intervals are in bytes.

// ecmPage is the 64-byte unit of Qeq, Qoff and Qdelta (section 3.2).
const ecmPage = 64

func init() {
	Register(&Scheme{
		Name:      "ecm",
		QueueBand: SetPoint("q_eq"),
		Display:   "ECM (BCN)",
		Ref:       "003 sections 3.2-3.3; baseline gains from 000 section III-B",
		Summary:   "Ethernet Congestion Manager (BCN): signed Qoff/Qdelta feedback, AIMD rate limiters associated with one CP, ECM(0,0) timeouts",
		Params:    ECMParams(),
		Readings: []string{
			"Spurious-feedback filter (3.2.1 pseudo-code): a sample is dropped when Qoff = Qdelta = 0, or when Qoff < 0 and the frame has no CM-Tag or another CP's CPID. At Qoff = 0 exactly (the queue in Qeq's 64 B page) the message goes to any frame, as the pseudo-code's qoff < 0 says; the text of section 3.2 ('If Qoff is positive ... if this is not the case') would send it only to frames tagged with this CP.",
			"Q bit (3.2.1 pseudo-code): set only when Qdelta was clipped, |Qdelta| > 2Qeq; a change of exactly +-2Qeq leaves it clear, though section 3.1 describes the bit as Qdelta 'equal to -2Qeq or 2Qeq'. ECM-Max carries no Q bit.",
			"Q-bit step: by the sign of Fb (pseudo-code) unless qsat_by_qdelta is set (section 3.3.2's text); they differ only when w < 1/2, e.g. w = 1/4, Qoff = +Qeq, Qdelta = -2Qeq: Fb = -Qeq/2 cuts the rate by min(2*alpha, 1) under the pseudo-code, the text adds 2*beta*C.",
			"Only a negative message (Fb < 0) or ECM(0,0) instantiates a rate limiter (3.3.3 pseudo-code); a positive message to a flow with no limiter is ignored, though section 3.3's text instantiates one at Ri on any message without a FlowID match. Positive feedback is honoured only from the associated CP, Fb = 0 changes nothing (it would reset Rmin and Tmax in the pseudo-code's else branch), and every message is ignored during a timeout (section 3.3.2).",
			"Reclaim (section 3.3): a limiter goes back to INACTIVE when a frame leaves it with its queue empty at rate C. A greedy source always has a frame queued, so it is never reclaimed; a source that stops (sources.stop) or runs out of flows to send ([traffic]) while its limiter is at line rate is.",
			"Units: Qeq, Qoff and Qdelta, hence Fb, are in 64-byte pages (section 3.2), while N-AIMD (seed 000) counts Fb in packets with the same Gi and Gd: with 1500 B frames ECM's Fb is 1500/64 = 23.4 times larger for the same queue, and the alpha cap rather than Gd sets most decreases.",
		},
		Check: ecmCheck,
		NewCP: func(env CPEnv, v Values) CongestionPoint { return NewECMCongestionPoint(env, v) },
		NewRP: func(env RPEnv, v Values) ReactionPoint { return NewECMReactionPoint(env, v) },
	})
}

// ECMParams are the parameters of ECM.
func ECMParams() []Param {
	return []Param{
		// Congestion point (section 3.2).
		{Key: "q_eq", Kind: Bytes, Min: ecmPage,
			Doc:     "Qeq, the equilibrium queue length (default 16 frames, the BCN baseline of seed 000 section III-B, at most a third of the buffer in whole 64 B pages, so that 2*Qeq, where Qdelta saturates and sets the Q bit, stays below Qsc)",
			Default: func(n Network, _ Values) float64 { return math.Min(16*n.FrameBytes, ecmPageFloor(n.Buffer/3)) }},
		{Key: "q_sc", Kind: Bytes, Min: ecmPage,
			Doc: "Qsc, severe congestion: above it ECM(0,0) (seed 003 gives no value; default 80% of the buffer, a fifth left to absorb the frames in flight when ECM(0,0) goes out, and at most a frame below the fullest queue the buffer holds, so ECM(0,0) can fire at all; must be below that queue)",
			Default: func(n Network, _ Values) float64 {
				return math.Min(math.Round(0.8*n.Buffer), ecmFullQueue(n)-n.FrameBytes)
			}},
		{Key: "q_mc", Kind: Bytes, Min: ecmPage,
			Doc: "Qmc, mild congestion: above it ECM-Max and over-sampling (seed 003 gives no value; default 2*Qeq, where Qoff saturates, or half way from Qeq to Qsc if that is lower; must be between them)",
			Default: func(_ Network, v Values) float64 {
				return math.Min(2*v["q_eq"], math.Floor((v["q_eq"]+v["q_sc"])/2))
			}},
		{Key: "q_scale", Kind: Number, Default: Fixed(1), Min: 1e-9,
			Doc: "Qscale, multiplies Qoff and Qdelta to normalise CPs with different Qeq (section 3.2; 1 when all share Qeq)"},
		{Key: "sf", Kind: Bytes, Min: 1,
			Doc:     "Sf, the fixed sampling interval (default 100 frames: P = 0.01, section 3.2)",
			Default: func(n Network, _ Values) float64 { return 100 * n.FrameBytes }},
		{Key: "sr", Kind: Bytes,
			Doc: "Sr, the random interval: S = Sf + Sr*(2u-1) as in the 3.2.1 pseudo-code (default 32 KB, the text's [0, 64] KB centred on Sf)",
			Default: func(_ Network, v Values) float64 {
				return math.Min(32e3, v["sf"])
			}},
		// Sscale = 2 was steadier than 4 at 100-200 us of RTT.
		{Key: "s_scale", Kind: Number, Default: Fixed(2), Min: 1,
			Doc: "Sscale, over-sampling factor when the queue is empty or above Qmc (section 3.2 gives no value; 2, one shift per footnote 1)"},
		{Key: "qsat_enable", Kind: Switch, Default: Fixed(1), Max: 1,
			Doc: "ECM_qsat_enable: set the Q bit when Qdelta saturates at +-2Qeq (3.2.1 pseudo-code, an 'experimental feature')"},
		// Reaction point (sections 3.3.1-3.3.2).
		{Key: "qsat_by_qdelta", Kind: Switch, Default: Fixed(0), Max: 1,
			Doc: "the Q-bit step (+2*beta*C or *(1-min(2*alpha,1))) goes by the sign of Qdelta, as section 3.3.2's text says (true), or by the sign of Fb, as the 3.3.3 pseudo-code does (false, the default: the pseudo-code is the rule followed throughout; the two agree when w >= 1/2, as with the baseline w = 2)"},
		{Key: "w", Kind: Number, Default: Fixed(2), Min: 0,
			Doc: "w, weight of Qdelta in Fb = -(Qoff + w*Qdelta) (BCN baseline, seed 000 section III-B; range [1/8, 8] in section 3.3.1)"},
		{Key: "gi", Kind: Number, Default: Fixed(0.53333), Min: 0,
			Doc: "Gi, increase gain per 64-byte page of Fb: R += Gi*Fb*Ru (BCN baseline, seed 000 section III-B)"},
		// Seed 000 quotes Gd for Fb in packets, as N-AIMD uses it; in pages
		// |Fb| is 1500/64 = 23.4 times larger, so Gd*|Fb| passes alpha once
		// |Fb| > 37.5 pages (2.4 KB). Measured: alpha sets 69% of ECM's
		// decreases in family-dumbbell, and would set none of the same
		// messages' with Fb counted in frames.
		{Key: "gd", Kind: Number, Default: Fixed(0.0026667), Min: 0,
			Doc: "Gd, decrease gain per 64-byte page of Fb: R *= 1 - Gd*|Fb| (BCN baseline, seed 000 section III-B; 1/375 = 64 B / (16 x 1500 B)); seed 000 counts Fb in packets, so alpha caps most decreases (see the readings)"},
		{Key: "ru", Kind: Rate, Default: Fixed(1e6), Min: 0,
			Doc: "Ru, the rate unit of the increase (1 Mbps: BCN baseline, seed 000 section III-B)"},
		// alpha = 0.1, measured at 10 Gbps, 150 KB, 1500 B frames over
		// 0.2-1 s, 5 seeds: 2 sources use 1.000 of the link at 50 us RTT,
		// 0.997 at 100, 0.987 at 150, 0.977 at 200, 0.956 at 250, 0.913 at
		// 300 us; 20 sources (3 seeds) 0.988 or more up to 300 us. 0.5 gives
		// 2 sources 0.91 at 100 us and 0.75 at 200 us. With Fb in pages it
		// sets 69% of the decreases in family-dumbbell.
		{Key: "alpha", Kind: Number, Default: Fixed(0.1), Min: 0, Max: 1,
			Doc: "alpha, the largest decrease Gd*|Fb| (section 3.3.1 gives no value; 0.1 by the measurements in algos/ecm.go)"},
		{Key: "beta", Kind: Number, Default: Fixed(0.1), Min: 0, Max: 1,
			Doc: "beta, the largest increase is beta*C (section 3.3.1 gives no value; 0.1 = Gi*5*Qeq*Ru/C of the baseline at 10 Gbps, 1500 B)"},
		{Key: "ri_fraction", Kind: Number, Default: Fixed(0.5), Min: 1e-6, Max: 1,
			Doc: "Ri/C, the rate a new rate limiter starts at (section 3.3 footnote 3: C/2 or C/4)"},
		{Key: "rd", Kind: Rate, Default: Fixed(1e6), Min: 0,
			Doc: "Rd, the self-increase every Td (1 Mbps, section 3.3.1)"},
		{Key: "td", Kind: Duration, Default: Fixed(1e-3), Min: 1e-9,
			Doc: "Td, the self-increase period (1 ms, section 3.3.1)"},
		{Key: "tmax", Kind: Duration, Default: Fixed(10e-6), Min: 1e-12,
			Doc: "Tmax, initial range of the random restart timer after ECM(0,0) (10 us, section 3.3.2)"},
		{Key: "rmin", Kind: Rate, Min: 1,
			Doc:     "Rmin, initial restart rate after ECM(0,0) (1/100 of line rate, section 3.3.2: 100 Mbps at 10 Gbps)",
			Default: func(n Network, _ Values) float64 { return n.LineRate / 100 }},
		{Key: "tmax_ceiling", Kind: Duration, Min: 1e-12,
			Doc:     "the largest Tmax the back-off doubles to (default 1 s, the top of section 3.3.2's configuration range [1 us, 1 s], or Tmax if larger; the pseudo-code doubles without bound)",
			Default: func(_ Network, v Values) float64 { return math.Max(1, v["tmax"]) }},
		// Measured with 100 line-rate sources, 10 Gbps, 60 KB, 2 s: restarts
		// reach the 1 Mbps floor and Tmax 164 ms; unbounded, they fell to
		// 48.8 kbps.
		{Key: "rmin_floor", Kind: Rate, Min: 0,
			Doc:     "the smallest Rmin the back-off halves to (default 1 Mbps, the bottom of section 3.3.2's configuration range [1 Mbps, 1 Gbps], or Rmin if smaller; 0: the pseudo-code's unbounded halving)",
			Default: func(_ Network, v Values) float64 { return math.Min(1e6, v["rmin"]) }},
		{Key: "w_rtt", Kind: Count, Default: Fixed(3), Min: 0, Max: 62,
			Doc: "Wrtt, RTTavg's EWMA weight is 2^-Wrtt (section 3.3; seed gives no value, 1/8 as TCP's SRTT gain)"},
	}
}

// ecmPageFloor rounds a length in bytes down to whole 64-byte pages.
func ecmPageFloor(bytes float64) float64 { return math.Floor(bytes/ecmPage) * ecmPage }

// ecmFullQueue is the longest queue the drop-tail buffer holds: whole
// frames, so a buffer of 40 KB holds 26 frames of 1500 B, 39 KB.
func ecmFullQueue(n Network) float64 {
	return math.Floor(n.Buffer/n.FrameBytes) * n.FrameBytes
}

// ecmCheck requires the thresholds in the order section 3.2 uses them with
// Qsc below the fullest queue (or ECM(0,0) could never be sent), a sampling
// interval that cannot go negative, and the back-off bounds around the
// initial Tmax and Rmin.
func ecmCheck(n Network, v Values) error {
	full := ecmFullQueue(n)
	switch {
	case v["q_sc"] >= full:
		return &ParamError{Key: "q_sc", Err: fmt.Errorf("Qsc = %g B is not below the fullest queue the %g B buffer holds (%g frames of %g B = %g B): ECM(0,0) could never be sent",
			v["q_sc"], n.Buffer, full/n.FrameBytes, n.FrameBytes, full)}
	case v["q_eq"] >= v["q_sc"]:
		return &ParamError{Key: "q_eq", Err: fmt.Errorf("Qeq = %g B is not below Qsc = %g B", v["q_eq"], v["q_sc"])}
	case v["q_mc"] <= v["q_eq"]:
		return &ParamError{Key: "q_mc", Err: fmt.Errorf("Qmc = %g B is not above Qeq = %g B", v["q_mc"], v["q_eq"])}
	case v["q_mc"] >= v["q_sc"]:
		return &ParamError{Key: "q_mc", Err: fmt.Errorf("Qmc = %g B is not below Qsc = %g B: ECM-Max could never be sent", v["q_mc"], v["q_sc"])}
	case v["sr"] > v["sf"]:
		return &ParamError{Key: "sr", Err: fmt.Errorf("Sr = %g B above Sf = %g B would make the sampling interval negative", v["sr"], v["sf"])}
	case v["rmin"] > n.LineRate:
		return &ParamError{Key: "rmin", Err: fmt.Errorf("Rmin = %g bps is above the line rate %g bps", v["rmin"], n.LineRate)}
	case v["tmax_ceiling"] < v["tmax"]:
		return &ParamError{Key: "tmax_ceiling", Err: fmt.Errorf("%g s is below the initial Tmax = %g s", v["tmax_ceiling"], v["tmax"])}
	case v["rmin_floor"] > v["rmin"]:
		return &ParamError{Key: "rmin_floor", Err: fmt.Errorf("%g bps is above the initial Rmin = %g bps", v["rmin_floor"], v["rmin"])}
	}
	return nil
}

// ECMCongestionPoint is the ECM CP (section 3.2.1).
type ECMCongestionPoint struct {
	// What a frame that is not sampled reads, first: one cache line.
	sampByteAcc float64 // samp_byte_acc
	interval    float64 // ecm_sampling_interval, bytes
	qMc, qSc    int     // thresholds in bytes
	sScale      float64

	cpid       int
	qEq        float64 // Qeq in pages
	qScale     float64
	sf, sr     float64
	qsatEnable bool
	w          float64 // only to fill Feedback.Fb for display
	queueOld   float64 // queue_old, pages
	rand       *rand.Rand
}

// NewECMCongestionPoint builds a CP from resolved ECM values.
func NewECMCongestionPoint(env CPEnv, v Values) *ECMCongestionPoint {
	cp := place(env, func(s *CPSlab) *slab[ECMCongestionPoint] { return &s.ecm })
	*cp = ECMCongestionPoint{
		cpid:       env.CPID,
		qEq:        math.Round(v["q_eq"] / ecmPage),
		qMc:        int(v["q_mc"]),
		qSc:        int(v["q_sc"]),
		qScale:     v["q_scale"],
		sf:         v["sf"],
		sr:         v["sr"],
		sScale:     v["s_scale"],
		qsatEnable: v["qsat_enable"] != 0,
		w:          v["w"],
		rand:       env.Rand,
	}
	cp.interval = cp.nextInterval()
	return cp
}

// nextInterval draws ecm_sampling_interval = ECM_FIXED_SAMPLING_INT +
// ECM_RANDOM_SAMPLING_INT * (urand()*2 - 1) (3.2.1 pseudo-code). The text of
// section 3.2 draws Sr in [0, 64] KB and adds it; both give a uniform
// interval, the pseudo-code's centred on Sf, so the mean sampling interval is
// Sf = E[L]/P whatever Sr is.
func (cp *ECMCongestionPoint) nextInterval() float64 {
	return cp.sf + cp.sr*(cp.rand.Float64()*2-1)
}

// pages converts a queue length in bytes to 64-byte pages (the pseudo-code's
// queue_len is "in pages").
func pages(bytes int) float64 { return float64(bytes / ecmPage) }

// Arrive runs the frame_arrival loop of section 3.2.1 for one frame. Fb
// carries -(Qoff + w*Qdelta) for display only: the RP recomputes it with
// its own w from Qoff and Qdelta, which are in (scaled) 64-byte pages.
//
// qlen includes the arriving frame when the queue accepted it; "the queue
// length is zero" (section 3.2) is read as the frame finding the queue
// empty, qlen <= its own length.
func (cp *ECMCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	cp.sampByteAcc += float64(f.Bytes)
	interval := cp.interval
	if qlen > cp.qMc || qlen <= f.Bytes { // over-sampling: S / Sscale
		interval /= cp.sScale
	}
	if !(cp.sampByteAcc > interval) {
		return false
	}
	// The frame has been sampled: set up the next sampling interval.
	cp.sampByteAcc = 0
	cp.interval = cp.nextInterval()

	q := pages(qlen)
	var qoff, qdelta float64
	qsat, send := false, true
	switch {
	case qlen > cp.qSc: // ECM(0,0)
		qoff, qdelta = 0, 0
	case qlen > cp.qMc: // ECM-Max = ECM(Qeq, 2Qeq)
		// The pseudo-code copies ECM_Q_EQ unscaled and sets no Q bit here;
		// the text (section 3.2) scales every Qoff and Qdelta by Qscale,
		// which we follow so ECM-Max stays the largest message.
		qoff, qdelta = cp.qEq*cp.qScale, 2*cp.qEq*cp.qScale
	default: // regular ECM frame
		off := q - cp.qEq
		// The pseudo-code saturates qoff only from below; the text
		// saturates at +-Qeq (only reachable if Qmc > 2*Qeq).
		off = math.Max(-cp.qEq, math.Min(cp.qEq, off))
		d := q - cp.queueOld
		if d > 2*cp.qEq { // the pseudo-code's "> 1/2*Q_EQ" is a typo (SPEC)
			d = 2 * cp.qEq
			qsat = cp.qsatEnable
		}
		if d < -2*cp.qEq {
			d = -2 * cp.qEq
			qsat = cp.qsatEnable
		}
		// Filter out spurious feedback: no rate change, or qoff < 0 on a
		// frame with no CM-Tag or with another CP's CPID.
		if (off == 0 && d == 0) || (off < 0 && (f.CPID == 0 || f.CPID != cp.cpid)) {
			send = false
		}
		qoff, qdelta = off*cp.qScale, d*cp.qScale
	}
	cp.queueOld = q
	if !send {
		return false
	}
	var ts Time
	if f.CPID != 0 { // Timestamp copied from the CM-Tag, 0 without one (section 3.1)
		ts = f.Sent
	}
	*fb = Feedback{CPID: cp.cpid, Fb: -(qoff + cp.w*qdelta), Qoff: qoff, Qdelta: qdelta, QSat: qsat, Sent: ts}
	return true
}

// ECMState is a rate limiter's state (section 3.3.3).
type ECMState int

// Rate limiter states.
const (
	ECMInactive ECMState = iota // no rate limiter: frames go out at line rate, untagged
	ECMActive                   // rate limited, frames carry the CM-Tag
	ECMTimeout                  // after ECM(0,0): rate 0 until the random timer fires
)

func (s ECMState) String() string { return [...]string{"INACTIVE", "ACTIVE", "TIMEOUT"}[s] }

// ECMReactionPoint is the ECM RP (section 3.3.3) for one rate limiter.
type ECMReactionPoint struct {
	c          float64 // line rate C
	ri         float64
	w, gi, gd  float64
	ru         float64
	alpha      float64
	beta       float64
	rd         float64
	td         Time
	rminInit   float64
	tmaxInit   Time
	rminFloor  float64 // the back-off's bounds (section 3.3.2's ranges)
	tmaxCeil   Time
	qsatQdelta bool    // the Q-bit step goes by the sign of Qdelta (3.3.2 text)
	rttWeight  float64 // 2^-Wrtt
	start      Time
	state      ECMState
	rate       float64
	cpid       int
	rttAvg     float64 // seconds
	rmin       float64
	tmax       Time
	restartAt  Time // the Tmax random timer, Never when not armed
	increaseAt Time // the next Td tick while ACTIVE, Never otherwise
	rand       *rand.Rand
}

// NewECMReactionPoint builds an RP from resolved ECM values (initialize() of
// section 3.3.3). A source that starts below line rate starts with an active
// rate limiter at that rate, associated with no CP.
func NewECMReactionPoint(env RPEnv, v Values) *ECMReactionPoint {
	rp := &ECMReactionPoint{
		c:          env.LineRate,
		ri:         v["ri_fraction"] * env.LineRate,
		w:          v["w"],
		gi:         v["gi"],
		gd:         v["gd"],
		ru:         v["ru"],
		alpha:      v["alpha"],
		beta:       v["beta"],
		rd:         v["rd"],
		td:         Seconds(v["td"]),
		rminInit:   v["rmin"],
		tmaxInit:   Seconds(v["tmax"]),
		rminFloor:  v["rmin_floor"],
		tmaxCeil:   Seconds(v["tmax_ceiling"]),
		qsatQdelta: v["qsat_by_qdelta"] != 0,
		rttWeight:  math.Ldexp(1, -int(v["w_rtt"])),
		start:      env.Start,
		state:      ECMInactive,
		rate:       env.LineRate,
		rmin:       v["rmin"],
		tmax:       Seconds(v["tmax"]),
		restartAt:  Never,
		increaseAt: Never,
		rand:       env.Rand,
	}
	if env.InitialRate > 0 && env.InitialRate < env.LineRate {
		rp.state = ECMActive
		rp.rate = env.InitialRate
		rp.increaseAt = rp.nextTick(env.Start)
	}
	return rp
}

func (rp *ECMReactionPoint) Rate() float64 { return rp.rate }

// CPID is the CPID carried in the CM-Tag. Only rate-limited frames carry a
// CM-Tag (section 3.3, figure 7: the "No Match" path adds none).
func (rp *ECMReactionPoint) CPID() int {
	if rp.state == ECMInactive {
		return 0
	}
	return rp.cpid
}

func (rp *ECMReactionPoint) Timer() Time { return min(rp.restartAt, rp.increaseAt) }

// State is the rate limiter's state.
func (rp *ECMReactionPoint) State() ECMState { return rp.state }

// Rmin and Tmax are the current back-off values (section 3.3.2).
func (rp *ECMReactionPoint) Rmin() float64 { return rp.rmin }
func (rp *ECMReactionPoint) Tmax() Time    { return rp.tmax }

// RTTAvg is the EWMA of the RTT to the associated CP, in seconds (section 3.3).
func (rp *ECMReactionPoint) RTTAvg() float64 { return rp.rttAvg }

// nextTick is the first Td tick after now. The pseudo-code's Td timer is one
// free-running timer (Td_timer_set(Td) on every expiry), so the ticks sit on
// a grid from the source's start.
func (rp *ECMReactionPoint) nextTick(now Time) Time {
	if now < rp.start {
		return rp.start + rp.td
	}
	return rp.start + ((now-rp.start)/rp.td+1)*rp.td
}

// updateRTT is calc_movavg(RTTavg, now - Timestamp, 2^-Wrtt) (section 3.3).
// A zero timestamp means the sampled frame carried no CM-Tag (section 3.1).
func (rp *ECMReactionPoint) updateRTT(now Time, fb Feedback) {
	if fb.Sent == 0 {
		return
	}
	rp.rttAvg = (1-rp.rttWeight)*rp.rttAvg + rp.rttWeight*(now-fb.Sent).Seconds()
}

// Feedback runs processECMFrame (section 3.3.3). Qoff and Qdelta are in
// 64-byte pages.
func (rp *ECMReactionPoint) Feedback(now Time, fb Feedback) {
	// Section 3.3.2: "all ECM messages, including ECM(0,0) must be ignored
	// during a timeout period". The pseudo-code would otherwise let a
	// negative feedback reach "rate == 0 -> Rmin" and restart early.
	if rp.state == ECMTimeout {
		return
	}
	if fb.Qoff == 0 && fb.Qdelta == 0 { // ECM(0,0)
		rp.state = ECMTimeout
		rp.rate = 0
		rp.cpid = fb.CPID
		rp.restartAt = now + Time(float64(rp.tmax)*rp.rand.Float64()) // Tmax * urand()
		rp.increaseAt = Never                                         // self-increase suspended (3.3.2)
		return
	}
	fbv := -(fb.Qoff + rp.w*fb.Qdelta)
	negative, positive := fbv < 0, fbv > 0
	if fb.QSat && rp.qsatQdelta {
		// Section 3.3.2: "based on the sign of Qdelta". The message then
		// counts as negative or positive by Qdelta for every rule below
		// (instantiation, association, positive only from the associated
		// CP). The pseudo-code keys the step on Fb's sign; with w >= 1/2
		// the two agree, since |Qoff| <= Qeq <= w*|Qdelta| = w*2Qeq.
		negative, positive = fb.Qdelta > 0, fb.Qdelta < 0
	}
	switch {
	case negative:
		if rp.state == ECMInactive { // "if (state = INACTIVE)" is a comparison (SPEC)
			rp.state = ECMActive
			rp.rate = rp.ri
			rp.cpid = fb.CPID
			rp.rttAvg = 0
			rp.increaseAt = rp.nextTick(now)
			return
		}
		dec := math.Min(-fbv*rp.gd, rp.alpha)
		if fb.QSat {
			dec = math.Min(2*rp.alpha, 1)
		}
		rp.rate *= 1 - dec
		if rp.rate == 0 {
			rp.rate = rp.rmin // saturate to Rmin
		}
		if rp.cpid == fb.CPID {
			rp.updateRTT(now, fb)
		} else { // negative feedback moves the association (section 3.3)
			rp.cpid = fb.CPID
			rp.rttAvg = 0
		}
	case positive && rp.cpid == fb.CPID && rp.state == ECMActive:
		// The pseudo-code's branch also takes Fb == 0, which changes
		// nothing but would reset Rmin and Tmax; the text (3.3.1, 3.3.2)
		// speaks of Fb > 0, "positive feedback".
		inc := math.Min(rp.gi*fbv*rp.ru, rp.beta*rp.c)
		if fb.QSat {
			inc = 2 * rp.beta * rp.c
		}
		// Capped at C as the Td branch does: a rate above the line rate
		// means nothing, and reclaim (section 3.3) wants "at or above".
		rp.rate = math.Min(rp.rate+inc, rp.c)
		rp.rmin = rp.rminInit
		rp.tmax = rp.tmaxInit
		rp.updateRTT(now, fb)
	}
}

// Transmit runs "frame departure from RL queue" (section 3.3.3): a rate
// limiter whose queue is empty at line rate is reclaimed.
func (rp *ECMReactionPoint) Transmit(now Time, bytes int, backlogEmpty bool) bool {
	if rp.state != ECMActive || !backlogEmpty || rp.rate < rp.c {
		return false
	}
	rp.state = ECMInactive
	rp.increaseAt = Never
	return true
}

// Expire runs the Tmax and Td timers (section 3.3.3, "Timers"), Tmax first
// as the pseudo-code lists them.
func (rp *ECMReactionPoint) Expire(now Time) {
	if now >= rp.restartAt { // random restart with exponential back-off
		rp.restartAt = Never
		rp.state = ECMActive
		rp.rate = rp.rmin
		// Halving and doubling stop at the ends of section 3.3.2's
		// configuration ranges; the pseudo-code has no bound.
		rp.rmin = max(rp.rmin/2, rp.rminFloor)
		rp.tmax = min(2*rp.tmax, rp.tmaxCeil)
		rp.increaseAt = rp.nextTick(now)
	}
	if now >= rp.increaseAt { // self-increase
		if rp.state == ECMActive {
			rp.rate = math.Min(rp.rate+rp.rd, rp.c) // saturate @ C
		}
		rp.increaseAt = rp.nextTick(now)
	}
}
