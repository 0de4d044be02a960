package algos

import (
	"math"
	"testing"
)

var net100G = Network{Capacity: 100e9, LineRate: 100e9, Sources: 2, Buffer: 1e6, FrameBytes: 1000}

func newHPCC(t *testing.T, over Values) *HPCCSender {
	t.Helper()
	_, v := describe(t, "hpcc", net100G, over)
	return NewHPCCSender(SenderEnv{Network: net100G, LineRate: 100e9, BaseRTT: 10 * us}, v)
}

func TestHPCCDefaults(t *testing.T) {
	_, v := describe(t, "hpcc", net100G, nil)
	// run.py --cc hp at 100 Gbps: U_TARGET 0.95, MI_THRESH 0, RATE_AI
	// 10*100/25 = 40 Mb/s, FAST_REACT 1, MIN_RATE 1000 Mb/s.
	for k, x := range (Values{"eta": 0.95, "max_stage": 0, "r_ai": 40e6, "fast_react": 1, "min_rate": 1e9, "base_rtt": HPCCBaseRTTFlow}) {
		if v[k] != x {
			t.Errorf("%s = %g, want %g", k, v[k], x)
		}
	}
}

// TestHPCCInflightFromTwoSamples checks MeasureInflight and ComputeWind
// (Algorithm 1; UpdateRateHp, rdma-hw.cc:787-851) on one hop: U from the
// rate between two INT samples and the smaller of their queues, smoothed
// over tau/T, and R = R_c/(U/eta) + R_AI.
func TestHPCCInflightFromTwoSamples(t *testing.T) {
	s := newHPCC(t, nil)
	if s.Rate() != 100e9 || s.Window() != 125000 || s.U() != 1 {
		t.Fatalf("start: rate %g window %g U %g", s.Rate(), s.Window(), s.U())
	}
	seq := sendFrames(s, 0, 20, 1000)
	hop := Hop{TS: 1 * us, TxBytes: 0, QLen: 5000, Rate: 100e9}
	s.OnAck(2*us, &Ack{Seq: 1000, Hops: []Hop{hop}})
	if s.Rate() != 100e9 {
		t.Fatalf("the first ACK changed the rate to %g; it only stores INT", s.Rate())
	}
	// 1 us later the port had sent 12500 B (line rate) and queues 10000 B.
	hop2 := Hop{TS: 2 * us, TxBytes: 12500, QLen: 10000, Rate: 100e9}
	sendFrames(s, seq, 20, 1000)
	s.OnAck(3*us, &Ack{Seq: seq + 1000, Hops: []Hop{hop2}}) // past lastUpdateSeq (20000): a full update
	u := 1.0 + 5000*8/(100e9*10e-6)                         // txRate/B + min(qlen)/(B*T)
	U := (1*(10-1) + u*1) / 10.0                            // tau = 1 us of T = 10 us
	r := 100e9/(U/0.95) + 40e6                              // R_c = line rate
	if math.Abs(s.U()-U) > 1e-12 {
		t.Fatalf("U = %.15g, want %.15g", s.U(), U)
	}
	if math.Abs(s.Rate()-r) > 1e-3 || s.Reference() != s.Rate() || s.Stage() != 0 {
		t.Fatalf("rate %g reference %g stage %d, want %g for both and stage 0", s.Rate(), s.Reference(), s.Stage(), r)
	}
	if want := math.Floor(125000 * r / 100e9); s.Window() != want {
		t.Errorf("window %g, want BDP*R/C = %g", s.Window(), want)
	}
	// Fast react: an ACK before the new lastUpdateSeq sets the rate from
	// the same reference, and leaves the reference alone.
	hop3 := Hop{TS: 3 * us, TxBytes: 25000, QLen: 0, Rate: 100e9}
	s.OnAck(4*us, &Ack{Seq: seq + 2000, Hops: []Hop{hop3}}) // before lastUpdateSeq (40000)
	U = (U*9 + 1*1) / 10                                    // u = 1 + min(10000, 0)/..., tau 1 us
	if math.Abs(s.U()-U) > 1e-12 || math.Abs(s.Rate()-(r/(U/0.95)+40e6)) > 1e-3 || s.Reference() != r {
		t.Errorf("fast react: U %g rate %g reference %g; want U %g rate %g reference %g",
			s.U(), s.Rate(), s.Reference(), U, r/(U/0.95)+40e6, r)
	}
}

