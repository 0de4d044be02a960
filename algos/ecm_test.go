package algos

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// ECM tests walk the pseudo-code of seed 003 sections 3.2.1 (CP) and 3.3.3
// (RP) branch by branch. Queue lengths in Qoff/Qdelta are 64-byte pages.

// ecmNet is the default scenario: 10 Gbps, 1500-byte frames, 150 KB buffer.
// Qeq = 16 frames = 24,000 B = 375 pages.
var ecmNet = Network{Capacity: 10 * gbps, LineRate: 10 * gbps, Sources: 5, Buffer: 150e3, FrameBytes: 1500}

const ecmQeqPages = 375

func newECMCP(t *testing.T, cpid int, over Values) *ECMCongestionPoint {
	t.Helper()
	return NewECMCongestionPoint(CPEnv{Network: ecmNet, CPID: cpid, Capacity: 10 * gbps, Buffer: 150e3,
		Rand: rand.New(rand.NewPCG(5, uint64(cpid)))}, resolve(t, "ecm", ecmNet, over))
}

func newECMRP(t *testing.T, over Values) *ECMReactionPoint {
	t.Helper()
	return NewECMReactionPoint(RPEnv{Network: ecmNet, LineRate: 10 * gbps, InitialRate: 10 * gbps,
		Rand: rand.New(rand.NewPCG(6, 7))}, resolve(t, "ecm", ecmNet, over))
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

func TestECMDefaults(t *testing.T) {
	v := resolve(t, "ecm", ecmNet, nil)
	for _, c := range []struct {
		key  string
		want float64
	}{
		{"q_eq", 24e3}, {"q_mc", 48e3}, {"q_sc", 120e3}, {"q_scale", 1},
		{"sf", 150e3}, {"sr", 32e3}, {"s_scale", 2}, {"qsat_enable", 1},
		{"w", 2}, {"gi", 0.53333}, {"gd", 0.0026667}, {"ru", 1e6},
		{"alpha", 0.1}, {"beta", 0.1}, {"ri_fraction", 0.5},
		{"rd", 1e6}, {"td", 1e-3}, {"tmax", 10e-6}, {"rmin", 100e6}, {"w_rtt", 3},
		{"qsat_by_qdelta", 0}, {"tmax_ceiling", 1}, {"rmin_floor", 1e6},
	} {
		if !near(v[c.key], c.want) {
			t.Errorf("%s = %g, want %g", c.key, v[c.key], c.want)
		}
	}
	// Qeq follows the frame size (16 frames), Qmc follows Qeq, Rmin the line rate.
	n := ecmNet
	n.FrameBytes, n.LineRate = 1000, 100*gbps
	v = resolve(t, "ecm", n, nil)
	if v["q_eq"] != 16e3 || v["q_mc"] != 32e3 || v["sf"] != 100e3 || v["rmin"] != 1e9 {
		t.Errorf("1 KB frames at 100 Gbps: q_eq %g q_mc %g sf %g rmin %g", v["q_eq"], v["q_mc"], v["sf"], v["rmin"])
	}
}

func TestECMCheckRejectsBadValues(t *testing.T) {
	s, _ := Lookup("ecm")
	for _, c := range []struct {
		over Values
		key  string // the key the error blames
	}{
		{Values{"q_mc": 20e3}, "q_mc"},                 // below Qeq
		{Values{"q_mc": 120e3}, "q_mc"},                // at Qsc: ECM-Max never
		{Values{"q_sc": 40e3, "q_mc": 45e3}, "q_mc"},   // above Qsc
		{Values{"q_sc": 150e3}, "q_sc"},                // the full 150 KB buffer: ECM(0,0) never
		{Values{"q_eq": 130e3}, "q_eq"},                // above Qsc
		{Values{"sr": 200e3}, "sr"},                    // above Sf: negative intervals
		{Values{"tmax_ceiling": 5e-6}, "tmax_ceiling"}, // below the initial Tmax
		{Values{"rmin_floor": 200e6}, "rmin_floor"},    // above the initial Rmin
		{Values{"rmin": 20e9}, "rmin"},                 // above the line rate
		{Values{"alpha": 1.5}, "alpha"}, {Values{"w_rtt": 2.5}, "w_rtt"},
		{Values{"qsat_enable": 2}, "qsat_enable"}, {Values{"qsat_by_qdelta": 0.5}, "qsat_by_qdelta"},
		{Values{"s_scale": 0.5}, "s_scale"},
	} {
		_, err := s.Resolve(ecmNet, c.over)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Key != c.key {
			t.Errorf("Resolve(%v) = %v, want an error naming %s", c.over, err, c.key)
		}
	}
	// Qmc's default follows a lower Qsc: half way from Qeq.
	v := resolve(t, "ecm", ecmNet, Values{"q_sc": 40e3})
	if v["q_mc"] != 32e3 {
		t.Errorf("q_mc %g with q_sc = 40 KB, want 32 KB", v["q_mc"])
	}
}

// TestECMDefaultsFitTheBuffer checks that the default thresholds leave room
// below the buffer, Qeq < Qmc < Qsc < the fullest queue with 2*Qeq below it
// too, for small buffers and odd frame sizes, and that a buffer too small
// for any thresholds is an error naming the default that does not fit.
func TestECMDefaultsFitTheBuffer(t *testing.T) {
	for _, c := range []struct{ buffer, frame float64 }{
		{20e3, 1500}, {40e3, 1500}, {48e3, 1500}, {60e3, 1500}, {150e3, 1500},
		{4500, 1500}, {40e3, 9216}, {1024, 64}, {128e3, 1000},
	} {
		n := ecmNet
		n.Buffer, n.FrameBytes = c.buffer, c.frame
		s, _ := Lookup("ecm")
		v, err := s.Resolve(n, nil)
		if err != nil {
			t.Errorf("%g B buffer, %g B frames: %v", c.buffer, c.frame, err)
			continue
		}
		full := math.Floor(c.buffer/c.frame) * c.frame
		if !(v["q_eq"] < v["q_mc"] && v["q_mc"] < v["q_sc"] && v["q_sc"] < full && 2*v["q_eq"] < full) {
			t.Errorf("%g B buffer, %g B frames: q_eq %g q_mc %g q_sc %g, fullest queue %g",
				c.buffer, c.frame, v["q_eq"], v["q_mc"], v["q_sc"], full)
		}
	}
	n := ecmNet
	n.Buffer = 1500 // one frame: no room for Qeq < Qmc < Qsc below it
	var pe *ParamError
	if _, err := (registry["ecm"]).Resolve(n, nil); !errors.As(err, &pe) || !strings.Contains(err.Error(), "default") {
		t.Errorf("one-frame buffer: %v, want an error naming a default", err)
	}
}

// TestECMSmallBufferMessagesFire drives the CP at the default thresholds of
// 20, 40 and 48 KB buffers (the old defaults put Qmc and Qsc at or above
// them): ECM(0,0) at the fullest queue, ECM-Max between Qmc and Qsc, and
// the Q bit when the queue falls by more than 2*Qeq between two samples.
func TestECMSmallBufferMessagesFire(t *testing.T) {
	for _, buffer := range []float64{20e3, 40e3, 48e3} {
		n := ecmNet
		n.Buffer = buffer
		v := resolve(t, "ecm", n, nil)
		cp := NewECMCongestionPoint(CPEnv{Network: n, CPID: 1, Capacity: 10 * gbps, Buffer: buffer,
			Rand: rand.New(rand.NewPCG(5, 1))}, v)
		full := int(math.Floor(buffer/1500)) * 1500
		if _, sent, fb := arriveUntilSample(cp, 1500, 1, full); !sent || fb.Qoff != 0 || fb.Qdelta != 0 {
			t.Errorf("%g B: at the full queue %d B sent %v %+v, want ECM(0,0)", buffer, full, sent, fb)
		}
		mild := int(v["q_mc"]) + 1
		if _, sent, fb := arriveUntilSample(cp, 1500, 1, mild); !sent || fb.Qoff != cp.qEq || fb.Qdelta != 2*cp.qEq {
			t.Errorf("%g B: at %d B sent %v %+v, want ECM-Max", buffer, mild, sent, fb)
		}
		arriveUntilSample(cp, 1500, 1, full)
		if _, sent, fb := arriveUntilSample(cp, 1500, 1, 1500); !sent || !fb.QSat || fb.Qdelta != -2*cp.qEq {
			t.Errorf("%g B: full to empty sent %v %+v, want the Q bit with Qdelta = -2Qeq", buffer, sent, fb)
		}
	}
}

// arriveUntilSample feeds frames of the given size, CPID and queue length
// until the CP samples one (it moves queue_old), and returns how many
// bytes that took and whether feedback was sent.
func arriveUntilSample(cp *ECMCongestionPoint, bytes, cpid, qlen int) (int, bool, Feedback) {
	total := 0
	for {
		var fb Feedback
		total += bytes
		acc := cp.sampByteAcc
		sent := cp.Arrive(0, &Frame{Bytes: bytes, CPID: cpid, Sent: 7}, qlen, &fb)
		if cp.sampByteAcc < acc+float64(bytes) { // reset: this frame was sampled
			return total, sent, fb
		}
	}
}

// TestECMSamplingInterval checks S = Sf + Sr*(2u-1) (3.2.1 pseudo-code): a
// uniform interval over [Sf-Sr, Sf+Sr] with mean Sf, so P = E[L]/Sf.
func TestECMSamplingInterval(t *testing.T) {
	cp := newECMCP(t, 1, nil)
	qlen := 30e3 // above Qeq (qoff > 0: always sent), below Qmc, not empty
	var sum, lo, hi float64 = 0, math.Inf(1), 0
	const n = 4000
	for i := 0; i < n; i++ {
		got, sent, _ := arriveUntilSample(cp, 100, 0, int(qlen))
		if i > 0 && !sent {
			t.Fatalf("sample %d above Qeq sent nothing", i)
		}
		g := float64(got)
		sum += g
		lo, hi = math.Min(lo, g), math.Max(hi, g)
	}
	// Sampled when the accumulated bytes exceed S: within one frame above.
	if lo < 150e3-32e3 || hi > 150e3+32e3+100 {
		t.Errorf("intervals span [%g, %g] bytes, want within [118000, 182100]", lo, hi)
	}
	if lo > 150e3-30e3 || hi < 150e3+30e3 {
		t.Errorf("intervals span [%g, %g]: not spread over Sf +- Sr", lo, hi)
	}
	if mean := sum / n; math.Abs(mean-150e3) > 2e3 {
		t.Errorf("mean interval %g bytes, want Sf = 150000 (+ half a frame)", mean)
	}
}

// TestECMOverSampling checks that S is divided by Sscale when the queue is
// empty (the frame finds nothing queued) or above Qmc (section 3.2).
func TestECMOverSampling(t *testing.T) {
	mean := func(cp *ECMCongestionPoint, bytes, qlen int) float64 {
		sum := 0
		for i := 0; i < 2000; i++ {
			g, _, _ := arriveUntilSample(cp, bytes, 1, qlen)
			sum += g
		}
		return float64(sum) / 2000
	}
	for _, c := range []struct {
		name  string
		qlen  int
		bytes int
		want  float64
	}{
		{"empty queue", 100, 100, 150e3 / 2},
		{"above Qmc", 60e3, 100, 150e3 / 2},
		{"above Qsc", 130e3, 100, 150e3 / 2},
		{"between", 30e3, 100, 150e3},
		{"one frame queued ahead", 200, 100, 150e3},
	} {
		cp := newECMCP(t, 1, nil)
		cp.interval = 150e3
		if got := mean(cp, c.bytes, c.qlen); math.Abs(got-c.want)/c.want > 0.02 {
			t.Errorf("%s: mean interval %g, want %g", c.name, got, c.want)
		}
	}
	cp := newECMCP(t, 1, Values{"s_scale": 8})
	if got := mean(cp, 100, 60e3); math.Abs(got-150e3/8)/(150e3/8) > 0.02 {
		t.Errorf("Sscale 8: mean interval %g, want %g", got, 150e3/8)
	}
}

func TestECMSevereCongestionSendsECM00(t *testing.T) {
	cp := newECMCP(t, 4, nil)
	cp.queueOld = 10
	// Above Qsc (120 KB): ECM(0,0), even for a frame with no CM-Tag.
	_, sent, fb := arriveUntilSample(cp, 1500, 0, 120001)
	if !sent || fb.Qoff != 0 || fb.Qdelta != 0 || fb.QSat || fb.CPID != 4 {
		t.Fatalf("above Qsc: sent %v feedback %+v, want ECM(0,0) from CPID 4", sent, fb)
	}
	if cp.queueOld != float64(120001/64) {
		t.Errorf("queue_old %g not updated at an ECM(0,0) sample", cp.queueOld)
	}
	// At Qsc exactly: not severe ("Qlen greater than Qsc"), so ECM-Max.
	_, _, fb = arriveUntilSample(cp, 1500, 0, 120e3)
	if fb.Qoff != ecmQeqPages {
		t.Errorf("at Qsc: %+v, want ECM-Max", fb)
	}
}

func TestECMMildCongestionSendsECMMax(t *testing.T) {
	cp := newECMCP(t, 1, nil)
	for _, qlen := range []int{48001, 90e3, 120e3} {
		_, sent, fb := arriveUntilSample(cp, 1500, 0, qlen)
		if !sent || fb.Qoff != ecmQeqPages || fb.Qdelta != 2*ecmQeqPages || fb.QSat {
			t.Errorf("qlen %d: sent %v %+v, want ECM(Qeq, 2Qeq) without the Q bit", qlen, sent, fb)
		}
		if want := -(ecmQeqPages + 2*2*ecmQeqPages); fb.Fb != float64(want) {
			t.Errorf("qlen %d: Fb %g, want %d", qlen, fb.Fb, want)
		}
	}
	// Qscale multiplies ECM-Max too (section 3.2's normalisation).
	cp = newECMCP(t, 1, Values{"q_scale": 2})
	if _, _, fb := arriveUntilSample(cp, 1500, 0, 60e3); fb.Qoff != 2*ecmQeqPages || fb.Qdelta != 4*ecmQeqPages {
		t.Errorf("Qscale 2 ECM-Max: %+v", fb)
	}
}

func TestECMRegularFeedbackAndSaturation(t *testing.T) {
	// Qmc raised so the regular branch reaches queues above 2*Qeq. Pages
	// are floor(bytes/64): 20 KB = 312, 30 KB = 468, 60 KB = 937, 110 KB = 1718.
	over := Values{"q_mc": 120e3, "q_sc": 140e3}
	for _, c := range []struct {
		name               string
		old, qlen          int // bytes
		wantOff, wantDelta float64
		wantQ              bool
	}{
		{"plain", 20e3, 30e3, 468 - 375, 468 - 312, false},
		{"empty queue: qoff = -Qeq", 10e3, 0, -375, -156, false},
		{"qoff saturates at +Qeq", 60e3, 60e3 + 1500, 375, 23, false},
		{"qdelta saturates at +2Qeq, Q bit", 0, 60e3, 375, 750, true},
		{"qdelta saturates at -2Qeq, Q bit", 110e3, 20e3, 312 - 375, -750, true},
		{"qdelta at +2Qeq exactly: no Q bit", 0, 750 * 64, 375, 750, false},
	} {
		cp := newECMCP(t, 1, over)
		cp.queueOld = float64(c.old / 64)
		_, sent, fb := arriveUntilSample(cp, 100, 1, c.qlen)
		if !sent || fb.Qoff != c.wantOff || fb.Qdelta != c.wantDelta || fb.QSat != c.wantQ {
			t.Errorf("%s: sent %v %+v, want Qoff %g Qdelta %g Q %v", c.name, sent, fb, c.wantOff, c.wantDelta, c.wantQ)
		}
		if fb.Fb != -(fb.Qoff + 2*fb.Qdelta) {
			t.Errorf("%s: Fb %g, want -(Qoff + w*Qdelta)", c.name, fb.Fb)
		}
	}
	// ECM_qsat_enable off: saturated, but no Q bit.
	cp := newECMCP(t, 1, Values{"q_mc": 120e3, "q_sc": 140e3, "qsat_enable": 0})
	_, _, fb := arriveUntilSample(cp, 100, 1, 60e3)
	if fb.Qdelta != 750 || fb.QSat {
		t.Errorf("qsat disabled: %+v", fb)
	}
	// Qscale multiplies Qoff and Qdelta; saturation is on the unscaled values.
	cp = newECMCP(t, 1, Values{"q_scale": 4})
	cp.queueOld = 312
	_, _, fb = arriveUntilSample(cp, 100, 1, 30e3)
	if fb.Qoff != 4*(468-375) || fb.Qdelta != 4*(468-312) {
		t.Errorf("Qscale 4: %+v", fb)
	}
}

// TestECMSpuriousFeedbackFilter covers the filter of 3.2.1: no message when
// qoff == 0 && qdelta == 0, and for qoff < 0 only to frames whose CM-Tag
// carries this CP's CPID.
func TestECMSpuriousFeedbackFilter(t *testing.T) {
	for _, c := range []struct {
		name      string
		old, qlen int
		frameCPID int
		want      bool
	}{
		{"qoff == 0 && qdelta == 0", 375 * 64, 375 * 64, 3, false},
		{"qoff == 0, qdelta != 0", 300 * 64, 375 * 64, 0, true},
		{"qoff < 0, no CM-Tag", 10e3, 10e3, 0, false},
		{"qoff < 0, another CP's CPID", 10e3, 10e3, 9, false},
		{"qoff < 0, this CP's CPID", 10e3, 10e3, 3, true},
		{"qoff < 0 and rising (negative Fb), no CM-Tag", 0, 20e3, 0, false},
		{"qoff > 0, no CM-Tag", 30e3, 30e3, 0, true},
		{"qoff > 0, another CP's CPID", 40e3, 30e3, 9, true},
	} {
		cp := newECMCP(t, 3, nil)
		cp.queueOld = float64(c.old / 64)
		_, sent, fb := arriveUntilSample(cp, 100, c.frameCPID, c.qlen)
		if sent != c.want {
			t.Errorf("%s: sent %v (%+v), want %v", c.name, sent, fb, c.want)
		}
		if cp.queueOld != float64(c.qlen/64) {
			t.Errorf("%s: queue_old not updated on a filtered sample", c.name)
		}
	}
}

func TestECMTimestampNeedsCMTag(t *testing.T) {
	cp := newECMCP(t, 1, nil)
	_, _, fb := arriveUntilSample(cp, 100, 1, 30e3)
	if fb.Sent != 7 {
		t.Errorf("tagged frame: timestamp %d, want the frame's 7", fb.Sent)
	}
	_, _, fb = arriveUntilSample(cp, 100, 0, 30e3)
	if fb.Sent != 0 {
		t.Errorf("untagged frame: timestamp %d, want 0 (section 3.1)", fb.Sent)
	}
}

func TestECMRPInitialState(t *testing.T) {
	rp := newECMRP(t, nil)
	if rp.State() != ECMInactive || rp.Rate() != 10*gbps || rp.CPID() != 0 || rp.Timer() != Never {
		t.Fatalf("initial: %v rate %g cpid %d timer %d", rp.State(), rp.Rate(), rp.CPID(), rp.Timer())
	}
	// A positive feedback does nothing to an inactive rate limiter.
	rp.Feedback(0, Feedback{CPID: 1, Qoff: -100, Qdelta: 0})
	if rp.State() != ECMInactive || rp.Rate() != 10*gbps {
		t.Errorf("positive feedback changed an inactive limiter: %v %g", rp.State(), rp.Rate())
	}
	// Below line rate, a source starts rate limited (as QCN's RP does).
	v := resolve(t, "ecm", ecmNet, nil)
	rp = NewECMReactionPoint(RPEnv{Network: ecmNet, LineRate: 10 * gbps, InitialRate: 2 * gbps, Start: 3 * Millisecond,
		Rand: rand.New(rand.NewPCG(1, 1))}, v)
	if rp.State() != ECMActive || rp.Rate() != 2*gbps || rp.Timer() != 4*Millisecond {
		t.Errorf("started below line rate: %v rate %g timer %d", rp.State(), rp.Rate(), rp.Timer())
	}
}

func TestECMRPActivation(t *testing.T) {
	rp := newECMRP(t, nil)
	rp.Feedback(1500*Microsecond, Feedback{CPID: 5, Qoff: 10, Qdelta: 10, QSat: true})
	if rp.State() != ECMActive || rp.Rate() != 5*gbps || rp.CPID() != 5 {
		t.Fatalf("negative feedback to INACTIVE: %v rate %g cpid %d, want ACTIVE at Ri = C/2 with CPID 5", rp.State(), rp.Rate(), rp.CPID())
	}
	if rp.Timer() != 2*Millisecond {
		t.Errorf("Td timer %d, want the next 1 ms tick", rp.Timer())
	}
	if rp.RTTAvg() != 0 {
		t.Errorf("RTTavg %g, want 0 on activation", rp.RTTAvg())
	}
	rp = newECMRP(t, Values{"ri_fraction": 0.25})
	rp.Feedback(0, Feedback{CPID: 5, Qoff: 10})
	if rp.Rate() != 2.5*gbps {
		t.Errorf("Ri = C/4: rate %g", rp.Rate())
	}
}

func TestECMRPDecrease(t *testing.T) {
	for _, c := range []struct {
		name string
		over Values
		fb   Feedback
		want float64 // factor
	}{
		// Fb = -(10 + 2*5) = -20: 1 - 20*Gd.
		{"linear", Values{"alpha": 0.5}, Feedback{CPID: 1, Qoff: 10, Qdelta: 5}, 1 - 20*0.0026667},
		// Fb = -375*5: Gd*|Fb| = 5 saturates at alpha.
		{"alpha saturation", nil, Feedback{CPID: 1, Qoff: 375, Qdelta: 750}, 1 - 0.1},
		// Q bit: 1 - min(2*alpha, 1), whatever Fb.
		{"Q bit", nil, Feedback{CPID: 1, Qoff: 1, Qdelta: 750, QSat: true}, 1 - 0.2},
		{"Q bit, 2*alpha above 1", Values{"alpha": 0.7}, Feedback{CPID: 1, Qoff: 1, Qdelta: 750, QSat: true}, 0},
	} {
		rp := newECMRP(t, c.over)
		rp.Feedback(0, Feedback{CPID: 1, Qoff: 1}) // activate at C/2
		rp.Feedback(0, c.fb)
		want := 5 * gbps * c.want
		if c.want == 0 {
			want = 100e6 // rate 0 saturates to Rmin
		}
		if !near(rp.Rate(), want) || rp.State() != ECMActive {
			t.Errorf("%s: rate %g %v, want %g", c.name, rp.Rate(), rp.State(), want)
		}
	}
}

func TestECMRPPositiveOnlyFromAssociatedCP(t *testing.T) {
	rp := newECMRP(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1})
	r := rp.Rate()
	// Positive feedback from CP 2 (not associated): ignored.
	rp.Feedback(0, Feedback{CPID: 2, Qoff: -100})
	if rp.Rate() != r {
		t.Fatalf("positive feedback from another CP changed the rate to %g", rp.Rate())
	}
	// From CP 1: R += Gi*Fb*Ru, Fb = 100 pages.
	rp.Feedback(0, Feedback{CPID: 1, Qoff: -100})
	if want := r + 0.53333*100*1e6; !near(rp.Rate(), want) {
		t.Fatalf("positive feedback: rate %g, want %g", rp.Rate(), want)
	}
	// The largest Fb (5*Qeq = 1875 pages) gives Gi*Fb*Ru = 1 Gbps, just
	// below beta*C: the default beta bounds, never cuts, the linear law.
	r = rp.Rate()
	rp.Feedback(0, Feedback{CPID: 1, Qoff: -375, Qdelta: -750})
	if want := r + 0.53333*1875*1e6; !near(rp.Rate(), want) {
		t.Fatalf("largest positive feedback: rate %g, want %g", rp.Rate(), want)
	}
	// A smaller beta saturates it at beta*C.
	rp = newECMRP(t, Values{"beta": 0.05})
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1})
	rp.Feedback(0, Feedback{CPID: 1, Qoff: -375, Qdelta: -750})
	if want := 5*gbps + 0.05*10*gbps; !near(rp.Rate(), want) {
		t.Fatalf("positive feedback above beta*C: rate %g, want %g", rp.Rate(), want)
	}
	// Q bit on a positive feedback: +2*beta*C, capped at C.
	rp = newECMRP(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1})
	rp.Feedback(0, Feedback{CPID: 1, Qoff: -1, Qdelta: -750, QSat: true})
	if want := 5*gbps + 2*0.1*10*gbps; !near(rp.Rate(), want) {
		t.Errorf("Q bit positive: rate %g, want %g", rp.Rate(), want)
	}
	for i := 0; i < 5; i++ {
		rp.Feedback(0, Feedback{CPID: 1, Qoff: -1, Qdelta: -750, QSat: true})
	}
	if rp.Rate() != 10*gbps {
		t.Errorf("rate %g, want capped at C", rp.Rate())
	}
	// A negative feedback from CP 2 moves the association: now CP 2's
	// positive feedback counts and CP 1's does not.
	rp.Feedback(0, Feedback{CPID: 2, Qoff: 1})
	if rp.CPID() != 2 {
		t.Fatalf("CPID %d after CP 2's negative feedback, want 2", rp.CPID())
	}
	r = rp.Rate()
	rp.Feedback(0, Feedback{CPID: 1, Qoff: -100})
	if rp.Rate() != r {
		t.Error("CP 1's positive feedback honoured after the association moved to CP 2")
	}
	rp.Feedback(0, Feedback{CPID: 2, Qoff: -100})
	if rp.Rate() <= r {
		t.Error("CP 2's positive feedback ignored")
	}
}

