package algos

import (
	"math"
	"testing"
)

func newTimely(t *testing.T, over Values) *TimelySender {
	t.Helper()
	_, v := describe(t, "timely", net10G, over)
	return NewTimelySender(SenderEnv{Network: net10G, LineRate: 10e9, BaseRTT: 10 * Microsecond}, v)
}

const us = Microsecond

// rtt feeds s one ACK whose sample is d, acknowledging up to seq.
func rttSample(s Sender, now Time, d Time, seq int64) {
	s.OnAck(now, &Ack{Seq: seq, Sent: now - d})
}

func TestTimelyDefaults(t *testing.T) {
	_, v := describe(t, "timely", net10G, nil)
	want := Values{"ewma_alpha": 0.875, "beta": 0.8, "t_low": 50e-6, "t_high": 500e-6, "min_rtt": 20e-6,
		"delta": 10e6, "hai_after": 5, "r_hai": 50e6, "hai_count": TimelyHAIGradient, "update": TimelyPerCompletion,
		"min_rate": 10e6, "window": 0}
	for k, x := range want {
		if v[k] != x {
			t.Errorf("paper: %s = %g, want %g", k, v[k], x)
		}
	}
	_, v = describe(t, "timely", Network{Capacity: 100e9, LineRate: 100e9, FrameBytes: 1000}, Values{"preset": TimelyPresetHPCC})
	for k, x := range (Values{"delta": 100e6, "r_hai": 500e6, "min_rate": 1e9, "update": TimelyPerWindow, "hai_count": TimelyHAIIncreases}) {
		if v[k] != x {
			t.Errorf("hpcc at 100 Gbps: %s = %g, want %g (run.py:133-134)", k, v[k], x)
		}
	}
}

// TestTimelyRegions follows Algorithm 1 through each of its regions.
func TestTimelyRegions(t *testing.T) {
	s := newTimely(t, nil)
	s.r = 5e9
	rttSample(s, 100*us, 100*us, 1000) // the first sample only sets prev_rtt
	if s.Rate() != 5e9 {
		t.Fatalf("the first sample moved the rate to %g", s.Rate())
	}
	// 120 us: new_rtt_diff 20 us, rtt_diff = 0.875*20 us, gradient 0.875:
	// rate *= 1 - 0.8*0.875.
	rttSample(s, 200*us, 120*us, 2000)
	if g := s.Gradient(); math.Abs(g-0.875) > 1e-12 {
		t.Fatalf("gradient %g, want 0.875", g)
	}
	r := 5e9 * (1 - 0.8*0.875)
	if math.Abs(s.Rate()-r) > 1e-3 {
		t.Fatalf("positive gradient: rate %g, want %g", s.Rate(), r)
	}
	// 110 us: new diff -10 us, rtt_diff = 0.125*17.5 - 0.875*10 = -6.5625
	// us: the gradient is negative, the rate grows by delta.
	rttSample(s, 300*us, 110*us, 3000)
	if g := s.Gradient(); math.Abs(g-(-6.5625/20)) > 1e-12 {
		t.Fatalf("gradient %g, want %g", g, -6.5625/20)
	}
	r += 10e6
	if math.Abs(s.Rate()-r) > 1e-3 {
		t.Fatalf("negative gradient: rate %g, want %g", s.Rate(), r)
	}
	// Above T_high the cut is beta*(1 - T_high/rtt), whatever the gradient.
	rttSample(s, 400*us, 600*us, 4000)
	r *= 1 - 0.8*(1-500.0/600)
	if math.Abs(s.Rate()-r) > 1e-3 {
		t.Fatalf("above T_high: rate %g, want %g", s.Rate(), r)
	}
	// Below T_low the rate grows by delta even on a rising RTT.
	rttSample(s, 500*us, 40*us, 5000)
	s.rttDiff = 0 // forget the fall from 600 us, so that 45 us is a rise
	rttSample(s, 600*us, 45*us, 6000)
	r += 2 * 10e6
	if s.Gradient() <= 0 || math.Abs(s.Rate()-r) > 1e-3 {
		t.Fatalf("below T_low: gradient %g rate %g, want a positive gradient and %g", s.Gradient(), s.Rate(), r)
	}
	// A huge gradient floors the factor at 0 and the rate at min_rate.
	rttSample(s, 700*us, 400*us, 7000)
	if s.Rate() != 10e6 {
		t.Fatalf("rate after a steep rise %g, want min_rate 10e6", s.Rate())
	}
}

