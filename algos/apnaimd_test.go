package algos

import (
	"math"
	"math/rand/v2"
	"testing"
)

func newAPRP(t *testing.T, initial float64, over Values) *APNAIMDReactionPoint {
	t.Helper()
	return NewAPNAIMDReactionPoint(RPEnv{Network: net10G2, LineRate: 10 * gbps, InitialRate: initial},
		resolve(t, "ap-n-aimd", net10G2, over))
}

// send transmits n frames and reports how many of them changed the rate.
func send(rp ReactionPoint, n int) (changes int) {
	for i := 0; i < n; i++ {
		if rp.Transmit(0, 1500, false) {
			changes++
		}
	}
	return changes
}

func TestAPNAIMDAveragingPoint(t *testing.T) {
	if v := resolve(t, "ap-n-aimd", net10G2, nil); v["averaging_packets"] != 50 {
		t.Errorf("averaging_packets %g, want T/2 = 50 for p = 1%%", v["averaging_packets"])
	}
	if v := resolve(t, "ap-n-aimd", net10G2, Values{"sample_probability": 0.02}); v["averaging_packets"] != 25 {
		t.Errorf("averaging_packets %g for p = 2%%, want 25", v["averaging_packets"])
	}
}

// TestAPNAIMDAveragesOnceAtHalfT: T/2 = 50 packets after a feedback,
// CR = (CR + TR)/2 with TR the rate just before the feedback; then nothing
// until the next feedback.
func TestAPNAIMDAveragesOnceAtHalfT(t *testing.T) {
	rp := newAPRP(t, 10*gbps, nil)
	if send(rp, 500) != 0 || rp.Rate() != 10*gbps {
		t.Fatal("averaged before any feedback")
	}
	rp.Feedback(0, Feedback{CPID: 1, Fb: -100}) // R1 = C(1 - 0.26667)
	r1 := 10 * gbps * (1 - 0.0026667*100)
	if math.Abs(rp.Rate()-r1) > 1e-3 || rp.TargetRate() != 10*gbps {
		t.Fatalf("after feedback CR %g TR %g, want %g and line rate", rp.Rate(), rp.TargetRate(), r1)
	}
	if send(rp, 49) != 0 || math.Abs(rp.Rate()-r1) > 1e-3 {
		t.Fatalf("averaged before 50 packets: CR %g", rp.Rate())
	}
	if !rp.Transmit(0, 1500, false) {
		t.Fatal("the 50th packet did not report a change")
	}
	r2 := (r1 + 10*gbps) / 2
	if math.Abs(rp.Rate()-r2) > 1e-3 {
		t.Fatalf("after 50 packets CR %g, want (CR + TR)/2 = %g", rp.Rate(), r2)
	}
	if send(rp, 10000) != 0 || math.Abs(rp.Rate()-r2) > 1e-3 {
		t.Fatalf("averaged more than once per feedback: CR %g", rp.Rate())
	}
	// The next feedback takes TR from the averaged rate.
	rp.Feedback(0, Feedback{Fb: 20})
	if math.Abs(rp.TargetRate()-r2) > 1e-3 {
		t.Fatalf("TR %g, want the rate just before the feedback %g", rp.TargetRate(), r2)
	}
}

// TestAPNAIMDNoAveragingAfterEarlyFeedback: a feedback before 50 packets
// resets the counter and the pending averaging is dropped; the new one
// comes 50 packets after the new feedback, towards the new TR.
func TestAPNAIMDNoAveragingAfterEarlyFeedback(t *testing.T) {
	rp := newAPRP(t, 5*gbps, nil)
	rp.Feedback(0, Feedback{Fb: 100}) // R1 = 5G + 53.333 Mbps
	ra := rp.Rate()
	if send(rp, 30) != 0 {
		t.Fatal("averaged at 30 packets")
	}
	rp.Feedback(0, Feedback{Fb: -10}) // early: TR = ra, not an average
	if rp.TargetRate() != ra {
		t.Fatalf("TR %g, want %g (no averaging took place)", rp.TargetRate(), ra)
	}
	rb := rp.Rate()
	if send(rp, 49) != 0 || rp.Rate() != rb {
		t.Fatal("counter not reset by the early feedback: averaged before 50 packets after it")
	}
	if send(rp, 1) != 1 || math.Abs(rp.Rate()-(rb+ra)/2) > 1e-3 {
		t.Fatalf("CR %g after 50 packets, want %g", rp.Rate(), (rb+ra)/2)
	}
	// Early feedback after early feedback: never averages.
	for i := 0; i < 20; i++ {
		rp.Feedback(0, Feedback{Fb: 1})
		if send(rp, 49) != 0 {
			t.Fatalf("round %d: averaged before T/2", i)
		}
	}
}

