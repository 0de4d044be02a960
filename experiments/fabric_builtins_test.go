package experiments_test

// The fabric and DCQCN built-ins quote what they measure; these tests run
// each one and check every number its description quotes, so that neither
// can drift from the other.

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/results"
	"qcnlab/experiments/stability"
	"qcnlab/model"
)

// quoted is a number a description quotes, as it is written there, and
// how to measure it from the runs.
type quoted struct {
	text    string // as the description writes it: "25.6 ms"
	value   float64
	measure func(runs []batch.RunSummary) float64
	tol     float64 // relative
}

func runBuiltin(t *testing.T, name string) (*experiments.Experiment, []batch.RunSummary) {
	t.Helper()
	e, err := experiments.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := results.Execute(context.Background(), e, results.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e, res.Runs
}

// find is the run of algorithm at the sweep point whose values contain
// every key=value of point.
func find(t *testing.T, runs []batch.RunSummary, algorithm string, point ...string) *batch.RunSummary {
	t.Helper()
outer:
	for i := range runs {
		r := &runs[i]
		if r.Algorithm != algorithm {
			continue
		}
		for _, p := range point {
			k, v, _ := strings.Cut(p, "=")
			if strings.Trim(r.Point[k], `"`) != v {
				continue outer
			}
		}
		return r
	}
	t.Fatalf("no run of %s at %v", algorithm, point)
	return nil
}

func port(t *testing.T, r *batch.RunSummary, name string) model.BottleneckSummary {
	t.Helper()
	for _, b := range r.Bottlenecks {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no port %s", name)
	return model.BottleneckSummary{}
}

func pauses(r *batch.RunSummary) float64 {
	n := 0.0
	for _, tr := range r.Tiers {
		n += float64(tr.PauseFrames)
	}
	return n
}

func gbps(s model.SourceSummary) float64 { return s.ThroughputBps / 1e9 }

func checkQuoted(t *testing.T, e *experiments.Experiment, runs []batch.RunSummary, qs []quoted) {
	t.Helper()
	for _, q := range qs {
		if !strings.Contains(strings.Join(strings.Fields(e.Description), " "), q.text) {
			t.Errorf("the description does not quote %q", q.text)
		}
		got := q.measure(runs)
		if math.IsNaN(got) || math.Abs(got-q.value) > q.tol*math.Abs(q.value)+1e-12 {
			t.Errorf("%q: measured %.6g, the description says %g", q.text, got, q.value)
		}
	}
}

func TestQCNIncastLeafSpineBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "qcn-incast-leaf-spine")
	completion := func(alg, pfc string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			c := find(t, rs, alg, "network.pfc="+pfc).Flows.IncastCompletion
			if c == nil {
				return math.NaN()
			}
			return *c * 1e3
		}
	}
	victims := func(alg, pfc string, lowest bool) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			r := find(t, rs, alg, "network.pfc="+pfc)
			x := gbps(r.Sources[32])
			for _, s := range r.Sources[32:35] { // the victims into leaf 0
				if lowest {
					x = min(x, gbps(s))
				} else {
					x = max(x, gbps(s))
				}
			}
			return x
		}
	}
	hot := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			return float64(port(t, find(t, rs, alg, "network.pfc=true"), "leaf0->h0").PauseFrames)
		}
	}
	unfinished := func(rs []batch.RunSummary) float64 {
		f := find(t, rs, "qcn", "network.pfc=true").Flows
		return float64(f.IncastFlows - *f.IncastCompleted)
	}
	victim := func(alg string, i int) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return gbps(find(t, rs, alg, "network.pfc=false").Sources[i]) }
	}
	feedback := func(alg string, i int) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			return float64(find(t, rs, alg, "network.pfc=false").Sources[i].FeedbackFrames)
		}
	}
	lostNone := func(rs []batch.RunSummary) float64 {
		return float64(find(t, rs, "none", "network.pfc=false").Flows.Lost)
	}
	drops := func(rs []batch.RunSummary) float64 {
		return float64(port(t, find(t, rs, "qcn", "network.pfc=false"), "leaf0->h0").Drops)
	}
	checkQuoted(t, e, runs, []quoted{
		{"completes in 28.7 ms", 28.7, completion("none", "true"), 0.002},
		{"1372 pause frames", 1372, hot("none"), 0},
		{"3.51 to 5.40 Gbps", 3.51, victims("none", "true", true), 0.01},
		{"3.51 to 5.40 Gbps", 5.40, victims("none", "true", false), 0.01},
		{"sends 1144", 1144, hot("qcn"), 0},
		{"0.54 to 0.76 Gbps", 0.54, victims("qcn", "true", true), 0.01},
		{"0.54 to 0.76 Gbps", 0.76, victims("qcn", "true", false), 0.01},
		{"5 of the 32 incast flows", 5, unfinished, 0},
		{"completes in 29.5 ms with 912", 29.5, completion("dcqcn", "true"), 0.002},
		{"completes in 29.5 ms with 912", 912, hot("dcqcn"), 0},
		{"2.01 to 2.43 Gbps", 2.01, victims("dcqcn", "true", true), 0.01},
		{"2.01 to 2.43 Gbps", 2.43, victims("dcqcn", "true", false), 0.01},
		{"keep 9.81 to 9.83 Gbps", 9.81, victims("none", "false", true), 0.0005},
		{"keep 9.81 to 9.83 Gbps", 9.83, victims("none", "false", false), 0.0005},
		{"27 of the 32 incast flows", 27, lostNone, 0},
		{"get 5 feedback frames each", 5, feedback("qcn", 33), 0},
		{"get 5 feedback frames each", 5, feedback("qcn", 34), 0},
		{"keep 1.64 and 1.67 Gbps", 1.67, victim("qcn", 33), 0.003},
		{"keep 1.64 and 1.67 Gbps", 1.64, victim("qcn", 34), 0.003},
		{"recovers (9.77 Gbps)", 9.77, victim("qcn", 32), 0.0005},
		{"31.1 ms with 1359 drops", 31.1, completion("qcn", "false"), 0.002},
		{"31.1 ms with 1359 drops", 1359, drops, 0},
		{"they keep 5.39 to 5.46 Gbps", 5.39, victims("dcqcn", "false", true), 0.001},
		{"they keep 5.39 to 5.46 Gbps", 5.46, victims("dcqcn", "false", false), 0.001},
	})

	// Without PFC nobody is paused: the victims' losses are congestion
	// control's.
	for _, alg := range e.Algorithms {
		if n := pauses(find(t, runs, alg, "network.pfc=false")); n != 0 || !strings.Contains(e.Description, "nobody is paused") {
			t.Errorf("%s without PFC: %g pause frames", alg, n)
		}
	}
	// Which spine each victim into leaf 0 crosses, from what its leaf's
	// uplinks carried under none (the incast's flows add under 1 Gbps to
	// a port): routes are drawn from the seed and the flow, the same for
	// every scheme.
	none := find(t, runs, "none", "network.pfc=false")
	carried := func(name string) float64 { return port(t, none, name).Utilization * 40 }
	for _, c := range []struct{ via, other string }{
		{"leaf1->spine1", "leaf1->spine0"}, // h20 -> h1 (and h21 -> h37)
		{"leaf2->spine0", "leaf2->spine1"}, // h36 -> h2
		{"leaf3->spine0", "leaf3->spine1"}, // h52 -> h3
	} {
		if carried(c.via) < 9 || carried(c.other) > 1 {
			t.Errorf("%s carried %.2f Gbps, %s %.2f: the description's victim does not cross %s", c.via, carried(c.via), c.other, carried(c.other), c.via)
		}
	}
	// "All of them from that port for the victim from leaf 3": the other
	// ports on its way sent no feedback.
	qcn := find(t, runs, "qcn", "network.pfc=false")
	for _, name := range []string{"leaf3->spine0", "leaf0->h3"} {
		if fb := port(t, qcn, name).FeedbackFrames; fb != 0 {
			t.Errorf("QCN without PFC: %s sent %d feedback frames; the description says the victim from leaf 3 had all its own from spine 0's port down to leaf 0", name, fb)
		}
	}
	// DCQCN: the spines' ports down to leaf 0 mark, and the victims are
	// back at line rate by the end of the run.
	dcqcn := find(t, runs, "dcqcn", "network.pfc=false")
	for _, name := range []string{"spine0->leaf0", "spine1->leaf0"} {
		if port(t, dcqcn, name).MarkedFrames == 0 {
			t.Errorf("DCQCN without PFC: %s marked nothing", name)
		}
	}
	for _, s := range dcqcn.Sources[32:35] {
		if s.FinalRateBps < 0.999*10e9 {
			t.Errorf("DCQCN without PFC: victim %s -> %s ends at %.3g Gbps, the description says back at line rate", s.From, s.To, s.FinalRateBps/1e9)
		}
	}
}

func TestECMPCollisionsFatTreeBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "ecmp-collisions-fat-tree")
	mean := func(k, routing string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			r := find(t, rs, "qcn", "network.k="+k, "network.routing="+routing)
			sum := 0.0
			for _, s := range r.Sources {
				sum += gbps(s)
			}
			return sum / float64(len(r.Sources))
		}
	}
	jain := func(k, routing string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			return find(t, rs, "qcn", "network.k="+k, "network.routing="+routing).Jain()
		}
	}
	slowest := func(alg, k, routing string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			r := find(t, rs, alg, "network.k="+k, "network.routing="+routing)
			x := math.Inf(1)
			for _, s := range r.Sources {
				x = min(x, gbps(s))
			}
			return x
		}
	}
	qs := []quoted{
		{"7.01 Gbps on k = 4", 7.01, mean("4", "ecmp"), 0.001},
		{"4.68 Gbps on k = 8", 4.68, mean("8", "ecmp"), 0.002},
		{"(the slowest 0.69 Gbps)", 0.69, slowest("qcn", "8", "ecmp"), 0.01},
		{"9.45 and 9.01 Gbps", 9.45, mean("4", "spray"), 0.001},
		{"9.45 and 9.01 Gbps", 9.01, mean("8", "spray"), 0.001},
		{"0.892 and 0.769", 0.892, jain("4", "ecmp"), 0.001},
		{"0.892 and 0.769", 0.769, jain("8", "ecmp"), 0.001},
		{"0.997 and 0.994", 0.997, jain("4", "spray"), 0.001},
		{"0.997 and 0.994", 0.994, jain("8", "spray"), 0.001},
	}
	for _, x := range []struct {
		k, routing string
		gbps       float64
	}{{"4", "ecmp", 2.84}, {"8", "ecmp", 0.92}, {"4", "spray", 8.23}, {"8", "spray", 9.04}} {
		qs = append(qs, quoted{"the slowest get 2.84 and 0.92 Gbps with ECMP, 8.23 and 9.04 sprayed", x.gbps, slowest("none", x.k, x.routing), 0.01})
	}
	checkQuoted(t, e, runs, qs)
}

func TestPFCSpreadingFatTreeBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "pfc-spreading-fat-tree")
	victim := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return gbps(find(t, rs, alg).Sources[9]) }
	}
	checkQuoted(t, e, runs, []quoted{
		{"gets 3.25 Gbps of its 10", 3.25, victim("none"), 0.01},
		{"paused 68% of the", 68, func(rs []batch.RunSummary) float64 { return 100 * find(t, rs, "none").Sources[9].PausedFraction }, 0.01},
		{"it gets 7.30 Gbps", 7.30, victim("qcn"), 0.01},
		{"from all five switch tiers", 5, func(rs []batch.RunSummary) float64 {
			n := 0.0
			for _, tr := range find(t, rs, "none").Tiers {
				if tr.PauseFrames > 0 {
					n++
				}
			}
			return n
		}, 0},
		{"nobody is paused", 0, func(rs []batch.RunSummary) float64 { return pauses(find(t, rs, "qcn")) }, 0},
	})
	r := find(t, runs, "none")
	if len(r.Tiers) != 6 {
		t.Fatalf("%d tiers", len(r.Tiers))
	}
	for _, tr := range r.Tiers {
		if tr.Tier != "host" && tr.PauseFrames == 0 { // a host's NIC pauses no one
			t.Errorf("switch tier %s sent no pause frame under none: the spreading is not all the way", tr.Tier)
		}
	}
}

func TestDCQCNVsQCNBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "dcqcn-vs-qcn")
	at := func(alg, c, n string, f func(*batch.RunSummary) float64) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			return f(find(t, rs, alg, "network.capacity="+c, "sources.count="+n))
		}
	}
	qmean := func(r *batch.RunSummary) float64 { return r.Bottlenecks[0].QueueMean / 1e3 }
	qcnQueues := func(rs []batch.RunSummary) (lo, hi float64) {
		lo, hi = math.Inf(1), 0
		for i := range rs {
			if rs[i].Algorithm == "qcn" {
				lo, hi = min(lo, qmean(&rs[i])), max(hi, qmean(&rs[i]))
			}
		}
		return lo, hi
	}
	checkQuoted(t, e, runs, []quoted{
		{"213 to 215 KB", 213, func(rs []batch.RunSummary) float64 { lo, _ := qcnQueues(rs); return lo }, 0.005},
		{"213 to 215 KB", 215, func(rs []batch.RunSummary) float64 { _, hi := qcnQueues(rs); return hi }, 0.005},
		{"from 0.685 (5 sources, 10 Gbps)", 0.685, at("qcn", "10Gbps", "5", (*batch.RunSummary).Jain), 0.002},
		{"(16 KB with 2 sources at 10 Gbps", 16, at("dcqcn", "10Gbps", "2", qmean), 0.03},
		{"58 KB with 10 at 40 Gbps)", 58, at("dcqcn", "40Gbps", "10", qmean), 0.01},
		{"(queue std 71 KB with 10 sources at 40 Gbps)", 71, at("dcqcn", "40Gbps", "10", func(r *batch.RunSummary) float64 { return r.Bottlenecks[0].QueueStd / 1e3 }), 0.01},
		{"(utilization 0.969 there, 0.939 with 20 sources)", 0.969, at("dcqcn", "40Gbps", "10", func(r *batch.RunSummary) float64 { return r.Bottlenecks[0].Utilization }), 0.001},
		{"(utilization 0.969 there, 0.939 with 20 sources)", 0.939, at("dcqcn", "40Gbps", "20", func(r *batch.RunSummary) float64 { return r.Bottlenecks[0].Utilization }), 0.001},
	})
	for i := range runs {
		if r := &runs[i]; r.Algorithm == "qcn" && r.Bottlenecks[0].Utilization < 0.999 {
			t.Errorf("QCN at %v: utilization %.4f, the description says the link is full everywhere", r.Point, r.Bottlenecks[0].Utilization)
		}
		if r := &runs[i]; r.Algorithm == "dcqcn" && (r.Jain() < 0.98 || r.Jain() > 1) {
			t.Errorf("DCQCN at %v: Jain %.3f, the description says 0.98 to 1.0", r.Point, r.Jain())
		}
	}
}

