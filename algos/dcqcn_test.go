package algos

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// net40G is the paper's speed: at 40 Gbps the paper and ns3-rdma presets
// give their sources' numbers unscaled.
var net40G = Network{Capacity: 40 * gbps, LineRate: 40 * gbps, Sources: 2, Buffer: 12e6, FrameBytes: 1000}

func dcqcnValues(t *testing.T, n Network, over Values) Values {
	t.Helper()
	return resolve(t, "dcqcn", n, over)
}

func newDCQCNRP(t *testing.T, over Values) *DCQCNReactionPoint {
	t.Helper()
	return NewDCQCNReactionPoint(RPEnv{Network: net40G, LineRate: net40G.LineRate, InitialRate: net40G.LineRate,
		Rand: rand.New(rand.NewPCG(5, 6))}, dcqcnValues(t, net40G, over))
}

func newDCQCNCP(t *testing.T, n Network, over Values) CongestionPoint {
	t.Helper()
	return NewDCQCNCongestionPoint(CPEnv{Network: n, CPID: 1, Capacity: n.Capacity, Buffer: n.Buffer,
		Rand: rand.New(rand.NewPCG(1, 2))}, dcqcnValues(t, n, over))
}

func TestDCQCNRegistered(t *testing.T) {
	s, err := Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	if s.Display != "DCQCN" || s.NewCP == nil || s.NewRP == nil || s.NewNP == nil || len(s.Readings) == 0 {
		t.Errorf("scheme %+v", s)
	}
	if s.Params[0].Key != "preset" {
		t.Errorf("first parameter %q, want preset (the others' defaults read it)", s.Params[0].Key)
	}
}

// TestDCQCNPresets checks every preset's values at 40 Gbps against its
// source (paper sections 3.1 and 5; ns3-rdma mix/config.txt; HPCC run.py).
func TestDCQCNPresets(t *testing.T) {
	us := 1e-6
	want := map[string]Values{
		"paper": {
			"mark_on": DCQCNMarkOnDequeue, "k_min": 5e3, "k_max": 200e3, "p_max": 0.01, "k_per_port": 0,
			"cnp_interval": 50 * us, "cnp_timing": DCQCNCNPWindow,
			"g": 1.0 / 256, "initial_alpha": 1, "alpha_update": DCQCNAlphaPerCNP, "alpha_interval": 55 * us,
			"alpha_before_cut": 0, "rate_decrease_interval": 0, "clamp_target_rate": 1,
			"rp_timer": 55 * us, "byte_counter": 10e6, "fast_recovery_th": 5, "r_ai": 40e6, "r_hai": 200e6,
			"hyper_increase": DCQCNHyperQCN, "target_rate_reduction": 1, "min_rate": 100e6,
		},
		"ns3-rdma": {
			"mark_on": DCQCNMarkOnDequeue, "k_min": 41200, "k_max": 1030000, "p_max": 1, "k_per_port": 0,
			"cnp_interval": 50 * us, "cnp_timing": DCQCNCNPGrid,
			"g": 0.00390625, "initial_alpha": 0.5, "alpha_update": DCQCNAlphaPerCNP, "alpha_interval": 55 * us,
			"alpha_before_cut": 1, "rate_decrease_interval": 0, "clamp_target_rate": 1,
			"rp_timer": 60 * us, "byte_counter": 300e6, "fast_recovery_th": 4, "r_ai": 40e6, "r_hai": 200e6,
			"hyper_increase": DCQCNHyperQCN, "target_rate_reduction": 1, "min_rate": 100e6,
		},
		"hpcc": {
			"mark_on": DCQCNMarkOnDequeue, "k_min": 160e3, "k_max": 640e3, "p_max": 0.2, "k_per_port": 1,
			"cnp_interval": 0, "cnp_timing": DCQCNCNPWindow,
			"g": 0.00390625, "initial_alpha": 1, "alpha_update": DCQCNAlphaPeriodic, "alpha_interval": 1 * us,
			"alpha_before_cut": 0, "rate_decrease_interval": 4 * us, "clamp_target_rate": 0,
			"rp_timer": 300 * us, "byte_counter": 0, "fast_recovery_th": 1, "r_ai": 8e6, "r_hai": 80e6,
			"hyper_increase": DCQCNHyperTimer, "target_rate_reduction": 0, "min_rate": 1e9,
		},
		"hpcc-paper": {
			"mark_on": DCQCNMarkOnDequeue, "k_min": 160e3, "k_max": 640e3, "p_max": 0.2, "k_per_port": 1,
			"cnp_interval": 0, "cnp_timing": DCQCNCNPWindow,
			"g": 0.00390625, "initial_alpha": 1, "alpha_update": DCQCNAlphaPeriodic, "alpha_interval": 50 * us,
			"alpha_before_cut": 0, "rate_decrease_interval": 50 * us, "clamp_target_rate": 0,
			"rp_timer": 55 * us, "byte_counter": 0, "fast_recovery_th": 1, "r_ai": 8e6, "r_hai": 80e6,
			"hyper_increase": DCQCNHyperTimer, "target_rate_reduction": 0, "min_rate": 1e9,
		},
	}
	s, _ := Lookup("dcqcn")
	preset, _ := s.Param("preset")
	for name, w := range want {
		x, err := preset.ChoiceValue(name)
		if err != nil {
			t.Fatal(err)
		}
		v := dcqcnValues(t, net40G, Values{"preset": x})
		if len(w) != len(s.Params)-1 {
			t.Fatalf("%s: the table checks %d values of %d", name, len(w), len(s.Params)-1)
		}
		for k, x := range w {
			if !near(v[k], x) {
				t.Errorf("%s: %s = %g, want %g", name, k, v[k], x)
			}
		}
	}
}