// TestTimelyHAIPaper checks the paper's hyper-active increase: N*delta once
// the gradient has been negative for five completions in a row.
func TestTimelyHAIPaper(t *testing.T) {
	s := newTimely(t, nil)
	s.r = 1e9
	now, d := Time(0), 400*us
	rttSample(s, now, d, 0)
	r := 1e9
	for i := 1; i <= 7; i++ {
		now += 100 * us
		d -= 10 * us // falling RTT between T_low and T_high: negative gradients
		rttSample(s, now, d, int64(i))
		step := 10e6
		if i >= 5 {
			step = 50e6
		}
		r += step
		if math.Abs(s.Rate()-r) > 1e-3 {
			t.Fatalf("completion %d: rate %g, want %g", i, s.Rate(), r)
		}
	}
	// One rising RTT (a cut) restarts the count.
	now += 100 * us
	d += 100 * us
	rttSample(s, now, d, 8)
	r = s.Rate()
	now += 100 * us
	d -= 100 * us
	rttSample(s, now, d, 9)
	if s.Gradient() >= 0 || math.Abs(s.Rate()-(r+10e6)) > 1e-3 {
		t.Fatalf("after a cut: gradient %g, rate step %g, want delta", s.Gradient(), s.Rate()-r)
	}
}

// TestTimelyHPCCReading checks the HPCC code's reading (rdma-hw.cc:923-990):
// one update per window of data, RATE_HAI on the increase after five in a
// row, in any region.
func TestTimelyHPCCReading(t *testing.T) {
	s := newTimely(t, Values{"preset": TimelyPresetHPCC})
	s.r = 2e9
	seq := sendFrames(s, 0, 10, 1000)
	rttSample(s, 10*us, 10*us, 1000) // first: lastUpdateSeq = 10000, prev_rtt = 10 us
	r := 2e9
	for i := 1; i <= 7; i++ {
		// ACKs inside the window do nothing (FastReactTimely is empty).
		rttSample(s, Time(i)*100*us, 300*us, seq)
		if s.Rate() != r {
			t.Fatalf("an ACK inside the window moved the rate to %g", s.Rate())
		}
		seq = sendFrames(s, seq, 10, 1000)
		// The first ACK past it updates, below T_low: an increase; the
		// sixth in a row steps RATE_HAI.
		rttSample(s, Time(i)*100*us+1, 10*us, seq-9000)
		step := 10e6
		if i >= 6 {
			step = 50e6
		}
		r += step
		if math.Abs(s.Rate()-r) > 1e-3 {
			t.Fatalf("update %d: rate %g, want %g", i, s.Rate(), r)
		}
	}
}

func TestTimelyWindowAndCap(t *testing.T) {
	s := newTimely(t, nil)
	if s.Window() != 0 || s.Rate() != 10e9 {
		t.Errorf("start: window %g rate %g, want no window and line rate", s.Window(), s.Rate())
	}
	rttSample(s, 10*us, 10*us, 1)
	rttSample(s, 20*us, 10*us, 2)
	if s.Rate() != 10e9 {
		t.Errorf("an increase went past line rate: %g", s.Rate())
	}
	w := newTimely(t, Values{"window": 1})
	w.r = 5e9
	if want := 10e9 * 10e-6 / 8 / 2; w.Window() != want {
		t.Errorf("timely_vwin window %g, want BDP*R/C = %g", w.Window(), want)
	}
}
