package reproduce

import (
	"fmt"
	"strings"

	"qcnlab/model"
)

// Seed 004: Cheng et al., "Congestion Control in Converged Ethernet with
// Heterogeneous and Time-Varying Delays" (DSM).
// dsmDamped is the correction of DSM's reaching gain c: section V-A's
// c = H/2 against the rule eq. 30 gives a, kept for c.
var dsmDamped = []Correction{{Name: "reaching_gain = damped", Sets: []string{"params.dsm.reaching_gain=damped"},
	Requires: []string{"dsm.reaching_gain"},
	Doc:      "DSM's reaching gain c lowered from section V-A's H/2 to 1.6/((m^2+4m+2)T), the rule eq. 30 gives a, with its m term kept (c = a at 10 Gbps, about 400 Hz at 100 Gbps and 160 µs)"}}

func claims004() []Claim {
	return []Claim{
		{
			ID: "004-fig5a", Ref: "004", Figure: "figure 5(a)",
			Text:       `10 Gbps, 5 sources from line rate: at 100 µs "all the schemes are able to keep the queue stable around ... 64KB"; at 300 µs "DSM still keeps the queue stable"; at 500 µs "DSM works well. On the other hand, QCN begins to underflows" (section V-B)`,
			Experiment: "dsm-qcn-delay-10g",
			Quick:      Quick{Duration: "500ms", Warmup: "200ms"},
			Plot:       &SweepPlot{Key: "network.rtt", Metric: queueStd, YLabel: "queue std (KB)", Scale: 1e-3},
			Rule: statesAt("network.rtt", 1000, []stateClaim{
				{"dsm", "100us", true}, {"dsm", "300us", true}, {"dsm", "500us", true},
				{"qcn", "100us", true}, {"qcn", "500us", false},
			}),
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig5b", Ref: "004", Figure: "figure 5(b)",
			Text:       `100 Gbps: "DSM works well when the delay is as large as 160µs, while the largest tolerable delay for QCN ... [is] only tens of microseconds" (section V-B)`,
			Experiment: "dsm-qcn-delay-100g",
			Quick:      Quick{Duration: "100ms", Warmup: "50ms"},
			Plot:       &SweepPlot{Key: "network.rtt", Metric: queueStd, YLabel: "queue std (KB)", Scale: 1e-3},
			Rule: statesAt("network.rtt", 1000, []stateClaim{
				{"dsm", "20us", true}, {"dsm", "40us", true}, {"dsm", "80us", true}, {"dsm", "160us", true},
				{"qcn", "20us", true}, {"qcn", "80us", false}, {"qcn", "160us", false},
			}),
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig5a-boundary", Ref: "004", Figure: "figure 5(a)",
			Text:        `10 Gbps: DSM "works well" up to 500 µs; QCN "oscillate[s]" at 300 µs but not "to underflows", and "begins to underflow" at 500 µs (section V-B)`,
			Experiment:  "dsm-qcn-delay-10g",
			Quick:       Quick{Duration: "500ms", Warmup: "200ms"},
			Search:      &Search{Key: "network.rtt", Range: "50us:800us"},
			Judge:       boundaryJudge(placed{"dsm", "500us", ""}, placed{"qcn", "100us", "500us"}),
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig5b-boundary", Ref: "004", Figure: "figure 5(b)",
			Text:        `100 Gbps: "DSM works well when the delay is as large as 160µs, while the largest tolerable delay for QCN ... [is] only tens of microseconds" (section V-B)`,
			Experiment:  "dsm-qcn-delay-100g",
			Quick:       Quick{Duration: "100ms", Warmup: "50ms"},
			Search:      &Search{Key: "network.rtt", Range: "10us:300us"},
			Judge:       boundaryJudge(placed{"dsm", "160us", ""}, placed{"qcn", "", "100us"}),
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig10", Ref: "004", Figure: "figure 10",
			Text:        `Parking lot, 5 long-lived flows per source and Poisson short flows at 0 to 200 a second: "the heavier the short flows, the more violent the oscillation of the queue length. However, DSM is more robust than QCN and SMCC ... DSM can simultaneously achieve a high utilization and loss less packets" (section V-C)`,
			Experiment:  "dsm-qcn-mixed-flows",
			Quick:       Quick{Duration: "1s", Warmup: "300ms"},
			Plot:        &SweepPlot{Key: "traffic.short_flow_rate", Metric: link(0, func(b model.BottleneckSummary) float64 { return b.QueueStd }), YLabel: "link 1 queue std (KB)", Scale: 1e-3},
			Rule:        mixedFlows("traffic.short_flow_rate", 2),
			Corrections: dsmDamped,
		},
		{
			ID: "004-fig9", Ref: "004", Figure: "figure 9",
			Text:        `Parking lot, long-lived flows: "although all the schemes are responsive to the arrival and degrade of flows, DSM achieves more stable queues than QCN and SMCC, regardless of bottleneck shifting" (section V-C)`,
			Experiment:  "dsm-qcn-parking-lot",
			Quick:       Quick{Duration: "3s", Warmup: "500ms"},
			Series:      true,
			Rule:        steadierQueues("dsm", "qcn", 2),
			Corrections: dsmDamped,
		},
	}
}

