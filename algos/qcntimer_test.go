package algos

import (
	"math"
	"math/rand/v2"
	"testing"
)

func newQCNTimer(t *testing.T, over Values) *QCNReactionPoint {
	t.Helper()
	s, _ := Lookup("qcn-timer")
	rp := s.NewRP(RPEnv{Network: net10G, LineRate: 10 * gbps, InitialRate: 10 * gbps,
		Rand: rand.New(rand.NewPCG(7, 8))}, resolve(t, "qcn-timer", net10G, over))
	return rp.(*QCNReactionPoint)
}

func TestQCNTimerParams(t *testing.T) {
	s, _ := Lookup("qcn-timer")
	for _, k := range []string{"bc_limit", "r_hai"} {
		if _, ok := s.Param(k); ok {
			t.Errorf("QCN-TIMER has %s, which a timer-only QCN never uses", k)
		}
	}
	v := resolve(t, "qcn-timer", net10G, nil)
	if v["timer_period"] != 10e-3 || v["r_ai"] != 5e6 || v["fast_recovery_th"] != 5 {
		t.Errorf("defaults %v, want QCN's", v)
	}
}

// TestQCNTimerOnlyTimer: the byte counter is disabled, the timer runs FR for
// 5 cycles then AI for ever: never HAI, since si_count stays 0 (lines 67-79,
// and seed 002 eq. 26 has no HAI term).
func TestQCNTimerOnlyTimer(t *testing.T) {
	rp := newQCNTimer(t, nil)
	rp.Feedback(0, Feedback{CPID: 1, Fb: 40})
	cr, tr := rp.Rate(), rp.TargetRate()
	for i := 0; i < 5000; i++ {
		if rp.Transmit(0, 1500, false) {
			t.Fatal("a transmitted frame changed the rate")
		}
	}
	if rp.Rate() != cr {
		t.Fatal("the byte counter raised the rate")
	}
	prev := Time(0)
	for i := 1; i <= 60; i++ {
		next := rp.Timer()
		gap := float64(next - prev)
		p := float64(10 * Millisecond)
		if i > 5 {
			p /= 2 // AI cycles at half length, as QCN's
		}
		if i > 1 && (gap < 0.85*p-1 || gap > 1.15*p+1) {
			t.Fatalf("cycle %d lasted %g ps, want 0.85..1.15 x %g", i, gap, p)
		}
		rp.Expire(next)
		prev = next
		if i > 5 {
			tr += 5e6 // AI, never HAI
		}
		cr = min((cr+tr)/2, 10*gbps)
		if math.Abs(rp.TargetRate()-tr) > 1e-3 || math.Abs(rp.Rate()-cr) > 1e-3 {
			t.Fatalf("cycle %d: TR %g CR %g, want %g and %g", i, rp.TargetRate(), rp.Rate(), tr, cr)
		}
	}
}

// TestQCNTimerFirstCycleRule: lines 38-41 on the timer stage (si_count is
// always 0 without a byte counter, and TR would otherwise never follow CR).
func TestQCNTimerFirstCycleRule(t *testing.T) {
	checkTimerFirstCycleRule(t, newQCNTimer(t, nil), 10*gbps)
}
