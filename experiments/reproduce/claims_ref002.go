package reproduce

import (
	"fmt"
	"math"
	"strings"

	"qcnlab/experiments"
)

// Seed 002: Shu et al., "Analysing Convergence of QCN in Data Center
// Ethernet". The packet-level claims run qcn-t-fairness (the NetFPGA set-up:
// 1 Gbps, 2 sources, Q_EQ 64 KB); the model's claims run
// qcn-convergence-model (eqs. 6-28).
func claims002() []Claim {
	thresholds := func(e experimentEdit) experimentEdit {
		return func(x *experiments.Experiment) {
			if e != nil {
				e(x)
			}
			setAxis(x, "output.fairness_threshold", []string{"0.8", "0.9"})
		}
	}
	start := func(r1, r2 string) string {
		return fmt.Sprintf(`[{ids=[0],initial_rate="%s"},{ids=[1],initial_rate="%s"}]`, r1, r2)
	}
	return []Claim{
		{
			ID: "002-fig1", Ref: "002", Figure: "figure 1",
			Text:       `From line rate, 2 sources at 1 Gbps: "each RP reaches to its fair share of bandwidth after 10 seconds" (section III)`,
			Experiment: "qcn-t-fairness",
			Sets:       []string{`algorithms=["qcn"]`, `sources.override=[]`},
			Edit:       thresholds(nil),
			Quick:      Quick{Seeds: 2},
			Series:     true,
			Rule:       timeToFairnessIn("qcn", 5, 20, "in [5, 20] s: the paper's third stage lasts over 10 s"),
			Corrections: []Correction{{Name: "network.rtt = 50us",
				Sets: []string{"network.rtt=50us"},
				Doc:  "the seed does not give the testbed's loop delay; the built-in runs 1 ms, where the start-up overshoot empties the queue as figure 1(b) shows; at 50 µs it neither fills nor empties the queue and stage 2's HAI race does not happen"}},
		},
		{
			ID: "002-fig3", Ref: "002", Figure: "figure 3",
			Text:       `"p[Fb>0] ≈ 0.2 according to computation" and "the sending rate poses little impact on p[Fb>0]" (section IV-B)`,
			Experiment: "qcn-convergence-model",
			Sets:       []string{`algorithms=["qcn"]`},
			Rule: func(rs Runs) Outcome {
				c := rs[0].Convergence
				held := 0
				if c.PFbMin >= 0.15 && c.PFbMax <= 0.25 {
					held++
				}
				if c.PFbMax-c.PFbMin <= 0.25*c.PFbMax {
					held++
				}
				return Outcome{Verdict: grade(held, 2),
					Measured:  fmt.Sprintf("p[Fb>0] from %.3f to %.3f while the rates go from (900, 100) Mbps to the fair share", c.PFbMin, c.PFbMax),
					Criterion: "p[Fb>0] within [0.15, 0.25] (about 0.2) and its range within 25% of its largest value (little impact of the rates)"}
			},
		},
		{
			ID: "002-fig5", Ref: "002", Figure: "figure 5",
			Text:       `From (900, 100) Mbps: "two RPs converge to their fair share of bandwidth in about 12 seconds", and "our model well characterizes the convergence of QCN" (section V-A)`,
			Experiment: "qcn-t-fairness",
			Sets:       []string{`algorithms=["qcn"]`, "sources.override=" + start("900Mbps", "100Mbps")},
			Edit: thresholds(func(x *experiments.Experiment) {
				setAxis(x, "model", []string{"packet", "convergence"})
			}),
			Quick:   Quick{Seeds: 2},
			Series:  true,
			Overlay: "model",
			Rule:    modelAndPacket(6, 18),
		},
		{
			ID: "002-fig6", Ref: "002", Figure: "figure 6",
			Text:       `From (700, 300) Mbps: "Compared with the results shown in Figure 5, the convergence time is much smaller" (section V-A)`,
			Experiment: "qcn-t-fairness",
			Sets:       []string{`algorithms=["qcn"]`, "output.fairness_threshold=0.9"},
			Edit: func(x *experiments.Experiment) {
				setAxis(x, "model", []string{"packet", "convergence"})
				x.Sweep = append(x.Sweep, axis("sources.override", start("900Mbps", "100Mbps"), start("700Mbps", "300Mbps")))
			},
			Quick: Quick{Seeds: 2},
			Rule:  smallerFrom700,
		},
		{
			ID: "002-fig4", Ref: "002", Figure: "figure 4",
			Text:       `"Observing Figure 4, we found that R_1 converges fast from 600 Mbps to 900 Mbps" (section V-A), read as: the time to fairness grows with R_1, the higher rate at the start of the third stage, and steeply from 600 to 900 Mbps`,
			Experiment: "qcn-convergence-model",
			Sets:       []string{`algorithms=["qcn"]`},
			Edit: func(x *experiments.Experiment) {
				var vs []string
				for _, r1 := range []int{550, 600, 700, 800, 900, 950} {
					vs = append(vs, start(fmt.Sprintf("%dMbps", r1), fmt.Sprintf("%dMbps", 1000-r1)))
				}
				x.Sweep = append(x.Sweep, experiments.Axis{Key: "sources.override", Values: vs})
			},
			Rule: func(rs Runs) Outcome {
				// The override values are not numbers: order them by R_1.
				byR1 := map[float64]float64{}
				for _, v := range rs.Values("sources.override") {
					var r1 float64
					fmt.Sscanf(v[strings.Index(v, `initial_rate="`)+len(`initial_rate="`):], "%fMbps", &r1)
					byR1[r1] = rs.Of("qcn", "sources.override="+v).Mean(timeToFair)
				}
				var ts []float64
				for _, r1 := range []float64{550, 600, 700, 800, 900, 950} {
					ts = append(ts, byR1[r1])
				}
				held := 0
				if increasing(ts) {
					held++
				}
				if ts[4] >= 2*ts[1] {
					held++
				}
				return Outcome{Verdict: grade(held, 2),
					Measured:  fmt.Sprintf("time to fairness %s s from R_1 = 550, 600, 700, 800, 900, 950 Mbps", floats(ts)),
					Criterion: "the time grows with R_1, and from 900 Mbps it is at least twice that from 600 Mbps (steeply)"}
			},
		},
		modelClaim("002-fig7", "figure 7", `"As G_d increases, the convergence time decreases. But the impact of G_d is slight. Even when G_d = 1/16, the convergence time only decreases by half." (section V-B1)`,
			[]string{`algorithms=["qcn"]`}, "params.qcn.gd", []string{"0.00390625", "0.0078125", "0.015625", "0.0625"},
			func(rs Runs) Outcome {
				ts := times(rs, "qcn", "params.qcn.gd", []string{"0.00390625", "0.0078125", "0.015625", "0.0625"})
				held := 0
				if decreasing(ts) {
					held++
				}
				if r := ts[3] / ts[1]; r >= 0.35 && r <= 0.75 {
					held++
				}
				return Outcome{Verdict: grade(held, 2),
					Measured:  fmt.Sprintf("time to fairness %s s at G_d 1/256, 1/128, 1/64, 1/16 (1/16 takes %.2f of 1/128's)", floats(ts), ts[3]/ts[1]),
					Criterion: "the time falls as G_d grows, and G_d = 1/16 takes 0.35-0.75 of the standard 1/128's (about half)"}
			}),
		modelClaim("002-fig8", "figure 8", `"as R_AI increases, the convergence time dramatically decreases" (section V-B1)`,
			[]string{`algorithms=["qcn"]`}, "params.qcn.r_ai", []string{"0.5Mbps", "1Mbps", "5Mbps"},
			func(rs Runs) Outcome {
				ts := times(rs, "qcn", "params.qcn.r_ai", []string{"0.5Mbps", "1Mbps", "5Mbps"})
				held := 0
				if decreasing(ts) {
					held++
				}
				if ts[2] <= ts[0]/3 {
					held++
				}
				return Outcome{Verdict: grade(held, 2),
					Measured:  fmt.Sprintf("time to fairness %s s at R_AI 0.5, 1, 5 Mbps", floats(ts)),
					Criterion: "the time falls as R_AI grows, and 5 Mbps takes at most a third of 0.5 Mbps's (dramatically)"}
			}),
		modelClaim("002-fig9", "figure 9", `"Let T_AI denote the sample interval during the AI phase. We choose several typical values, T_AI = 37.5 KB, T_AI = 75 KB and T_AI = 150 KB ... The impact of T_AI is opposite to that of R_AI." (section V-B1); T_AI is half of bc_limit here, so the FR cycles change with it`,
			[]string{`algorithms=["qcn"]`}, "params.qcn.bc_limit", []string{"75KB", "150KB", "300KB"},
			func(rs Runs) Outcome {
				ts := times(rs, "qcn", "params.qcn.bc_limit", []string{"75KB", "150KB", "300KB"})
				v := Differs
				if increasing(ts) {
					v = Agrees
				}
				return Outcome{Verdict: v,
					Measured:  fmt.Sprintf("time to fairness %s s at T_AI 37.5, 75, 150 KB (bc_limit 75, 150, 300 KB)", floats(ts)),
					Criterion: "the time grows with T_AI (R_AI's impact is a fall as it grows)"}
			}),
		modelClaim("002-fig10", "figure 10", `QCN-TIMER: "When T_t = 2.4 milliseconds, the convergence time of QCN is reduced by several times. Even the standard Timer parameter [10 ms] also reduces the convergence time of QCN"; "If T_t = 15 milliseconds, sum E(dR_i) = 0 does not always have a solution" (section V-B2)`,
			[]string{`algorithms=["qcn","qcn-timer"]`}, "params.qcn-timer.timer_period", []string{"15ms", "10ms", "2.4ms"},
			func(rs Runs) Outcome {
				qcn := rs.Of("qcn").Mean(timeToFair)
				ts := times(rs, "qcn-timer", "params.qcn-timer.timer_period", []string{"15ms", "10ms", "2.4ms"})
				unsolved := 0
				for _, r := range rs.Of("qcn-timer", "params.qcn-timer.timer_period=15ms") {
					unsolved += r.Convergence.Unsolved
				}
				held := 0
				if ts[1] < qcn {
					held++
				}
				if ts[2] <= qcn/3 {
					held++
				}
				if unsolved > 0 {
					held++
				}
				return Outcome{Verdict: grade(held, 3),
					Measured: fmt.Sprintf("QCN %.2f s; QCN-TIMER %s s at 15, 10, 2.4 ms; at 15 ms %d periods without a solution",
						qcn, floats(ts), unsolved),
					Criterion: "10 ms faster than QCN; 2.4 ms at most a third of QCN's time (several times); at 15 ms some period without a solution"}
			}),
		modelClaim("002-fig11", "figure 11", `QCN-AIMD: "For the same R_AI, the AIMD mechanism could speed up the convergence process. But the impact is slight compared with the impact of increasing R_AI." (section V-B2)`,
			[]string{`algorithms=["qcn","qcn-aimd"]`}, "params.qcn.r_ai", []string{"0.5Mbps", "5Mbps"},
			func(rs Runs) Outcome {
				q := times(rs, "qcn", "params.qcn.r_ai", []string{"0.5Mbps", "5Mbps"})
				a := times(rs, "qcn-aimd", "params.qcn-aimd.r_ai", []string{"0.5Mbps", "5Mbps"})
				held := 0
				if a[0] < q[0] && a[1] < q[1] {
					held++
				}
				if q[0]/a[0] < q[0]/q[1] {
					held++
				}
				return Outcome{Verdict: grade(held, 2),
					Measured:  fmt.Sprintf("QCN %s s, QCN-AIMD %s s at R_AI 0.5, 5 Mbps", floats(q), floats(a)),
					Criterion: "QCN-AIMD faster than QCN at each R_AI, and its gain smaller than that of raising R_AI tenfold"}
			}),
		{
			ID: "002-bandwidth", Ref: "002", Figure: "section V-B3",
			Text:       `"Given a determined byte threshold, the convergence time will reduce to be 1/m when the link bandwidth is amplified to be m times of the original value." (section V-B3)`,
			Experiment: "qcn-convergence-model",
			Sets:       []string{`algorithms=["qcn"]`, "output.sample_interval=1ms", "output.rate_window=1ms"},
			Edit: func(x *experiments.Experiment) {
				setAxis(x, "network.capacity", []string{"1Gbps", "10Gbps"})
			},
			Rule: func(rs Runs) Outcome {
				slow := rs.Of("qcn", "network.capacity=1Gbps").Mean(timeToFair)
				fast := rs.Of("qcn", "network.capacity=10Gbps").Mean(timeToFair)
				v := Differs
				if r := fast / (slow / 10); r >= 0.9 && r <= 1.1 {
					v = Agrees
				}
				return Outcome{Verdict: v,
					Measured:  fmt.Sprintf("time to fairness %.3f s at 1 Gbps, %.3f s at 10 Gbps (%.3f of the 1 Gbps time)", slow, fast, fast/slow),
					Criterion: "the convergence model at 10 Gbps (R_AI 5 Mbps, the standard's value there, scaled with the capacity; rates from (9, 1) Gbps) takes 0.09 to 0.11 of its time at 1 Gbps"}
			},
		},
		{
			ID: "002-fig12", Ref: "002", Figure: "figure 12",
			Text:       `"QCN-T significantly decreases the convergence time of QCN. Besides, the queue length is still stable in QCN-T." (section VI)`,
			Experiment: "qcn-t-fairness",
			Edit:       thresholds(nil),
			Quick:      Quick{Seeds: 2},
			Series:     true,
			Rule:       qcnTFaster,
		},
	}
}