// TestDCQCNHPCCRunPyTable checks the hpcc presets against the numbers
// run.py writes for its default 25 and 50 Gbps NICs (run.py:96-101):
// KMIN_MAP 100/200 KB, KMAX_MAP 400/800 KB, RATE_AI 5/10 Mbps, RATE_HAI
// 50/100 Mbps.
func TestDCQCNHPCCRunPyTable(t *testing.T) {
	for _, c := range []struct {
		bw                   float64
		kMin, kMax, ai, rHAI float64
	}{
		{25 * gbps, 100e3, 400e3, 5e6, 50e6},
		{50 * gbps, 200e3, 800e3, 10e6, 100e6},
		{100 * gbps, 400e3, 1600e3, 20e6, 200e6},
	} {
		n := Network{Capacity: c.bw, LineRate: c.bw, Sources: 2, Buffer: 32e6, FrameBytes: 1000}
		for _, p := range []float64{DCQCNPresetHPCC, DCQCNPresetHPCCPaper} {
			v := dcqcnValues(t, n, Values{"preset": p})
			if !near(v["k_min"], c.kMin) || !near(v["k_max"], c.kMax) || !near(v["r_ai"], c.ai) || !near(v["r_hai"], c.rHAI) {
				t.Errorf("preset %g at %g: k_min %g k_max %g r_ai %g r_hai %g, want %g %g %g %g",
					p, c.bw, v["k_min"], v["k_max"], v["r_ai"], v["r_hai"], c.kMin, c.kMax, c.ai, c.rHAI)
			}
		}
	}
}

func TestDCQCNExplicitValuesBeatThePreset(t *testing.T) {
	over := Values{"preset": DCQCNPresetHPCC, "g": 1.0 / 16, "k_min": 7e3, "mark_on": DCQCNMarkOnEnqueue,
		"rate_decrease_interval": 0, "r_ai": 1e6}
	v := dcqcnValues(t, net40G, over)
	for k, x := range over {
		if v[k] != x {
			t.Errorf("%s = %g, want the explicit %g", k, v[k], x)
		}
	}
	// The others still come from the preset; r_hai follows the explicit
	// r_ai with the preset's ratio (10 for hpcc, 5 for the paper).
	if v["k_max"] != 640e3 || v["rp_timer"] != 300e-6 || v["r_hai"] != 10e6 {
		t.Errorf("k_max %g rp_timer %g r_hai %g, want hpcc's 640e3, 300e-6 and 10 x r_ai", v["k_max"], v["rp_timer"], v["r_hai"])
	}
	if v := dcqcnValues(t, net40G, Values{"r_ai": 1e6}); v["r_hai"] != 5e6 {
		t.Errorf("paper r_hai with r_ai 1 Mbps = %g, want 5e6", v["r_hai"])
	}
}