// TestTheorem1 checks Theorem 1 of seed 000 numerically. System 1 is an
// AP-N-AIMD source fed Fb[n]; R1[n] is its rate right after the n-th feedback
// and R2[n] its rate after the averaging that follows (T/2 packets later),
// R_e[n] = (R1[n] + R2[n])/2. System 2 is an N-AIMD source fed
// 3/4 Fb[n] - 1/4 Fb[n-1] (Fb[0] = 0), rate R[n]. With R_e[0] = R[0] the
// theorem says R_e[n] = R[n] for all n.
//
// The equivalence is algebraic for a linear update R += k*Fb: it is tested
// in the additive branch of eq. (14), with Fb[n] in [1, 3] so that both
// systems stay there (3 Fb[n] >= Fb[n-1] keeps System 2's input >= 0) and
// rates well inside [min_rate, line rate]. The multiplicative branch is not
// linear in R, and there the theorem holds only to first order in Gd*Fb.
func TestTheorem1(t *testing.T) {
	r := rand.New(rand.NewPCG(2008, 1))
	const r0 = 1 * gbps
	ap := newAPRP(t, r0, nil)
	sys2 := newNAIMDRP(t, Values{"fb_filter": FbFilterTheorem1}) // System 2 through its parameter
	sys2.rate = r0
	for n := 1; n <= 2000; n++ {
		fb := 1 + 2*r.Float64()
		ap.Feedback(0, Feedback{Fb: fb})
		r1 := ap.Rate()
		send(ap, 50) // the whole sampling interval's averaging
		r2 := ap.Rate()
		re := (r1 + r2) / 2
		sys2.Feedback(0, Feedback{Fb: fb})
		if math.Abs(re-sys2.Rate()) > 1e-6*r0 {
			t.Fatalf("n = %d: R_e %g, System 2 R %g", n, re, sys2.Rate())
		}
	}
	if ap.Rate() < 2*r0 {
		t.Fatalf("rates hardly moved (%g): the test did not exercise the update", ap.Rate())
	}
}

// TestAPNAIMDEarlyFeedbackApply: with early_feedback = "apply" a feedback
// before T/2 packets first does the pending averaging, so TR is the
// averaged rate; with "drop" (the default) TR is the unaveraged one.
func TestAPNAIMDEarlyFeedbackApply(t *testing.T) {
	for _, c := range []struct {
		mode float64
		name string
	}{{EarlyFeedbackDrop, "drop"}, {EarlyFeedbackApply, "apply"}} {
		rp := newAPRP(t, 5*gbps, Values{"early_feedback": c.mode})
		rp.Feedback(0, Feedback{Fb: 100}) // TR = 5G, CR = 5G + 53.333 Mbps
		ra := rp.Rate()
		send(rp, 30)
		rp.Feedback(0, Feedback{Fb: 10}) // early
		want := ra                       // drop: no averaging took place
		if c.mode == EarlyFeedbackApply {
			want = (ra + 5*gbps) / 2
		}
		if math.Abs(rp.TargetRate()-want) > 1e-3 {
			t.Errorf("%s: TR %g after an early feedback, want %g", c.name, rp.TargetRate(), want)
		}
		if r := want + 0.53333*1e6*10; math.Abs(rp.Rate()-r) > 1e-3 {
			t.Errorf("%s: CR %g, want TR + Gi*Ru*Fb = %g", c.name, rp.Rate(), r)
		}
		// A feedback after the averaging point finds nothing pending:
		// both readings agree there.
		send(rp, 50)
		r := rp.Rate()
		rp.Feedback(0, Feedback{Fb: 1})
		if rp.TargetRate() != r {
			t.Errorf("%s: TR %g after a late feedback, want %g", c.name, rp.TargetRate(), r)
		}
	}
}

// TestNAIMDFbFilterTheorem1: fb_filter = "theorem1" applies eq. (14) to
// 3/4 Fb[n] - 1/4 Fb[n-1], with Fb[0] = 0, in both branches; "none" (the
// default) to Fb[n]. AP-N-AIMD has no such parameter: averaging is what the
// filter stands for.
func TestNAIMDFbFilterTheorem1(t *testing.T) {
	if v := resolve(t, "n-aimd", net10G2, nil); v["fb_filter"] != FbFilterNone {
		t.Errorf("fb_filter defaults to %g", v["fb_filter"])
	}
	sc, _ := Lookup("ap-n-aimd")
	if _, ok := sc.Param("fb_filter"); ok {
		t.Error("ap-n-aimd has fb_filter")
	}
	filtered := newNAIMDRP(t, Values{"fb_filter": FbFilterTheorem1})
	plain := newNAIMDRP(t, nil)
	plain.rate, filtered.rate = 5*gbps, 5*gbps
	prev := 0.0
	for _, fb := range []float64{4, -2, -10, 3, 0, 8, -1} {
		filtered.Feedback(0, Feedback{Fb: fb})
		plain.Feedback(0, Feedback{Fb: 0.75*fb - 0.25*prev})
		prev = fb
		if filtered.Rate() != plain.Rate() {
			t.Fatalf("after Fb %g: filtered %g, eq. 14 on the filtered value %g", fb, filtered.Rate(), plain.Rate())
		}
	}
	if plain.Rate() == 5*gbps {
		t.Fatal("the rate never moved")
	}
}
