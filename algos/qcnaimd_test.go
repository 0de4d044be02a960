package algos

import (
	"math"
	"math/rand/v2"
	"testing"
)

func newQCNAIMD(t *testing.T, over Values) *QCNReactionPoint {
	t.Helper()
	s, _ := Lookup("qcn-aimd")
	rp := s.NewRP(RPEnv{Network: net10G, LineRate: 10 * gbps, InitialRate: 10 * gbps,
		Rand: rand.New(rand.NewPCG(9, 10))}, resolve(t, "qcn-aimd", net10G, over))
	return rp.(*QCNReactionPoint)
}

// TestQCNAIMDAdditiveIncrease: no fast recovery; every byte-counter cycle of
// 0.85..1.15 x 150 KB, never halved, adds R_AI to CR (seed 002 eq. 27).
func TestQCNAIMDAdditiveIncrease(t *testing.T) {
	rp := newQCNAIMD(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Fb: 64}) // CR = C/2 (MIN_DEC_FACTOR)
	cr := rp.Rate()
	if cr != 5*gbps {
		t.Fatalf("CR %g after the decrease, want C/2", cr)
	}
	bytes := 0
	for cycle := 1; cycle <= 30; cycle++ {
		n := 0
		for {
			n += 100
			if rp.Transmit(0, 100, false) {
				break
			}
		}
		bytes += n
		lo, hi := 0.85*150e3, 1.15*150e3+100
		if cycle == 1 {
			lo, hi = 150e3, 150e3+100 // BC_LIMIT after a decrease
		}
		if float64(n) < lo || float64(n) > hi {
			t.Errorf("cycle %d: %d bytes, want [%g, %g] (no half-length cycles)", cycle, n, lo, hi)
		}
		cr += 5e6
		if math.Abs(rp.Rate()-cr) > 1e-3 {
			t.Fatalf("cycle %d: CR %g, want %g (+R_AI per cycle, no FR)", cycle, rp.Rate(), cr)
		}
	}
}

// TestQCNAIMDDecreaseResetsByteCounter: QCN's decrease; every feedback
// restarts the byte counter, even in the first cycle (eq. 28 counts increase
// cycles from the last decrease).
func TestQCNAIMDDecreaseResetsByteCounter(t *testing.T) {
	rp := newQCNAIMD(t, nil)
	rp.Feedback(0, Feedback{Fb: 16})
	want := 10 * gbps * (1 - 16.0/128)
	if rp.Rate() != want {
		t.Fatalf("CR %g, want C(1 - GD*Fb) = %g", rp.Rate(), want)
	}
	for i := 0; i < 90; i++ { // 135 KB of the first 150 KB cycle
		rp.Transmit(0, 1500, false)
	}
	rp.Feedback(0, Feedback{Fb: 8})
	want *= 1 - 8.0/128
	if rp.Rate() != want || rp.TargetRate() != want {
		t.Fatalf("CR %g TR %g, want %g for both", rp.Rate(), rp.TargetRate(), want)
	}
	for i := 0; i < 100; i++ { // 150 KB: the restarted counter is not yet past BC_LIMIT
		if rp.Transmit(0, 1500, false) {
			t.Fatalf("increase after %d frames: the byte counter was not restarted", i+1)
		}
	}
	if !rp.Transmit(0, 1500, false) {
		t.Fatal("no increase after 150 KB + one frame")
	}
}

func TestQCNAIMDTimer(t *testing.T) {
	rp := newQCNAIMD(t, nil)
	rp.Feedback(0, Feedback{Fb: 16})
	cr := rp.Rate()
	for i := 1; i <= 10; i++ {
		before := rp.Timer()
		rp.Expire(before)
		cr += 5e6
		if math.Abs(rp.Rate()-cr) > 1e-3 {
			t.Fatalf("timer cycle %d: CR %g, want %g", i, rp.Rate(), cr)
		}
		if gap := float64(rp.Timer() - before); gap < 0.85*float64(10*Millisecond)-1 {
			t.Fatalf("timer cycle %d: next in %g ps, halved", i, gap)
		}
	}
	off := newQCNAIMD(t, Values{"timer": 0})
	off.Feedback(0, Feedback{Fb: 16})
	if off.Timer() != Never {
		t.Fatalf("timer switched off, armed at %d", off.Timer())
	}
}

func TestQCNAIMDCapsAtLineRate(t *testing.T) {
	rp := newQCNAIMD(t, Values{"r_ai": 1e9})
	rp.Feedback(0, Feedback{Fb: 1})
	for i := 0; i < 1000; i++ {
		rp.Transmit(0, 1500, false)
		if rp.Rate() > 10*gbps {
			t.Fatalf("CR %g above line rate", rp.Rate())
		}
	}
	if rp.Rate() != 10*gbps {
		t.Fatalf("CR %g, want line rate", rp.Rate())
	}
}
