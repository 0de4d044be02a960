package algos

import (
	"math"
	"math/rand/v2"
	"testing"
)

func newDCTCP(t *testing.T, n Network, over Values) *DCTCPSender {
	t.Helper()
	_, v := describe(t, "dctcp", n, over)
	return NewDCTCPSender(SenderEnv{Network: n, LineRate: n.LineRate, BaseRTT: 10 * Microsecond}, v)
}

// sendFrames sends count frames of size bytes from seq.
func sendFrames(s Sender, seq int64, count, size int) int64 {
	for range count {
		s.OnSend(0, seq, size)
		seq += int64(size)
	}
	return seq
}

// TestDCTCPPresets checks each preset's values against its source: the
// paper's section 4 (g = 1/16, K = 65 packets at 10 Gbps) and HPCC's run.py
// --cc dctcp (K = 30 KB per 10 Gbps, DCTCP_RATE_AI 615 Mb/s, MIN_RATE 1 Gb/s).
func TestDCTCPPresets(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   Values
	}{
		{"paper", Values{"control": DCTCPWindow, "k": 65 * 1500, "k_per_port": 0, "mark_on": DCTCPMarkOnEnqueue,
			"g": 1.0 / 16, "initial_alpha": 1, "initial_window": 15000, "min_window": 3000}},
		{"hpcc", Values{"control": DCTCPRate, "k": 30e3, "k_per_port": 1, "mark_on": DCTCPMarkOnDequeue,
			"g": 0.0625, "initial_alpha": 1, "r_ai": 615e6, "min_rate": 1e9}},
	} {
		s, _ := Lookup("dctcp")
		p, _ := s.Param("preset")
		x, _ := p.ChoiceValue(c.preset)
		_, v := describe(t, "dctcp", net10G, Values{"preset": x})
		for k, want := range c.want {
			if v[k] != want {
				t.Errorf("%s: %s = %g, want %g", c.preset, k, v[k], want)
			}
		}
	}
	// K scales with the bottleneck: 1 Gbps gives a tenth.
	one := net10G
	one.Capacity = 1e9
	if _, v := describe(t, "dctcp", one, nil); v["k"] != 9750 {
		t.Errorf("K at 1 Gbps = %g, want 9750", v["k"])
	}
}

// TestDCTCPMarking checks the congestion point: a frame is marked when the
// queue is above K (paper 3.1), on arrival by default and on departure under
// mark_on = dequeue, K scaled per port under k_per_port.
func TestDCTCPMarking(t *testing.T) {
	_, v := describe(t, "dctcp", net10G, Values{"k": 30000})
	cp := NewDCTCPCongestionPoint(CPEnv{Network: net10G, Capacity: 10e9, Rand: rand.New(rand.NewPCG(1, 2))}, v)
	if _, ok := cp.(DepartingCP); ok {
		t.Fatal("the enqueue CP implements DepartingCP: the engine would call Depart for nothing")
	}
	for _, c := range []struct {
		qlen int
		want bool
	}{{29999, false}, {30000, false}, {30001, true}} {
		f := Frame{Bytes: 1500}
		if cp.Arrive(0, &f, c.qlen, nil) || f.ECN != c.want {
			t.Errorf("arrival at %d B: marked %v, want %v", c.qlen, f.ECN, c.want)
		}
	}
	_, v = describe(t, "dctcp", net10G, Values{"k": 30000, "mark_on": DCTCPMarkOnDequeue, "k_per_port": 1})
	dq, ok := NewDCTCPCongestionPoint(CPEnv{Network: net10G, Capacity: 40e9}, v).(DepartingCP)
	if !ok {
		t.Fatal("dequeue CP is not a DepartingCP")
	}
	f := Frame{Bytes: 1500}
	if dq.Arrive(0, &f, 1e6, nil) || f.ECN {
		t.Error("dequeue CP marked on arrival")
	}
	for _, c := range []struct {
		qlen int
		want bool
	}{{120000, false}, {120001, true}} { // K x 40/10 on a 40 Gbps port
		f := Frame{Bytes: 1500}
		if dq.Depart(0, &f, c.qlen); f.ECN != c.want {
			t.Errorf("departure leaving %d B on a 40 Gbps port: marked %v, want %v", c.qlen, f.ECN, c.want)
		}
	}
}

