package algos

import (
	"math"
	"testing"
)

func newSwift(t *testing.T, hops int, over Values) *SwiftSender {
	t.Helper()
	_, v := describe(t, "swift", net10G, over)
	return NewSwiftSender(SenderEnv{Network: net10G, LineRate: 10e9, BaseRTT: 10 * us, Hops: hops}, v)
}

func TestSwiftDefaults(t *testing.T) {
	_, v := describe(t, "swift", net10G, nil)
	// htsim sim/swift.cpp:605-620, main_swift.cpp:61.
	for k, x := range (Values{"base_target": 20e-6, "hop_scale": Seconds(20e-6 / 6.55).Seconds(), "fs_range": 100e-6, "fs_min_cwnd": 0.1,
		"fs_max_cwnd": 100, "ai": 1, "beta": 0.8, "max_mdf": 0.5, "retx_reset": 5, "min_cwnd": 10,
		"max_cwnd": 1000 * 1500, "initial_window": 15 * 1500}) {
		if math.Abs(v[k]-x) > 1e-12*math.Abs(x) {
			t.Errorf("%s = %g, want %g", k, v[k], x)
		}
	}
}

// TestSwiftTargetDelay checks the target: base + hops*h + flow scaling
// alpha/sqrt(cwnd) + beta clamped to [0, fs_range], alpha and beta chosen so
// that it is fs_range at fs_min_cwnd and 0 at fs_max_cwnd.
func TestSwiftTargetDelay(t *testing.T) {
	s := newSwift(t, 3, nil)
	base, hops := 20e-6, 3*Seconds(20e-6/6.55).Seconds()
	alpha := 100e-6 / (1/math.Sqrt(0.1) - 1/math.Sqrt(100)) // 32.66 us
	for _, c := range []struct{ frames, fs float64 }{
		{100, 0}, {1000, 0}, // at and above fs_max_cwnd: no flow scaling
		{0.1, 100e-6},          // at fs_min_cwnd: fs_range
		{0.01, 100e-6},         // below: clamped to fs_range
		{1, alpha * (1 - 0.1)}, // alpha/sqrt(1) + beta, beta = -alpha/sqrt(100)
		{25, alpha * (0.2 - 0.1)},
	} {
		got := s.TargetDelay(c.frames * 1500)
		if math.Abs(got-(base+hops+c.fs)) > 1e-10 {
			t.Errorf("target at %g frames = %.4f us, want %.4f us", c.frames, got*1e6, (base+hops+c.fs)*1e6)
		}
	}
	if s.TargetDelay(0) != base+hops {
		t.Errorf("target at an empty window %g", s.TargetDelay(0))
	}
}

// TestSwiftIncreaseAndDecrease follows Algorithm 1 on ACKs: additive
// increase below the target, a cut in proportion to the excess above it,
// at most once per RTT.
func TestSwiftIncreaseAndDecrease(t *testing.T) {
	s := newSwift(t, 0, nil)
	sendFrames(s, 0, 15, 1500)
	// Below the target: cwnd += ai*frame*acked/cwnd.
	s.OnAck(30*us, &Ack{Seq: 1500, Sent: 20 * us}) // delay 10 us
	cwnd := 22500 + 1500.0*1500/22500
	if math.Abs(s.Cwnd()-cwnd) > 1e-9 || s.Window() != s.Cwnd() || s.Rate() != 0 {
		t.Fatalf("AI: cwnd %g window %g rate %g, want cwnd %g, unpaced", s.Cwnd(), s.Window(), s.Rate(), cwnd)
	}
	// Above the target: cwnd *= 1 - beta*(delay-target)/delay.
	target := s.TargetDelay(cwnd)
	delay := target + 10e-6
	now := 100 * us
	s.OnAck(now, &Ack{Seq: 3000, Sent: now - Seconds(delay)})
	d := Seconds(delay).Seconds()
	cwnd *= 1 - 0.8*(d-target)/d
	if math.Abs(s.Cwnd()-cwnd) > 1e-6 {
		t.Fatalf("MD: cwnd %g, want %g", s.Cwnd(), cwnd)
	}
	// Again within an RTT of that decrease: no cut.
	s.OnAck(now+1*us, &Ack{Seq: 4500, Sent: now + 1*us - Seconds(delay)})
	if math.Abs(s.Cwnd()-cwnd) > 1e-6 {
		t.Fatalf("a second cut within an RTT: cwnd %g, want %g", s.Cwnd(), cwnd)
	}
	// A much larger delay, an RTT later: the cut is capped at max_mdf.
	srtt := s.srtt
	later := now + Seconds(srtt) + 1
	s.OnAck(later, &Ack{Seq: 6000, Sent: later - 10*Millisecond})
	cwnd *= 0.5
	if math.Abs(s.Cwnd()-cwnd) > 1e-6 {
		t.Fatalf("capped cut: cwnd %g, want %g", s.Cwnd(), cwnd)
	}
}