// TestDCQCNScalesWithCapacity: thresholds follow the bottleneck capacity,
// rate steps the sources' line rate; nothing else moves.
func TestDCQCNScalesWithCapacity(t *testing.T) {
	n := Network{Capacity: 10 * gbps, LineRate: 100 * gbps, Sources: 2, Buffer: 1e6, FrameBytes: 1000}
	v := dcqcnValues(t, n, nil)
	for _, c := range []struct {
		key  string
		want float64
	}{
		{"k_min", 1250}, {"k_max", 50e3}, // a quarter of 40 Gbps
		{"r_ai", 100e6}, {"r_hai", 500e6}, // 2.5 times 40 Gbps
		{"min_rate", 100e6}, {"rp_timer", 55e-6}, {"byte_counter", 10e6}, {"cnp_interval", 50e-6}, {"alpha_interval", 55e-6},
	} {
		if !near(v[c.key], c.want) {
			t.Errorf("%s = %g, want %g", c.key, v[c.key], c.want)
		}
	}
	n.LineRate = 0 // no line rate: the steps follow the capacity
	if v := dcqcnValues(t, n, nil); !near(v["r_ai"], 10e6) {
		t.Errorf("r_ai without a line rate = %g, want 10e6", v["r_ai"])
	}
	// Thresholds are whole bytes.
	n.Capacity = 1.7 * gbps
	if v := dcqcnValues(t, n, nil); v["k_min"] != math.Round(v["k_min"]) || v["k_min"] != 213 {
		t.Errorf("k_min at 1.7 Gbps = %g, want 213", v["k_min"])
	}
}

func TestDCQCNResolveRejectsBadValues(t *testing.T) {
	s, _ := Lookup("dcqcn")
	for _, over := range []Values{
		{"k_min": 300e3}, // above k_max
		{"p_max": 1.5}, {"g": -1}, {"preset": 4}, {"mark_on": 2}, {"initial_alpha": 2},
		{"rp_timer": 0}, {"alpha_interval": 0}, {"min_rate": 0}, {"fast_recovery_th": 1.5},
	} {
		if _, err := s.Resolve(net40G, over); err == nil {
			t.Errorf("Resolve(%v) accepted", over)
		}
	}
	// K_min = K_max is DCTCP's step (paper 3.1).
	if _, err := s.Resolve(net40G, Values{"k_min": 100e3, "k_max": 100e3, "p_max": 1}); err != nil {
		t.Error(err)
	}
}

// TestDCQCNMarkProbability checks the RED curve (paper figure 5) at and
// around its boundaries, strict as both ns-3 codes are.
func TestDCQCNMarkProbability(t *testing.T) {
	m := &DCQCNMarker{kMin: 5e3, kMax: 200e3, pMax: 0.01}
	for _, c := range []struct{ q, want float64 }{
		{0, 0}, {4999, 0}, {5000, 0}, // none at or below K_min
		{5001, 0.01 * 1 / 195e3},
		{102500, 0.005},       // half way: P_max/2
		{200e3, 0.01},         // P_max at K_max itself
		{200001, 1}, {1e9, 1}, // every frame above K_max
	} {
		if got := m.MarkProbability(c.q); !near(got, c.want) {
			t.Errorf("p(%g) = %g, want %g", c.q, got, c.want)
		}
	}
	step := &DCQCNMarker{kMin: 50e3, kMax: 50e3, pMax: 1} // K_min = K_max: DCTCP's step
	if step.MarkProbability(50e3) != 0 || step.MarkProbability(50001) != 1 {
		t.Error("K_min = K_max is not a step at K")
	}
}

