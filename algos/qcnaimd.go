package algos

// QCN-AIMD, from Shu et al. (seed 002) section V-B2, eq. 27: QCN whose rate
// increase is plain additive increase. There is no fast recovery and no target
// rate: at the end of every rate-increase cycle CR += R_AI, and a cycle is
// always the time to send BC_LIMIT = 150 KB ("the rate increase period is also
// the duration of sending 150 KB data"), never halved. Decreases are QCN's
// (eq. 28's first term, -GD*Fb*R). The congestion point is QCN's.

func init() {
	Register(&Scheme{
		Name:      "qcn-aimd",
		QueueBand: SetPoint("q_eq"),
		Display:   "QCN-AIMD",
		Ref:       "002 section V-B2, eq. 27",
		Summary:   "QCN with FR/AI/HAI replaced by additive increase: CR += R_AI every byte-counter cycle",
		Params:    QCNAIMDParams(),
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewQCNCongestionPoint(env, v) },
		NewRP: func(env RPEnv, v Values) ReactionPoint {
			return NewQCNVariantReactionPoint(env, v, QCNAIMDVariant(v))
		},
		// Seed 002 eq. 28: R_AI every cycle of BC_LIMIT.
		Convergence: &ConvergenceLaw{AIMD: true, Cycles: func(v Values) (float64, float64) { return v["bc_limit"], 0 }},
	})
}

// QCNAIMDVariant is QCN-AIMD's reaction point with values v.
func QCNAIMDVariant(v Values) QCNVariant {
	return QCNVariant{ByteCounter: true, Timer: v["timer"] != 0, AIMD: true}
}

// QCNAIMDParams are QCN's parameters less those of FR and HAI, plus a switch
// for the timer.
func QCNAIMDParams() []Param {
	var ps []Param
	for _, p := range QCNParams() {
		switch p.Key {
		case "r_hai", "fast_recovery_th":
			continue // no FR, no HAI
		case "bc_limit":
			p.Doc = "BC_LIMIT, bytes sent per rate-increase cycle (never halved: seed 002 eq. 27-28)"
		case "timer_period":
			p.Doc = "TIMER_PERIOD, the timer's cycle when the timer is on (each one also adds R_AI)"
		case "r_ai":
			p.Doc = "R_AI, CR += R_AI per cycle (eq. 27; 5 Mbps at 10 Gbps, scaled with capacity)"
		}
		ps = append(ps, p)
		if p.Key == "timer_period" {
			ps = append(ps, Param{Key: "timer", Kind: Switch, Default: Fixed(1), Max: 1,
				Doc: "keep QCN's timer as a second source of increase cycles (seed 002 changes only the increase rule)"})
		}
	}
	return ps
}
