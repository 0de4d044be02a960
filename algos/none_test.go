package algos

import "testing"

func TestNoneSendsAtLineRate(t *testing.T) {
	sc, err := Lookup("none")
	if err != nil {
		t.Fatal(err)
	}
	n := Network{Capacity: 10e9, LineRate: 10e9, Sources: 2, Buffer: 150e3, FrameBytes: 1500}
	v, err := sc.Resolve(n, nil)
	if err != nil || len(v) != 0 {
		t.Fatalf("none resolves to %v, %v; want no parameters", v, err)
	}
	rp := sc.NewRP(RPEnv{Network: n, LineRate: 4e9, InitialRate: 1e9}, v)
	cp := sc.NewCP(CPEnv{Network: n}, v)
	var fb Feedback
	for i := Time(0); i < 100; i++ {
		if cp.Arrive(i, &Frame{Bytes: 1500}, int(n.Buffer), &fb) {
			t.Fatal("none's congestion point sent feedback at a full buffer")
		}
		rp.Feedback(i, Feedback{Fb: 63})
		if rp.Transmit(i, 1500, false) {
			t.Fatal("none's reaction point reported a change")
		}
	}
	if rp.Rate() != 4e9 || rp.Timer() != Never || rp.CPID() != 0 {
		t.Errorf("rate %g timer %d CPID %d, want the line rate, no timer, no CPID", rp.Rate(), rp.Timer(), rp.CPID())
	}
}