// TestSwiftPacing checks that below one frame Swift keeps one frame in
// flight and paces at cwnd*8/rtt, and that the increase there is ai*acked.
func TestSwiftPacing(t *testing.T) {
	s := newSwift(t, 0, Values{"initial_window": 600})
	sendFrames(s, 0, 1, 1500)
	s.OnAck(20*us, &Ack{Seq: 1500, Sent: 0}) // delay 20 us is below the target
	if s.Cwnd() != 600+1500 {
		t.Fatalf("AI below one frame: cwnd %g, want 2100", s.Cwnd())
	}
	s = newSwift(t, 0, Values{"initial_window": 600})
	if s.Window() != 1500 || math.Abs(s.Rate()-600*8/10e-6) > 1e-3 {
		t.Errorf("before a sample: window %g rate %g, want one frame and cwnd*8/base RTT", s.Window(), s.Rate())
	}
	s.OnAck(400*us, &Ack{Seq: 0, Sent: 0}) // delay 400 us: above target, acks nothing
	want := 600 * 0.5                      // 1 - 0.8*(400-t)/400 is below 1 - max_mdf
	if math.Abs(s.Cwnd()-want) > 1e-9 || math.Abs(s.Rate()-want*8/400e-6) > 1e-3 {
		t.Errorf("paced: cwnd %g rate %g, want %g and %g", s.Cwnd(), s.Rate(), want, want*8/400e-6)
	}
}

// TestSwiftLoss checks Algorithm 1's timeout and fast recovery.
func TestSwiftLoss(t *testing.T) {
	s := newSwift(t, 0, nil)
	s.OnTimeout(0)
	if s.Cwnd() != 11250 {
		t.Fatalf("first timeout: cwnd %g, want 11250", s.Cwnd())
	}
	s.OnTimeout(1) // within an RTT (srtt 0 before a sample: can decrease)
	for i := 3; i <= 5; i++ {
		s.OnTimeout(Time(i) * Millisecond)
	}
	if s.Cwnd() != 10 {
		t.Fatalf("after 5 timeouts in a row cwnd %g, want min_cwnd 10", s.Cwnd())
	}
	// srtt = 7/8 x 10 us + 1/8 x 20 us = 11.25 us (both samples below the
	// target: no decrease yet).
	s = newSwift(t, 0, nil)
	s.OnAck(100*us, &Ack{Seq: 0, Sent: 90 * us})
	s.OnAck(110*us, &Ack{Seq: 0, Sent: 90 * us})
	cwnd := s.Cwnd()
	s.OnLoss(200 * us)
	s.OnLoss(211 * us) // 11 us later: within the smoothed RTT, no cut
	if s.Cwnd() != cwnd/2 {
		t.Errorf("fast recovery twice within an RTT: cwnd %g, want %g", s.Cwnd(), cwnd/2)
	}
	s.OnLoss(215 * us) // 15 us after the cut: past 11.25 us
	if s.Cwnd() != cwnd/4 {
		t.Errorf("fast recovery an RTT later: cwnd %g, want %g", s.Cwnd(), cwnd/4)
	}
}

// With target_adds_base_rtt the target is the flow's base RTT above the
// paper's: a delay of base RTT + 10 us is below it, and the window grows.
func TestSwiftTargetAddsBaseRTT(t *testing.T) {
	for _, on := range []float64{0, 1} {
		s, v := describe(t, "swift", net10G, Values{"target_adds_base_rtt": on})
		env := SenderEnv{Network: net10G, LineRate: 10e9, BaseRTT: 100 * Microsecond, Hops: 1}
		snd := s.NewSender(env, v).(*SwiftSender)
		want := 20e-6 + v["hop_scale"] + max(0, min(snd.fsAlpha/math.Sqrt(snd.cwnd/snd.frame)+snd.fsBeta, snd.fsRange))
		if on != 0 {
			want += 100e-6
		}
		if got := snd.TargetDelay(snd.cwnd); math.Abs(got-want) > 1e-12 {
			t.Errorf("target_adds_base_rtt %v: target %g, want %g", on, got, want)
		}
		w := snd.Cwnd()
		snd.OnSend(0, 0, 1500)
		snd.OnAck(110*Microsecond, &Ack{Seq: 1500, Sent: 0})
		if grew := snd.Cwnd() > w; grew != (on != 0) {
			t.Errorf("target_adds_base_rtt %v: window %g -> %g after a 110 us RTT", on, w, snd.Cwnd())
		}
	}
}
