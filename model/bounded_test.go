package model

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"testing"

	"qcnlab/algos"
)

// AdvanceBounded returns at bounded work, whatever the simulated time a
// step holds, and a run driven by it in small bites gives the numbers one
// Run gives, bit for bit: it stops between two events and goes on where it
// stopped.
func TestAdvanceBoundedStopsAtBoundedWork(t *testing.T) {
	sc, err := algos.Lookup("qcn")
	if err != nil {
		t.Fatal(err)
	}
	mk := func() (Config, func() uint64) {
		cfg := fabric(sc, fatTree4(t, 150e3), Permutation(16, 1))
		cfg.Duration, cfg.Warmup = 2*ms, 500*us
		cfg.Phases = []algos.Time{ms}
		v, err := sc.Resolve(cfg.Network(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Params = v
		h := fnv.New64a()
		cfg.OnSample = func(s *Sample) { fmt.Fprint(h, *s) }
		return cfg, h.Sum64
	}
	cfg, hash := mk()
	_, wantSum := run(t, cfg)
	wantHash := hash()

	const bite = 1000
	cfg, hash = mk()
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	calls, most := 0, uint64(0)
	for !sim.Done() {
		before := sim.Events()
		sim.AdvanceBounded(cfg.Duration, bite)
		most = max(most, sim.Events()-before)
		if calls++; calls > 1e6 {
			t.Fatal("no progress")
		}
	}
	// One event more than the bite at most, and a few frames its host
	// releases on the way.
	if most > bite+16 {
		t.Errorf("a call handled %d events, the bound is %d", most, bite)
	}
	if n := sim.Events(); calls < int(n/bite) {
		t.Errorf("%d calls for %d events", calls, n)
	}
	got, _ := json.Marshal(sim.Summary())
	want, _ := json.Marshal(wantSum)
	if string(got) != string(want) || hash() != wantHash {
		t.Errorf("in bites of %d events the run differs from one Run:\n%s\n%s", bite, got, want)
	}
}
