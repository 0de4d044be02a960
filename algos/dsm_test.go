package algos

import (
	"math"
	"math/rand/v2"
	"testing"
)

// dsmNet is section V-A's default network: 10 Gbps, 1 KB frames, 128 KB
// buffer, feedback loop delay 300 us.
var dsmNet = Network{Capacity: 10 * gbps, LineRate: 10 * gbps, Sources: 5, Buffer: 128e3, FrameBytes: 1000,
	MaxLoopDelay: 300 * Microsecond}

func newDSMCP(t *testing.T, n Network, cpid int, over Values) *DSMCongestionPoint {
	t.Helper()
	return NewDSMCongestionPoint(CPEnv{Network: n, CPID: cpid, Capacity: n.Capacity, Buffer: n.Buffer}, resolve(t, "dsm", n, over))
}

func newDSMRP(t *testing.T, initial float64) *DSMReactionPoint {
	t.Helper()
	return NewDSMReactionPoint(RPEnv{Network: dsmNet, LineRate: 10 * gbps, InitialRate: initial}, resolve(t, "dsm", dsmNet, nil))
}

// TestDSMSectionVADefaults checks the derivation against section V-A: with
// 1 KB frames at 10 Gbps and p = 0.01, T = 80 us and 2/T = 25 kHz; a 300 us
// loop gives m = 4; Ha = (m^2+4m+2)a, Hb = (2m+3)b and Hc = 2c are 20 kHz,
// just below the bounds a -> [2/((m^2+4m+2)T)]^-, b -> [2/((2m+3)T)]^-,
// c -> [(1/2)(2/T)]^-; omega = 5 > m + p*max(Qv) - 1.
func TestDSMSectionVADefaults(t *testing.T) {
	v := resolve(t, "dsm", dsmNet, nil)
	T := DSMPeriod(1000, 0.01, 10*gbps)
	if T != 80*Microsecond {
		t.Fatalf("T = %d ps, want 80 us", T)
	}
	m := v["m"]
	if m != 4 {
		t.Fatalf("m = %g, want 4", m)
	}
	two := 2 / T.Seconds()
	if !near(two, 25e3) {
		t.Fatalf("2/T = %g, want 25 kHz", two)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Ha = (m^2+4m+2)a", (m*m + 4*m + 2) * v["a"], 20e3},
		{"Hb = (2m+3)b", (2*m + 3) * v["b"], 20e3},
		{"Hc = 2c", 2 * v["c"], 20e3},
		{"a", v["a"], 20e3 / 34},
		{"b", v["b"], 20e3 / 11},
		{"c", v["c"], 10e3},
		{"omega", v["omega"], 5},
		{"q0", v["q0"], 64e3},
		{"p", v["p"], 0.01},
		{"u_max", v["u_max"], 10 * gbps},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	// Each coefficient sits below its eq. 31 bound (as V-A simplifies it).
	if !(v["a"] < two/(m*m+4*m+2) && v["b"] < two/(2*m+3) && v["c"] < two/2) {
		t.Errorf("a %g b %g c %g not below the eq. 31 bounds", v["a"], v["b"], v["c"])
	}
	// Eq. 31's omega condition with max(Qv) = the buffer: 4 + 1.28 - 1.
	if v["omega"] <= m+0.01*128-1 {
		t.Errorf("omega %g does not exceed m + p*max(Qv) - 1", v["omega"])
	}
}

func TestDSMDerivesFromTheNetwork(t *testing.T) {
	for _, c := range []struct {
		name             string
		capacity, frame  float64
		delay            Time
		wantM            float64
		wantH, wantOmega float64
	}{
		{"10 Gbps, 100 us", 10 * gbps, 1000, 100 * Microsecond, 2, 20e3, 5},
		{"10 Gbps, 500 us: omega > 7.28", 10 * gbps, 1000, 500 * Microsecond, 7, 20e3, 8},
		{"10 Gbps, 320 us: exactly 4 T", 10 * gbps, 1000, 320 * Microsecond, 4, 20e3, 5},
		{"10 Gbps, no delay: m >= 1", 10 * gbps, 1000, 0, 1, 20e3, 5},
		{"10 Gbps, 1500 B frames: T = 120 us", 10 * gbps, 1500, 100 * Microsecond, 1, 20e3 / 1.5, 5},
		{"100 Gbps, 160 us: T = 8 us, H still 20 kHz", 100 * gbps, 1000, 160 * Microsecond, 20, 20e3, 21},
		{"1 Gbps, 300 us: T = 800 us", 1 * gbps, 1000, 300 * Microsecond, 1, 2e3, 5},
	} {
		n := dsmNet
		n.Capacity, n.LineRate, n.FrameBytes, n.MaxLoopDelay = c.capacity, c.capacity, c.frame, c.delay
		v := resolve(t, "dsm", n, nil)
		if v["m"] != c.wantM || !near(v["h"], c.wantH) || v["omega"] != c.wantOmega {
			t.Errorf("%s: m %g h %g omega %g, want %g %g %g", c.name, v["m"], v["h"], v["omega"], c.wantM, c.wantH, c.wantOmega)
		}
		m := v["m"]
		if !near(v["a"], c.wantH/(m*m+4*m+2)) || !near(v["b"], c.wantH/(2*m+3)) || !near(v["c"], c.wantH/2) {
			t.Errorf("%s: a %g b %g c %g not H/(m^2+4m+2), H/(2m+3), H/2", c.name, v["a"], v["b"], v["c"])
		}
		// The omega condition of eq. 31 holds for every derived default.
		if v["omega"] <= m+0.01*n.Buffer/n.FrameBytes-1 {
			t.Errorf("%s: omega %g violates eq. 31", c.name, v["omega"])
		}
	}
	// m and H follow an overridden p; a, b, c follow an overridden m.
	v := resolve(t, "dsm", dsmNet, Values{"p": 0.02}) // T = 40 us
	if v["m"] != 8 || !near(v["h"], 20e3) {
		t.Errorf("p = 0.02: m %g h %g, want 8 and 20 kHz", v["m"], v["h"])
	}
	v = resolve(t, "dsm", dsmNet, Values{"p": 0.005}) // T = 160 us: 2/T = 12.5 kHz
	if v["m"] != 2 || !near(v["h"], 10e3) {
		t.Errorf("p = 0.005: m %g h %g, want 2 and 10 kHz", v["m"], v["h"])
	}
	v = resolve(t, "dsm", dsmNet, Values{"m": 2})
	if !near(v["a"], 20e3/14) || !near(v["b"], 20e3/7) {
		t.Errorf("m = 2: a %g b %g", v["a"], v["b"])
	}
}

func TestDSMCheckOmega(t *testing.T) {
	s, _ := Lookup("dsm")
	// m = 4, p*max(Qv) = 1.28: omega must exceed 4.28.
	for _, c := range []struct {
		omega float64
		ok    bool
	}{{4, false}, {4.28, false}, {4.3, true}, {5, true}} {
		_, err := s.Resolve(dsmNet, Values{"omega": c.omega})
		if (err == nil) != c.ok {
			t.Errorf("omega %g: error %v, want ok %v", c.omega, err, c.ok)
		}
	}
	// A larger m needs a larger omega, which the default provides.
	if _, err := s.Resolve(dsmNet, Values{"m": 10, "omega": 5}); err == nil {
		t.Error("m = 10 with omega = 5 accepted")
	}
	if v, err := s.Resolve(dsmNet, Values{"m": 10}); err != nil || v["omega"] != 11 {
		t.Errorf("m = 10: default omega %g (%v), want 11", v["omega"], err)
	}
}

// TestDSMControlRegions walks eq. 24 over the plane of figure 2 and the
// cases where its three conditions all fail.
func TestDSMControlRegions(t *testing.T) {
	const omega, a, b, c = 5, 1.0, 10.0, 100.0
	for _, tc := range []struct {
		name   string
		qf, qv float64
		want   float64
		region DSMRegion
	}{
		{"quadrant I: C, decrease", 10, 1, -c * 10, DSMStateC},
		{"quadrant III: C, increase", -10, -1, c * 10, DSMStateC},
		{"quadrant II, delta < 0: A, increase", -10, 1, a * 10, DSMStateA},
		{"quadrant II, delta > 0: B, decrease", -10, 3, -b * 3, DSMStateB},
		{"quadrant IV, delta > 0: A, decrease", 10, -1, -a * 10, DSMStateA},
		{"quadrant IV, delta < 0: B, increase", 10, -3, b * 3, DSMStateB},
		{"Qf^ axis, above q0: as A", 10, 0, -a * 10, DSMAxisQf},
		{"Qf^ axis, below q0: as A", -10, 0, a * 10, DSMAxisQf},
		{"Qv^ axis, growing: as B", 0, 2, -b * 2, DSMBoundary},
		{"Qv^ axis, shrinking: as B", 0, -2, b * 2, DSMBoundary},
		{"delta = 0 in quadrant II: as B", -10, 2, -b * 2, DSMBoundary},
		{"delta = 0 in quadrant IV: as B", 10, -2, b * 2, DSMBoundary},
		{"origin", 0, 0, 0, DSMOrigin},
	} {
		got, region := DSMControl(tc.qf, tc.qv, omega, a, b, c)
		if got != tc.want || region != tc.region {
			t.Errorf("%s: Fb %g in %v, want %g in %v", tc.name, got, region, tc.want, tc.region)
		}
	}
	// Off the boundaries exactly one of eq. 24's conditions holds.
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		qf, qv := r.NormFloat64(), r.NormFloat64()
		d := qf + omega*qv
		n := 0
		for _, cond := range []bool{qv*d < 0, qf*d < 0, qf*qv > 0} {
			if cond {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("(%g, %g): %d conditions of eq. 24 hold", qf, qv, n)
		}
	}
}

// TestDSMRunningSums drives the CP with a long random queue sequence and
// checks the O(1) sums of section IV-D, and Qf^, Qv^ of eq. 25, against the
// direct sums over the last m feedbacks.
func TestDSMRunningSums(t *testing.T) {
	for _, m := range []float64{1, 2, 4, 7} {
		cp := newDSMCP(t, dsmNet, 1, Values{"m": m, "omega": 12})
		r := rand.New(rand.NewPCG(3, uint64(m)))
		var fbs []float64 // Fb(0), Fb(1), ...
		qPrev := 0.0
		for k := 0; k < 20000; k++ {
			var s1, s2 float64
			for i := 1; i <= int(m); i++ {
				if k-i >= 0 {
					s1 += fbs[k-i]
					s2 += float64(i) * fbs[k-i]
				}
			}
			// Fb is up to C = 1.25e9 B/s: allow 1e-11 of it, which rounding
			// over 1024 samples stays within and a drift over 20000 does not.
			g1, g2 := cp.Sums()
			if math.Abs(g1-s1) > 0.0125*m || math.Abs(g2-s2) > 0.0125*m*m {
				t.Fatalf("m %g, k %d: S1 %g S2 %g, direct %g %g", m, k, g1, g2, s1, s2)
			}
			q := 128e3 * r.Float64()
			fb := cp.Step(q)
			T := 80e-6
			wantQf := (q - 64e3) + m*(q-qPrev) + T*s2
			wantQv := (q - qPrev) + T*s1
			// Tolerance on the size of the terms: Qf^ cancels large ones.
			tol := 1e-9 * (1 + q + m*math.Abs(q-qPrev) + T*math.Abs(s2) + T*math.Abs(s1))
			if math.Abs(cp.QfHat-wantQf) > tol || math.Abs(cp.QvHat-wantQv) > tol {
				t.Fatalf("m %g, k %d: Qf^ %g Qv^ %g, eq. 25 gives %g %g", m, k, cp.QfHat, cp.QvHat, wantQf, wantQv)
			}
			qPrev = q
			fbs = append(fbs, fb)
		}
		hist := cp.History()
		for i := 1; i <= int(m); i++ {
			if hist[i-1] != fbs[len(fbs)-i] {
				t.Fatalf("m %g: History()[%d] = %g, want Fb(k-%d) = %g", m, i-1, hist[i-1], i, fbs[len(fbs)-i])
			}
		}
	}
}

// dsmModelLoop closes the loop of the seed's own model (eq. 9: a rate
// change u(k) shows in the queue from period k+d+1, d the loop delay in
// periods) with the CP and RP as built, the queue in bytes and the rate in
// bits per second, for 3000 periods from a queue of 30 KB and the input at
// C. bitsPerByte is what the RP's input is multiplied by (8 is right). It
// returns the largest miss of the prediction Qf^(k) = Qf(k+m) (section
// III-C), the final queue and rate, and the largest |q - q0| over the last
// 500 periods.
func dsmModelLoop(t *testing.T, m, d int, bitsPerByte float64, over ...Values) (worst, q, rate, swing float64) {
	t.Helper()
	n := dsmNet
	n.MaxLoopDelay = Time(m) * 80 * Microsecond
	var ov Values
	if len(over) > 0 {
		ov = over[0]
	}
	cp := newDSMCP(t, n, 1, ov)
	if cp.m != m {
		t.Fatalf("m = %d, want %d", cp.m, m)
	}
	// One RP stands for the aggregate, its line rate far above C and its
	// floor at 1 bps so that only the model, not the clamps, is tested.
	rp := NewDSMReactionPoint(RPEnv{Network: n, LineRate: 1000 * gbps, InitialRate: 10 * gbps},
		resolve(t, "dsm", n, Values{"min_rate": 1}))
	const T, C, steps = 80e-6, 10 * gbps, 3000
	qs := []float64{30e3}
	var pending, qfHat []float64
	for k := 0; k < steps; k++ {
		q = qs[k]
		pending = append(pending, bitsPerByte*cp.Step(q))
		qfHat = append(qfHat, cp.QfHat)
		if k-d >= 0 { // u(k-d) takes effect for period k+1
			rp.Feedback(0, Feedback{CPID: 1, Fb: pending[k-d]})
		}
		qs = append(qs, q+T*(rp.Rate()-C)/8)
		if k >= steps-500 {
			swing = math.Max(swing, math.Abs(q-64e3))
		}
	}
	// Samples 0..m-1 start from an unknown past; compare after them.
	for k := m; k+m < steps; k++ {
		worst = math.Max(worst, math.Abs(qfHat[k]-(qs[k+m]-64e3)))
	}
	return worst, qs[steps], rp.Rate(), swing
}

// TestDSMClosedLoopUnits runs the model loop with the delay the CP assumes.
// With every unit right the detector of eq. 25 predicts the queue m periods
// ahead exactly and the queue settles at q0 with the input at C. A factor
// of 8 lost between bytes and bits (an RP adding Fb in bytes/s to a rate in
// bits/s) breaks the prediction.
func TestDSMClosedLoopUnits(t *testing.T) {
	for _, m := range []int{1, 2, 4, 7} {
		worst, q, rate, _ := dsmModelLoop(t, m, m, 8)
		if worst > 1e-3 {
			t.Errorf("m %d: Qf^(k) misses Qf(k+m) by up to %g B", m, worst)
		}
		if math.Abs(q-64e3) > 1 || math.Abs(rate-10*gbps) > 1e3 {
			t.Errorf("m %d: queue %g B, rate %g bps, want q0 = 64 KB and C", m, q, rate)
		}
		if worst, _, _, _ := dsmModelLoop(t, m, m, 1); worst < 100 {
			t.Errorf("m %d: with Fb taken as bits/s the prediction still holds (%g B off): the test cannot see the unit", m, worst)
		}
	}
}

// TestDSMNeedsTheExactLoopDelay records a finding about seed 004: in its own
// model, with the section V-A gains (H = 20 kHz at T = 80 us), the loop
// settles only when the real loop delay is m periods. One period more or
// one period less and the queue oscillates without bound (it would hit the
// buffer's limits in a real switch), although section IV-C says that an m
// larger than the delay "can always keep stable". (Without the eq. 27 bound
// on |Fb| the oscillation grows without limit; with it, it settles into a
// cycle far wider than the buffer.) Lower gains widen the margin.
func TestDSMNeedsTheExactLoopDelay(t *testing.T) {
	for _, m := range []int{2, 4} {
		for _, d := range []int{m - 1, m + 1} {
			// A swing above q0 = 64 KB would run the 128 KB buffer empty.
			if _, _, _, swing := dsmModelLoop(t, m, d, 8); swing < 64e3 {
				t.Errorf("m %d, delay %d periods: queue within %g B of q0 at the end; the seed's gains were expected to oscillate", m, d, swing)
			}
		}
		if _, _, _, swing := dsmModelLoop(t, m, m, 8); swing > 1 {
			t.Errorf("m %d, delay m: swing %g B", m, swing)
		}
	}
}

// TestDSMDampedReachingGain: with c = a (reaching_gain = damped, eq. 30's
// bound with its m term kept) the seed's own model settles at q0 when the
// loop delay is a whole period short of m, where V-A's c = H/2 oscillates
// (TestDSMNeedsTheExactLoopDelay), and still when it is exactly m.
func TestDSMDampedReachingGain(t *testing.T) {
	damped := Values{"reaching_gain": DSMReachingDamped}
	if v := resolve(t, "dsm", dsmNet, damped); v["c"] != v["a"] {
		t.Errorf("damped c %g at 10 Gbps, want a = %g", v["c"], v["a"])
	}
	// At 100 Gbps (T = 8 us) and 160 us (m = 20): 1.6/(482 T) = 415 Hz,
	// where a, from V-A's fixed 20 kHz, is 41.5 Hz.
	n100 := dsmNet
	n100.Capacity, n100.MaxLoopDelay = 100*gbps, 160*Microsecond
	if v := resolve(t, "dsm", n100, damped); math.Abs(v["c"]-1.6/(482*8e-6)) > 1e-6 || v["m"] != 20 {
		t.Errorf("damped c %g (m %g) at 100 Gbps 160 us, want 415 Hz", v["c"], v["m"])
	}
	for _, m := range []int{2, 4} {
		for _, d := range []int{m - 1, m} {
			if _, _, _, swing := dsmModelLoop(t, m, d, 8, damped); swing > 1e3 {
				t.Errorf("m %d, delay %d periods, damped c: queue within %g B of q0 at the end, want under 1 KB", m, d, swing)
			}
		}
	}
}

func TestDSMUMaxBoundsOneStep(t *testing.T) {
	cp := newDSMCP(t, dsmNet, 1, nil)
	// A full queue that filled in one period: c*Qf^ is far above C.
	if fb := cp.Step(128e3); fb != -10*gbps/8 {
		t.Errorf("Fb %g bytes/s, want -C = %g (eq. 27)", fb, -10*gbps/8)
	}
	cp = newDSMCP(t, dsmNet, 1, Values{"u_max": 1 * gbps})
	if fb := cp.Step(128e3); fb != -1*gbps/8 {
		t.Errorf("Fb %g bytes/s, want -u_max", fb)
	}
	if _, s2 := cp.Sums(); s2 != -1*gbps/8 {
		t.Errorf("S2 %g: the history must hold the bounded Fb that was sent", s2)
	}
}

// TestDSMSamplingPeriod checks that the CP samples the first frame at or
// after each instant kT and sends every sample, increases included, with
// Fb in bits per second.
func TestDSMSamplingPeriod(t *testing.T) {
	cp := newDSMCP(t, dsmNet, 3, nil)
	frameTime := 800 * Nanosecond // 1 KB at 10 Gbps
	var sampled []Time
	var fbs []Feedback
	for now := Time(5 * Microsecond); now < 2*Millisecond; now += frameTime {
		var fb Feedback
		if cp.Arrive(now, &Frame{Source: 2, Bytes: 1000, Sent: now - 50*Microsecond}, 10e3, &fb) {
			sampled = append(sampled, now)
			fbs = append(fbs, fb)
		}
	}
	if len(sampled) != 25 {
		t.Fatalf("%d samples in 2 ms, want 25 (one per 80 us)", len(sampled))
	}
	for i, s := range sampled {
		instant := 5*Microsecond + Time(i)*80*Microsecond
		if s < instant || s >= instant+frameTime {
			t.Errorf("sample %d at %d, want the first arrival at or after %d", i, s, instant)
		}
	}
	// The first sample sees the queue jump from 0 to 10 KB: Qf^ = -54 KB +
	// 4*10 KB, Qv^ = 10 KB, delta > 0: state B, Fb = -b*Qv^ bytes/s, sent
	// as 8 times that in bits/s.
	if fbs[0].CPID != 3 || fbs[0].Sent != sampled[0]-50*Microsecond || fbs[0].Qoff != -14e3 || fbs[0].Qdelta != 10e3 {
		t.Errorf("first feedback %+v", fbs[0])
	}
	if want := -8 * (20e3 / 11) * 10e3; !near(fbs[0].Fb, want) {
		t.Errorf("first Fb %g bps, want %g", fbs[0].Fb, want)
	}
	// The queue then sits still 54 KB below q0: the CP asks for
	// increases, and sends them.
	if fbs[len(fbs)-1].Fb <= 0 {
		t.Errorf("last feedback %+v, want an increase", fbs[len(fbs)-1])
	}
	// A gap in arrivals longer than T: the next frame is sampled and the
	// clock restarts from it.
	var fb Feedback
	late := 10 * Millisecond
	if !cp.Arrive(late, &Frame{Bytes: 1000}, 10e3, &fb) {
		t.Fatal("first frame after a long gap not sampled")
	}
	if cp.Arrive(late+79*Microsecond, &Frame{Bytes: 1000}, 10e3, &fb) {
		t.Error("sampled again within T")
	}
	if !cp.Arrive(late+80*Microsecond, &Frame{Bytes: 1000}, 10e3, &fb) {
		t.Error("not sampled T after the restart")
	}
}

func TestDSMReactionPoint(t *testing.T) {
	rp := newDSMRP(t, 10*gbps)
	if rp.Rate() != 10*gbps || rp.CPID() != 0 || rp.Timer() != Never {
		t.Fatalf("initial: rate %g cpid %d timer %d", rp.Rate(), rp.CPID(), rp.Timer())
	}
	// r += Fb, clamped at C.
	rp.Feedback(0, Feedback{CPID: 1, Fb: 1 * gbps})
	if rp.Rate() != 10*gbps {
		t.Errorf("rate %g above C", rp.Rate())
	}
	rp.Feedback(0, Feedback{CPID: 1, Fb: -3 * gbps})
	if rp.Rate() != 7*gbps || rp.CPID() != 1 {
		t.Errorf("after -3 Gbps: rate %g cpid %d", rp.Rate(), rp.CPID())
	}
	// Clamped at the minimum rate.
	rp.Feedback(0, Feedback{CPID: 1, Fb: -30 * gbps})
	if rp.Rate() != 10e6 {
		t.Errorf("rate %g, want min_rate", rp.Rate())
	}
	rp.Feedback(0, Feedback{CPID: 1, Fb: 2 * gbps})
	if !near(rp.Rate(), 2*gbps+10e6) {
		t.Errorf("rate %g after +2 Gbps", rp.Rate())
	}
	// Transmit and timers change nothing.
	if rp.Transmit(0, 1000, true) {
		t.Error("Transmit reported a change")
	}
	// Never decreased: increases from any CP are taken.
	fresh := newDSMRP(t, 1*gbps)
	fresh.Feedback(0, Feedback{CPID: 7, Fb: 1 * gbps})
	if fresh.Rate() != 2*gbps || fresh.CPID() != 0 {
		t.Errorf("unassociated source: rate %g cpid %d", fresh.Rate(), fresh.CPID())
	}
	// An initial rate above C starts at C.
	if r := newDSMRP(t, 20*gbps).Rate(); r != 10*gbps {
		t.Errorf("initial rate %g, want clamped to C", r)
	}
}

// TestDSMTwoCongestionPoints feeds one RP from two CPs (section IV-D,
// "Adaptability"): the source stores the CPID of its last decrease and
// honours increases only from that CP.
func TestDSMTwoCongestionPoints(t *testing.T) {
	cp1, cp2 := newDSMCP(t, dsmNet, 1, nil), newDSMCP(t, dsmNet, 2, nil)
	rp := newDSMRP(t, 10*gbps)
	send := func(cp *DSMCongestionPoint, now Time, qlen int) Feedback {
		var fb Feedback
		if !cp.Arrive(now, &Frame{Bytes: 1000, CPID: rp.CPID()}, qlen, &fb) {
			t.Fatalf("CP %d did not sample at %d", cp.cpid, now)
		}
		rp.Feedback(now, fb)
		return fb
	}
	// CP 2 is congested (queue above q0 and growing): decrease, association.
	if fb := send(cp2, 0, 100e3); fb.Fb >= 0 || rp.CPID() != 2 {
		t.Fatalf("CP 2: %+v, cpid %d", fb, rp.CPID())
	}
	r := rp.Rate()
	// CP 1 is underused (queue empty): it asks for an increase, ignored.
	if fb := send(cp1, 0, 0); fb.Fb <= 0 || rp.Rate() != r {
		t.Fatalf("CP 1 increase %+v: rate %g, want unchanged %g", fb, rp.Rate(), r)
	}
	// CP 2 asks for an increase (queue dropped well below q0): honoured.
	if fb := send(cp2, 80*Microsecond, 0); fb.Fb <= 0 || rp.Rate() <= r {
		t.Fatalf("CP 2 increase %+v: rate %g, want above %g", fb, rp.Rate(), r)
	}
	// CP 1 congests: its decrease moves the association to CP 1, after
	// which CP 2's increases are ignored.
	if fb := send(cp1, 80*Microsecond, 128e3); fb.Fb >= 0 || rp.CPID() != 1 {
		t.Fatalf("CP 1 decrease %+v: cpid %d", fb, rp.CPID())
	}
	r = rp.Rate()
	if fb := send(cp2, 160*Microsecond, 0); fb.Fb <= 0 || rp.Rate() != r {
		t.Fatalf("CP 2 increase %+v after CP 1's decrease: rate %g, want %g", fb, rp.Rate(), r)
	}
}
