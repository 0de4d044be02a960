package algos

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// resolve looks a scheme up and resolves its values for network n.
var net1G2 = Network{Capacity: 1 * gbps, LineRate: 1 * gbps, Sources: 2, Buffer: 512e3, FrameBytes: 1500}

func newQCNT(t *testing.T, over Values) *QCNReactionPoint {
	t.Helper()
	s, _ := Lookup("qcn-t")
	rp := s.NewRP(RPEnv{Network: net1G2, LineRate: 1 * gbps, InitialRate: 1 * gbps,
		Rand: rand.New(rand.NewPCG(5, 6))}, resolve(t, "qcn-t", net1G2, over))
	return rp.(*QCNReactionPoint)
}

// TestQCNTDerivedDefaults checks seed 002 section VI: t is the time to send
// 150 KB at half the link (or at the fair share, timer_basis = fair_share),
// and HAI starts after 75 ms of timer cycles: (15 ms x 5)/t cycles, the ones
// after FR counted at t/2 when they are half as long.
func TestQCNTDerivedDefaults(t *testing.T) {
	fair := Values{"timer_basis": TimerBasisFairShare}
	for _, c := range []struct {
		name    string
		n       Network
		over    Values
		period  float64
		haiTh   float64
		rAI     float64
		comment string
	}{
		{"1G 2 sources", net1G2, nil, 2.4e-3, 57, 0.5e6, "the seed's case: 150*8/500 = 2.4 ms; 5 x 2.4 + 52 x 1.2 = 74.4 ms"},
		{"1G 10 sources", Network{Capacity: 1 * gbps, Sources: 10, Buffer: 512e3}, nil, 2.4e-3, 57, 0.5e6, "t fixed per link speed"},
		{"10G 5 sources", Network{Capacity: 10 * gbps, Sources: 5, Buffer: 150e3}, nil, 0.24e-3, 620, 5e6, "5 x 0.24 + 615 x 0.12 = 75 ms"},
		{"1G 2 sources whole cycles", net1G2, Values{"half_ai_cycles": 0}, 2.4e-3, 31, 0.5e6, "75/2.4 = 31.25"},
		{"1G 2 sources cycles onset", net1G2, Values{"hai_onset": HAIOnsetCycles}, 2.4e-3, 31, 0.5e6, "the formula as it reads"},
		{"1G 1 source fair share", Network{Capacity: 1 * gbps, Sources: 1, Buffer: 512e3}, fair, 1.2e-3, 120, 0.5e6, "5 x 1.2 + 115 x 0.6 = 75 ms"},
		{"10G 5 sources fair share", Network{Capacity: 10 * gbps, Sources: 5, Buffer: 150e3}, fair, 0.6e-3, 245, 5e6, "5 x 0.6 + 240 x 0.3 = 75 ms"},
		{"1G 10 sources fair share", Network{Capacity: 1 * gbps, Sources: 10, Buffer: 512e3}, fair, 12e-3, 7, 0.5e6, "5 x 12 + 2 x 6 = 72 ms"},
		{"1G 100 sources fair share", Network{Capacity: 1 * gbps, Sources: 100, Buffer: 512e3}, fair, 120e-3, 5, 0.5e6, "75/120 < 5: FR still lasts 5 cycles"},
	} {
		v := resolve(t, "qcn-t", c.n, c.over)
		if math.Abs(v["timer_period"]-c.period) > 1e-12 {
			t.Errorf("%s: timer_period %g, want %g", c.name, v["timer_period"], c.period)
		}
		if v["hai_threshold"] != c.haiTh {
			t.Errorf("%s: hai_threshold %g, want %g (%s)", c.name, v["hai_threshold"], c.haiTh, c.comment)
		}
		if math.Abs(v["r_ai"]-c.rAI) > 1e-6 || v["fast_recovery_th"] != 5 {
			t.Errorf("%s: r_ai %g fast_recovery_th %g", c.name, v["r_ai"], v["fast_recovery_th"])
		}
	}
	// The threshold follows an overridden period: t = 15 ms gives standard QCN's 5.
	if v := resolve(t, "qcn-t", net1G2, Values{"timer_period": 15e-3}); v["hai_threshold"] != 5 {
		t.Errorf("hai_threshold with t = 15 ms: %g, want 5", v["hai_threshold"])
	}
	s, _ := Lookup("qcn-t")
	if _, ok := s.Param("bc_limit"); ok {
		t.Error("QCN-T has no byte counter, yet a bc_limit parameter")
	}
	if _, err := s.Resolve(net1G2, Values{"hai_threshold": 3}); err == nil {
		t.Error("accepted an HAI threshold inside fast recovery")
	}
}

// TestQCNTHAIStartsAt75ms averages over the timer's jitter: the time from a feedback to the last cycle before HAI is 75 ms of
// timer cycles (less than one cycle short) with the default onset, whether
// or not AI cycles are halved, and 43 ms with hai_onset = cycles.
func TestQCNTHAIStartsAt75ms(t *testing.T) {
	for _, c := range []struct {
		name   string
		over   Values
		lo, hi float64 // seconds
	}{
		{"halved, time onset", nil, 0.0732, 0.075},
		{"whole cycles", Values{"half_ai_cycles": 0}, 0.0726, 0.075},
		{"halved, cycles onset", Values{"hai_onset": HAIOnsetCycles}, 0.042, 0.044},
	} {
		var sum float64
		const runs = 200
		for r := 0; r < runs; r++ {
			rp := newQCNT(t, c.over)
			rp.rand = rand.New(rand.NewPCG(uint64(r), 9))
			rp.Feedback(0, Feedback{CPID: 1, Fb: 8})
			th := int(resolve(t, "qcn-t", net1G2, c.over)["hai_threshold"])
			var at Time // when timer_scount reaches the threshold
			for _, ts := rp.Stages(); ts < th; _, ts = rp.Stages() {
				at = rp.Timer()
				rp.Expire(at)
			}
			sum += at.Seconds()
		}
		if mean := sum / runs; mean < c.lo || mean > c.hi {
			t.Errorf("%s: HAI threshold reached after %.2f ms of cycles, want %.1f-%.1f ms", c.name, mean*1e3, c.lo*1e3, c.hi*1e3)
		}
	}
}

