package reproduce

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"qcnlab/model"
)

// Claims on scenarios that change while they run: flows arriving and
// leaving, capacities that drop and come back, random and time-varying
// delays, and link-level PAUSE. Their rules read the per-phase summaries.

// phase returns the summary of the phase that starts at start seconds, or
// nil.
func phase(s model.Summary, start float64) *model.PhaseSummary {
	for i := range s.Phases {
		if math.Abs(s.Phases[i].Start-start) < 1e-9 {
			return &s.Phases[i]
		}
	}
	return nil
}

// phaseMetric is a bottleneck metric over one phase, NaN if the run has no
// such phase.
func phaseMetric(start float64, f func(model.BottleneckSummary) float64) Metric {
	return func(s model.Summary) float64 {
		p := phase(s, start)
		if p == nil || len(p.Bottlenecks) == 0 {
			return math.NaN()
		}
		return f(p.Bottlenecks[0])
	}
}

var (
	util    = func(b model.BottleneckSummary) float64 { return b.Utilization }
	qMean   = func(b model.BottleneckSummary) float64 { return b.QueueMean }
	qMedian = func(b model.BottleneckSummary) float64 { return b.QueueQuantiles.P50 }
)

// statement is one checkable sentence of a claim and its measurement.
type statement struct {
	text string
	ok   bool
	m    string
}

// judgeStatements grades the statements that hold.
func judgeStatements(criterion string, ss []statement) Outcome {
	held := 0
	var ms []string
	for _, s := range ss {
		mark := "no"
		if s.ok {
			held++
			mark = "yes"
		}
		ms = append(ms, fmt.Sprintf("%s: %s (%s)", s.text, mark, s.m))
	}
	return Outcome{Verdict: grade(held, len(ss)), Measured: fmt.Sprintf("%d of %d hold: ", held, len(ss)) + strings.Join(ms, "; "),
		Criterion: criterion}
}

func claimsDynamic() []Claim {
	return []Claim{
		{
			ID: "000-capacity-drop", Ref: "000", Figure: "section II (requirement b)",
			Text:       `"Ethernet link bandwidth on a priority can vary with time ... from 10 Gbps to 0.5 Gbps and back up again. The algorithm needs to rapidly adapt source rates to these variations." (section II)`,
			Experiment: "qcn-capacity-drop",
			Series:     true,
			Rule:       capacityDrop,
		},
		{
			ID: "000-pause", Ref: "000", Figure: "section II (PAUSE)",
			Text:       `With link-level PAUSE, "congestion spreading ... the domino effect of buffer congestion propagating upstream causing secondary bottlenecks ... affect sources whose packets do not pass through the primary bottleneck. An L2 congestion control scheme allows a primary bottleneck to directly reduce the rates of those sources whose packets pass through it, thereby preventing (or reducing the instances of) secondary bottlenecks" (section II)`,
			Experiment: "pfc-congestion-spreading",
			Series:     true,
			Rule:       pauseSpreading,
		},
		{
			ID: "004-fig6", Ref: "004", Figure: "figure 6",
			Text:        `Flows arriving every 0.1 s and two leaving at 0.3 s and 0.4 s: "in face of new flows, DSM and QCN can drain out the switch buffer rapidly ... When a flow finishes, DSM ... can converge fast to 100% utilization, but QCN always wastes a few utilization" (section V-B)`,
			Experiment:  "dsm-qcn-responsiveness",
			Series:      true,
			Rule:        responsiveness,
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig7", Ref: "004", Figure: "figure 7",
			Text:        `Capacities 1 to 100 Gbps, loop delays 80 to 320 µs: "the larger the bandwidth, the lower the utilization for QCN ... when the link capacity increases to 100Gbps, the utilizations of QCN ... greatly degrade ... DSM remains almost 100% utilization regardless of the delays and the bandwidth" (section V-B)`,
			Experiment:  "dsm-qcn-adaptability",
			Quick:       Quick{Duration: "200ms"},
			Plot:        &SweepPlot{Key: "network.capacity", Metric: utilization, YLabel: "utilization"},
			Rule:        adaptability,
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig8", Ref: "004", Figure: "figure 8",
			Text:        `Loop delays random in [400, 800] µs: "As for DSM, the queue length is always held closer to the desired point q0 = 64KB and rarely underflows. In contrast, both QCN and SMCC suffer from a large probability of empty buffer ... DSM has higher throughput than QCN" (section V-B)`,
			Experiment:  "dsm-qcn-time-varying",
			Quick:       Quick{Seeds: 2, Duration: "2s"},
			Series:      true,
			Rule:        timeVarying,
			Corrections: dsmDamped,
		},
	}
}