// TestDCTCPWindowAlphaAndCut follows the paper's rules (3.1) ACK by ACK: the
// first marked ACK cuts cwnd by alpha/2 once, no more cuts in that window,
// and alpha = (1-g)*alpha + g*F when the window's last byte is acked.
func TestDCTCPWindowAlphaAndCut(t *testing.T) {
	s := newDCTCP(t, net10G, nil)
	if s.Window() != 15000 || s.Rate() != 0 || s.Alpha() != 1 {
		t.Fatalf("start: window %g rate %g alpha %g", s.Window(), s.Rate(), s.Alpha())
	}
	nxt := sendFrames(s, 0, 10, 1500) // the first window: 15000 bytes
	marked := map[int]bool{1: true, 2: true, 3: true}
	for i := 1; i <= 10; i++ {
		if i == 10 {
			// ACK-clocked: more has gone by the time the window's
			// last byte is acked; the next window ends there.
			nxt = sendFrames(s, nxt, 5, 1500)
		}
		s.OnAck(0, &Ack{Seq: int64(i) * 1500, ECE: marked[i]})
		switch {
		case i == 1 && s.Window() != 7500: // alpha = 1: cwnd*(1 - 1/2)
			t.Fatalf("after the first marked ACK cwnd = %g, want 7500", s.Window())
		case i > 1 && s.Window() != 7500:
			t.Fatalf("ACK %d in CWR changed cwnd to %g: a second cut in one window", i, s.Window())
		case i < 10 && s.Alpha() != 1:
			t.Fatalf("alpha moved to %g before the window ended (ACK %d)", s.Alpha(), i)
		}
	}
	// F = 3 marked frames of 10.
	if want := (1-1.0/16)*1 + 0.3/16; math.Abs(s.Alpha()-want) > 1e-15 {
		t.Fatalf("alpha after the first window = %.17g, want %.17g", s.Alpha(), want)
	}
	if s.Ssthresh() != 7500 {
		t.Errorf("ssthresh %g, want 7500", s.Ssthresh())
	}
	alpha := s.Alpha()
	// The next window runs to 22500. The first ACK beyond the CWR end
	// (15000) leaves CWR; no marks, so cwnd grows as congestion avoidance
	// (cwnd = ssthresh): frame*acked/cwnd per ACK.
	cwnd := s.Window()
	for i := 11; i <= 15; i++ {
		s.OnAck(0, &Ack{Seq: int64(i) * 1500})
		cwnd += 1500 * 1500 / cwnd
		if math.Abs(s.Window()-cwnd) > 1e-9 {
			t.Fatalf("ACK %d: cwnd %g, want %g (one frame per RTT)", i, s.Window(), cwnd)
		}
		if i < 15 && s.Alpha() != alpha {
			t.Fatalf("ACK %d: alpha moved inside the window", i)
		}
	}
	// The window ending at 22500 had no marks: alpha decays by 1-g.
	if want := (1 - 1.0/16) * alpha; math.Abs(s.Alpha()-want) > 1e-15 {
		t.Errorf("alpha after an unmarked window = %g, want %g", s.Alpha(), want)
	}
	// A marked ACK that also ends a window (everything sent was one frame
	// more, all marked: F = 1) updates alpha first and cuts with it.
	sendFrames(s, nxt, 1, 1500)
	before, a := s.Window(), (1-1.0/16)*s.Alpha()+1.0/16
	s.OnAck(0, &Ack{Seq: 16 * 1500, ECE: true})
	if math.Abs(s.Alpha()-a) > 1e-15 {
		t.Errorf("alpha %g, want %g", s.Alpha(), a)
	}
	if want := before * (1 - a/2); math.Abs(s.Window()-want) > 1e-9 {
		t.Errorf("second cut: cwnd %g, want %g", s.Window(), want)
	}
}

// TestDCTCPSlowStartAndLoss checks TCP's parts: slow start adds the acked
// bytes, fast retransmit halves, a timeout drops to one frame.
func TestDCTCPSlowStartAndLoss(t *testing.T) {
	s := newDCTCP(t, net10G, nil)
	sendFrames(s, 0, 10, 1500)
	for i := 1; i <= 4; i++ {
		s.OnAck(0, &Ack{Seq: int64(i) * 1500})
	}
	if s.Window() != 15000+4*1500 {
		t.Fatalf("slow start: cwnd %g, want %d", s.Window(), 15000+4*1500)
	}
	s.OnLoss(0)
	if s.Window() != 10500 || s.Ssthresh() != 10500 {
		t.Errorf("fast retransmit: cwnd %g ssthresh %g, want 10500 both", s.Window(), s.Ssthresh())
	}
	s.OnTimeout(0)
	if s.Window() != 1500 || s.Ssthresh() != 5250 {
		t.Errorf("timeout: cwnd %g ssthresh %g, want 1500 and 5250", s.Window(), s.Ssthresh())
	}
	// A cut never goes below min_window.
	s = newDCTCP(t, net10G, Values{"initial_window": 3500})
	sendFrames(s, 0, 2, 1500)
	s.OnAck(0, &Ack{Seq: 1500, ECE: true})
	if s.Window() != 3000 {
		t.Errorf("cut from 3500 with alpha 1: cwnd %g, want the floor 3000", s.Window())
	}
}