// stateClaim says the paper finds alg stable (or not) at one point.
type stateClaim struct {
	alg, at string
	stable  bool
}

// statesAt judges the paper's stable/unstable statements under every
// stability criterion.
func statesAt(key string, frame float64, claims []stateClaim) Rule {
	return func(rs Runs) Outcome {
		var o Outcome
		o.Criterion = "under each criterion, an algorithm is unstable at a point if most seeds are; the paper's statements hold where the run is stable where the paper says so and unstable where it says not"
		for _, c := range stabilityCriteria(frame) {
			held := 0
			var wrong []string
			for _, sc := range claims {
				at := rs.Of(sc.alg, key+"="+sc.at)
				if len(at) > 0 && c.unstableAt(at) != sc.stable {
					held++
				} else {
					state := "unstable"
					if !c.unstableAt(at) {
						state = "stable"
					}
					wrong = append(wrong, fmt.Sprintf("%s %s at %s", sc.alg, state, sc.at))
				}
			}
			m := fmt.Sprintf("%d of %d statements hold", held, len(claims))
			if len(wrong) > 0 {
				m += "; not: " + strings.Join(wrong, ", ")
			}
			o.Criteria = append(o.Criteria, CriterionResult{Name: c.name, Verdict: grade(held, len(claims)), Measured: m})
		}
		o = o.combined()
		o.Notes = pointTable(rs, key)
		return o
	}
}

// pointTable lists queue mean and std, empty time and utilization of every
// algorithm at every point, the numbers behind the verdicts.
func pointTable(rs Runs, key string) string {
	var rows []string
	for _, alg := range rs.Algorithms() {
		for _, v := range rs.Values(key) {
			at := rs.Of(alg, key+"="+v)
			rows = append(rows, fmt.Sprintf("%s at %s: queue %.1f ± %.1f KB, empty %.1f%%, utilization %.3f",
				alg, v, at.Mean(queueMean)/1e3, at.Mean(queueStd)/1e3, 100*at.Mean(emptyFrac), at.Mean(utilization)))
		}
	}
	return strings.Join(rows, "; ")
}

