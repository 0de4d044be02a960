package algos

import (
	"fmt"
	"math"
)

// QCN-T, from Shu et al. (seed 002) section VI: the reaction point drops the
// byte counter and keeps one timer, so that every RP gets rate-increase
// instances at the same pace whatever its rate. Its period t is the time to
// send one CP sampling interval (150 KB) at the fair share of the seed's two
// sources, 2.4 ms at 1 Gbps: fixed per link speed, since "if there are more
// RPs, then rates at RPs will vary more frequently" (an RP cannot know how
// many there are; timer_basis = fair_share uses capacity/sources instead).
// FR still lasts FAST_RECOVERY_TH cycles; HAI starts after (15 ms x 5)/t
// cycles, 75 ms, the time standard QCN's timer spends in FR. The seed does not
// say whether AI cycles are half as long here; they are (as QCN's), and the
// threshold counts them at t/2 so that HAI still starts after 75 ms
// (hai_onset = cycles keeps the formula's count, 43 ms). The congestion
// point is QCN's.

// qcnStandardTimer is the 1 Gbps baseline timer period of seed 002 section II
// ("Timer is 15ms in 1Gbps baseline implementation"), the 15 ms of the HAI
// threshold (15 ms x 5)/t.
const qcnStandardTimer = 15e-3

func init() {
	Register(&Scheme{
		Name:      "qcn-t",
		QueueBand: SetPoint("q_eq"),
		Display:   "QCN-T",
		Ref:       "002 section VI",
		Summary:   "QCN with a single timer instead of byte counter + timer, its period the time to send 150 KB at half the link (2.4 ms at 1 Gbps, whatever the number of sources; timer_basis = fair_share: at capacity/sources): faster convergence to fairness",
		Params:    QCNTParams(),
		Check: func(_ Network, v Values) error {
			if v["hai_threshold"] < v["fast_recovery_th"] {
				return fmt.Errorf("hai_threshold %g is below fast_recovery_th %g: HAI would start inside fast recovery", v["hai_threshold"], v["fast_recovery_th"])
			}
			return nil
		},
		NewCP: func(env CPEnv, v Values) CongestionPoint { return NewQCNCongestionPoint(env, v) },
		NewRP: func(env RPEnv, v Values) ReactionPoint {
			return NewQCNVariantReactionPoint(env, v, QCNTVariant(v))
		},
		// Seed 002 eq. 26 with QCN-T's own timer (section VI): AI cycles of
		// full length unless half_ai_cycles is on.
		Convergence: &ConvergenceLaw{Timer: true, Cycles: func(v Values) (float64, float64) {
			ai := v["timer_period"]
			if v["half_ai_cycles"] != 0 {
				ai /= 2
			}
			return v["timer_period"], ai
		}},
	})
}

// QCNTVariant is the RP variant QCN-T runs with values v.
func QCNTVariant(v Values) QCNVariant {
	return QCNVariant{Timer: true, HalfAICycles: v["half_ai_cycles"] != 0, TimerHAI: int(v["hai_threshold"])}
}

// The values of QCN-T's timer_basis parameter: what t is 150 KB at.
const (
	// TimerBasisLink: half the link, t fixed per link speed (seed 002
	// section VI: "t could be set to 2.4 milliseconds" at 1 Gbps; "if there
	// are more RPs, then rates at RPs will vary more frequently").
	TimerBasisLink = 0
	// TimerBasisFairShare: capacity/sources, a pace that follows the number
	// of sources, which a reaction point does not know.
	TimerBasisFairShare = 1
)

// The values of QCN-T's hai_onset parameter.
const (
	// HAIOnsetTime: HAI starts when the timer cycles add up to
	// 15 ms x FAST_RECOVERY_TH = 75 ms, half-length cycles counted as such.
	HAIOnsetTime = 0
	// HAIOnsetCycles: (15 ms x 5)/t cycles, as the formula reads, whatever
	// their length: with half-length AI cycles HAI starts after about 43 ms.
	HAIOnsetCycles = 1
)

