package model

import (
	"math"
	"slices"
	"testing"

	"qcnlab/algos"
)

// On a fabric, fairness is judged on what the flows deliver, as Jain's
// index is: under none, two flows into one host and a third alone all send
// at line rate, but deliver 10 Gbps between them and 10. Such a run is never "fair
// after" anything.
func TestFabricFairnessJudgesDeliveredRates(t *testing.T) {
	cfg := fabric(noneScheme(t), fatTree4(t, 150e3), []Flow{{From: 0, To: 2}, {From: 1, To: 2}, {From: 4, To: 8}})
	cfg.Params = algos.Values{}
	cfg.Duration = 5 * ms
	cfg.OnSample = func(*Sample) {} // the samples' rates are computed for someone who looks
	sim, sum := run(t, cfg)
	if j := sum.Jain(); j > 0.95 {
		t.Fatalf("Jain %g: the flows should not share fairly", j)
	}
	if sum.TimeToFairness != nil {
		t.Errorf("time to fairness %g s, with Jain's index %.3f", *sum.TimeToFairness, sum.Jain())
	}
	// The samples' delivered rates: 10 Gbps in all into host 2, 10 to
	// host 8; the rates at the first port, 10 each.
	d, r := sim.sample.Delivered, sim.sample.Rates
	if len(d) != 3 || min(d[0], d[1]) > 6e9 || d[0]+d[1] > 10.1e9 || d[2] < 9e9 || r[0] < 9e9 || r[1] < 9e9 {
		t.Errorf("delivered %v, at the first port %v", d, r)
	}
	// Alone, two flows into two hosts are fair from their first window.
	cfg.Fabric.Flows = []Flow{{From: 0, To: 2}, {From: 4, To: 8}}
	_, sum = run(t, cfg)
	if sum.TimeToFairness == nil || *sum.TimeToFairness > 0.5e-3 {
		t.Errorf("two flows alone: time to fairness %v", sum.TimeToFairness)
	}
}

// The samples' PFC view: each tier's share of the interval its ports (or
// its hosts' links) were held paused, whose time average is the summary's
// held fraction.
func TestSamplesShowPausesByTier(t *testing.T) {
	ft := fatTree4(t, 300e3)
	flows, err := Incast(ft, 0, 12, 0, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(noneScheme(t), ft, flows)
	cfg.Params = algos.Values{}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1}
	sums := map[string]float64{}
	n := 0
	var names []string
	cfg.OnSample = func(x *Sample) {
		names = x.TierNames
		for k, h := range x.TierHeld {
			if h < 0 || h > 1+1e-9 {
				t.Fatalf("tier %s held %g of an interval", x.TierNames[k], h)
			}
			sums[x.TierNames[k]] += h
		}
		for _, h := range x.Held {
			if h < 0 || h > 1+1e-9 {
				t.Fatalf("a watched port held %g of an interval", h)
			}
		}
		n++
	}
	_, sum := run(t, cfg)
	if len(names) == 0 {
		t.Fatal("no tiers in the samples")
	}
	if !slices.Contains(names, "host") {
		t.Errorf("no host tier in the samples: %q", names)
	}
	for _, tr := range sum.Tiers {
		// Over the whole run (no warm-up), the mean over the samples of
		// the tier's mean is the mean over its ports of their held share.
		got := sums[tr.Tier] / float64(n)
		if math.Abs(got-tr.HeldFractionMean) > 0.01+0.02*tr.HeldFractionMean || (tr.HeldFractionMax > 0.1 && got == 0) {
			t.Errorf("tier %s: samples %.4f, summary mean %.4f max %.4f", tr.Tier, got, tr.HeldFractionMean, tr.HeldFractionMax)
		}
	}
}