// TestDCQCNMarkingStatistics marks many frames with a fixed seed at each
// level and compares the fraction marked with the curve.
func TestDCQCNMarkingStatistics(t *testing.T) {
	const frames = 200000
	over := Values{"p_max": 0.2, "mark_on": DCQCNMarkOnEnqueue} // p_max large enough to measure well
	for _, c := range []struct {
		q    int
		want float64
	}{
		{0, 0}, {5000, 0}, {102500, 0.1}, {200000, 0.2}, {151250, 0.15}, {200001, 1},
	} {
		cp := newDCQCNCP(t, net40G, over).(*DCQCNCongestionPoint)
		marked := 0
		for i := 0; i < frames; i++ {
			f := Frame{Bytes: 1000}
			cp.Arrive(0, &f, c.q, &Feedback{})
			if f.ECN {
				marked++
			}
		}
		got := float64(marked) / frames
		sigma := math.Sqrt(c.want * (1 - c.want) / frames)
		if math.Abs(got-c.want) > 5*sigma+1e-12 {
			t.Errorf("q %d: marked %.4f, want %.4f +- %.4f", c.q, got, c.want, 5*sigma)
		}
	}
}

func TestDCQCNMarkOnEnqueueOrDequeue(t *testing.T) {
	if _, ok := newDCQCNCP(t, net40G, nil).(DepartingCP); !ok {
		t.Error("the default CP does not mark on dequeue")
	}
	enq := newDCQCNCP(t, net40G, Values{"mark_on": DCQCNMarkOnEnqueue})
	if _, ok := enq.(DepartingCP); ok {
		t.Error("the enqueue CP implements DepartingCP: the simulator would pay for Depart")
	}
	f := Frame{Bytes: 1000}
	if enq.Arrive(0, &f, 300e3, &Feedback{}) || !f.ECN {
		t.Errorf("enqueue: above K_max the arriving frame is not marked (or feedback sent): %+v", f)
	}

	deq := newDCQCNCP(t, net40G, nil)
	d, ok := deq.(DepartingCP)
	if !ok {
		t.Fatal("the dequeue CP does not implement DepartingCP")
	}
	f = Frame{Bytes: 1000}
	if d.Arrive(0, &f, 300e3, &Feedback{}) || f.ECN {
		t.Error("dequeue: marked or answered on arrival")
	}
	d.Depart(0, &f, 5e3) // the queue it leaves: at K_min, never marked
	if f.ECN {
		t.Error("dequeue: a frame leaving K_min behind was marked")
	}
	d.Depart(0, &f, 300e3)
	if !f.ECN {
		t.Error("dequeue: a frame leaving 300 KB behind is not marked")
	}
	// A mark from upstream stays.
	h := Frame{Bytes: 1000, ECN: true}
	d.Depart(0, &h, 0)
	if !h.ECN {
		t.Error("an upstream mark was cleared")
	}
}

func TestDCQCNThresholdsPerPort(t *testing.T) {
	n := Network{Capacity: 25 * gbps, LineRate: 25 * gbps, Sources: 2, Buffer: 32e6, FrameBytes: 1000}
	for _, c := range []struct {
		over       Values
		kMin, kMax float64
	}{
		{Values{"preset": DCQCNPresetHPCC}, 400e3, 1600e3},                 // a 100 Gbps uplink: 4 x the 25 Gbps values (run.py:96-97)
		{Values{"preset": DCQCNPresetHPCC, "k_per_port": 0}, 100e3, 400e3}, // one pair for all
		{Values{"k_per_port": 1}, math.Round(5e3 * 25 / 40 * 4), 500e3},    // the paper's, scaled per port
		{Values{"preset": DCQCNPresetHPCC, "k_min": 1e3}, 4e3, 1600e3},     // an explicit value is the one at the bottleneck
	} {
		cp := NewDCQCNCongestionPoint(CPEnv{Network: n, CPID: 2, Capacity: 100 * gbps, Buffer: 32e6,
			Rand: rand.New(rand.NewPCG(1, 1))}, dcqcnValues(t, n, c.over))
		var kMin, kMax float64
		switch cp := cp.(type) {
		case *DCQCNCongestionPoint:
			kMin, kMax = cp.Thresholds()
		case *DCQCNDequeueCongestionPoint:
			kMin, kMax = cp.Thresholds()
		}
		if kMin != c.kMin || kMax != c.kMax {
			t.Errorf("%v: thresholds %g, %g, want %g, %g", c.over, kMin, kMax, c.kMin, c.kMax)
		}
	}
}