type experimentEdit = func(*experiments.Experiment)

// modelClaim is a claim on the convergence model with one parameter swept
// (for QCN-AIMD's figure, its own R_AI follows QCN's).
func modelClaim(id, fig, text string, sets []string, key string, values []string, rule Rule) Claim {
	return Claim{ID: id, Ref: "002", Figure: fig, Text: text, Experiment: "qcn-convergence-model", Sets: sets,
		Edit: func(x *experiments.Experiment) {
			setAxis(x, key, values)
			if key == "params.qcn.r_ai" && strings.Contains(strings.Join(sets, ""), "qcn-aimd") {
				setAxis(x, "params.qcn-aimd.r_ai", values)
			}
		},
		Plot:   &SweepPlot{Key: key, Metric: timeToFair, YLabel: "time to fairness (s)"},
		Series: true,
		Rule:   rule}
}

func axis(key string, values ...string) experiments.Axis {
	return experiments.Axis{Key: key, Values: values}
}

// times is the time to fairness of alg at each value of key, in order.
func times(rs Runs, alg, key string, values []string) []float64 {
	var ts []float64
	for _, v := range values {
		ts = append(ts, rs.Of(alg, key+"="+v).Mean(timeToFair))
	}
	return ts
}

func increasing(xs []float64) bool {
	for i := 1; i < len(xs); i++ {
		if !(xs[i] > xs[i-1]) {
			return false
		}
	}
	return true
}