// TestDCTCPRateControl follows HandleAckDctcp (rdma-hw.cc:998-1050) line by
// line: the first batch, a cut by alpha/2 into CWR, the batch's alpha with
// F = ECE ACKs / batch, CWR's exit and the additive step.
func TestDCTCPRateControl(t *testing.T) {
	n := Network{Capacity: 100e9, LineRate: 100e9, Sources: 2, Buffer: 1e6, FrameBytes: 1000}
	s := newDCTCP(t, n, Values{"preset": DCTCPPresetHPCC})
	bdp := 100e9 * 10e-6 / 8
	if s.Rate() != 100e9 || s.Window() != bdp {
		t.Fatalf("start: rate %g window %g, want line rate and BDP %g", s.Rate(), s.Window(), bdp)
	}
	nxt := sendFrames(s, 0, 5, 1000)
	// First ACK: batch = 5000/1000 + 1 = 6, the ECE counted; the cut with
	// alpha = 1 halves the rate; no step in CWR.
	s.OnAck(0, &Ack{Seq: 1000, ECE: true})
	if s.Rate() != 50e9 || s.Window() != bdp/2 {
		t.Fatalf("first marked ACK: rate %g window %g", s.Rate(), s.Window())
	}
	s.OnAck(0, &Ack{Seq: 2000, ECE: true}) // in CWR: no cut; counted
	if s.Rate() != 50e9 {
		t.Fatalf("a second cut in CWR: rate %g", s.Rate())
	}
	sendFrames(s, nxt, 5, 1000) // snd_nxt 10000
	// Seq 6000 > 5000 ends the batch: F = min(1, 2/6); CWR ends (6000 >
	// 5000); no ECE: the step.
	s.OnAck(0, &Ack{Seq: 6000})
	alpha := (1-0.0625)*1 + 0.0625*2.0/6
	if math.Abs(s.Alpha()-alpha) > 1e-15 {
		t.Fatalf("alpha %.17g, want %.17g", s.Alpha(), alpha)
	}
	if s.Rate() != 50e9+615e6 {
		t.Fatalf("rate after the batch %g, want %g", s.Rate(), 50e9+615e6)
	}
	// The next batch: size (10000-6000)/1000 + 1 = 5; a marked ACK inside it
	// cuts with the current alpha.
	s.OnAck(0, &Ack{Seq: 7000, ECE: true})
	if want := (50e9 + 615e6) * (1 - alpha/2); math.Abs(s.Rate()-want) > 1 {
		t.Fatalf("cut: rate %g, want %g", s.Rate(), want)
	}
	s.OnAck(0, &Ack{Seq: 10001}) // past 10000: F = 1/5, out of CWR, step
	if want := (1-0.0625)*alpha + 0.0625/5; math.Abs(s.Alpha()-want) > 1e-15 {
		t.Errorf("alpha %.17g, want %.17g", s.Alpha(), want)
	}
	// The rate never goes below min_rate nor above line rate.
	for range 200 {
		s.cwr = false
		s.OnAck(0, &Ack{Seq: 10001, ECE: true})
	}
	if s.Rate() != 1e9 {
		t.Errorf("rate after many cuts %g, want min_rate 1e9", s.Rate())
	}
	s.OnLoss(0)
	s.OnTimeout(0)
	if s.Rate() != 1e9 {
		t.Errorf("the HPCC code has no loss response, rate moved to %g", s.Rate())
	}
}

// TestDCTCPAlphaTracksTheMarkedFraction checks eq. (1)'s fixed point: with a
// quarter of every window's bytes marked, alpha after n windows is
// 0.25 + (alpha_0 - 0.25)(1-g)^n.
func TestDCTCPAlphaTracksTheMarkedFraction(t *testing.T) {
	s := newDCTCP(t, net10G, nil)
	seq := sendFrames(s, 0, 4, 1500)
	acked := int64(0)
	for n := 1; n <= 60; n++ {
		for i := 0; i < 4; i++ { // the window's 4 frames, the first marked
			acked += 1500
			s.OnAck(0, &Ack{Seq: acked, ECE: i == 0})
			if i == 0 {
				seq = sendFrames(s, seq, 4, 1500) // ACK-clocked: the next window goes out
			}
		}
		want := 0.25 + (1-0.25)*math.Pow(1-1.0/16, float64(n))
		if math.Abs(s.Alpha()-want) > 1e-12 {
			t.Fatalf("after %d windows alpha = %.15g, want %.15g", n, s.Alpha(), want)
		}
	}
}