// TestHPCCMostLoadedHop checks that U follows the hop with the largest u_i,
// with that hop's tau.
func TestHPCCMostLoadedHop(t *testing.T) {
	s := newHPCC(t, nil)
	sendFrames(s, 0, 20, 1000)
	first := []Hop{{TS: 1 * us, Rate: 100e9}, {TS: 1 * us, QLen: 6250, Rate: 25e9}, {TS: 1 * us, Rate: 100e9}}
	s.OnAck(2*us, &Ack{Seq: 1000, Hops: first})
	// Hop 1 (25 Gbps) is the most loaded: fully busy over 2 us with 6250 B
	// queued in both samples, u = 1 + 6250*8/(25e9*T) = 1.2. Hops 0 and 2
	// are half busy, u = 0.5, over 4 and 3 us: neither the longest tau nor
	// the last hop is the one that counts.
	second := []Hop{{TS: 5 * us, TxBytes: 25000, Rate: 100e9}, {TS: 3 * us, TxBytes: 6250, QLen: 6250, Rate: 25e9},
		{TS: 4 * us, TxBytes: 18750, Rate: 100e9}}
	sendFrames(s, 20000, 20, 1000)
	s.OnAck(6*us, &Ack{Seq: 30000, Hops: second})
	U := (1*(10-2) + 1.2*2) / 10.0
	if math.Abs(s.U()-U) > 1e-12 {
		t.Errorf("U = %g, want %g (hop 1, u = 1.2, its tau = 2 us)", s.U(), U)
	}
}

// TestHPCCStages checks ComputeWind's stages with maxStage = 5 (the paper's
// printed value): below eta, additive steps from the reference, a stage per
// RTT, then a multiplicative one.
func TestHPCCStages(t *testing.T) {
	s := newHPCC(t, Values{"max_stage": 5})
	s.r, s.rc = 50e9, 50e9
	seq := sendFrames(s, 0, 1, 1000)
	ts, tx := Time(0), int64(0)
	s.OnAck(0, &Ack{Seq: seq, Hops: []Hop{{TS: ts, TxBytes: tx, Rate: 100e9}}})
	rc := 50e9
	for i := 1; i <= 6; i++ {
		// Each RTT the link runs at half its rate with no queue: u = 0.5.
		seq = sendFrames(s, seq, 1, 1000)
		ts += 10 * us
		tx += 62500
		s.OnAck(ts, &Ack{Seq: seq, Hops: []Hop{{TS: ts, TxBytes: tx, Rate: 100e9}}})
		if i <= 5 {
			rc += 40e6
			if s.Stage() != i || math.Abs(s.Rate()-rc) > 1e-3 {
				t.Fatalf("RTT %d: stage %d rate %g, want stage %d rate %g (additive)", i, s.Stage(), s.Rate(), i, rc)
			}
			continue
		}
		rc = rc/(0.5/0.95) + 40e6 // U = 0.5 after a whole T of u = 0.5
		if s.Stage() != 0 || math.Abs(s.Rate()-rc) > 1e-3 {
			t.Fatalf("RTT 6: stage %d rate %g, want 0 and %g (multiplicative after maxStage)", s.Stage(), s.Rate(), rc)
		}
	}
}

// TestHPCCNoFastReact checks FAST_REACT 0: an ACK before lastUpdateSeq
// does nothing, not even keep its sample (rdma-hw.cc:915-918).
func TestHPCCNoFastReact(t *testing.T) {
	s := newHPCC(t, Values{"fast_react": 0})
	seq := sendFrames(s, 0, 20, 1000)
	s.OnAck(1*us, &Ack{Seq: 1000, Hops: []Hop{{TS: 1 * us, Rate: 100e9}}})
	s.OnAck(2*us, &Ack{Seq: 2000, Hops: []Hop{{TS: 2 * us, TxBytes: 1e9, QLen: 1e6, Rate: 100e9}}})
	if s.Rate() != 100e9 || s.U() != 1 {
		t.Fatalf("an ACK inside the RTT acted: rate %g U %g", s.Rate(), s.U())
	}
	sendFrames(s, seq, 1, 1000)
	s.OnAck(3*us, &Ack{Seq: seq + 1000, Hops: []Hop{{TS: 3 * us, TxBytes: 25000, Rate: 100e9}}})
	// Against the first sample: 25000 B in 2 us = 100 Gbps, u = 1, tau 2 us.
	if math.Abs(s.U()-1) > 1e-12 || math.Abs(s.Rate()-(0.95*100e9+40e6)) > 1e-3 {
		t.Errorf("U %g rate %g, want 1 and %g", s.U(), s.Rate(), 0.95*100e9+40e6)
	}
}