func decreasing(xs []float64) bool {
	for i := 1; i < len(xs); i++ {
		if !(xs[i] < xs[i-1]) {
			return false
		}
	}
	return true
}

func floats(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf("%.2f", x))
	}
	return strings.Join(s, ", ")
}

// timeToFairnessIn judges alg's time to fairness seed by seed, under each
// fairness threshold swept: agrees if every seed's is in [lo, hi], partly
// if some are.
func timeToFairnessIn(alg string, lo, hi float64, why string) Rule {
	return func(rs Runs) Outcome {
		var o Outcome
		o.Criterion = fmt.Sprintf("time_to_fairness_seconds of each seed (min/max of the windowed rates stays at or above the threshold to the end; the run's length if never) %s; agrees if every seed's is, partly if some are", why)
		for _, th := range rs.Values("output.fairness_threshold") {
			at := rs.Of(alg, "output.fairness_threshold="+th)
			held := 0
			for _, r := range at {
				if t := timeToFair(r.Summary); t >= lo && t <= hi {
					held++
				}
			}
			o.Criteria = append(o.Criteria, CriterionResult{Name: "threshold " + th, Verdict: grade(held, len(at)),
				Measured: fmt.Sprintf("seeds: %s s (mean %.1f s)", perSeed(at, timeToFair), at.Mean(timeToFair))})
		}
		return o.combined()
	}
}