func TestECMRPRTTAverage(t *testing.T) {
	rp := newECMRP(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1})
	rp.Feedback(200*Microsecond, Feedback{CPID: 1, Qoff: -10, Sent: 100 * Microsecond})
	if want := 100e-6 / 8; !near(rp.RTTAvg(), want) {
		t.Errorf("RTTavg %g, want 2^-3 * 100 us", rp.RTTAvg())
	}
	rp.Feedback(400*Microsecond, Feedback{CPID: 1, Qoff: 10, Sent: 200 * Microsecond})
	if want := 100e-6/8*7/8 + 200e-6/8; !near(rp.RTTAvg(), want) {
		t.Errorf("RTTavg %g, want %g", rp.RTTAvg(), want)
	}
	rp.Feedback(500*Microsecond, Feedback{CPID: 2, Qoff: 10, Sent: 300 * Microsecond})
	if rp.RTTAvg() != 0 {
		t.Errorf("RTTavg %g after a new CP, want 0", rp.RTTAvg())
	}
}

// TestECMRPTimeoutAndBackOff covers section 3.3.2: ECM(0,0) stops the rate
// limiter for Tmax*urand(), every message is ignored meanwhile, the restart
// is at Rmin, then Tmax doubles and Rmin halves until a positive feedback.
func TestECMRPTimeoutAndBackOff(t *testing.T) {
	rp := newECMRP(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1}) // ACTIVE, Td armed
	now := 100 * Microsecond
	rp.Feedback(now, Feedback{CPID: 3}) // ECM(0,0)
	if rp.State() != ECMTimeout || rp.Rate() != 0 || rp.CPID() != 3 {
		t.Fatalf("after ECM(0,0): %v rate %g cpid %d", rp.State(), rp.Rate(), rp.CPID())
	}
	restart := rp.Timer()
	if restart < now || restart >= now+10*Microsecond {
		t.Fatalf("restart timer %d, want in [now, now + Tmax)", restart)
	}
	// Every message is ignored during the timeout, ECM(0,0) included.
	for _, fb := range []Feedback{{CPID: 3, Qoff: 375, Qdelta: 750}, {CPID: 3, Qoff: -300}, {CPID: 1}} {
		rp.Feedback(now, fb)
		if rp.State() != ECMTimeout || rp.Rate() != 0 || rp.Timer() != restart || rp.CPID() != 3 {
			t.Fatalf("message %+v during timeout changed %v rate %g timer %d", fb, rp.State(), rp.Rate(), rp.Timer())
		}
	}
	rp.Expire(restart)
	if rp.State() != ECMActive || rp.Rate() != 100e6 || rp.Rmin() != 50e6 || rp.Tmax() != 20*Microsecond {
		t.Fatalf("restart: %v rate %g Rmin %g Tmax %d", rp.State(), rp.Rate(), rp.Rmin(), rp.Tmax())
	}
	if rp.Timer() <= restart {
		t.Fatalf("timer %d not past the restart", rp.Timer())
	}
	// A second ECM(0,0): longer random timer, restart at the halved Rmin.
	var longest Time
	for i := 0; i < 50; i++ {
		r := *rp
		r.Feedback(restart, Feedback{CPID: 3})
		longest = max(longest, r.Timer()-restart)
		if r.Timer()-restart >= 20*Microsecond {
			t.Fatalf("second timeout %d, want below Tmax = 20 us", r.Timer()-restart)
		}
	}
	if longest < 10*Microsecond {
		t.Errorf("longest of 50 second timeouts %d ps: Tmax did not double", longest)
	}
	rp.Feedback(restart, Feedback{CPID: 3})
	rp.Expire(rp.Timer())
	if rp.Rate() != 50e6 || rp.Rmin() != 25e6 || rp.Tmax() != 40*Microsecond {
		t.Fatalf("second restart: rate %g Rmin %g Tmax %d", rp.Rate(), rp.Rmin(), rp.Tmax())
	}
	// A negative feedback keeps the back-off; the first positive one from
	// the associated CP restores the initial Rmin and Tmax.
	rp.Feedback(restart, Feedback{CPID: 3, Qoff: 10})
	if rp.Rmin() != 25e6 {
		t.Error("negative feedback reset Rmin")
	}
	rp.Feedback(restart, Feedback{CPID: 4, Qoff: -10})
	if rp.Rmin() != 25e6 {
		t.Error("another CP's positive feedback reset Rmin")
	}
	rp.Feedback(restart, Feedback{CPID: 3, Qoff: -10})
	if rp.Rmin() != 100e6 || rp.Tmax() != 10*Microsecond {
		t.Errorf("after positive feedback Rmin %g Tmax %d, want 100 Mbps and 10 us", rp.Rmin(), rp.Tmax())
	}
	// ECM(0,0) also stops an inactive rate limiter.
	rp = newECMRP(t, nil)
	rp.Feedback(0, Feedback{CPID: 2})
	if rp.State() != ECMTimeout || rp.Rate() != 0 {
		t.Errorf("ECM(0,0) to INACTIVE: %v rate %g", rp.State(), rp.Rate())
	}
}

