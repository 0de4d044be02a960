package algos

// QCN-TIMER, from Shu et al. (seed 002) section V-B2: QCN whose reaction
// point has its byte counter disabled, so the standard timer alone times the
// fast recovery and active increase cycles (eq. 26). With si_count stuck at
// 0, lines 67-79 of the pseudo-code never reach hyper-active increase, and
// eq. 26 has no HAI term either. The congestion point is QCN's.

func init() {
	Register(&Scheme{
		Name:      "qcn-timer",
		QueueBand: SetPoint("q_eq"),
		Display:   "QCN-TIMER",
		Ref:       "002 section V-B2",
		Summary:   "QCN with the byte counter disabled: the timer alone drives FR and AI",
		Params:    QCNTimerParams(),
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewQCNCongestionPoint(env, v) },
		NewRP: func(env RPEnv, v Values) ReactionPoint {
			return NewQCNVariantReactionPoint(env, v, QCNTimerVariant)
		},
		// Seed 002 eq. 26: FR cycles of TIMER_PERIOD, AI cycles of half.
		Convergence: &ConvergenceLaw{Timer: true, Cycles: func(v Values) (float64, float64) {
			return v["timer_period"], v["timer_period"] / 2
		}},
	})
}

// QCNTimerVariant is QCN-TIMER's reaction point: timer only, AI cycles at half
// length as in QCN.
var QCNTimerVariant = QCNVariant{Timer: true, HalfAICycles: true}

// QCNTimerParams are QCN's parameters less the byte counter's and R_HAI,
// which a timer-only QCN never uses.
func QCNTimerParams() []Param {
	var ps []Param
	for _, p := range QCNParams() {
		switch p.Key {
		case "bc_limit", "r_hai":
			continue
		case "timer_period":
			p.Doc = "TIMER_PERIOD, the timer cycle (half of it in AI): 10 ms in seed 000; seed 002 calls 15 ms standard and analyses 10 and 2.4 ms"
		}
		ps = append(ps, p)
	}
	return ps
}
