package algos

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

const gbps = 1e9

var net10G = Network{Capacity: 10 * gbps, LineRate: 10 * gbps, Sources: 2, Buffer: 150e3, FrameBytes: 1500}

func newCP(t *testing.T, over Values) *QCNCongestionPoint {
	return NewQCNCongestionPoint(CPEnv{Network: net10G, CPID: 1, Capacity: 10 * gbps, Buffer: 150e3,
		Rand: rand.New(rand.NewPCG(1, 2))}, resolve(t, "qcn", net10G, over))
}

func newRP(t *testing.T, over Values) *QCNReactionPoint {
	return NewQCNReactionPoint(RPEnv{Network: net10G, LineRate: 10 * gbps, InitialRate: 10 * gbps,
		Rand: rand.New(rand.NewPCG(3, 4))}, resolve(t, "qcn", net10G, over))
}

func TestQCNDefaultsScaleWithCapacity(t *testing.T) {
	v10 := resolve(t, "qcn", net10G, nil)
	one := net10G
	one.Capacity = 1 * gbps
	v1 := resolve(t, "qcn", one, nil)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"r_ai at 10G", v10["r_ai"], 5e6},
		{"r_hai at 10G", v10["r_hai"], 50e6},
		{"r_ai at 1G", v1["r_ai"], 0.5e6},
		{"r_hai at 1G", v1["r_hai"], 5e6},
		{"q_eq is 20% of the buffer", v10["q_eq"], 30e3},
		{"gd", v10["gd"], 1.0 / 128},
		{"bc_limit", v10["bc_limit"], 150e3},
	} {
		if math.Abs(c.got-c.want) > 1e-9*math.Abs(c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	// R_HAI follows an overridden R_AI.
	v := resolve(t, "qcn", net10G, Values{"r_ai": 1e6})
	if v["r_hai"] != 10e6 {
		t.Errorf("r_hai with r_ai=1Mbps = %g, want 10e6", v["r_hai"])
	}
}

func TestQCNResolveRejectsBadValues(t *testing.T) {
	s, _ := Lookup("qcn")
	for _, over := range []Values{{"nope": 1}, {"gd": -1}, {"gd": 2}, {"fast_recovery_th": 2.5}, {"literal_activation": 3}, {"q_eq": 0}} {
		if _, err := s.Resolve(net10G, over); err == nil {
			t.Errorf("Resolve(%v) accepted", over)
		}
	}
}

func TestQCNFbAndClamp(t *testing.T) {
	cp := newCP(t, Values{"q_eq": 33e3})
	// Fb = (Q_EQ - qlen) - W*(qlen - qlen_old), qlen_old = 0 at start.
	if got := cp.Fb(10e3); got != 0 {
		t.Errorf("Fb below Q_EQ with slow growth = %g, want clamped to 0", got)
	}
	if got, want := cp.Fb(20e3), (33e3-20e3)-2*20e3; got != want {
		t.Errorf("Fb(20KB) = %g, want %g", got, want)
	}
	if got, want := cp.Fb(1e6), -33e3*5; got != want {
		t.Errorf("Fb(1MB) = %g, want clamped to -Q_EQ(2W+1) = %g", got, want)
	}
}

func TestQCNQuantizeSixBits(t *testing.T) {
	cp := newCP(t, Values{"q_eq": 33e3})
	fbMax := 33e3 * 5
	for _, c := range []struct {
		fb   float64
		want int
	}{
		{0, 0},
		{-fbMax / 64 * 0.99, 0},
		{-fbMax / 64, 1},
		{-fbMax / 2, 32},
		{-fbMax * 63 / 64, 63},
		{-fbMax, 63}, // the top of the range stays in 6 bits
	} {
		if got := cp.Quantize(c.fb); got != c.want {
			t.Errorf("Quantize(%g) = %d, want %d", c.fb, got, c.want)
		}
	}
}

// TestQCNSampling checks the byte counter of lines 171-181: the first sample
// comes after Mark_Table(0) bytes, later ones after 0.85..1.15 times the
// table entry for the qntz_Fb seen at the sample.
func TestQCNSampling(t *testing.T) {
	for idx, want := range qcnMarkTable {
		cp := newCP(t, Values{"q_eq": 33e3})
		fbMax := 33e3 * 5
		// A queue standing still (qlen == qlen_old after the first
		// sample) at the level whose qntz_Fb is 8*idx+4.
		qntz := 8*idx + 4
		qlen := 33e3 + (float64(qntz)+0.5)*fbMax/64
		cp.qlenOld = qlen
		frames, samples := 0, 0
		var gaps []int
		last := 0
		for samples < 200 {
			frames++
			var fb Feedback
			sent := cp.Arrive(0, &Frame{Source: 0, Bytes: 1000}, int(qlen), &fb)
			if sent {
				if int(fb.Fb) != qntz {
					t.Fatalf("idx %d: feedback fb = %g, want %d", idx, fb.Fb, qntz)
				}
				if fb.CPID != 1 || fb.Qoff != 33e3-float64(int(qlen)) {
					t.Fatalf("idx %d: feedback %+v", idx, fb)
				}
				samples++
				gaps = append(gaps, frames-last)
				last = frames
			}
		}
		// The first gap is Mark_Table(0) = 150 KB of 1 KB frames.
		if gaps[0] != 151 {
			t.Errorf("idx %d: first sample after %d frames, want 151", idx, gaps[0])
		}
		lo, hi := int(0.85*want/1000), int(1.15*want/1000)+1
		sum := 0
		for _, g := range gaps[1:] {
			if g < lo || g > hi {
				t.Fatalf("idx %d: gap %d frames outside [%d, %d]", idx, g, lo, hi)
			}
			sum += g
		}
		mean := float64(sum) / float64(len(gaps)-1) * 1000
		if math.Abs(mean-want)/want > 0.05 {
			t.Errorf("idx %d: mean sampling interval %.0f B, want about %.0f B", idx, mean, want)
		}
	}
}

func TestQCNNoFeedbackWhenFbZero(t *testing.T) {
	cp := newCP(t, Values{"q_eq": 33e3})
	cp.qlenOld = 20e3
	// qlen 20 KB below Q_EQ and steady: Fb > 0 clamps to 0, so samples
	// are taken every 150 KB but no feedback is ever sent.
	for i := 0; i < 10000; i++ {
		if cp.Arrive(0, &Frame{Bytes: 1500}, 20e3, &Feedback{}) {
			t.Fatalf("frame %d: feedback sent with qntz_Fb = 0", i)
		}
	}
	if cp.timeToMark > 1.15*150e3 || cp.timeToMark < 0 {
		t.Errorf("time_to_mark %g not drawn from Mark_Table(0)", cp.timeToMark)
	}
}

func TestQCNFeedbackCarriesQdelta(t *testing.T) {
	cp := newCP(t, Values{"q_eq": 33e3})
	// Cross the first sample at a rising queue: qdelta is qlen - qlen_old
	// measured before line 177 overwrites qlen_old.
	var fb Feedback
	var sent bool
	for i := 0; !sent; i++ {
		sent = cp.Arrive(0, &Frame{Bytes: 1500}, 100e3, &fb)
	}
	if fb.Qdelta != 100e3 || fb.Qoff != 33e3-100e3 {
		t.Errorf("feedback qdelta %g qoff %g, want 100e3 and %g", fb.Qdelta, fb.Qoff, 33e3-100e3)
	}
}

func TestQCNActivationAndDecrease(t *testing.T) {
	rp := newRP(t, nil)
	if rp.Active() || rp.Rate() != 10*gbps || rp.Timer() != Never {
		t.Fatalf("initial state: active %v rate %g timer %d", rp.Active(), rp.Rate(), rp.Timer())
	}
	rp.Feedback(0, Feedback{Fb: 0, Qoff: -1})
	if rp.Active() {
		t.Fatal("activated on fb = 0")
	}
	rp.Feedback(5*Microsecond, Feedback{CPID: 3, Fb: 32, Qoff: -10e3})
	if !rp.Active() {
		t.Fatal("not activated on fb != 0 with qoff < 0 (SPEC point 1)")
	}
	want := 10 * gbps * (1 - 32.0/128)
	if rp.Rate() != want || rp.TargetRate() != 10*gbps {
		t.Errorf("after first feedback CR %g TR %g, want %g and line rate", rp.Rate(), rp.TargetRate(), want)
	}
	if rp.Timer() != 5*Microsecond+10*Millisecond {
		t.Errorf("timer %d, want now + TIMER_PERIOD", rp.Timer())
	}
	if rp.CPID() != 3 {
		t.Errorf("CPID %d, want 3", rp.CPID())
	}
}

func TestQCNLiteralActivation(t *testing.T) {
	rp := newRP(t, Values{"literal_activation": 1})
	rp.Feedback(0, Feedback{Fb: 32, Qoff: -10e3})
	if rp.Active() {
		t.Fatal("literal line 19: activated with qoff <= 0")
	}
	rp.Feedback(0, Feedback{Fb: 32, Qoff: 10e3})
	if !rp.Active() {
		t.Fatal("literal line 19: not activated with fb != 0 and qoff > 0")
	}
}

func TestQCNMinDecFactorAndMinRate(t *testing.T) {
	rp := newRP(t, Values{"gd": 0.5})
	rp.Feedback(0, Feedback{Fb: 63})
	if rp.Rate() != 10*gbps*0.5 {
		t.Errorf("decrease not limited by MIN_DEC_FACTOR: %g", rp.Rate())
	}
	for i := 0; i < 20; i++ {
		rp.Feedback(0, Feedback{Fb: 63})
	}
	if rp.Rate() != 10e6 {
		t.Errorf("rate %g, want MIN_RATE 10 Mbps", rp.Rate())
	}
}

// sendCycles transmits frames until the byte counter completes n cycles.
func sendCycles(rp *QCNReactionPoint, n int) {
	start, _ := rp.Stages()
	for {
		if s, _ := rp.Stages(); s >= start+n {
			return
		}
		rp.Transmit(0, 1500, false)
	}
}

func TestQCNFastRecoveryAndFirstCycleRule(t *testing.T) {
	rp := newRP(t, nil)
	rp.Feedback(0, Feedback{Fb: 64}) // CR = C/2 (MIN_DEC_FACTOR), TR = C
	c := 10 * gbps
	if rp.Rate() != c/2 {
		t.Fatalf("CR %g", rp.Rate())
	}
	// A second feedback in the first cycle (si_count == 0) keeps TR.
	rp.Feedback(0, Feedback{Fb: 32})
	if rp.TargetRate() != c {
		t.Errorf("first-cycle feedback reset TR to %g", rp.TargetRate())
	}
	cr := rp.Rate()
	// Fast recovery: CR = (CR + TR)/2 each cycle, TR unchanged.
	for i := 1; i <= 5; i++ {
		sendCycles(rp, 1)
		cr = (cr + c) / 2
		if math.Abs(rp.Rate()-cr) > 1 || rp.TargetRate() != c {
			t.Fatalf("FR cycle %d: CR %g TR %g, want %g and %g", i, rp.Rate(), rp.TargetRate(), cr, c)
		}
	}
	// Now past the first cycle: a feedback sets TR = CR.
	rp.Feedback(0, Feedback{Fb: 8})
	if math.Abs(rp.TargetRate()-cr) > 1 {
		t.Errorf("feedback after FR: TR %g, want previous CR %g", rp.TargetRate(), cr)
	}
}

func TestQCNByteCounterCycleLengths(t *testing.T) {
	rp := newRP(t, nil)
	rp.Feedback(0, Feedback{Fb: 8})
	// Count bytes per cycle: full BC_LIMIT (randomised) while si_count <
	// FAST_RECOVERY_TH, half after (lines 117-121). The very first cycle
	// is exactly BC_LIMIT (line 25 / 40).
	var lens []int
	bytes := 0
	for len(lens) < 40 {
		before, _ := rp.Stages()
		rp.Transmit(0, 100, false)
		bytes += 100
		if after, _ := rp.Stages(); after != before {
			lens = append(lens, bytes)
			bytes = 0
		}
	}
	if lens[0] != 150100 {
		t.Errorf("first cycle %d bytes, want BC_LIMIT + one frame", lens[0])
	}
	for i, l := range lens[1:] {
		stage := i + 1 // si_count when this cycle started
		lo, hi := 0.85*150e3, 1.15*150e3+100
		if stage >= 5 {
			lo, hi = lo/2, hi/2+100
		}
		if float64(l) < lo || float64(l) > hi {
			t.Errorf("cycle %d (from stage %d): %d bytes outside [%.0f, %.0f]", i+1, stage, l, lo, hi)
		}
	}
}

func TestQCNActiveAndHyperActiveIncrease(t *testing.T) {
	rp := newRP(t, nil)
	rp.Feedback(0, Feedback{Fb: 16})
	sendCycles(rp, 5) // fast recovery
	// AI: byte counter past FR, timer not: TR += R_AI per cycle.
	tr := rp.TargetRate()
	sendCycles(rp, 1)
	if got := rp.TargetRate() - tr; math.Abs(got-5e6) > 1e-3 {
		t.Fatalf("AI step %g, want R_AI 5 Mbps", got)
	}
	// Drive the timer past FR too: HAI with Ri = R_HAI*(min(si,timer)-5).
	now := rp.Timer()
	for i := 0; i < 6; i++ {
		rp.Expire(now)
		now = rp.Timer()
	}
	si, ts := rp.Stages()
	if si != 6 || ts != 6 {
		t.Fatalf("stages %d/%d", si, ts)
	}
	tr = rp.TargetRate()
	rp.Expire(now) // timer_scount 7, si_count 6: to_count 6, Ri = R_HAI*1
	if got := rp.TargetRate() - tr; math.Abs(got-50e6) > 1e-3 {
		t.Fatalf("HAI step %g, want R_HAI*(6-5)", got)
	}
	tr = rp.TargetRate()
	sendCycles(rp, 1) // si 7, timer 7: Ri = R_HAI*2
	if got := rp.TargetRate() - tr; math.Abs(got-100e6) > 1e-3 {
		t.Fatalf("HAI step %g, want R_HAI*(7-5)", got)
	}
	if rp.Rate() > 10*gbps {
		t.Fatalf("CR %g above line rate", rp.Rate())
	}
}

func TestQCNTimerCycles(t *testing.T) {
	rp := newRP(t, nil)
	rp.Feedback(0, Feedback{Fb: 16})
	prev := Time(0)
	for i := 1; i <= 8; i++ {
		next := rp.Timer()
		gap := next - prev
		lo, hi := Time(0.85*float64(10*Millisecond)), Time(1.15*float64(10*Millisecond))
		if i == 1 {
			lo, hi = 10*Millisecond, 10*Millisecond // line 59: not randomised
		} else if i > 5 { // set after timer_scount reached FAST_RECOVERY_TH
			lo, hi = lo/2, hi/2
		}
		if gap < lo || gap > hi {
			t.Errorf("timer cycle %d lasted %v ps, want [%v, %v]", i, gap, lo, hi)
		}
		rp.Expire(next)
		prev = next
	}
	// An early call is ignored.
	before := rp.Timer()
	rp.Expire(before - 1)
	if rp.Timer() != before {
		t.Error("Expire before the deadline changed the timer")
	}
}

func TestQCNTargetRateReduction(t *testing.T) {
	rp := newRP(t, Values{"min_dec_factor": 0.01, "gd": 1.0 / 64})
	rp.Feedback(0, Feedback{Fb: 63}) // CR = C*(1-63/64) = C/64, TR = C
	if rp.TargetRate() <= 10*rp.Rate() {
		t.Fatalf("setup: TR %g not above 10 CR %g", rp.TargetRate(), rp.Rate())
	}
	cr := rp.Rate()
	sendCycles(rp, 1) // si_count == 1: TR /= 8, then CR = (TR+CR)/2
	wantTR := 10 * gbps / 8
	if rp.TargetRate() != wantTR || math.Abs(rp.Rate()-(wantTR+cr)/2) > 1 {
		t.Errorf("after first cycle TR %g CR %g, want TR %g CR %g", rp.TargetRate(), rp.Rate(), wantTR, (wantTR+cr)/2)
	}
}

func TestQCNRelease(t *testing.T) {
	rp := newRP(t, nil)
	rp.Feedback(0, Feedback{Fb: 1})
	// Recover to line rate with a backlog: never released.
	for rp.Rate() < 10*gbps {
		rp.Transmit(0, 1500, false)
	}
	if !rp.Active() {
		t.Fatal("released with a backlog")
	}
	rp.Transmit(0, 1500, true)
	if rp.Active() || rp.Timer() != Never || rp.CPID() != 0 {
		t.Fatalf("not released at C with an empty queue: active %v timer %d", rp.Active(), rp.Timer())
	}
	// Inactive: transmits and timers change nothing.
	rp.Transmit(0, 1500, false)
	rp.Expire(Never - 1)
	if rp.Rate() != 10*gbps {
		t.Fatal("inactive rate limiter changed rate")
	}
}

func TestQCNInitialRateBelowLineRate(t *testing.T) {
	v := resolve(t, "qcn", net10G, nil)
	rp := NewQCNReactionPoint(RPEnv{Network: net10G, LineRate: 10 * gbps, InitialRate: 1 * gbps,
		Start: 7 * Millisecond, Rand: rand.New(rand.NewPCG(1, 1))}, v)
	if !rp.Active() || rp.Rate() != 1*gbps || rp.TargetRate() != 1*gbps {
		t.Fatalf("active %v CR %g TR %g", rp.Active(), rp.Rate(), rp.TargetRate())
	}
	if rp.Timer() != 17*Millisecond {
		t.Errorf("timer %d, want start + TIMER_PERIOD", rp.Timer())
	}
}

// What a QCN RP's Transmit reads at every frame a source sends is in the
// RP's first 64 bytes, which the two cache lines from its start always
// hold, wherever the allocator puts it: the engine asks for those two
// lines ahead of a host's release.
func TestQCNRPLayout(t *testing.T) {
	var rp QCNReactionPoint
	for name, end := range map[string]uintptr{
		"active":   unsafe.Offsetof(rp.active) + unsafe.Sizeof(rp.active),
		"variant":  unsafe.Offsetof(rp.variant) + unsafe.Sizeof(rp.variant),
		"crate":    unsafe.Offsetof(rp.crate) + unsafe.Sizeof(rp.crate),
		"c":        unsafe.Offsetof(rp.c) + unsafe.Sizeof(rp.c),
		"txBcount": unsafe.Offsetof(rp.txBcount) + unsafe.Sizeof(rp.txBcount),
		"bcLimit":  unsafe.Offsetof(rp.bcLimit) + unsafe.Sizeof(rp.bcLimit),
	} {
		if end > 64 {
			t.Errorf("%s ends at byte %d of the RP, past its first 64", name, end)
		}
	}
}