// TestHPCCBounds checks the rate stays within [min_rate, line rate].
func TestHPCCBounds(t *testing.T) {
	s := newHPCC(t, nil)
	sendFrames(s, 0, 1, 1000)
	s.OnAck(0, &Ack{Seq: 1000, Hops: []Hop{{TS: 0, Rate: 100e9}}})
	s.OnAck(1*us, &Ack{Seq: 1000, Hops: []Hop{{TS: 1 * us, QLen: 1e9, Rate: 100e9}}})
	s.OnAck(2*us, &Ack{Seq: 1000, Hops: []Hop{{TS: 2 * us, QLen: 1e9, Rate: 100e9}}})
	if s.Rate() != 1e9 {
		t.Errorf("rate under a huge queue %g, want min_rate", s.Rate())
	}
}

// TestHPCCConvergesOnOneLink feeds two HPCC senders the telemetry of an
// ideal link of capacity C that carries both their rates, one ACK per RTT
// each: Algorithm 1 takes their sum to eta*C + 2 R_AI in one step, and
// shrinks their difference by eta*C/(sum) per RTT (the additive step is what
// makes it fair).
func TestHPCCConvergesOnOneLink(t *testing.T) {
	a, b := newHPCC(t, nil), newHPCC(t, nil)
	a.r, a.rc = 80e9, 80e9
	b.r, b.rc = 20e9, 20e9
	const T = 10 * us
	var tx int64
	seq := int64(0)
	var ts Time
	for rtt := 0; rtt < 200; rtt++ {
		ts += T
		tx += int64((a.Rate() + b.Rate()) * T.Seconds() / 8)
		seq = sendFrames(a, seq, 1, 1000)
		sendFrames(b, seq-1000, 1, 1000)
		hop := []Hop{{TS: ts, TxBytes: tx, Rate: 100e9}}
		diff := a.Rate() - b.Rate()
		a.OnAck(ts, &Ack{Seq: seq, Hops: hop})
		b.OnAck(ts, &Ack{Seq: seq, Hops: hop})
		if rtt >= 2 {
			sum := a.Rate() + b.Rate()
			if math.Abs(sum-(0.95*100e9+2*40e6)) > 1e3 {
				t.Fatalf("RTT %d: sum of rates %g, want eta*C + 2 R_AI = %g", rtt, sum, 0.95*100e9+2*40e6)
			}
			if want := diff * 0.95 * 100e9 / sum; math.Abs((a.Rate()-b.Rate())-want) > 1e3 {
				t.Fatalf("RTT %d: difference %g, want %g", rtt, a.Rate()-b.Rate(), want)
			}
		}
	}
	// 200 RTTs of (1 - 2 R_AI/(eta*C + 2 R_AI)) take 15% off the gap:
	// fairness comes at the pace of W_AI, as the paper says.
	if d := a.Rate() - b.Rate(); d <= 0 || d > 60e9*0.85 {
		t.Errorf("after 200 RTTs the difference is %g of 60e9", d)
	}
}

// T is the flow's own base RTT by default (the paper, read per flow), the
// largest over the pairs of hosts with base_rtt = "max" (the HPCC code's
// GLOBAL_T 1): the window starts at line rate x T.
func TestHPCCBaseRTT(t *testing.T) {
	asked := 0
	largest := func() Time { asked++; return 25 * us }
	for _, c := range []struct {
		choice float64
		want   Time
		asks   int
	}{{HPCCBaseRTTFlow, 10 * us, 0}, {HPCCBaseRTTMax, 25 * us, 1}} {
		asked = 0
		_, v := describe(t, "hpcc", net100G, Values{"base_rtt": c.choice})
		s := NewHPCCSender(SenderEnv{Network: net100G, LineRate: 100e9, BaseRTT: 10 * us, MaxBaseRTT: largest}, v)
		if got, want := s.Window(), 100e9*c.want.Seconds()/8; math.Abs(got-want) > 1 {
			t.Errorf("base_rtt %s: window %g B, want %g (T = %d ps)", HPCCBaseRTTs[int(c.choice)], got, want, c.want)
		}
		if asked != c.asks {
			t.Errorf("base_rtt %s: the largest RTT measured %d times, want %d", HPCCBaseRTTs[int(c.choice)], asked, c.asks)
		}
	}
}
