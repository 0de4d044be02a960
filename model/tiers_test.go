package model

import (
	"testing"

	"qcnlab/algos"
)

// A host's link that sends without a break reads a utilization of 1 to 12
// digits, over the run's window and over every phase, whatever the window's
// edges cut of the frames on the wire (it read 1.002 over a 1 ms run: a
// frame was counted whole when it started).
func TestHostTierBusyLinkReadsOne(t *testing.T) {
	ft := fatTree4(t, 150e3)
	for _, c := range []struct{ warmup, duration algos.Time }{
		{200 * us, ms},
		{200*us + 7, ms + 333},
		{123456789, 987654321},
	} {
		cfg := fabric(noneScheme(t), ft, Permutation(16, 1))
		cfg.Warmup, cfg.Duration = c.warmup, c.duration
		cfg.Phases = []algos.Time{c.duration/3 + 11, c.duration / 2}
		_, sum := run(t, cfg)
		check := func(where string, tiers []TierSummary) {
			for _, ts := range tiers {
				if ts.Tier != "host" {
					continue
				}
				if ts.UtilizationMax > 1+1e-12 || ts.UtilizationMean < 1-1e-12 {
					t.Errorf("warm-up %d, duration %d, %s: host tier utilization mean %.15f, max %.15f, want 1",
						c.warmup, c.duration, where, ts.UtilizationMean, ts.UtilizationMax)
				}
				return
			}
			t.Errorf("%s: no host tier in %+v", where, tiers)
		}
		check("run", sum.Tiers)
		for i, ph := range sum.Phases {
			check("phase "+string(rune('1'+i)), ph.Tiers)
		}
	}
}
