package reproduce

import (
	"fmt"
	"math"
	"strings"

	"qcnlab/experiments"
)

// Seed 000: Alizadeh et al., "Data Center Transport Mechanisms" (Allerton
// 2008).
func claims000() []Claim {
	return []Claim{
		{
			ID: "000-fig5", Ref: "000", Figure: "figure 5",
			Text:       `"Fig. 5 compares the QCN fluid model with ns-2 simulations for the same scenarios. As can be seen, there is a very good match between the model and simulations." (section II-B)`,
			Experiment: "qcn-fluid-vs-packet",
			Quick:      Quick{Duration: "120ms", Warmup: "60ms"},
			Plot:       &SweepPlot{Key: "network.rtt", Metric: queueStd, YLabel: "queue std (KB)", Scale: 1e-3},
			Rule:       fluidMatchesPacket,
		},
		{
			ID: "000-fig7", Ref: "000", Figure: "figure 7",
			Text:       `2 sources at 10 Gbps: "when the RTT is increased to 140 µs, N-AIMD is no longer stable, while AP-N-AIMD remains quite stable ... It isn't until an RTT of 240 µs that the AP-N-AIMD also loses its stability" (section III-B)`,
			Experiment: "ap-n-aimd-2-sources",
			Edit:       keepAxes("seed"),
			Quick:      Quick{Seeds: 2, Duration: "300ms"},
			Search:     &Search{Key: "network.rtt", Range: "60us:400us"},
			Judge: boundaryJudge(placed{"n-aimd", "", "140us"},
				placed{"ap-n-aimd", "140us", "240us"}),
			Corrections: apCorrections,
		},
		{
			ID: "000-fig7-underflow", Ref: "000", Figure: "figure 7",
			Text:       `2 sources, RTT 240 µs: "N-AIMD is unstable, with underflowing queues leading to substantial link under-utilization" (section III-B)`,
			Experiment: "ap-n-aimd-2-sources",
			Edit:       func(e *experiments.Experiment) { keepAxes("seed")(e); rttList("140us", "240us")(e) },
			Quick:      Quick{Seeds: 2, Duration: "300ms"},
			Plot:       &SweepPlot{Key: "network.rtt", Metric: utilization, YLabel: "utilization"},
			Rule:       underflowAt("n-aimd", "network.rtt=240us"),
		},
		{
			ID: "000-fig8", Ref: "000", Figure: "figure 8",
			Text:        `20 sources: "N-AIMD becomes unstable at an RTT of 190 µs. But AP-N-AIMD becomes unstable only when the RTT is increased beyond 230 µs" (section III-B)`,
			Experiment:  "ap-n-aimd-20-sources",
			Quick:       Quick{Seeds: 2, Duration: "300ms"},
			Search:      &Search{Key: "network.rtt", Range: "100us:800us"},
			Judge:       boundaryJudge(placed{"n-aimd", "", "190us"}, placed{"ap-n-aimd", "230us", ""}),
			Corrections: apCorrections,
		},
	}
}

// keepAxes drops every sweep axis but those named: the built-ins of
// figures 7 and 8 sweep the AP's readings, which the claims take one at a
// time (the paper's text first, then each correction).
func keepAxes(keys ...string) func(*experiments.Experiment) {
	return func(e *experiments.Experiment) {
		var kept []experiments.Axis
		for _, a := range e.Sweep {
			for _, k := range keys {
				if a.Key == k {
					kept = append(kept, a)
				}
			}
		}
		e.Sweep = kept
	}
}

// apCorrections are the two readings of the Averaging Principle that its
// claims are judged under besides the paper's text (seed 000 section III-B).
var apCorrections = []Correction{
	{Name: "early_feedback = apply", Sets: []string{"params.ap-n-aimd.early_feedback=apply"},
		Doc: "a feedback that arrives before T/2 packets first completes the pending averaging, then applies; the text (and the default, drop) cancels the averaging"},
	{Name: "sampling = regular", Sets: []string{"params.n-aimd.sampling=regular", "params.n-aimd.sample_jitter=0.1",
		"params.ap-n-aimd.sampling=regular", "params.ap-n-aimd.sample_jitter=0.1"},
		Doc: "the congestion point samples every T = 1/p frames (with the built-in's 10% jitter) instead of each frame with probability p: Remark 1's best case for the AP (the switch samples alike for both schemes)"},
	{Name: "sampling = regular, AP only", Sets: []string{"params.ap-n-aimd.sampling=regular", "params.ap-n-aimd.sample_jitter=0.1"},
		Doc: "as above, but N-AIMD keeps random sampling: the Averaging Principle's best case against the paper's baseline"},
}