// npStep is one frame at a notification point and whether a CNP must go.
type npStep struct {
	at     Time
	marked bool
	cnp    bool
	hold   Time // the CNP leaves the receiver this long after the frame
}

func runNP(t *testing.T, name string, np *DCQCNNotificationPoint, steps []npStep) {
	t.Helper()
	for i, s := range steps {
		var fb Feedback
		f := Frame{Source: 3, Bytes: 1000, Sent: s.at - 7, ECN: s.marked}
		got := np.Receive(s.at, &f, &fb)
		if got != s.cnp {
			t.Errorf("%s: frame %d at %v (marked %v): CNP %v, want %v", name, i, s.at, s.marked, got, s.cnp)
		}
		if got && (fb.Fb != 1 || fb.Sent != f.Sent || fb.CPID != 0 || fb.Hold != s.hold) {
			t.Errorf("%s: frame %d at %v: CNP %+v, want hold %v", name, i, s.at, fb, s.hold)
		}
	}
}

// TestDCQCNNotificationPointWindow checks the default NP, line by line: one
// CNP per window of N in which a mark came. The first mark after a quiet N
// sends at once and opens a window; a later mark in it makes one CNP due at
// its end, which opens the next window (htsim's DCQCNSink).
func TestDCQCNNotificationPointWindow(t *testing.T) {
	us := Microsecond
	np := NewDCQCNNotificationPoint(NPEnv{Network: net40G, Flow: 3}, dcqcnValues(t, net40G, nil))
	runNP(t, "window", np, []npStep{
		{0, false, false, 0},                // unmarked: never
		{10 * us, false, false, 0},          //
		{20 * us, true, true, 0},            // first mark: at once; window [20, 70)
		{21 * us, true, true, 49 * us},      // a mark inside: one CNP due at 70
		{30 * us, true, false, 0},           // covered by the CNP due at 70
		{69*us + 999, true, false, 0},       // 1 ps short of 70: still covered
		{70 * us, true, true, 50 * us},      // at 70 the due CNP has gone: window [70, 120), its CNP due at 120
		{100 * us, false, false, 0},         // unmarked
		{130 * us, false, false, 0},         // unmarked after the window: nothing due
		{500 * us, true, true, 0},           // a quiet flow: at once
		{549 * us, false, false, 0},         //
		{550 * us, true, true, 0},           // exactly N after the last CNP: at once
		{551 * us, true, true, 49 * us},     // and the next due at 600
		{600*us + 1, true, true, 50*us - 1}, // after it: due at 650
	})
	// cnp_interval 0: every marked frame (HPCC's per-ACK flag).
	np = NewDCQCNNotificationPoint(NPEnv{Network: net40G, Flow: 3}, dcqcnValues(t, net40G, Values{"cnp_interval": 0}))
	runNP(t, "every mark", np, []npStep{
		{0, true, true, 0}, {0, true, true, 0}, {1, false, false, 0}, {2, true, true, 0},
	})
}

// TestDCQCNNotificationPointDrop checks the reading that drops the marks
// within N of the last CNP: the first mark sends at once, marks within N
// send nothing then or later, a mark N or more after it sends again.
func TestDCQCNNotificationPointDrop(t *testing.T) {
	us := Microsecond
	np := NewDCQCNNotificationPoint(NPEnv{Network: net40G, Flow: 3}, dcqcnValues(t, net40G, Values{"cnp_timing": DCQCNCNPDrop}))
	runNP(t, "drop", np, []npStep{
		{0, false, false, 0},          // unmarked: never
		{20 * us, true, true, 0},      // first mark: at once
		{21 * us, true, false, 0},     // within 50 us of the last CNP: none
		{69*us + 999, true, false, 0}, // 1 ps short of 50 us
		{70 * us, true, true, 0},      // 50 us after the last CNP: again
		{130 * us, false, false, 0},   // unmarked after the interval: still none
		{500 * us, true, true, 0},     // an idle flow: the mark goes at once
		{549 * us, true, false, 0},    //
		{600 * us, true, true, 0},     // measured from the last CNP (500), not from the last mark
	})
}

