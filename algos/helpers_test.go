package algos

import "testing"

// resolve returns scheme name's values for network n with overrides over.
func resolve(t *testing.T, name string, n Network, over Values) Values {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Resolve(n, over)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkTimerFirstCycleRule checks lines 38-41 for a timer-only QCN reaction
// point starting at lineRate: a feedback inside the first timer cycle keeps
// TR, one after a completed cycle sets TR = CR.
func checkTimerFirstCycleRule(t *testing.T, rp *QCNReactionPoint, lineRate float64) {
	t.Helper()
	rp.Feedback(0, Feedback{Fb: 32})
	rp.Feedback(Microsecond, Feedback{Fb: 8})
	if rp.TargetRate() != lineRate {
		t.Fatalf("feedback inside the first timer cycle moved TR to %g", rp.TargetRate())
	}
	rp.Expire(rp.Timer())
	cr := rp.Rate()
	rp.Feedback(rp.Timer()-1, Feedback{Fb: 8})
	if rp.TargetRate() != cr {
		t.Fatalf("feedback after a timer cycle: TR %g, want CR %g", rp.TargetRate(), cr)
	}
}
