package reproduce

import (
	"fmt"
	"math"
	"slices"

	"qcnlab/experiments"
	"qcnlab/model"
	"qcnlab/model/topo"
)

// Claims against the DCQCN authors' own analysis: Zhu, Ghobadi, Misra and
// Padhye, "ECN or Delay: Lessons Learnt from Analysis of DCQCN and TIMELY"
// (CoNEXT 2016), whose LaTeX source and MATLAB fluid model are public
// (github.com/jitupadhye-zz/rdma: conext2016/dcqcn-model.tex,
// dcqcn-stability.tex; fluidmodel/dcqcn/dcqcn2.m). It is no seed: the
// claims name it in Ref.

// conextRef is the reference of these claims.
const conextRef = "Zhu et al., CoNEXT 2016"

// conextFluid are the fluid model's parameters: DCQCN's published values
// (SIGCOMM 2015 section 5, the CoNEXT paper's table of parameters) in the
// model's own units, packets of 1 KB (dcqcn2.m: "all quantities ... in
// units of packet size"; packetSize = 8e3 bits). dcqcn2.m itself runs
// K_max = 2000 KB and P_max = 10% for its 64-flow figures, not these.
var conextFluid = struct {
	packet             float64 // bits
	capacity           float64 // bits per second
	tau, tauPrime, t   float64 // CNP window, alpha interval, rate timer (s)
	b                  float64 // byte counter, bytes
	f                  float64 // fast recovery steps
	rAI                float64 // bits per second
	kMin, kMax, pMax   float64 // bytes, bytes, probability
	frameBytes, rttLow float64 // the packet model's frame (the fluid packet) and the short loop
}{
	packet: 8e3, capacity: 40e9,
	tau: 50e-6, tauPrime: 55e-6, t: 55e-6,
	b: 10e6, f: 5, rAI: 40e6,
	kMin: 5e3, kMax: 200e3, pMax: 0.01,
	frameBytes: 1000, rttLow: 4e-6,
}

// dcqcnFixedPoint solves the fixed point of the CoNEXT 2016 fluid model
// for n flows (dcqcn-stability.tex, equations p_fixed and fixedq): every
// flow at R = C/n and the marking probability p* the root of
//
//	a^2 alpha* / ((b + d)(c + e)) = tau^2 R_AI R
//
// with alpha* = 1 - (1-p)^(tau' R), a = 1 - (1-p)^(tau R),
// b = p / ((1-p)^-B - 1), c = (1-p)^(F B) b, d = p / ((1-p)^(-T R) - 1),
// e = (1-p)^(F T R) d, rates and B in packets; the queue is then
// q* = K_min + p*/P_max (K_max - K_min). The left side grows with p
// (the paper's proof), so bisection finds the root. It returns q* in
// bytes and p*; p* above P_max has no fixed point inside the band (NaN).
func dcqcnFixedPoint(n int) (q, p float64) {
	m := conextFluid
	r := m.capacity / m.packet / float64(n) // packets per second
	bPkts := m.b * 8 / m.packet
	rAI := m.rAI / m.packet
	lhs := func(p float64) float64 {
		l := math.Log1p(-p) // ln(1-p)
		pow := func(x float64) float64 { return math.Exp(x * l) }
		a := 1 - pow(m.tau*r)
		alpha := 1 - pow(m.tauPrime*r)
		bb := p / math.Expm1(-bPkts*l)
		c := pow(m.f*bPkts) * bb
		d := p / math.Expm1(-m.t*r*l)
		e := pow(m.f*m.t*r) * d
		return a * a * alpha / ((bb + d) * (c + e))
	}
	rhs := m.tau * m.tau * rAI * r
	lo, hi := 1e-12, 0.5
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if lhs(mid) < rhs {
			lo = mid
		} else {
			hi = mid
		}
	}
	p = (lo + hi) / 2
	if p > m.pMax {
		return math.NaN(), p
	}
	return m.kMin + p/m.pMax*(m.kMax-m.kMin), p
}

// conextFlows are the numbers of flows the fixed-point and stability
// claims take: those whose fixed point lies inside the published band
// (p* under P_max; at 20 flows it is 1.4%).
var conextFlows = []int{2, 4, 10}

// The stability thresholds of conext-stability, stated: stable when the
// link idles under 2% of the time and the queue's std stays under 0.4 of
// the marking band (78 KB); unstable when it idles over 5% of the time
// (utilization under 0.95, the QCN family's criterion).
const (
	conextStableIdle   = 0.02
	conextStableStd    = 0.4 // of K_max - K_min
	conextUnstableIdle = 0.05
)