func TestQCNTNoByteCounter(t *testing.T) {
	rp := newQCNT(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Fb: 16})
	cr := rp.Rate()
	for i := 0; i < 10000; i++ { // 15 MB: 100 byte-counter cycles of QCN
		if rp.Transmit(0, 1500, false) {
			t.Fatal("a transmitted frame changed the rate")
		}
	}
	if si, ts := rp.Stages(); si != 0 || ts != 0 || rp.Rate() != cr {
		t.Fatalf("stages %d/%d rate %g after sending, want 0/0 and %g", si, ts, rp.Rate(), cr)
	}
}

// TestQCNTStagesOnTheTimer walks the timer through FR (5 cycles of t),
// AI (cycles of t/2, TR += R_AI) and HAI past hai_threshold cycles
// (TR += i*R_HAI), seed 002 eqs. 3-5 and section VI.
func TestQCNTStagesOnTheTimer(t *testing.T) {
	rp := newQCNT(t, nil)
	const c = 1 * gbps
	period := Seconds(2.4e-3)
	rp.Feedback(Millisecond, Feedback{CPID: 1, Fb: 32}) // CR = C*(1 - 32/128), TR = C
	if rp.Timer() != Millisecond+period {
		t.Fatalf("first timer at %d, want now + t exactly (line 59)", rp.Timer())
	}
	cr, tr := rp.Rate(), rp.TargetRate()
	prev := Millisecond
	for i := 1; i <= 65; i++ {
		next := rp.Timer()
		gap := next - prev
		lo, hi := Time(0.85*float64(period)), Time(1.15*float64(period))+1
		switch {
		case i == 1:
			lo, hi = period, period
		case i > 5: // armed after timer_scount reached FAST_RECOVERY_TH
			lo, hi = lo/2, hi/2+1
		}
		if gap < lo || gap > hi {
			t.Errorf("cycle %d lasted %d ps, want [%d, %d]", i, gap, lo, hi)
		}
		rp.Expire(next)
		prev = next
		switch {
		case i <= 5: // FR: TR unchanged
		case i <= 57: // AI
			tr += 0.5e6
		default: // HAI: the (i-57)-th
			tr += 5e6 * float64(i-57)
		}
		cr = min((cr+tr)/2, c)
		if math.Abs(rp.TargetRate()-tr) > 1e-3 || math.Abs(rp.Rate()-cr) > 1e-3 {
			t.Fatalf("cycle %d: TR %g CR %g, want %g and %g", i, rp.TargetRate(), rp.Rate(), tr, cr)
		}
	}
}

func TestQCNTWholeCycles(t *testing.T) {
	rp := newQCNT(t, Values{"half_ai_cycles": 0})
	rp.Feedback(0, Feedback{Fb: 8})
	period := float64(Seconds(2.4e-3))
	for i := 1; i <= 20; i++ {
		before := rp.Timer()
		rp.Expire(before)
		gap := float64(rp.Timer() - before)
		if gap < 0.85*period-1 || gap > 1.15*period+1 {
			t.Fatalf("cycle %d: next gap %g ps, want 0.85..1.15 t", i+1, gap)
		}
	}
}

// TestQCNTFirstCycleRule: with no byte counter the first-cycle rule of lines
// 38-41 looks at the timer stage.
func TestQCNTFirstCycleRule(t *testing.T) {
	checkTimerFirstCycleRule(t, newQCNT(t, nil), 1*gbps)
}

// The one-line summary (qcnlab list, qcnlab algos) describes the default
// timer basis: 150 KB at half the link, 2.4 ms at 1 Gbps whatever the number
// of sources, not the fair-share pace, which is an option.
func TestQCNTSummaryNamesTheDefaultTimer(t *testing.T) {
	s, _ := Lookup("qcn-t")
	basis, _ := s.Param("timer_basis")
	if got := basis.Default(net1G2, nil); got != TimerBasisLink {
		t.Fatalf("timer_basis defaults to %g: the summary below describes link", got)
	}
	for _, sources := range []int{2, 10} {
		v := resolve(t, "qcn-t", Network{Capacity: 1 * gbps, Sources: sources, Buffer: 512e3}, nil)
		if math.Abs(v["timer_period"]-2.4e-3) > 1e-12 {
			t.Errorf("%d sources at 1 Gbps: t = %g, the summary says 2.4 ms", sources, v["timer_period"])
		}
	}
	for _, want := range []string{"150 KB at half the link", "2.4 ms at 1 Gbps, whatever the number of sources", "timer_basis = fair_share"} {
		if !strings.Contains(s.Summary, want) {
			t.Errorf("the summary %q does not say %q", s.Summary, want)
		}
	}
	if strings.Contains(s.Summary, "fair-share sampling pace") {
		t.Errorf("the summary %q gives the fair-share pace, which is not the default", s.Summary)
	}
}