func capacityDrop(rs Runs) Outcome {
	q := rs.Of("qcn")
	qEq := q.Mean(func(s model.Summary) float64 { return s.Bottlenecks[0].QEq })
	at := func(start float64, f func(model.BottleneckSummary) float64) float64 {
		return q.Mean(phaseMetric(start, f))
	}
	ss := []statement{
		{"the drop: the link stays busy in the first 10 ms at 0.5 Gbps (utilization >= 0.95)", at(0.1, util) >= 0.95, fmt.Sprintf("%.3f", at(0.1, util))},
		{"the drop: the rates adapt, the queue back within 2 Q_EQ over 110-200 ms", at(0.11, qMean) <= 2*qEq, fmt.Sprintf("mean %.1f KB, Q_EQ %.1f KB", at(0.11, qMean)/1e3, qEq/1e3)},
		{"the rise: the link is used again in the first 10 ms at 10 Gbps (utilization >= 0.9)", at(0.2, util) >= 0.9, fmt.Sprintf("%.3f", at(0.2, util))},
		{"the rise: full use over 210-250 ms (utilization >= 0.95)", at(0.21, util) >= 0.95, fmt.Sprintf("%.3f", at(0.21, util))},
	}
	return judgeStatements("per phase of the built-in (utilization over the capacity in force), mean over seeds: both changes followed within 10 ms and settled within 50 ms", ss)
}

// summaryField reads a field of a summary by its JSON path (for metrics of
// features whose fields other parts of the project define), NaN if absent.
func summaryField(s model.Summary, path ...any) float64 {
	data, err := json.Marshal(s)
	if err != nil {
		return math.NaN()
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return math.NaN()
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return math.NaN()
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return math.NaN()
			}
			v = a[k]
		}
	}
	if x, ok := v.(float64); ok {
		return x
	}
	return math.NaN()
}

func pauseSpreading(rs Runs) Outcome {
	// Source 1 is the victim: it crosses only the first link, whose
	// congestion comes from PAUSE, not from itself.
	victim := func(alg string) (thr, paused float64) {
		at := rs.Of(alg)
		return at.Mean(func(s model.Summary) float64 { return s.Sources[1].ThroughputBps }),
			at.Mean(func(s model.Summary) float64 { return summaryField(s, "sources", 1, "paused_fraction") })
	}
	line := 5e9
	tn, pn := victim("none")
	tq, pq := victim("qcn")
	ss := []statement{
		{"without congestion control, PAUSE spreads to the victim (paused over 5% of the time)", pn > 0.05, fmt.Sprintf("paused %.1f%%", 100*pn)},
		{"without congestion control, the victim loses throughput (below 90% of its 5 Gbps)", tn < 0.9*line, fmt.Sprintf("%.2f Gbps", tn/1e9)},
		{"with QCN the victim is not paused (under 1% of the time)", pq < 0.01, fmt.Sprintf("paused %.1f%%", 100*pq)},
		{"with QCN the victim keeps its rate (at least 95% of 5 Gbps)", tq >= 0.95*line, fmt.Sprintf("%.2f Gbps", tq/1e9)},
	}
	return judgeStatements("the victim source (it does not cross the primary bottleneck), mean over seeds, with no congestion control (none) and with QCN", ss)
}

