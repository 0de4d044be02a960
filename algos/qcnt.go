package algos

import (
	"fmt"
	"math"
)

// QCN-T, from Shu et al. (seed 002) section VI: the reaction point drops the
// byte counter and keeps one timer, whose period t is the time a source needs
// to send one CP sampling interval (150 KB) at its fair share, so that every
// RP gets rate-increase instances at the same pace whatever its rate. FR still
// lasts FAST_RECOVERY_TH cycles; HAI starts after (15 ms x 5)/t cycles, the
// time standard QCN's timer takes. The congestion point is QCN's.

// qcnStandardTimer is the 1 Gbps baseline timer period of seed 002 section II
// ("Timer is 15ms in 1Gbps baseline implementation"), the 15 ms of the HAI
// threshold (15 ms x 5)/t.
const qcnStandardTimer = 15e-3

func init() {
	Register(&Scheme{
		Name:    "qcn-t",
		Display: "QCN-T",
		Seed:    "002 section VI",
		Summary: "QCN with a single timer at the fair-share sampling pace instead of byte counter + timer: faster convergence to fairness",
		Params:  QCNTParams(),
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
	})
}

// QCNTVariant is the RP variant QCN-T runs with values v.
func QCNTVariant(v Values) QCNVariant {
	return QCNVariant{Timer: true, HalfAICycles: v["half_ai_cycles"] != 0, TimerHAI: int(v["hai_threshold"])}
}

// QCNTTimerPeriod is t of seed 002 section VI: the time to send Mark_Table(0)
// = 150 KB, QCN's sampling interval, at the fair share capacity/sources
// ("150 x 8 / 500 = 2.4 milliseconds" for 2 sources at 1 Gbps).
func QCNTTimerPeriod(n Network) float64 {
	if n.Capacity <= 0 || n.Sources <= 0 {
		return 2.4e-3 // the seed's case, for a network that does not say
	}
	return qcnMarkTable[0] * 8 / (n.Capacity / float64(n.Sources))
}

// QCNTParams are QCN's parameters without the byte counter, with the timer
// period derived from the fair share and the HAI threshold of section VI.
func QCNTParams() []Param {
	var ps []Param
	for _, p := range QCNParams() {
		switch p.Key {
		case "bc_limit":
			continue // no byte counter
		case "timer_period":
			p.Doc = "t, the single timer's cycle (half of it in AI/HAI): time to send 150 KB at capacity/sources (seed 002 section VI)"
			p.Default = func(n Network, _ Values) float64 { return QCNTTimerPeriod(n) }
		}
		ps = append(ps, p)
		if p.Key == "fast_recovery_th" {
			ps = append(ps,
				Param{Key: "hai_threshold", Kind: Count, Min: 1,
					Doc: "timer cycles before HAI: (15 ms x FAST_RECOVERY_TH)/t rounded down, at least FAST_RECOVERY_TH (seed 002 section VI)",
					Default: func(_ Network, v Values) float64 {
						// 1e-9 absorbs rounding: 75 ms / 15 ms is 5, not 4.
						th := math.Floor(qcnStandardTimer*v["fast_recovery_th"]/v["timer_period"] + 1e-9)
						// FR "does not change": HAI never starts inside it,
						// even when t is longer than 15 ms (many sources).
						return math.Max(v["fast_recovery_th"], th)
					}},
				Param{Key: "half_ai_cycles", Kind: Switch, Default: Fixed(1), Max: 1,
					Doc: "timer cycles after FR are half as long, as QCN's are (SPEC; seed 002 does not say)"})
		}
	}
	return ps
}
