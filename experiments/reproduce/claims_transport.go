package reproduce

import (
	"fmt"
	"math"

	"qcnlab/model"
)

// Claims of the ACK-clocked schemes' papers, which are no seeds: the
// claims name them in Ref. DCTCP's multi-bottleneck figure (Alizadeh et
// al., SIGCOMM 2010, figure 17, as ns-3's examples/tcp/dctcp-example.cc
// sets it up) and HPCC's near-zero standing queue at its target
// utilisation (Li et al., SIGCOMM 2019).

const (
	dctcpRef = "Alizadeh et al., SIGCOMM 2010 (DCTCP)"
	hpccRef  = "Li et al., SIGCOMM 2019 (HPCC)"
)

// dctcpGroups are figure 17's groups of flows, in the built-in's flow
// order, and the paper's throughput of each, bits per second.
var dctcpGroups = []struct {
	name     string
	from, to int
	paper    float64
}{{"S1", 0, 10, 46e6}, {"S2", 10, 30, 475e6}, {"S3", 30, 40, 54e6}}

// dctcpTolerance is how far from the paper's throughput a group's mean may
// be: the paper's own "within 10% of their fair-share throughputs".
const dctcpTolerance = 0.1

// hpccEta is HPCC's target utilisation (run.py's U_TARGET, the paper's 95%).
const hpccEta = 0.95

// The incast's bottleneck and the stretch over which it is judged: the
// receiver's port while every flow is on (the built-in's phase 1-5 ms).
const (
	hpccIncastPort  = "leaf0->h0"
	hpccIncastPhase = 0.001
	// hpccNearZero is what counts as a near-zero queue: 10 KB, ten
	// 1000 B frames, 3.2 us at 25 Gbps, about a third of the path's base
	// RTT (the paper gives no number).
	hpccNearZero = 10e3
)

func claimsTransport() []Claim {
	return []Claim{
		{
			ID: "dctcp-fig17", Ref: dctcpRef, Figure: "figure 17",
			Found:      Agrees,
			Text:       `With two bottlenecks (30 flows on a 10 Gbps link, 20 on a 1 Gbps link) each S1 sender gets 46 Mbps, each S3 sender 54 Mbps and each S2 sender 475 Mbps, "within 10% of their fair-share throughputs", Jain's index 0.99 in each group (section 4.3; set up as ns-3's examples/tcp/dctcp-example.cc does, whose comments report 23, 471 and 74 Mbps with its RED thresholds)`,
			Experiment: "dctcp-two-bottlenecks",
			Rule:       dctcpFig17,
		},
		{
			ID: "hpcc-incast", Ref: hpccRef, Figure: "section 5 (incast)",
			Found:      Agrees,
			Text:       `HPCC keeps a near-zero standing queue while the bottleneck runs at its target utilisation eta (95%): on an incast, the receiver's link stays near eta with almost nothing queued, where DCQCN leaves the link idler (sections 3 and 5)`,
			Experiment: "hpcc-vs-dcqcn-incast",
			Rule:       hpccIncast,
		},
	}
}

// groupThroughput is the mean throughput of the sources [from, to).
func groupThroughput(from, to int) Metric {
	return custom(fmt.Sprintf("mean throughput of sources %d-%d", from, to-1), bps, func(s *model.Summary) float64 {
		if len(s.Sources) < to {
			return math.NaN()
		}
		var sum float64
		for _, src := range s.Sources[from:to] {
			sum += src.ThroughputBps
		}
		return sum / float64(to-from)
	})
}

// groupJain is Jain's index of the throughputs of the sources [from, to).
func groupJain(from, to int) Metric {
	return custom(fmt.Sprintf("Jain's index of sources %d-%d", from, to-1), share, func(s *model.Summary) float64 {
		if len(s.Sources) < to {
			return math.NaN()
		}
		var sum, sq float64
		for _, src := range s.Sources[from:to] {
			sum, sq = sum+src.ThroughputBps, sq+src.ThroughputBps*src.ThroughputBps
		}
		return sum * sum / (float64(to-from) * sq)
	})
}

func dctcpFig17(ev *Evidence) Outcome {
	rs := ev.Part("").Of("dctcp")
	o := Outcome{Criterion: fmt.Sprintf("each group's mean throughput within %.0f%% of the paper's, either way (its own tolerance); each group's Jain index at least 0.99", 100*dctcpTolerance)}
	for _, g := range dctcpGroups {
		o.Statements = append(o.Statements,
			check(g.name+": mean throughput per sender", bps.format(g.paper), rs.collect(groupThroughput(g.from, g.to)), near(g.paper, dctcpTolerance)),
			check(g.name+": Jain's index", "0.99", rs.collect(groupJain(g.from, g.to)), atLeast(0.99)))
	}
	o.Notes = "ns-3's example marks from RED's MinTh, 50 packets at 10 Gbps and 20 at 1 Gbps; qcnlab marks at one K, 20 frames, on every port"
	return o
}

// incastPortMetric reads the receiver's port over the incast's phase.
func incastPortMetric(name string, u unit, f func(b *model.BottleneckSummary) float64) Metric {
	return custom(name+" of "+hpccIncastPort+" from 1 to 5 ms", u, func(s *model.Summary) float64 {
		p := phase(*s, hpccIncastPhase)
		if p == nil {
			return math.NaN()
		}
		for i := range p.Bottlenecks {
			if p.Bottlenecks[i].Name == hpccIncastPort {
				return f(&p.Bottlenecks[i])
			}
		}
		return math.NaN()
	})
}

func hpccIncast(ev *Evidence) Outcome {
	rs := ev.Part("")
	util := incastPortMetric("utilization", share, func(b *model.BottleneckSummary) float64 { return b.Utilization })
	queue := incastPortMetric("mean queue", kilobyte, func(b *model.BottleneckSummary) float64 { return b.QueueMean })
	o := Outcome{Criterion: fmt.Sprintf("the receiver's port while every flow is on (1-5 ms): HPCC's utilization within 5%% of eta (%.2f), either way; its mean queue under %s; DCQCN's utilization below HPCC's", hpccEta, kilobyte.format(hpccNearZero))}
	hq := rs.Of("hpcc").collect(queue)
	hu := rs.Of("hpcc").collect(util)
	o.Statements = append(o.Statements,
		check("HPCC: utilization at eta", fmt.Sprintf("%.2f", hpccEta), hu, near(hpccEta, 0.05)),
		check("HPCC: near-zero standing queue", "near zero", hq, below(hpccNearZero)))
	du, dq := rs.Of("dcqcn").collect(util), rs.Of("dcqcn").collect(queue)
	r := math.NaN()
	if h := hu.mean(); h.lo > 0 {
		r = du.mean().lo / h.lo
	}
	o.Statements = append(o.Statements, check("DCQCN: its utilization over HPCC's (the link idler)", "below 1", one(ratio, r), below(1)))
	o.Notes = fmt.Sprintf("DCQCN: utilization %s, mean queue %s", share.format(du.mean().lo), kilobyte.format(dq.mean().lo))
	return o
}
