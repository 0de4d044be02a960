package algos

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var net10G2 = Network{Capacity: 10 * gbps, LineRate: 10 * gbps, Sources: 2, Buffer: 150e3, FrameBytes: 1500}

func newNAIMDCP(t *testing.T, seed uint64, over Values) *NAIMDCongestionPoint {
	t.Helper()
	return NewNAIMDCongestionPoint(CPEnv{Network: net10G2, CPID: 1, Capacity: 10 * gbps, Buffer: 150e3,
		Rand: rand.New(rand.NewPCG(seed, 1))}, resolve(t, "n-aimd", net10G2, over))
}

func newNAIMDRP(t *testing.T, over Values) *NAIMDReactionPoint {
	t.Helper()
	return NewNAIMDReactionPoint(RPEnv{Network: net10G2, LineRate: 10 * gbps, InitialRate: 10 * gbps},
		resolve(t, "n-aimd", net10G2, over))
}

func TestNAIMDBaselineDefaults(t *testing.T) {
	v := resolve(t, "n-aimd", net10G2, nil)
	want := Values{"q_eq": 16 * 1500, "w": 2, "fb_unit": 1500, "sample_probability": 0.01,
		"gi": 0.53333, "ru": 1e6, "gd": 0.0026667, "min_rate": 10e6}
	for k, x := range want {
		if v[k] != x {
			t.Errorf("%s = %g, want %g (seed 000 section III-B)", k, v[k], x)
		}
	}
	// Q_eq is 16 packets of whatever frame the network sends.
	jumbo := net10G2
	jumbo.FrameBytes = 9000
	if v := resolve(t, "n-aimd", jumbo, nil); v["q_eq"] != 16*9000 || v["fb_unit"] != 9000 {
		t.Errorf("9000 B frames: q_eq %g fb_unit %g", v["q_eq"], v["fb_unit"])
	}
}

// TestNAIMDFbEquation1 checks Fb = -(Qoff + w*Qdelta), Qoff = Q - Q_eq,
// Qdelta = Q - Q_old, in packets of 1500 B, both signs, unclamped.
func TestNAIMDFbEquation1(t *testing.T) {
	cp := newNAIMDCP(t, 1, nil)
	pk := 1500.0
	cp.qlenOld = 18 * pk
	for _, c := range []struct{ q, want float64 }{
		{20, -((20 - 16) + 2*(20-18))}, // -8: above Q_eq and rising
		{16, -((16 - 16) + 2*(16-18))}, // +4: at Q_eq and falling
		{17, -((17 - 16) + 2*(17-18))}, // +1
		{0, -((0 - 16) + 2*(0-18))},    // +52: empty queue, no clamp
		{200, -((200 - 16) + 2*(200-18))},
	} {
		if got := cp.Fb(c.q * pk); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Fb(Q=%g pk, Q_old=18 pk) = %g, want %g", c.q, got, c.want)
		}
	}
	// In 64-byte pages the same queue gives 1500/64 times the value.
	pages := newNAIMDCP(t, 1, Values{"fb_unit": 64})
	pages.qlenOld = 18 * pk
	if got, want := pages.Fb(20*pk), -8*pk/64; math.Abs(got-want) > 1e-9 {
		t.Errorf("Fb in pages %g, want %g", got, want)
	}
}