func responsiveness(rs Runs) Outcome {
	const buffer = 128e3 // the built-in's
	at := func(alg string, start float64, f func(model.BottleneckSummary) float64) float64 {
		return rs.Of(alg).Mean(phaseMetric(start, f))
	}
	var ss []statement
	for _, alg := range []string{"dsm", "qcn"} {
		for _, start := range []float64{0.1, 0.2} {
			m := at(alg, start, qMedian)
			ss = append(ss, statement{fmt.Sprintf("%s drains the buffer after the arrival at %.1f s (median queue below 90%% of it)", alg, start),
				m < 0.9*buffer, fmt.Sprintf("median %.1f KB", m/1e3)})
		}
	}
	for _, start := range []float64{0.3, 0.4} {
		d, q := at("dsm", start, util), at("qcn", start, util)
		ss = append(ss,
			statement{fmt.Sprintf("DSM near 100%% after the departure at %.1f s (utilization >= 0.99)", start), d >= 0.99, fmt.Sprintf("%.3f", d)},
			statement{fmt.Sprintf("QCN wastes a few utilization after the departure at %.1f s (below 0.99)", start), q < 0.99, fmt.Sprintf("%.3f", q)})
	}
	return judgeStatements("per phase of the built-in (between arrivals and departures), mean over seeds", ss)
}

func adaptability(rs Runs) Outcome {
	caps, rtts := rs.Values("network.capacity"), rs.Values("network.rtt")
	if len(caps) < 2 {
		return Outcome{Verdict: Differs, Measured: "the sweep has fewer than two capacities"}
	}
	lo, hi := caps[0], caps[len(caps)-1]
	u := func(alg, c, r string) float64 {
		return rs.Of(alg, "network.capacity="+c, "network.rtt="+r).Mean(utilization)
	}
	dsmMin, qcnLower, qcnWorst := 1.0, true, 1.0
	var dsm, qcn []string
	for _, r := range rtts {
		for _, c := range caps {
			dsmMin = math.Min(dsmMin, u("dsm", c, r))
			dsm = append(dsm, fmt.Sprintf("%s/%s %.3f", c, r, u("dsm", c, r)))
		}
		qcnLower = qcnLower && u("qcn", hi, r) < u("qcn", lo, r)
		qcnWorst = math.Min(qcnWorst, u("qcn", hi, r))
		qcn = append(qcn, fmt.Sprintf("%s: %.3f at %s, %.3f at %s", r, u("qcn", lo, r), lo, u("qcn", hi, r), hi))
	}
	return judgeStatements("utilization, mean over seeds", []statement{
		{"DSM almost 100% everywhere (at least 0.98)", dsmMin >= 0.98, strings.Join(dsm, ", ")},
		{"QCN lower at " + hi + " than at " + lo + " at every delay", qcnLower, strings.Join(qcn, "; ")},
		{"QCN greatly degraded at " + hi + " (below 0.95 at some delay)", qcnWorst < 0.95, fmt.Sprintf("lowest %.3f", qcnWorst)},
	})
}

func timeVarying(rs Runs) Outcome {
	d, q := rs.Of("dsm"), rs.Of("qcn")
	const q0 = 64e3 // the built-in's target
	off := func(r Runs) float64 {
		return r.Mean(func(s model.Summary) float64 { return math.Abs(s.Bottlenecks[0].QueueQuantiles.P50 - q0) })
	}
	iqr := func(r Runs) float64 {
		return r.Mean(func(s model.Summary) float64 {
			x := s.Bottlenecks[0].QueueQuantiles
			return x.P75 - x.P25
		})
	}
	ed, eq := d.Mean(emptyFrac), q.Mean(emptyFrac)
	ud, uq := d.Mean(utilization), q.Mean(utilization)
	return judgeStatements("queue quantiles (the CDF of figure 8(a)), empty time and utilization, mean over seeds", []statement{
		{"DSM's queue closer to q0 (median) and more concentrated (p25-p75) than QCN's", off(d) < off(q) && iqr(d) < iqr(q),
			fmt.Sprintf("|p50 - 64 KB| %.1f / %.1f KB, p75 - p25 %.1f / %.1f KB (DSM / QCN)", off(d)/1e3, off(q)/1e3, iqr(d)/1e3, iqr(q)/1e3)},
		{"DSM rarely underflows (empty under 1% of the time)", ed < 0.01, fmt.Sprintf("%.2f%%", 100*ed)},
		{"QCN often empty, more than DSM", eq > ed && eq >= 0.01, fmt.Sprintf("%.2f%% against DSM's %.2f%%", 100*eq, 100*ed)},
		{"DSM's throughput higher than QCN's", ud > uq, fmt.Sprintf("utilization %.3f / %.3f", ud, uq)},
	})
}
