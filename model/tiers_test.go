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
	for _, c := range []struct {
		warmup, duration algos.Time
		ppm              float64 // hosts' clock offsets: a fast clock's link is as busy, not busier
	}{
		{200 * us, ms, 0},
		{200*us + 7, ms + 333, 0},
		{123456789, 987654321, 0},
		{200 * us, ms, 100},
	} {
		cfg := fabric(noneScheme(t), ft, Permutation(16, 1))
		cfg.Warmup, cfg.Duration, cfg.ClockPPM = c.warmup, c.duration, c.ppm
		cfg.Phases = []algos.Time{c.duration/3 + 11, c.duration / 2}
		_, sum := run(t, cfg)
		check := func(where string, tiers []TierSummary) {
			for _, ts := range tiers {
				if ts.Tier != "host" {
					continue
				}
				// A drifting clock's frame time is rounded to the
				// picosecond: 0.5 ps in 1.2 us, under 1e-6.
				tol := 1e-12
				if c.ppm > 0 {
					tol = 1e-6
				}
				if ts.UtilizationMax > 1+tol || ts.UtilizationMean < 1-tol {
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