// TestNAIMDSamplesOnePercent: about 1% of frames are sampled, independently
// (mean gap T = 100 frames), each sample is fed back whatever the sign of
// Fb, 0 included, and sets Q_old.
func TestNAIMDSamplesOnePercent(t *testing.T) {
	cp := newNAIMDCP(t, 42, nil)
	const frames = 1000000
	sampled, pos, neg, zero := 0, 0, 0, 0
	r := rand.New(rand.NewPCG(99, 99))
	qOld := 0.0
	for i := 0; i < frames; i++ {
		q := float64(r.IntN(40)) * 1500 // 0..39 packets, so Fb takes every sign
		var fb Feedback
		if !cp.Arrive(0, &Frame{Source: 3, Bytes: 1500, Sent: 77}, int(q), &fb) {
			continue
		}
		sampled++
		want := -((q - 24000) + 2*(q-qOld)) / 1500
		if fb.Fb != want || fb.Qoff != q-24000 || fb.Qdelta != q-qOld || fb.CPID != 1 || fb.Sent != 77 {
			t.Fatalf("sample %d: feedback %+v, want Fb %g Qoff %g Qdelta %g", sampled, fb, want, q-24000, q-qOld)
		}
		qOld = q
		switch {
		case fb.Fb > 0:
			pos++
		case fb.Fb < 0:
			neg++
		default:
			zero++
		}
	}
	// Binomial(1e6, 0.01): sd 99.5; 4 sd either side.
	if sampled < 9600 || sampled > 10400 {
		t.Errorf("%d samples in %d frames, want about 1%%", sampled, frames)
	}
	if pos == 0 || neg == 0 || zero == 0 {
		t.Errorf("feedback signs: %d positive, %d negative, %d zero: every sign must be sent", pos, neg, zero)
	}
}

func TestNAIMDOwnRandomStream(t *testing.T) {
	a, b := newNAIMDCP(t, 7, nil), newNAIMDCP(t, 7, nil)
	for i := 0; i < 10000; i++ {
		var fa, fb Feedback
		if a.Arrive(0, &Frame{Bytes: 1500}, 30000, &fa) != b.Arrive(0, &Frame{Bytes: 1500}, 30000, &fb) {
			t.Fatalf("frame %d: same seed, different sampling", i)
		}
	}
}

// TestNAIMDEquation14 walks both branches of eq. (14) and the clamps.
func TestNAIMDEquation14(t *testing.T) {
	rp := newNAIMDRP(t, nil)
	if rp.Rate() != 10*gbps || rp.Timer() != Never {
		t.Fatalf("starts at %g with timer %d, want line rate and no timer", rp.Rate(), rp.Timer())
	}
	rp.Feedback(0, Feedback{CPID: 2, Fb: -50}) // 14b: R *= 1 - Gd*50
	want := 10 * gbps * (1 - 0.0026667*50)
	if math.Abs(rp.Rate()-want) > 1e-3 || rp.CPID() != 2 {
		t.Fatalf("after Fb = -50: R %g CPID %d, want %g and 2", rp.Rate(), rp.CPID(), want)
	}
	rp.Feedback(0, Feedback{CPID: 1, Fb: 10}) // 14a: R += Gi*Ru*10
	want += 0.53333 * 1e6 * 10
	if math.Abs(rp.Rate()-want) > 1e-3 {
		t.Fatalf("after Fb = +10: R %g, want %g", rp.Rate(), want)
	}
	rp.Feedback(0, Feedback{Fb: 0}) // 14a with Fb = 0: no change
	if math.Abs(rp.Rate()-want) > 1e-3 {
		t.Fatalf("Fb = 0 changed R to %g", rp.Rate())
	}
	for i := 0; i < 10; i++ { // clamp at line rate
		rp.Feedback(0, Feedback{Fb: 1e4})
	}
	if rp.Rate() != 10*gbps {
		t.Fatalf("R %g, want clamped to line rate", rp.Rate())
	}
	rp.Feedback(0, Feedback{Fb: -1e4}) // Gd*|Fb| > 1: to the floor, never negative
	if rp.Rate() != 10e6 {
		t.Fatalf("R %g after Gd*|Fb| > 1, want min_rate", rp.Rate())
	}
	for i := 0; i < 100; i++ {
		rp.Feedback(0, Feedback{Fb: -300})
	}
	if rp.Rate() != 10e6 {
		t.Fatalf("R %g, want clamped to min_rate", rp.Rate())
	}
	if rp.Transmit(0, 1500, false) {
		t.Fatal("Transmit changed an N-AIMD rate")
	}
}