// TestECMRPBackOffBounds checks that repeated timeouts double Tmax up to 1 s
// and halve Rmin down to 1 Mbps, the ends of section 3.3.2's configuration
// ranges, and that without the bounds the pseudo-code's back-off goes on.
func TestECMRPBackOffBounds(t *testing.T) {
	restarts := func(rp *ECMReactionPoint, k int) {
		for i := 0; i < k; i++ {
			rp.Feedback(rp.Timer(), Feedback{CPID: 1}) // ECM(0,0)
			rp.Expire(rp.Timer())
		}
	}
	rp := newECMRP(t, nil)
	restarts(rp, 6) // Rmin 100 Mbps / 2^6 = 1.5625 Mbps, Tmax 640 us
	if rp.Rmin() != 100e6/64 || rp.Tmax() != 640*Microsecond {
		t.Fatalf("after 6 restarts Rmin %g Tmax %d", rp.Rmin(), rp.Tmax())
	}
	restarts(rp, 1)
	if rp.Rmin() != 1e6 {
		t.Errorf("after 7 restarts Rmin %g, want the 1 Mbps floor", rp.Rmin())
	}
	restarts(rp, 10) // Tmax 10 us * 2^17 = 1.31 s
	if rp.Tmax() != Second || rp.Rmin() != 1e6 {
		t.Errorf("after 17 restarts Tmax %d Rmin %g, want 1 s and 1 Mbps", rp.Tmax(), rp.Rmin())
	}
	if rate := rp.Rate(); rate != 1e6 {
		t.Errorf("restart rate %g, want the floor", rate)
	}
	rp = newECMRP(t, Values{"tmax_ceiling": 1e3, "rmin_floor": 0})
	restarts(rp, 17)
	if rp.Tmax() != 10*Microsecond<<17 || rp.Rmin() != 100e6/(1<<17) {
		t.Errorf("unbounded: after 17 restarts Tmax %d Rmin %g", rp.Tmax(), rp.Rmin())
	}
}