func rttList(vs ...string) func(*experiments.Experiment) {
	return func(e *experiments.Experiment) { setAxis(e, "network.rtt", vs) }
}

// setAxis sets the values of a sweep axis, adding it first if missing.
func setAxis(e *experiments.Experiment, key string, vs []string) {
	var quoted []string
	for _, v := range vs {
		if numericLiteral(v) {
			quoted = append(quoted, v)
		} else {
			quoted = append(quoted, `"`+v+`"`)
		}
	}
	for i, a := range e.Sweep {
		if a.Key == key {
			e.Sweep[i].Values = quoted
			return
		}
	}
	e.Sweep = append([]experiments.Axis{{Key: key, Values: quoted}}, e.Sweep...)
}

func numericLiteral(v string) bool {
	var x float64
	_, err := fmt.Sscan(v, &x)
	return err == nil && !strings.ContainsAny(v, "abcdfghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ")
}

// underflowAt checks that alg, at one point, empties its queue more than
// 1% of the time and keeps the link below 95% busy.
func underflowAt(alg, point string) Rule {
	return func(rs Runs) Outcome {
		at := rs.Of(alg, point)
		u, e := at.Mean(utilization), at.Mean(emptyFrac)
		held := 0
		if e > 0.01 {
			held++
		}
		if u < 0.95 {
			held++
		}
		return Outcome{Verdict: grade(held, 2),
			Measured:  fmt.Sprintf("%s at %s: utilization %.4f, queue empty %.2f%% of the time (mean of %d seeds)", alg, point, u, 100*e, len(at)),
			Criterion: "queue empty more than 1% of the time (underflow) and utilization below 0.95 (substantial under-utilization); partly if one holds"}
	}
}

// fluidMatchesPacket compares the fluid model with the packet model at
// every RTT: the queue's mean, whether it is stable, and the utilization.
func fluidMatchesPacket(rs Runs) Outcome {
	type test struct {
		name string
		ok   func(p, f Runs) (bool, string)
	}
	qEq := rs[0].Bottlenecks[0].QEq
	tests := []test{
		{"queue mean within 20% of Q_EQ of each other", func(p, f Runs) (bool, string) {
			a, b := p.Mean(queueMean), f.Mean(queueMean)
			return math.Abs(a-b) <= 0.2*qEq, fmt.Sprintf("%.1f/%.1f KB", a/1e3, b/1e3)
		}},
		{"same stability (queue std > 20% of Q_EQ)", func(p, f Runs) (bool, string) {
			a, b := p.Mean(queueStd), f.Mean(queueStd)
			return (a > 0.2*qEq) == (b > 0.2*qEq), fmt.Sprintf("std %.1f/%.1f KB", a/1e3, b/1e3)
		}},
		{"utilization within 0.01", func(p, f Runs) (bool, string) {
			a, b := p.Mean(utilization), f.Mean(utilization)
			return math.Abs(a-b) <= 0.01, fmt.Sprintf("%.3f/%.3f", a, b)
		}},
	}
	var o Outcome
	o.Criterion = "at every RTT, packet against fluid: agrees if the criterion holds at all RTTs, partly at half or more, differs below"
	for _, t := range tests {
		held, rtts := 0, rs.Values("network.rtt")
		var ms []string
		for _, rtt := range rtts {
			ok, m := t.ok(rs.Of("qcn", "network.rtt="+rtt, "model=packet"), rs.Of("qcn", "network.rtt="+rtt, "model=fluid"))
			if ok {
				held++
			}
			ms = append(ms, rtt+" "+m)
		}
		v := Differs
		switch {
		case held == len(rtts):
			v = Agrees
		case 2*held >= len(rtts):
			v = Partly
		}
		o.Criteria = append(o.Criteria, CriterionResult{Name: t.name, Verdict: v,
			Measured: "packet/fluid: " + strings.Join(ms, ", ")})
	}
	return o.combined()
}

func summarizeCriteria(cs []CriterionResult) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Name+": "+c.Verdict)
	}
	return strings.Join(parts, "; ")
}