func claimsConext() []Claim {
	m := conextFluid
	return []Claim{
		{
			ID: "conext-fixed-point", Ref: conextRef, Figure: "section 3.2 (Theorem 1, fixed point)",
			Found: Partly, Why: "with 10 flows the packet model's queue swings widely about the fixed point (its std is in the notes), and the mean of a queue that oscillates need not be the point it would rest at (here it is lower); with 2 and 4 flows, where the swing is smaller, the means agree",
			Text: `"DCQCN has a unique fixed point of queue length and flow rates" where every flow has C/N and the marking probability p* solves a^2 alpha*/((b+d)(c+e)) = tau^2 R_AI R_C*, the queue q* = p*/p_max (K_max - K_min) + K_min, which "depends on the number of flows N" (dcqcn-stability.tex, Theorem and eqs. p_fixed, fixedq); with the published parameters at 40 Gbps (K_min 5 KB, K_max 200 KB, P_max 1%, tau 50 us, tau' 55 us, T 55 us, B 10 MB, F 5, R_AI 40 Mbps), solved here: ` +
				fmt.Sprintf("%.1f KB for 2 flows, %.1f KB for 4, %.1f KB for 10", fixedKB(2), fixedKB(4), fixedKB(10)),
			Experiment: "dcqcn-loop-delay",
			Edit: func(e *experiments.Experiment) {
				setAxis(e, "network.rtt", []string{fmt.Sprintf("%gus", m.rttLow*1e6)})
				seeds(1, 2)(e)
			},
			Rule: fixedPointQueue,
			Corrections: []Correction{{
				Name: "cnp_timing = drop",
				Sets: []string{"params.dcqcn.cnp_timing=drop"},
				Doc:  "a receiver that drops the marks within 50 us of its last CNP (the letter of SIGCOMM 2015 3.1) instead of one CNP per window that saw a mark, as the fluid model counts them: fewer CNPs, a higher queue",
			}},
		},
		{
			ID: "conext-stability", Ref: conextRef, Figure: "section 3.2 (stability; figure: impact of delay and number of flows)",
			Found:      Agrees,
			Text:       `"When the feedback delay is small (4 us), DCQCN is stable - flow rates, and queue length quickly stabilizes regardless of the number of flows. However, when the delay is large (85 us), the protocol is unstable for 10 flows. It is, however, stable for 2 ... flows" (dcqcn-stability.tex). Its "stable for 64 flows" is not claimed here: its scripts (dcqcn2.m) run 64 flows with K_max 2000 KB and P_max 10%, not the published values, under which the fixed point for 20 flows or more lies above K_max`,
			Experiment: "dcqcn-loop-delay",
			Edit:       seeds(1, 2),
			Rule:       loopDelayStability,
		},
		{
			ID: "conext-ecmp", Ref: conextRef, Figure: "sections 3.3-3.4 (convergence, summary), on a fat-tree",
			Found: Partly, Why: "with ECMP the flows reach the max-min share of the paths they were hashed onto, as the analysis says; sprayed, the bound is the non-blocking fabric's line rate, which only perfectly balanced spraying reaches. Not measured; the likely cause: frames sprayed at random load the paths unevenly from moment to moment, queues build where they collide, and the congestion points cut the rates",
			Text:       `"DCQCN has a unique fixed point, where all flows get a fair share of the bottleneck bandwidth. For typical parameter values flows converge to this fixed point exponentially" (dcqcn-discussion.tex; dcqcn-convergence.tex: "at the fixed point, the flows share the bandwidth equally"). The paper analyses one bottleneck and says nothing of fabrics; its consequence where flows cross several, tested here as the project's, not the paper's: on a k = 8 fat-tree (128 hosts at 10 Gbps) with permutation traffic, a scheme that shares each bottleneck fairly gives each flow its max-min fair share over the paths ECMP hashed the flows onto (water filling; an independent Monte Carlo over random permutations gave 0.477 of line rate on average), and sprayed over every path it reaches the non-blocking bound, line rate. For QCN and DCQCN`,
			Experiment: "ecmp-collisions-fat-tree",
			Edit:       ecmpEdit("ecmp", 1, 2),
			Quick:      conextFabricQuick,
			Probe:      ecmpShareProbe{},
			Also: []Part{{Name: "spray", Experiment: "ecmp-collisions-fat-tree", Edit: ecmpEdit("spray", 1),
				Quick: conextFabricQuick, Probe: ecmpShareProbe{}}},
			Rule: ecmpAgainstMaxMin,
		},
	}
}

// conextFabricQuick is --quick's: one seed. Shorter runs judge DCQCN
// before it has settled (30 ms: 0.88 of its fair share with ECMP, where
// 50 ms gives 0.95), so the duration stays.
var conextFabricQuick = Quick{Seeds: 1}

