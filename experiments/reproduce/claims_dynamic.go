package reproduce

import (
	"fmt"
	"math"
	"strings"

	"qcnlab/experiments/metrics"
	"qcnlab/model"
)

// Claims on scenarios that change while they run: flows arriving and
// leaving, capacities that drop and come back, random and time-varying
// delays, and link-level PAUSE. Their rules read the per-phase summaries.

// queueMedianIn is the bottleneck's median queue over the phase from start
// (the registry holds no quantiles).
func queueMedianIn(start float64) Metric {
	return Metric{Name: "median queue", Unit: kilobyte, Value: func(r *ClaimRun) (float64, bool) {
		p := phase(r.Summary, start)
		if p == nil || len(p.Bottlenecks) == 0 {
			return 0, false
		}
		return p.Bottlenecks[0].QueueQuantiles.P50, true
	}}
}

func claimsDynamic() []Claim {
	return []Claim{
		{
			ID: "000-capacity-drop", Ref: "000", Figure: "section II (requirement b)",
			Found: Partly, Why: "the drop is followed, the rise is not: with no congestion after the rise there is no feedback, and the sources stay at their 0.5 Gbps share until their byte counters and timers bring them to hyper-active increase, tens of milliseconds later; pseudo-code v2.2 has nothing that reacts to capacity that appears",
			Text:       `"Ethernet link bandwidth on a priority can vary with time ... from 10 Gbps to 0.5 Gbps and back up again. The algorithm needs to rapidly adapt source rates to these variations." (section II)`,
			Experiment: "qcn-capacity-drop",
			Edit:       seeds(1, 2, 3, 4),
			Series:     true,
			Rule:       capacityDrop,
		},
		{
			ID: "000-pause", Ref: "000", Figure: "section II (PAUSE)",
			Found:      Agrees,
			Text:       `With link-level PAUSE, "congestion spreading ... the domino effect of buffer congestion propagating upstream causing secondary bottlenecks ... affect sources whose packets do not pass through the primary bottleneck. An L2 congestion control scheme allows a primary bottleneck to directly reduce the rates of those sources whose packets pass through it, thereby preventing (or reducing the instances of) secondary bottlenecks" (section II)`,
			Experiment: "pfc-congestion-spreading",
			Edit:       seeds(1, 2, 3),
			Series:     true,
			Rule:       pauseSpreading,
		},
		asMain(Claim{
			ID: "004-fig6", Ref: "004", Figure: "figure 6",
			Found: Partly, Why: dsmVAWhy + "; here the 300 us loop is 3.75 of DSM's 80 us periods against m = 4",
			Text:        `Flows arriving every 0.1 s and two leaving at 0.3 s and 0.4 s: "in face of new flows, DSM and QCN can drain out the switch buffer rapidly ... When a flow finishes, DSM ... can converge fast to 100% utilization, but QCN always wastes a few utilization" (section V-B)`,
			Rule:        responsiveness,
			Corrections: dsmDamped,
		}, dsm6),
		asMain(Claim{
			ID: "004-fig7", Ref: "004", Figure: "figure 7",
			Found: Partly, Why: dsmVAWhy + "; beyond 10 Gbps T = 1/(pC) shrinks and the loop spans many periods, so the mismatch is larger",
			Text:        `Capacities 1 to 100 Gbps, loop delays 80 to 320 µs: "the larger the bandwidth, the lower the utilization for QCN ... when the link capacity increases to 100Gbps, the utilizations of QCN ... greatly degrade ... DSM remains almost 100% utilization regardless of the delays and the bandwidth" (section V-B)`,
			Plot:        &SweepPlot{Key: "network.capacity", Metric: utilization, YLabel: "utilization (fraction)"},
			Rule:        adaptability,
			Corrections: dsmDamped,
		}, dsm7),
		asMain(Claim{
			ID: "004-fig8", Ref: "004", Figure: "figure 8",
			Found: Differs, Why: dsmVAWhy + "; with loops drawn in [400, 800] us no loop is a whole number of periods. QCN's queue is spread as the paper says but seldom empty; why the paper's QCN underflowed often is not known (the paper ran 100 runs of 5 s, this claim runs 5)",
			Text:        `Loop delays random in [400, 800] µs: "As for DSM, the queue length is always held closer to the desired point q0 = 64KB and rarely underflows. In contrast, both QCN and SMCC suffer from a large probability of empty buffer ... DSM has higher throughput than QCN" (section V-B)`,
			Rule:        timeVarying,
			Corrections: dsmDamped,
		}, dsm8),
	}
}