// TestDCQCNNotificationPointGrid checks ns3-rdma's timing: windows of N
// from the flow's first frame, a CNP at the end of each window that saw a
// mark.
func TestDCQCNNotificationPointGrid(t *testing.T) {
	us := Microsecond
	v := dcqcnValues(t, net40G, Values{"cnp_timing": DCQCNCNPGrid})
	np := NewDCQCNNotificationPoint(NPEnv{Network: net40G, Flow: 3}, v)
	runNP(t, "grid", np, []npStep{
		{10 * us, false, false, 0},      // the first frame starts the windows: [10, 60), [60, 110), ...
		{20 * us, true, true, 40 * us},  // a mark: the window's CNP, due at its end, 60
		{30 * us, true, false, 0},       // the same window
		{60 * us, false, false, 0},      // unmarked
		{115 * us, false, false, 0},     // nothing marked in [60, 110): no CNP
		{170 * us, true, true, 40 * us}, // [160, 210): due at 210
		{210 * us, true, true, 50 * us}, // the end belongs to the next window, [210, 260)
		{400 * us, true, true, 10 * us}, // [360, 410)
	})
	np = NewDCQCNNotificationPoint(NPEnv{Network: net40G, Flow: 3}, v)
	runNP(t, "grid, first frame marked", np, []npStep{
		{5 * us, true, true, 0},        // a marked first frame is checked at once (qbb-net-device.cc:515)
		{6 * us, true, true, 49 * us},  // then the window [5, 55): its CNP at 55
		{55 * us, true, true, 50 * us}, // [55, 105)
	})
}

// TestDCQCNClosedLoop puts N reaction points, a queue draining at a fixed
// capacity with the CP on it, and a notification point per flow in a loop.
// Under the paper's values the queue settles between K_min and K_max with
// the link busy and the flows sharing it. The other presets keep the link
// busy and the queue below K_max, but their cuts (HPCC's halving every 4 us
// with alpha near 1, ns3-rdma's) swing the queue around K_min, whose mean
// they end up below: that is checked as such, not hidden.
func TestDCQCNClosedLoop(t *testing.T) {
	for _, c := range []struct {
		name     string
		over     Values
		sources  int
		settleIn bool // the mean queue lies between K_min and K_max
	}{
		{"paper", nil, 2, true},
		{"paper 8 sources", nil, 8, true},
		{"paper enqueue", Values{"mark_on": DCQCNMarkOnEnqueue}, 4, true},
		{"paper grid NP", Values{"cnp_timing": DCQCNCNPGrid}, 4, true},
		{"paper drop NP", Values{"cnp_timing": DCQCNCNPDrop}, 4, true},
		{"ns3-rdma", Values{"preset": DCQCNPresetNS3RDMA}, 4, false},
		{"hpcc", Values{"preset": DCQCNPresetHPCC}, 4, false},
		{"hpcc-paper", Values{"preset": DCQCNPresetHPCCPaper}, 4, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := dcqcnValues(t, net40G, c.over)
			r := dcqcnLoop(v, c.sources, 20*Microsecond, 60*Millisecond, 20*Millisecond)
			t.Logf("queue mean %.0f B, max %d B (K_min %g, K_max %g), above K_min %.2f of the time, utilization %.4f, Jain %.3f, %d CNPs",
				r.meanQ, r.maxQ, v["k_min"], v["k_max"], r.aboveKMin, r.util, r.jain, r.cnps)
			if c.settleIn && (r.meanQ <= v["k_min"] || r.meanQ >= v["k_max"]) {
				t.Errorf("queue mean %.0f B outside (K_min, K_max) = (%g, %g)", r.meanQ, v["k_min"], v["k_max"])
			}
			if c.settleIn && r.jain < 0.95 {
				t.Errorf("Jain index %.3f", r.jain)
			}
			if r.meanQ >= v["k_max"] || r.aboveKMin == 0 || r.cnps == 0 {
				t.Errorf("the loop did not hold the queue below K_max with marks")
			}
			if r.util < 0.95 {
				t.Errorf("utilization %.4f", r.util)
			}
		})
	}
}