// QCNTTimerPeriod is t of seed 002 section VI: the time to send Mark_Table(0)
// = 150 KB, QCN's sampling interval, at a share of the capacity ("150 x 8 /
// 500 = 2.4 milliseconds" at 1 Gbps): half of it (the seed's two sources,
// TimerBasisLink) or capacity/sources (TimerBasisFairShare).
func QCNTTimerPeriod(n Network, basis float64) float64 {
	sources := 2.0
	if basis == TimerBasisFairShare {
		sources = float64(n.Sources)
	}
	if n.Capacity <= 0 || sources <= 0 {
		return 2.4e-3 // the seed's case, for a network that does not say
	}
	return qcnMarkTable[0] * 8 / (n.Capacity / sources)
}

// QCNTHAIThreshold is the number of timer cycles before HAI for period t: as
// many as fit in the time standard QCN's timer spends in fast recovery,
// 15 ms x FAST_RECOVERY_TH = 75 ms (seed 002 section VI: "(15 ms x 5)/t
// cycles"). With half-length cycles after fast recovery and onset
// HAIOnsetTime, those cycles count t/2 each (57 cycles at t = 2.4 ms,
// 12 + 52 x 1.2 = 74.4 ms); HAIOnsetCycles takes the formula as it reads
// (31 cycles, 12 + 26 x 1.2 = 43.2 ms when halved). At least
// FAST_RECOVERY_TH: FR "does not change", even when t is longer than 15 ms.
func QCNTHAIThreshold(t, frTh float64, half bool, onset float64) float64 {
	const eps = 1e-9 // absorbs rounding: 75 ms / 15 ms is 5, not 4
	budget := qcnStandardTimer * frTh
	th := math.Floor(budget/t + eps)
	if half && onset == HAIOnsetTime && th > frTh {
		th = frTh + math.Floor((budget-frTh*t)/(t/2)+eps)
	}
	return math.Max(frTh, th)
}

// QCNTParams are QCN's parameters without the byte counter, with the timer
// period derived from the link and the HAI threshold of section VI.
func QCNTParams() []Param {
	var ps []Param
	for _, p := range QCNParams() {
		switch p.Key {
		case "bc_limit":
			continue // no byte counter
		case "timer_period":
			ps = append(ps, Param{Key: "timer_basis", Kind: Choice, Choices: []string{"link", "fair_share"}, Default: Fixed(TimerBasisLink),
				Doc: "what t is 150 KB at: link = half the capacity, fixed per link speed (seed 002's 2.4 ms at 1 Gbps); fair_share = capacity/sources"})
			p.Doc = "t, the single timer's cycle (half of it in AI/HAI): time to send 150 KB at the timer_basis rate (seed 002 section VI)"
			p.Default = func(n Network, v Values) float64 { return QCNTTimerPeriod(n, v["timer_basis"]) }
		}
		ps = append(ps, p)
		if p.Key == "fast_recovery_th" {
			ps = append(ps,
				Param{Key: "half_ai_cycles", Kind: Switch, Default: Fixed(1), Max: 1,
					Doc: "timer cycles after FR are half as long, as QCN's are (SPEC; seed 002 does not say)"},
				Param{Key: "hai_onset", Kind: Choice, Choices: []string{"time", "cycles"}, Default: Fixed(HAIOnsetTime),
					Doc: "time: HAI starts after 15 ms x FAST_RECOVERY_TH = 75 ms of timer cycles, when standard QCN's timer leaves FR, half cycles counted as t/2; cycles: after (15 ms x 5)/t cycles of any length (43 ms with half cycles)"},
				Param{Key: "hai_threshold", Kind: Count, Min: 1,
					Doc: "timer cycles before HAI (seed 002 section VI), from hai_onset: 57 at t = 2.4 ms with half cycles (74.4 ms), 31 without or with hai_onset = cycles; at least FAST_RECOVERY_TH",
					Default: func(_ Network, v Values) float64 {
						return QCNTHAIThreshold(v["timer_period"], v["fast_recovery_th"], v["half_ai_cycles"] != 0, v["hai_onset"])
					}})
		}
	}
	return ps
}