// TestECMRPQBitSign checks both readings of the Q-bit step: with w = 1/4,
// Qoff = +Qeq and a saturated Qdelta = -2Qeq, Fb = -Qeq/2 < 0, so the
// pseudo-code (3.3.3) cuts the rate by min(2*alpha, 1) while section
// 3.3.2's text, keyed on Qdelta < 0, adds 2*beta*C. With w = 2 they agree.
func TestECMRPQBitSign(t *testing.T) {
	msg := Feedback{CPID: 1, Qoff: ecmQeqPages, Qdelta: -2 * ecmQeqPages, QSat: true}
	for _, c := range []struct {
		w, byQdelta, want float64
	}{
		{0.25, 0, 5e9 * 0.8}, // Fb < 0: R *= 1 - min(2*alpha, 1)
		{0.25, 1, 7e9},       // Qdelta < 0: R += 2*beta*C
		{2, 0, 7e9},          // Fb = 1125 pages > 0
		{2, 1, 7e9},
	} {
		rp := newECMRP(t, Values{"w": c.w, "qsat_by_qdelta": c.byQdelta})
		rp.Feedback(0, Feedback{CPID: 1, Qoff: 1}) // ACTIVE at C/2, associated with CP 1
		rp.Feedback(Microsecond, msg)
		if !near(rp.Rate(), c.want) {
			t.Errorf("w %g qsat_by_qdelta %g: rate %g, want %g", c.w, c.byQdelta, rp.Rate(), c.want)
		}
	}
	// Under the text's reading a Q-bit message with Qdelta > 0 is negative
	// feedback whatever Fb says: it instantiates a limiter and moves the
	// association; under the pseudo-code's, Fb > 0 leaves an idle flow alone.
	up := Feedback{CPID: 2, Qoff: -ecmQeqPages, Qdelta: 2 * ecmQeqPages, QSat: true} // w = 1/4: Fb = +Qeq/2
	for _, byQdelta := range []float64{0, 1} {
		rp := newECMRP(t, Values{"w": 0.25, "qsat_by_qdelta": byQdelta})
		rp.Feedback(0, up)
		if got, want := rp.State(), map[float64]ECMState{0: ECMInactive, 1: ECMActive}[byQdelta]; got != want {
			t.Errorf("qsat_by_qdelta %g: state %v, want %v", byQdelta, got, want)
		}
	}
}