// ecmpEdit makes ecmp-collisions-fat-tree this claim's: k = 8, QCN and
// DCQCN, one routing (spraying at random: round-robin spraying makes each
// switch's turn lock a flow onto one path), the seeds given.
func ecmpEdit(routing string, ss ...int) func(e *experiments.Experiment) {
	return func(e *experiments.Experiment) {
		e.Algorithms = []string{"qcn", "dcqcn"}
		var sweep []experiments.Axis
		for _, a := range e.Sweep {
			if a.Key != "network.k" && a.Key != "network.routing" {
				sweep = append(sweep, a)
			}
		}
		e.Sweep = sweep
		e.Network.SetOwn("k", 8)
		e.Network.Routing = routing
		if routing == "spray" {
			e.Network.Spray = "random"
		}
		seeds(ss...)(e)
	}
}

// fixedKB is the fluid fixed point for n flows in KB.
func fixedKB(n int) float64 {
	q, _ := dcqcnFixedPoint(n)
	return q / 1e3
}

// fixedPointQueue compares the packet model's mean queue at a 4 us loop
// with the fluid model's fixed point, for each number of flows.
func fixedPointQueue(ev *Evidence) Outcome {
	rs := ev.Part("")
	o := Outcome{Criterion: "for each number of flows, the packet model's mean queue (mean over the seeds, 1 KB frames as the fluid packets, a 4 us loop, sources from line rate, measured after 50 ms) within 20% of the fluid model's fixed point q*, solved from the paper's equations and published parameters"}
	var stds []string
	for _, n := range conextFlows {
		q, p := dcqcnFixedPoint(n)
		at := rs.Of("dcqcn", fmt.Sprintf("sources.count=%d", n))
		o.Statements = append(o.Statements,
			check(fmt.Sprintf("%d flows: mean queue (p* = %.4f%%)", n, 100*p), kilobyte.format(q), at.collect(queueMean), near(q, 0.2)))
		stds = append(stds, fmt.Sprintf("%d flows %s", n, kilobyte.format(at.Mean(queueStd))))
	}
	o.Notes = "queue std (the fluid model's fixed point has none): " + joinNonEmpty(", ", stds...) +
		"; a queue that swings about its fixed point has a mean that need not be it"
	return o
}

// loopDelayStability judges the runs at 4 us and 85 us against the stated
// thresholds.
func loopDelayStability(ev *Evidence) Outcome {
	rs := ev.Part("")
	m := conextFluid
	stdMax := conextStableStd * (m.kMax - m.kMin)
	o := Outcome{Criterion: fmt.Sprintf("mean over the seeds (1 KB frames, sources from line rate, measured after 50 ms): stable when the link idles under %.0f%% of the time and the queue's std is under %.1f of the marking band (%s); unstable when the link idles over %.0f%% of the time (utilization under 0.95)",
		100*conextStableIdle, conextStableStd, kilobyte.format(stdMax), 100*conextUnstableIdle)}
	stable := func(rtt string, n int) {
		at := rs.Of("dcqcn", "network.rtt="+rtt, fmt.Sprintf("sources.count=%d", n))
		o.Statements = append(o.Statements,
			check(fmt.Sprintf("%s, %d flows: stable (link idle)", rtt, n), "stable", at.collect(emptyFrac), below(conextStableIdle)),
			check(fmt.Sprintf("%s, %d flows: stable (queue std)", rtt, n), "stable", at.collect(queueStd), below(stdMax)))
	}
	for _, n := range conextFlows {
		stable("4us", n)
	}
	stable("85us", 2)
	at := rs.Of("dcqcn", "network.rtt=85us", "sources.count=10")
	o.Statements = append(o.Statements,
		check("85us, 10 flows: unstable (link idle)", "unstable", at.collect(emptyFrac), above(conextUnstableIdle)))
	o.Notes = fmt.Sprintf("85 us, 4 flows (not stated by the paper): link idle %s, queue std %s",
		emptyFrac.Unit.format(rs.Of("dcqcn", "network.rtt=85us", "sources.count=4").Mean(emptyFrac)),
		kilobyte.format(rs.Of("dcqcn", "network.rtt=85us", "sources.count=4").Mean(queueStd)))
	return o
}

