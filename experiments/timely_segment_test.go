package experiments_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"qcnlab/model"
)

// timelyDumbbell runs the default experiment under TIMELY with the
// settings sets and gives its summary.
func timelyDumbbell(t *testing.T, sets ...string) model.Summary {
	t.Helper()
	return dumbbellRun(t, "timely", sets...)
}

// realClocks are a fabric's defaults, set on the dumbbell.
var realClocks = []string{"network.clock_ppm=100", `network.switch_jitter="1.2us"`}

// TIMELY updates its rate only on a completion. With ack_every above
// buffer / (N - 1) (50 KB here) no source has a completion before the
// queue overflows; the chain's lock-step then hands every freed slot to one
// source, and the others, getting no completion, never leave line rate.
// Real clocks break the lock. The README's TIMELY segment paragraph quotes
// what is measured here.
func TestTimelySegmentAboveTheBufferShare(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	quotes := func(q string) {
		t.Helper()
		if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), q) {
			t.Errorf("the README does not say %q", q)
		}
	}

	// 64 KB, the paper's segment, on the chain as it is by default.
	s := timelyDumbbell(t, `transport.ack_every="64KB"`)
	for i, src := range s.Sources {
		if i == 0 {
			if src.ThroughputBps < 9.99e9 || *src.ACKs == 0 {
				t.Errorf("64KB: source 0 delivers %.4g b/s on %d ACKs, want the whole link", src.ThroughputBps, *src.ACKs)
			}
			continue
		}
		// Locked out: nothing delivered, no ACK, no NACK, and the rate
		// it started at, for TIMELY moves only on a completion.
		if src.DeliveredBytes != 0 || *src.ACKs != 0 || *src.NACKs != 0 || src.FinalRateBps != 10e9 {
			t.Errorf("64KB: source %d delivered %d B on %d ACKs and %d NACKs, ends at %.4g b/s; want 0, 0, 0 and line rate",
				i, src.DeliveredBytes, *src.ACKs, *src.NACKs, src.FinalRateBps)
		}
	}
	quotes(fmt.Sprintf("10, 0, 0 and 0 Gbps (%s drops after the warm-up)", thousands(s.Bottlenecks[0].Drops)))

	// 48 KB: every source's first completions come before the overflow.
	s = timelyDumbbell(t, `transport.ack_every="48KB"`)
	for i, src := range s.Sources {
		if src.DeliveredBytes == 0 || *src.ACKs == 0 {
			t.Errorf("48KB: source %d delivered %d B on %d ACKs", i, src.DeliveredBytes, *src.ACKs)
		}
	}
	quotes(fmt.Sprintf("48 KB: %.1f%% used, Jain %.3f", 100*s.Bottlenecks[0].Utilization, *s.JainFairness))

	// Real clocks: no source is locked out, whatever the seed.
	lo, hi := 1.0, 0.0
	for seed := 1; seed <= 4; seed++ {
		for _, every := range []string{"64KB", "96KB"} {
			s = timelyDumbbell(t, append([]string{`transport.ack_every="` + every + `"`, fmt.Sprintf("seed=%d", seed)}, realClocks...)...)
			j := *s.JainFairness
			lo, hi = min(lo, j), max(hi, j)
			var goodput float64
			for i, src := range s.Sources {
				goodput += src.ThroughputBps
				if src.ThroughputBps < 0.5e9 {
					t.Errorf("real clocks, %s, seed %d: source %d delivers %.4g b/s", every, seed, i, src.ThroughputBps)
				}
			}
			// Go-back-N: most of what the link carries is discarded.
			if b := s.Bottlenecks[0]; goodput > b.Utilization*10e9/2 {
				t.Errorf("real clocks, %s, seed %d: %.4g b/s delivered of %.4g b/s carried, want under half",
					every, seed, goodput, b.Utilization*10e9)
			}
		}
	}
	quotes(fmt.Sprintf("Jain %.3f to %.3f", lo, hi))

	// Lossless, as the paper ran it: the gradient cuts to the floor.
	s = timelyDumbbell(t, `transport.ack_every="64KB"`, "network.pfc=true", `network.buffer="600KB"`)
	if s.Bottlenecks[0].Drops != 0 {
		t.Errorf("PFC: %d drops", s.Bottlenecks[0].Drops)
	}
	quotes(fmt.Sprintf("%.1f%% used over the run", 100*s.Bottlenecks[0].Utilization))
}

// thousands writes n with commas between its groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