func capacityDrop(ev *Evidence) Outcome {
	q := ev.Part("").Of("qcn")
	qEq := q.Mean(queueTarget)
	util := func(start float64) vals { return q.collect(inPhase(start, metrics.Utilization, 0)) }
	return Outcome{Criterion: "per phase of the built-in (utilization over the capacity in force), mean over the seeds; the paper says \"rapidly\" with no number: both changes followed within 10 ms and settled within 50 ms",
		Statements: []Statement{
			check("the drop: the link stays busy in the first 10 ms at 0.5 Gbps (utilization)", "", util(0.1), atLeast(0.95)),
			check("the drop: the rates adapt, the queue back within 2 Q_EQ over 110-200 ms (mean queue)", "", q.collect(inPhase(0.11, metrics.QueueMean, 0)), atMost(2*qEq)),
			check("the rise: the link is used again in the first 10 ms at 10 Gbps (utilization)", "", util(0.2), atLeast(0.9)),
			check("the rise: full use over 210-250 ms (utilization)", "", util(0.21), atLeast(0.95)),
		}}
}

func pauseSpreading(ev *Evidence) Outcome {
	rs := ev.Part("")
	// Source 1 is the victim: it crosses only the first link, whose
	// congestion comes from PAUSE, not from itself.
	thr, paused := reg(metrics.Throughput, 1), reg(metrics.SourcePausedFraction, 1).as(percent)
	const line = 5e9
	return Outcome{Criterion: "the victim source (it does not cross the primary bottleneck), mean over the seeds, with no congestion control (none) and with QCN; the paper gives no numbers: paused over 5% of the time and below 90% of its 5 Gbps count as spreading, under 1% and at least 95% as prevented",
		Statements: []Statement{
			check("without congestion control, PAUSE spreads to the victim (time paused)", "", rs.Of("none").collect(paused), above(0.05)),
			check("without congestion control, the victim loses throughput", "", rs.Of("none").collect(thr), below(0.9*line)),
			check("with QCN the victim is not paused (time paused)", "", rs.Of("qcn").collect(paused), below(0.01)),
			check("with QCN the victim keeps its rate", "", rs.Of("qcn").collect(thr), atLeast(0.95*line)),
		}}
}

func responsiveness(ev *Evidence) Outcome {
	rs := ev.Part("")
	const buffer = 128e3 // the built-in's
	util := func(start float64) Metric { return inPhase(start, metrics.Utilization, 0) }
	o := Outcome{Criterion: "per phase of the built-in (between arrivals and departures), mean over the seeds; the paper gives no numbers: after an arrival the median queue below 90% of the buffer (drained), after a departure DSM at 100% (at least 0.99) and QCN below it"}
	for _, alg := range []string{"dsm", "qcn"} {
		for _, start := range []float64{0.1, 0.2} {
			o.Statements = append(o.Statements, check(fmt.Sprintf("%s drains the buffer after the arrival at %.1f s (median queue)", alg, start), "",
				rs.Of(alg).collect(queueMedianIn(start)), below(0.9*buffer)))
		}
	}
	for _, start := range []float64{0.3, 0.4} {
		o.Statements = append(o.Statements,
			check(fmt.Sprintf("DSM converges fast to 100%% utilization after the departure at %.1f s", start), "100%", rs.Of("dsm").collect(util(start)), atLeast(0.99)),
			check(fmt.Sprintf("QCN always wastes a few utilization after the departure at %.1f s", start), "", rs.Of("qcn").collect(util(start)), below(0.99)))
	}
	return o
}

