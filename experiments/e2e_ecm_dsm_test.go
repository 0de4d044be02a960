package experiments

import (
	"math"
	"testing"

	"qcnlab/model"
)

// TestECMAndDSMEndToEnd runs ECM and DSM with their default parameters on
// the project's default dumbbell (10 Gbps, 150 KB buffer, 1500-byte frames)
// with 5 greedy sources starting at line rate and 100 us RTT, and checks
// every time-series sample and the summary after the warm-up.
func TestECMAndDSMEndToEnd(t *testing.T) {
	e, err := Parse("e2e_ecm_dsm", []byte(`
duration = "60ms"
warmup = "20ms"
algorithms = ["ecm", "dsm"]
[network]
capacity = "10Gbps"
buffer = "150KB"
frame_size = "1500B"
rtt = "100us"
[sources]
count = 5
[output]
sample_interval = "10us"
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		algorithm   string
		qLow, qHigh float64 // bounds on the mean queue after warm-up
		target      float64
	}{
		// ECM: the AIMD loop sits below Qeq = 16 frames = 24 KB on average.
		{"ecm", 2e3, 24e3, 24e3},
		// DSM: the sliding mode holds the queue at q0 = buffer/2.
		{"dsm", 70e3, 80e3, 75e3},
	} {
		t.Run(c.algorithm, func(t *testing.T) {
			cfg, err := e.Config(c.algorithm)
			if err != nil {
				t.Fatal(err)
			}
			warm := cfg.Warmup
			samples, maxQ := 0, 0
			cfg.OnSample = func(s *model.Sample) {
				samples++
				for i, r := range s.CurrentRates {
					if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
						t.Fatalf("%v: source %d rate limiter at %g", s.Time, i, r)
					}
					if w := s.Rates[i]; math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
						t.Fatalf("%v: source %d window rate %g", s.Time, i, w)
					}
				}
				if q := s.Queues[0]; s.Time >= warm {
					maxQ = max(maxQ, q)
				}
			}
			sim, err := model.NewPacket(cfg)
			if err != nil {
				t.Fatal(err)
			}
			sim.Run()
			sum := sim.Summary()
			b := sum.Bottlenecks[0]
			t.Logf("%s: utilization %.4f, queue mean %.0f std %.0f max %.0f B, empty %.4f, drops %d, feedback %d",
				c.algorithm, b.Utilization, b.QueueMean, b.QueueStd, b.QueueMax, b.EmptyFraction, b.Drops, b.FeedbackFrames)
			if samples != int(cfg.Duration/cfg.SampleInterval) {
				t.Errorf("%d samples, want %d", samples, cfg.Duration/cfg.SampleInterval)
			}
			if b.Utilization < 0.9 || b.Utilization > 1.0001 {
				t.Errorf("utilization %.4f after warm-up, want above 0.9", b.Utilization)
			}
			if b.QueueMean < c.qLow || b.QueueMean > c.qHigh {
				t.Errorf("queue mean %.0f B, want in [%.0f, %.0f]", b.QueueMean, c.qLow, c.qHigh)
			}
			// Bounded: no drop after the warm-up, and room left in the buffer.
			if b.Drops != 0 || float64(maxQ) > 0.9*float64(cfg.Buffer) {
				t.Errorf("after warm-up: %d drops, queue up to %d B of %d", b.Drops, maxQ, cfg.Buffer)
			}
			if b.QEq != c.target {
				t.Errorf("q_eq_bytes %g, want the scheme's target %g", b.QEq, c.target)
			}
			for _, s := range sum.Sources {
				if s.FinalRateBps <= 0 || s.FinalRateBps > cfg.Sources[s.ID].LineRate || s.ThroughputBps <= 0 {
					t.Errorf("source %d: final rate %g, throughput %g", s.ID, s.FinalRateBps, s.ThroughputBps)
				}
			}
		})
	}
}