// The description's two settings of DCQCN, at 40 Gbps and 10 sources.
func TestDCQCNVsQCNSettings(t *testing.T) {
	for _, c := range []struct {
		set       string
		std, util float64
	}{
		{"params.dcqcn.mark_on=enqueue", 73, 0.925},
		{"params.dcqcn.cnp_timing=drop", 43, 1.000},
	} {
		e, err := experiments.Builtin("dcqcn-vs-qcn")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"sources.count=10", "network.capacity=40Gbps", c.set} {
			if err := e.Set(s); err != nil {
				t.Fatal(err)
			}
		}
		e.Sweep = nil
		b := simulate(t, e, "dcqcn").Bottlenecks[0]
		quote := fmt.Sprintf("std %.0f KB, utilization %.3f", c.std, c.util)
		if !strings.Contains(strings.ReplaceAll(e.Description, "\n", " "), quote) {
			t.Errorf("the description does not say %q", quote)
		}
		if math.Abs(b.QueueStd/1e3-c.std) > 0.5 || math.Abs(b.Utilization-c.util) > 0.0005 {
			t.Errorf("%s: std %.1f KB, utilization %.4f; the description says %s", c.set, b.QueueStd/1e3, b.Utilization, quote)
		}
	}
}

// The description's stability boundaries: qcnlab stability dcqcn-vs-qcn
// --vary network.rtt --range 10us:1ms at 40 Gbps and 10 sources.
func TestDCQCNVsQCNStability(t *testing.T) {
	e, err := experiments.Builtin("dcqcn-vs-qcn")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"sources.count=10", "network.capacity=40Gbps"} {
		if err := e.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := stability.Search(context.Background(), e, stability.Options{Key: "network.rtt", Range: "10us:1ms"})
	if err != nil {
		t.Fatal(err)
	}
	q := rep.Find("qcn", "std>0.2qeq")
	if q == nil || q.Boundary == nil || math.Abs(*q.Boundary*1e6-165) > 165*0.01 || !strings.Contains(e.Description, "from 165 us") {
		t.Errorf("QCN's boundary: %+v, the description says 165 us", q)
	}
	if d := rep.Find("dcqcn", "empty>0.05"); d == nil || d.Boundary == nil || math.Abs(*d.Boundary*1e6-41) > 1 || !strings.Contains(e.Description, "from 41 us") {
		t.Errorf("DCQCN's idle boundary: %+v, the description says 41 us", d)
	}
	for _, c := range []string{"p95>1kmax", "swing>1band"} {
		if d := rep.Find("dcqcn", c); d == nil || d.Boundary == nil || d.Bracket[0] != nil || !strings.Contains(e.Description, "at the start of the range") {
			t.Errorf("DCQCN's %s boundary: %+v, the description says the start of the range", c, d)
		}
	}
}

func TestDCQCNIncastBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "dcqcn-incast")
	p := func(alg, n string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return pauses(find(t, rs, alg, "traffic.incast_senders="+n)) }
	}
	completion := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			c := find(t, rs, alg, "traffic.incast_senders=32").Flows.IncastCompletion
			if c == nil {
				return math.NaN()
			}
			return *c * 1e3
		}
	}
	checkQuoted(t, e, runs, []quoted{
		{"none leaves 1264, QCN 764 and DCQCN 71", 1264, p("none", "4"), 0},
		{"none leaves 1264, QCN 764 and DCQCN 71", 764, p("qcn", "4"), 0},
		{"none leaves 1264, QCN 764 and DCQCN 71", 71, p("dcqcn", "4"), 0},
		{"none 16242, QCN 6668 and DCQCN 2015", 16242, p("none", "32"), 0},
		{"none 16242, QCN 6668 and DCQCN 2015", 6668, p("qcn", "32"), 0},
		{"none 16242, QCN 6668 and DCQCN 2015", 2015, p("dcqcn", "32"), 0},
		{"25.6 ms for 32 senders", 25.6, completion("none"), 0.002},
		{"in 29.3 ms", 29.3, completion("dcqcn"), 0.002},
		{"leaves 6 of the 32 flows unfinished", 6, func(rs []batch.RunSummary) float64 {
			f := find(t, rs, "qcn", "traffic.incast_senders=32").Flows
			return float64(f.IncastFlows - *f.IncastCompleted)
		}, 0},
	})
}