func TestNAIMDInitialRate(t *testing.T) {
	rp := NewNAIMDReactionPoint(RPEnv{Network: net10G2, LineRate: 10 * gbps, InitialRate: 2 * gbps},
		resolve(t, "n-aimd", net10G2, nil))
	if rp.Rate() != 2*gbps {
		t.Fatalf("starts at %g, want the initial rate", rp.Rate())
	}
}

// TestNAIMDRegularSampling: sampling = "regular" samples exactly every
// T = 1/p frames; with a jitter j each interval lies in T*(1 ± j) and their
// mean stays T.
func TestNAIMDRegularSampling(t *testing.T) {
	sampled := func(cp *NAIMDCongestionPoint, frames int) []int {
		var at []int
		var fb Feedback
		for i := 1; i <= frames; i++ {
			if cp.Arrive(0, &Frame{Source: i % 2, Bytes: 1500}, 24000, &fb) {
				at = append(at, i)
			}
		}
		return at
	}
	at := sampled(newNAIMDCP(t, 1, Values{"sampling": SampleRegular}), 1000)
	if len(at) != 10 {
		t.Fatalf("%d samples in 1000 frames, want 10: %v", len(at), at)
	}
	for k, i := range at {
		if i != 100*(k+1) {
			t.Fatalf("samples at frames %v, want every 100th", at)
		}
	}
	// Every 100th frame of two alternating sources is always source 1's:
	// regular sampling without jitter can starve a source of feedback.
	at = sampled(newNAIMDCP(t, 1, Values{"sampling": SampleRegular, "sample_jitter": 0.3}), 100000)
	lo, hi := 1<<30, 0
	for k := 1; k < len(at); k++ {
		d := at[k] - at[k-1]
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo < 70 || hi > 130 || lo == hi {
		t.Errorf("jittered intervals in [%d, %d], want spread within [70, 130]", lo, hi)
	}
	if n := len(at); n < 980 || n > 1020 {
		t.Errorf("%d samples in 100000 frames with jitter, want about 1000", n)
	}
	// Random sampling is not periodic.
	at = sampled(newNAIMDCP(t, 1, nil), 100000)
	lo, hi = 1<<30, 0
	for k := 1; k < len(at); k++ {
		d := at[k] - at[k-1]
		lo, hi = min(lo, d), max(hi, d)
	}
	if hi-lo < 300 {
		t.Errorf("random sampling intervals in [%d, %d]: too regular for Bernoulli(0.01)", lo, hi)
	}
}

// TestNAIMDSamplingValues: the defaults are the paper's text, and a bad
// value is an error naming the key.
func TestNAIMDSamplingValues(t *testing.T) {
	for _, name := range []string{"n-aimd", "ap-n-aimd"} {
		v := resolve(t, name, net10G2, nil)
		if v["sampling"] != SampleRandom || v["sample_jitter"] != 0 {
			t.Errorf("%s: sampling %g jitter %g, want random and 0", name, v["sampling"], v["sample_jitter"])
		}
		s, _ := Lookup(name)
		if _, err := s.Resolve(net10G2, Values{"sample_jitter": 1.5}); err == nil || !strings.Contains(err.Error(), "sample_jitter") {
			t.Errorf("%s: jitter 1.5: err %v, want one naming sample_jitter", name, err)
		}
		if _, err := s.Resolve(net10G2, Values{"sampling": 2}); err == nil || !strings.Contains(err.Error(), "sampling") {
			t.Errorf("%s: sampling = 2: err %v, want one naming sampling", name, err)
		}
		p, _ := s.Param("sampling")
		if x, err := p.ChoiceValue("regular"); err != nil || x != SampleRegular {
			t.Errorf("%s: \"regular\" reads as %g, %v", name, x, err)
		}
		if _, err := p.ChoiceValue("periodic"); err == nil || !strings.Contains(err.Error(), `"random", "regular"`) {
			t.Errorf("%s: \"periodic\": err %v, want one listing the choices", name, err)
		}
	}
}