// maxMinFair is the max-min fair allocation of flows over links by water
// filling: every unfrozen flow grows at the same pace until a link it
// crosses is full, which freezes the flows crossing it. routes[i] lists
// the links flow i crosses, capacity[l] is link l's.
func maxMinFair(routes [][]int, capacity []float64) []float64 {
	rate := make([]float64, len(routes))
	frozen := make([]bool, len(routes))
	left := slices.Clone(capacity)
	for active := len(routes); active > 0; {
		users := make([]int, len(capacity))
		for i, r := range routes {
			if !frozen[i] {
				for _, l := range r {
					users[l]++
				}
			}
		}
		step := math.Inf(1)
		for l, n := range users {
			if n > 0 {
				step = min(step, left[l]/float64(n))
			}
		}
		if math.IsInf(step, 1) {
			break // flows that cross no link: unbounded, left at 0
		}
		for l, n := range users {
			left[l] -= step * float64(n)
		}
		for i, r := range routes {
			if frozen[i] {
				continue
			}
			rate[i] += step
			for _, l := range r {
				if left[l] <= 1e-9*capacity[l] {
					frozen[i] = true
					active--
					break
				}
			}
		}
	}
	return rate
}

// ecmpShareProbe computes, for each run of a fabric with ECMP, the max-min
// fair share of its flows over the paths the run hashes them onto (each
// flow crosses its host's link, then its path), as a mean share of the line
// rate ("maxmin_share"), and reads the flows' mean throughput as a share of
// the line rate ("mean_share"). Under spraying the bound is the fabric's:
// a permutation on a non-blocking fat-tree can run every flow at line rate.
type ecmpShareProbe struct{}

func (ecmpShareProbe) Name() string { return "max-min fair share over the ECMP paths" }

func (ecmpShareProbe) Attach(_ experiments.Run, cfg *model.Config) ProbeRun {
	f := cfg.Fabric
	t := f.Topology
	line := t.Ports[t.NIC(0)].Capacity
	if f.Routing != model.ECMP {
		return &ecmpShareRun{line: line, fair: 1}
	}
	routes := t.Routes()
	paths := make([][]int, len(f.Flows))
	for i, fl := range f.Flows {
		// The key-th flow of the fabric hashes with the run's seed, as
		// the simulator routes it (model/fabric.go, network.route).
		path := []int{t.NIC(fl.From)}
		for _, p := range routes.ECMP(fl.From, fl.To, topo.Mix(cfg.Seed, uint64(i))) {
			path = append(path, int(p))
		}
		paths[i] = path
	}
	capacity := make([]float64, len(t.Ports))
	for i, p := range t.Ports {
		capacity[i] = p.Capacity
	}
	sum := 0.0
	for _, r := range maxMinFair(paths, capacity) {
		sum += r
	}
	return &ecmpShareRun{line: line, fair: sum / float64(len(paths)) / line}
}

type ecmpShareRun struct{ line, fair float64 }

func (*ecmpShareRun) Sample(*model.Sample) {}

func (r *ecmpShareRun) Finish(s *model.Summary) map[string]float64 {
	sum := 0.0
	for _, src := range s.Sources {
		sum += src.ThroughputBps
	}
	return map[string]float64{"maxmin_share": r.fair, "mean_share": sum / float64(len(s.Sources)) / r.line}
}

// shareOverBound is a run's mean flow rate over its bound, both shares of
// the line rate.
var shareOverBound = Metric{Name: "mean rate / bound", Unit: ratio, Value: func(r *ClaimRun) (float64, bool) {
	m, ok1 := r.Extra["mean_share"]
	b, ok2 := r.Extra["maxmin_share"]
	return m / b, ok1 && ok2 && b > 0
}}

// ecmpAgainstMaxMin: with ECMP each scheme's mean flow rate is close to the
// max-min fair share over the same paths (it shares each collision
// fairly and cannot use the idle paths); sprayed, close to line rate.
func ecmpAgainstMaxMin(ev *Evidence) Outcome {
	o := Outcome{Criterion: "mean over the seeds of each run's mean flow rate over its bound, within 10% of 1: with ECMP the max-min fair allocation over the paths the run hashed its flows onto (water filling, computed for each seed), sprayed the non-blocking bound, line rate"}
	fair := ev.Part("").collect(extra("maxmin_share", share))
	for _, alg := range []string{"qcn", "dcqcn"} {
		o.Statements = append(o.Statements,
			check(alg+", ECMP: mean rate over the max-min fair share", "1", ev.Part("").Of(alg).collect(shareOverBound), near(1, 0.1)),
			check(alg+", sprayed: mean rate over line rate", "1", ev.Part("spray").Of(alg).collect(shareOverBound), near(1, 0.1)))
	}
	o.Notes = fmt.Sprintf("the max-min fair share over the ECMP paths: %s of line rate (mean over the runs; an independent Monte Carlo over random permutations and hashes gave 0.477); sprayed runs pick each frame's next hop at random (spray = \"random\"): round-robin spraying, the default, lets each switch's turn lock a flow onto one path",
		share.format(fair.mean().lo))
	return o
}