func adaptability(ev *Evidence) Outcome {
	rs := ev.Part("")
	caps, rtts := rs.Values("network.capacity"), rs.Values("network.rtt")
	if len(caps) < 2 {
		return Outcome{Criterion: "the sweep has fewer than two capacities"}
	}
	lo, hi := caps[0], caps[len(caps)-1]
	at := func(alg, c, r string) Runs { return rs.Of(alg, "network.capacity="+c, "network.rtt="+r) }
	o := Outcome{Criterion: "utilization, mean over the seeds: DSM almost 100% (at least 0.98) at its lowest point; QCN lower at the largest capacity than at the smallest at every delay, and greatly degraded there (below 0.95) at some delay"}
	worstDSM, worstDSMu := "", math.Inf(1)
	worstQCN, worstQCNu := "", math.Inf(1)
	for _, r := range rtts {
		for _, c := range caps {
			if u := at("dsm", c, r).Mean(utilization); u < worstDSMu || worstDSM == "" {
				worstDSM, worstDSMu = c+" "+r, u
			}
		}
		if u := at("qcn", hi, r).Mean(utilization); u < worstQCNu || worstQCN == "" {
			worstQCN, worstQCNu = r, u
		}
	}
	c, r, _ := strings.Cut(worstDSM, " ")
	low := check("DSM remains almost 100% regardless of the delays and the bandwidth, at its lowest", "almost 100%",
		at("dsm", c, r).collect(utilization), atLeast(0.98))
	low.Note = joinNonEmpty("; ", "at "+worstDSM, low.Note)
	o.Statements = append(o.Statements, low)
	for _, r := range rtts {
		o.Statements = append(o.Statements, compare(fmt.Sprintf("QCN at %s: the larger the bandwidth, the lower the utilization (%s's minus %s's)", r, hi, lo), "< 0",
			at("qcn", hi, r).collect(utilization), at("qcn", lo, r).collect(utilization), diffOf, shareDiff, below(0)))
	}
	deg := check("QCN greatly degraded at "+hi+", at its lowest", "", at("qcn", hi, worstQCN).collect(utilization), below(0.95))
	deg.Note = joinNonEmpty("; ", "at "+worstQCN, deg.Note)
	o.Statements = append(o.Statements, deg)
	return o
}

func timeVarying(ev *Evidence) Outcome {
	rs := ev.Part("")
	d, q := rs.Of("dsm"), rs.Of("qcn")
	const q0 = 64e3 // the built-in's target
	off := custom("|p50 - q0|", kilobyte, func(s *model.Summary) float64 { return math.Abs(s.Bottlenecks[0].QueueQuantiles.P50 - q0) })
	iqr := custom("p75 - p25", kilobyte, func(s *model.Summary) float64 {
		x := s.Bottlenecks[0].QueueQuantiles
		return x.P75 - x.P25
	})
	return Outcome{Criterion: "queue quantiles (the CDF of figure 8(a)), time empty and utilization, mean over the seeds; the paper gives no numbers: \"rarely\" empty is under 1% of the time, a \"large probability\" of empty at least 1%",
		Statements: []Statement{
			compare("DSM's queue held closer to q0 = 64 KB: |p50 - q0|, DSM's minus QCN's", "< 0", d.collect(off), q.collect(off), diffOf, kilobyte, below(0)),
			compare("DSM's queue more concentrated: p75 - p25, DSM's minus QCN's", "< 0", d.collect(iqr), q.collect(iqr), diffOf, kilobyte, below(0)),
			check("DSM rarely underflows (time empty)", "", d.collect(emptyFrac), below(0.01)),
			check("QCN suffers a large probability of empty buffer (time empty)", "", q.collect(emptyFrac), atLeast(0.01)),
			compare("DSM has higher throughput than QCN: utilization, DSM's minus QCN's", "> 0", d.collect(utilization), q.collect(utilization), diffOf, shareDiff, above(0)),
		}}
}