// steadierQueues: a's queue std is below b's at each of n links; and a
// keeps each link's queue from emptying more than b does.
func steadierQueues(a, b string, links int) Rule {
	return func(rs Runs) Outcome {
		var o Outcome
		o.Criterion = fmt.Sprintf("over the measurement window, on each link: %s's queue std below %s's; and %s's queue empty no more of the time than %s's", a, b, a, b)
		for _, c := range []struct {
			name string
			f    func(model.BottleneckSummary) float64
			unit string
			k    float64
		}{{"queue std", func(x model.BottleneckSummary) float64 { return x.QueueStd }, "KB", 1e-3},
			{"time empty", func(x model.BottleneckSummary) float64 { return x.EmptyFraction }, "%", 100}} {
			held := 0
			var ms []string
			for j := 0; j < links; j++ {
				xa, xb := rs.Of(a).Mean(link(j, c.f)), rs.Of(b).Mean(link(j, c.f))
				if xa < xb || (xa == 0 && xb == 0) {
					held++
				}
				ms = append(ms, fmt.Sprintf("link %d: %s %.1f%s, %s %.1f%s", j+1, a, c.k*xa, c.unit, b, c.k*xb, c.unit))
			}
			o.Criteria = append(o.Criteria, CriterionResult{Name: c.name, Verdict: grade(held, links), Measured: strings.Join(ms, "; ")})
		}
		return o.combined()
	}
}

// mixedFlows judges figure 10 over the short-flow rate swept on key: each
// scheme's queue oscillates more at the heaviest load than without short
// flows, and at every load DSM's queues are steadier than QCN's, its
// utilization at least QCN's and its drops at most QCN's, on every link.
func mixedFlows(key string, links int) Rule {
	return func(rs Runs) Outcome {
		loads := rs.Values(key)
		if len(loads) == 0 {
			return Outcome{Verdict: Differs, Measured: "no runs"}
		}
		lo, hi := loads[0], loads[len(loads)-1]
		std := func(alg, load string, j int) float64 {
			return rs.Of(alg, key+"="+load).Mean(link(j, func(b model.BottleneckSummary) float64 { return b.QueueStd }))
		}
		var o Outcome
		o.Criterion = fmt.Sprintf("on every link: each scheme's queue std larger at %s than at %s short flows/s; and at every load DSM's queue std below QCN's, its utilization at least QCN's (within 0.005) and its drops at most QCN's", hi, lo)
		type check struct {
			name string
			ok   func(j int) (bool, string)
		}
		for _, c := range []check{
			{"heavier short flows, more violent oscillation", func(j int) (bool, string) {
				ok := true
				var ms []string
				for _, alg := range []string{"dsm", "qcn"} {
					a, b := std(alg, lo, j), std(alg, hi, j)
					ok = ok && b > a
					ms = append(ms, fmt.Sprintf("%s %.1f to %.1f KB", alg, a/1e3, b/1e3))
				}
				return ok, strings.Join(ms, ", ")
			}},
			{"DSM steadier, as busy, fewer drops", func(j int) (bool, string) {
				ok := true
				var ms []string
				for _, load := range loads {
					d, q := rs.Of("dsm", key+"="+load), rs.Of("qcn", key+"="+load)
					ud := d.Mean(link(j, func(b model.BottleneckSummary) float64 { return b.Utilization }))
					uq := q.Mean(link(j, func(b model.BottleneckSummary) float64 { return b.Utilization }))
					dd := d.Mean(link(j, func(b model.BottleneckSummary) float64 { return float64(b.Drops) }))
					dq := q.Mean(link(j, func(b model.BottleneckSummary) float64 { return float64(b.Drops) }))
					ok = ok && std("dsm", load, j) < std("qcn", load, j) && ud >= uq-0.005 && dd <= dq
					ms = append(ms, fmt.Sprintf("%s: std %.1f/%.1f KB, utilization %.3f/%.3f, drops %.0f/%.0f",
						load, std("dsm", load, j)/1e3, std("qcn", load, j)/1e3, ud, uq, dd, dq))
				}
				return ok, "DSM/QCN " + strings.Join(ms, "; ")
			}},
		} {
			held := 0
			var ms []string
			for j := 0; j < links; j++ {
				ok, m := c.ok(j)
				if ok {
					held++
				}
				ms = append(ms, fmt.Sprintf("link %d: %s", j+1, m))
			}
			o.Criteria = append(o.Criteria, CriterionResult{Name: c.name, Verdict: grade(held, links), Measured: strings.Join(ms, "; ")})
		}
		return o.combined()
	}
}