func perSeed(rs Runs, f Metric) string {
	var s []string
	for _, r := range rs {
		s = append(s, fmt.Sprintf("%.1f", f(r.Summary)))
	}
	return strings.Join(s, " ")
}

// modelAndPacket: both models reach fairness in [lo, hi] s and within 50%
// of each other, under each threshold.
func modelAndPacket(lo, hi float64) Rule {
	return func(rs Runs) Outcome {
		var o Outcome
		o.Criterion = fmt.Sprintf("mean time to fairness of the packet model and of the convergence model each in [%g, %g] s (about 12 s), and within 50%% of each other", lo, hi)
		for _, th := range rs.Values("output.fairness_threshold") {
			p := rs.Of("qcn", "model=packet", "output.fairness_threshold="+th)
			m := rs.Of("qcn", "model=convergence", "output.fairness_threshold="+th)
			tp, tm := p.Mean(timeToFair), m.Mean(timeToFair)
			held := 0
			for _, t := range []float64{tp, tm} {
				if t >= lo && t <= hi {
					held++
				}
			}
			if math.Abs(tp-tm) <= 0.5*tm {
				held++
			}
			o.Criteria = append(o.Criteria, CriterionResult{Name: "threshold " + th, Verdict: grade(held, 3),
				Measured: fmt.Sprintf("packet %.1f s (seeds: %s), model %.1f s", tp, perSeed(p, timeToFair), tm)})
		}
		return o.combined()
	}
}