// TestECMRPSelfIncrease covers the Td timer: +Rd every Td while ACTIVE,
// capped at C, suspended during a timeout.
func TestECMRPSelfIncrease(t *testing.T) {
	rp := newECMRP(t, Values{"ri_fraction": 0.999})
	rp.Feedback(300*Microsecond, Feedback{CPID: 1, Qoff: 1})
	r := rp.Rate()
	for i := 1; i <= 12; i++ {
		tick := rp.Timer()
		if tick != Time(i)*Millisecond {
			t.Fatalf("tick %d at %d, want %d ms", i, tick, i)
		}
		rp.Expire(tick)
		want := math.Min(r+float64(i)*1e6, 10*gbps)
		if !near(rp.Rate(), want) {
			t.Fatalf("after tick %d rate %g, want %g", i, rp.Rate(), want)
		}
	}
	if rp.Rate() != 10*gbps {
		t.Fatalf("rate %g, want saturated at C", rp.Rate())
	}
	// During a timeout there are no ticks.
	rp.Feedback(13*Millisecond, Feedback{CPID: 1})
	if rp.Timer() > 13*Millisecond+10*Microsecond {
		t.Fatalf("timer %d during timeout, want only the restart", rp.Timer())
	}
	rp.Expire(rp.Timer())
	if rp.Rate() != 100e6 {
		t.Fatalf("restart rate %g", rp.Rate())
	}
	next := rp.Timer()
	if next != 14*Millisecond {
		t.Errorf("after the restart the next tick is %d, want 14 ms", next)
	}
	rp.Expire(next)
	if !near(rp.Rate(), 101e6) {
		t.Errorf("rate %g after a tick, want Rmin + Rd", rp.Rate())
	}
}