type dcqcnLoopResult struct {
	meanQ, aboveKMin, util, jain float64
	maxQ, cnps                   int
}

// dcqcnLoop runs the closed loop at net40G: greedy sources at line rate,
// 1000 B frames, no forward delay, CNPs back after rtt, a rate change
// applied from a source's next frame. It measures over [warmup, end).
func dcqcnLoop(v Values, n int, rtt, end, warmup Time) dcqcnLoopResult {
	const frame = 1000
	capacity := net40G.Capacity
	cp := NewDCQCNCongestionPoint(CPEnv{Network: net40G, CPID: 1, Capacity: capacity, Buffer: 1e9,
		Rand: rand.New(rand.NewPCG(7, 7))}, v)
	dcp, _ := cp.(DepartingCP)
	rps := make([]*DCQCNReactionPoint, n)
	nps := make([]*DCQCNNotificationPoint, n)
	next := make([]Time, n)
	bytes := make([]float64, n)
	for i := range rps {
		rps[i] = NewDCQCNReactionPoint(RPEnv{Network: net40G, LineRate: capacity, InitialRate: capacity,
			Rand: rand.New(rand.NewPCG(8, uint64(i)))}, v)
		nps[i] = NewDCQCNNotificationPoint(NPEnv{Network: net40G, Flow: i}, v)
		next[i] = Time(i) * Nanosecond
	}
	type cnp struct {
		at  Time
		src int
	}
	var queue []Frame
	var cnps []cnp
	var r dcqcnLoopResult
	qlen, departAt := 0, Never
	var now, span, above Time
	var qSum float64
	for now < end {
		// The next event; ties: sources, departure, timers, CNPs.
		at, kind, who := Never, 0, 0
		for i, x := range next {
			if x < at {
				at, kind, who = x, 0, i
			}
		}
		if departAt < at {
			at, kind = departAt, 1
		}
		for i, rp := range rps {
			if x := rp.Timer(); x < at {
				at, kind, who = x, 2, i
			}
		}
		if len(cnps) > 0 && cnps[0].at < at {
			at, kind, who = cnps[0].at, 3, cnps[0].src
		}
		if at > warmup {
			d := at - max(now, warmup)
			qSum += float64(qlen) * float64(d)
			span += d
			if float64(qlen) > v["k_min"] {
				above += d
			}
			r.maxQ = max(r.maxQ, qlen)
		}
		now = at
		var fb Feedback
		switch kind {
		case 0: // a frame leaves source who and joins the queue
			f := Frame{Source: who, Bytes: frame, Sent: now}
			qlen += frame
			cp.Arrive(now, &f, qlen, &fb)
			queue = append(queue, f)
			if departAt == Never {
				departAt = now + TransmitTime(frame, capacity)
			}
			rps[who].Transmit(now, frame, false)
			next[who] = now + TransmitTime(frame, rps[who].Rate())
		case 1: // the head of the queue finishes leaving
			f := queue[0]
			queue = queue[1:]
			qlen -= f.Bytes
			if dcp != nil {
				dcp.Depart(now, &f, qlen)
			}
			if now > warmup {
				bytes[f.Source] += float64(f.Bytes)
			}
			if nps[f.Source].Receive(now, &f, &fb) {
				// A CNP held to its window's end may leave after later ones.
				c := cnp{now + fb.Hold + rtt, f.Source}
				k := len(cnps)
				for k > 0 && cnps[k-1].at > c.at {
					k--
				}
				cnps = slices.Insert(cnps, k, c)
				r.cnps++
			}
			departAt = Never
			if len(queue) > 0 {
				departAt = now + TransmitTime(queue[0].Bytes, capacity)
			}
		case 2:
			rps[who].Expire(now)
		case 3:
			cnps = cnps[1:]
			rps[who].Feedback(now, Feedback{Fb: 1})
		}
	}
	var sum, sq float64
	for _, b := range bytes {
		sum += b
		sq += b * b
	}
	r.meanQ = qSum / float64(span)
	r.aboveKMin = float64(above) / float64(span)
	r.util = sum * 8 / (capacity * (end - warmup).Seconds())
	r.jain = sum * sum / (float64(n) * sq)
	return r
}