func smallerFrom700(rs Runs) Outcome {
	var o Outcome
	o.Criterion = "from (700, 300) Mbps the mean time to fairness is below 0.75 of that from (900, 100) Mbps (much smaller), in each model"
	var from9, from7 string
	for _, v := range rs.Values("sources.override") {
		if strings.Contains(v, "700Mbps") {
			from7 = v
		} else {
			from9 = v
		}
	}
	for _, m := range []string{"packet", "convergence"} {
		t9 := rs.Of("qcn", "model="+m, "sources.override="+from9).Mean(timeToFair)
		t7 := rs.Of("qcn", "model="+m, "sources.override="+from7).Mean(timeToFair)
		v := Differs
		if t7 < 0.75*t9 {
			v = Agrees
		}
		o.Criteria = append(o.Criteria, CriterionResult{Name: m + " model", Verdict: v,
			Measured: fmt.Sprintf("(700, 300): %.1f s, (900, 100): %.1f s", t7, t9)})
	}
	return o.combined()
}

func qcnTFaster(rs Runs) Outcome {
	var o Outcome
	o.Criterion = "QCN-T's mean time to fairness at most half of QCN's (significantly), and its queue std at most 1.5 times QCN's (still stable)"
	for _, th := range rs.Values("output.fairness_threshold") {
		q := rs.Of("qcn", "output.fairness_threshold="+th)
		t := rs.Of("qcn-t", "output.fairness_threshold="+th)
		tq, tt := q.Mean(timeToFair), t.Mean(timeToFair)
		sq, st := q.Mean(queueStd), t.Mean(queueStd)
		held := 0
		if tt <= tq/2 {
			held++
		}
		if st <= 1.5*sq {
			held++
		}
		o.Criteria = append(o.Criteria, CriterionResult{Name: "threshold " + th, Verdict: grade(held, 2),
			Measured: fmt.Sprintf("QCN %.1f s (seeds %s), QCN-T %.1f s (seeds %s); queue std %.1f / %.1f KB",
				tq, perSeed(q, timeToFair), tt, perSeed(t, timeToFair), sq/1e3, st/1e3)})
	}
	return o.combined()
}