func TestECMRPReclaim(t *testing.T) {
	rp := newECMRP(t, Values{"ri_fraction": 1})
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1}) // ACTIVE at Ri = C
	if rp.Transmit(0, 1500, false) || rp.State() != ECMActive {
		t.Fatal("reclaimed with a backlog")
	}
	if !rp.Transmit(0, 1500, true) || rp.State() != ECMInactive || rp.CPID() != 0 || rp.Timer() != Never {
		t.Fatalf("not reclaimed at C with an empty queue: %v cpid %d timer %d", rp.State(), rp.CPID(), rp.Timer())
	}
	rp = newECMRP(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Qoff: 1}) // ACTIVE at C/2
	if rp.Transmit(0, 1500, true) || rp.State() != ECMActive || rp.CPID() != 1 {
		t.Error("reclaimed below line rate")
	}
}

// TestECMTwoCongestionPoints puts two CPs on one flow (a parking lot with
// one RP) and checks that positive feedback comes only from, and is only
// honoured from, the CP the rate limiter is associated with (sections 3.1,
// 3.2 and 3.3).
func TestECMTwoCongestionPoints(t *testing.T) {
	cp1, cp2 := newECMCP(t, 1, nil), newECMCP(t, 2, nil)
	rp := newECMRP(t, nil)
	deliver := func(cp *ECMCongestionPoint, qlen int) (bool, Feedback) {
		_, sent, fb := arriveUntilSample(cp, 1500, rp.CPID(), qlen)
		if sent {
			rp.Feedback(0, fb)
		}
		return sent, fb
	}
	// CP 2 is congested: it activates the limiter and owns it.
	deliver(cp2, 40e3)
	if rp.CPID() != 2 || rp.State() != ECMActive {
		t.Fatalf("after CP 2's negative feedback: cpid %d %v", rp.CPID(), rp.State())
	}
	// CP 1 below Qeq: the frame's CM-Tag names CP 2, so no positive feedback.
	cp1.queueOld = 5e3 / 64
	if sent, fb := deliver(cp1, 5e3); sent {
		t.Fatalf("CP 1 sent positive feedback %+v to a flow associated with CP 2", fb)
	}
	// Even if CP 1 sent one (qoff > 0 but Fb > 0: queue falling fast), the
	// RP ignores it.
	r := rp.Rate()
	cp1.queueOld = 80e3 / 64
	sent, fb := deliver(cp1, 30e3)
	if !sent || -(fb.Qoff+2*fb.Qdelta) <= 0 {
		t.Fatalf("setup: CP 1 sent %v %+v, want a positive Fb", sent, fb)
	}
	if rp.Rate() != r {
		t.Fatal("RP honoured CP 1's positive feedback while associated with CP 2")
	}
	// CP 2 drains: its positive feedback reaches the flow and raises it.
	cp2.queueOld = 10e3 / 64
	if sent, _ := deliver(cp2, 10e3); !sent || rp.Rate() <= r {
		t.Fatalf("CP 2's positive feedback: sent %v rate %g (was %g)", sent, rp.Rate(), r)
	}
	// CP 1 congests too: its negative feedback moves the association.
	deliver(cp1, 40e3)
	if rp.CPID() != 1 {
		t.Fatalf("cpid %d after CP 1's negative feedback", rp.CPID())
	}
	r = rp.Rate()
	cp2.queueOld = 10e3 / 64
	if sent, _ := deliver(cp2, 10e3); sent || rp.Rate() != r {
		t.Fatal("CP 2 still raised the flow after the association moved to CP 1")
	}
}
