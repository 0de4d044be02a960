package model

import (
	"math"
	"strings"
	"testing"

	"qcnlab/algos"
)

func fluidConfig(t *testing.T, n int, rate float64) Config {
	sc, _ := algos.Lookup("qcn")
	cfg := baseConfig(sc, n, rate)
	cfg.Model = "fluid"
	cfg.Duration, cfg.Warmup = 200*algos.Millisecond, 100*algos.Millisecond
	v, err := sc.Resolve(cfg.Network(), algos.Values{"q_eq": 33e3})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Params = v
	return cfg
}

func runFluid(t *testing.T, cfg Config) (*Fluid, Summary) {
	t.Helper()
	sim, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Advance(cfg.Duration)
	if !sim.Done() {
		t.Fatal("not done")
	}
	return sim.(*Fluid), sim.Summary()
}

// The fluid model's equilibrium (eqs. 9-13) has the queue at Q_EQ, the link
// full and the sources sharing it equally.
func TestFluidSettlesAtQEq(t *testing.T) {
	_, sum := runFluid(t, fluidConfig(t, 4, 10e9))
	b := sum.Bottlenecks[0]
	if math.Abs(b.QueueMean-33e3) > 0.02*33e3 || b.QueueStd > 0.02*33e3 || b.EmptyFraction != 0 {
		t.Errorf("queue mean %.0f std %.0f empty %.3f, want settled at 33 KB", b.QueueMean, b.QueueStd, b.EmptyFraction)
	}
	if b.Utilization < 0.999 || b.Utilization > 1.0001 {
		t.Errorf("utilization %g", b.Utilization)
	}
	if sum.Jain() < 0.9999 || sum.TimeToFairness == nil || sum.Model != "fluid" {
		t.Errorf("fairness %g, time to fairness %v, model %q", sum.Jain(), sum.TimeToFairness, sum.Model)
	}
	for _, s := range sum.Sources {
		if math.Abs(s.FinalRateBps-2.5e9) > 0.01*2.5e9 {
			t.Errorf("source %d ends at %g bps, want C/4", s.ID, s.FinalRateBps)
		}
	}
}

// Bytes are conserved: what the sources offered left, was dropped, or is
// still queued.
func TestFluidConservesBytes(t *testing.T) {
	cfg := fluidConfig(t, 3, 10e9)
	cfg.Duration, cfg.Warmup = 20*algos.Millisecond, 0
	f, _ := runFluid(t, cfg)
	offered := 0.0
	for _, o := range f.offered {
		offered += o
	}
	if got := f.departed + f.droppedAll + f.q; math.Abs(got-offered) > 1e-6*offered {
		t.Errorf("departed %.0f + dropped %.0f + queued %.0f = %.0f, offered %.0f", f.departed, f.droppedAll, f.q, got, offered)
	}
	if f.droppedAll == 0 {
		t.Error("three line-rate sources into one link dropped nothing at the start")
	}
}

func TestFluidUncongestedSource(t *testing.T) {
	// A QCN limiter started below line rate is active and climbs to the
	// line rate; with a 4 Gbps access link that is 4 Gbps.
	cfg := fluidConfig(t, 1, 4e9)
	cfg.Sources[0].LineRate = 4e9
	_, sum := runFluid(t, cfg)
	b := sum.Bottlenecks[0]
	if b.QueueMax != 0 || math.Abs(b.Utilization-0.4) > 1e-6 || sum.Sources[0].FinalRateBps != 4e9 {
		t.Errorf("queue max %g utilization %g rate %g", b.QueueMax, b.Utilization, sum.Sources[0].FinalRateBps)
	}
}

func TestFluidOnlyForSchemesThatHaveOne(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 1, 1e9)
	cfg.Model = "fluid"
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "no fluid model") {
		t.Errorf("error %v", err)
	}
	cfg.Model = "quantum"
	if _, err := New(cfg); err == nil {
		t.Error("unknown model accepted")
	}
}

// Advance reaches the time it is asked for even when that is less than an
// integration step ahead, so a caller stepping in small slices (the
// workbench at a slow speed) never waits on it.
func TestFluidAdvanceReachesSmallSteps(t *testing.T) {
	cfg := fluidConfig(t, 2, 10e9)
	sim, err := NewFluid(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sim.dt <= 10 {
		t.Fatalf("step %d ps: too small for the test", sim.dt)
	}
	for until := algos.Time(7); until < 20*sim.dt; until += 7 {
		sim.Advance(until)
		if sim.Now() != until {
			t.Fatalf("Advance(%d) reached %d", until, sim.Now())
		}
	}
	if sim.Events() < 18 {
		t.Errorf("%d steps taken for %d ps", sim.Events(), 20*sim.dt)
	}
}
