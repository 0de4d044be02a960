package model

import (
	"math"
	"testing"

	"qcnlab/algos"
)

// windowSender is a fixed window, not paced: it records what it sends and
// the ACKs it gets.
type windowSender struct {
	window float64
	sends  []sendRecord
	acks   []algos.Ack
	landed []algos.Time // when each ACK reached the sender
	hops   [][]algos.Hop
	losses int
}

type sendRecord struct {
	at    algos.Time
	seq   int64
	bytes int
}

func (w *windowSender) Window() float64 { return w.window }
func (w *windowSender) Rate() float64   { return 0 }
func (w *windowSender) OnSend(now algos.Time, seq int64, bytes int) {
	w.sends = append(w.sends, sendRecord{now, seq, bytes})
}
func (w *windowSender) OnAck(now algos.Time, a *algos.Ack) {
	w.acks = append(w.acks, *a)
	w.landed = append(w.landed, now)
	w.hops = append(w.hops, append([]algos.Hop(nil), a.Hops...))
}
func (w *windowSender) OnLoss(algos.Time)    { w.losses++ }
func (w *windowSender) OnTimeout(algos.Time) {}

// telemetrySender is a windowSender whose ACKs carry INT.
type telemetrySender struct{ *windowSender }

func (telemetrySender) UsesTelemetry() {}

// windowScheme is an ACK-clocked scheme of fixed windows; senders lists
// the flows' senders in the order they are made.
type windowScheme struct {
	window    float64
	telemetry bool
	senders   []*windowSender
}

func (ws *windowScheme) scheme() *algos.Scheme {
	return &algos.Scheme{
		Name:  "window",
		NewCP: func(algos.CPEnv, algos.Values) algos.CongestionPoint { return scriptedCP{&scripted{}} },
		NewSender: func(env algos.SenderEnv, _ algos.Values) algos.Sender {
			w := &windowSender{window: ws.window}
			ws.senders = append(ws.senders, w)
			if ws.telemetry {
				return telemetrySender{w}
			}
			return w
		},
	}
}

// A window-limited flow on an idle path sends exactly one window per round
// trip: frame k+W leaves as the ACK of frame k lands, one base RTT (the
// propagation both ways, a data frame's and an ACK's transmission on each
// link) after frame k left.
func TestTransportACKClocking(t *testing.T) {
	ws := &windowScheme{window: 10 * 1500}
	cfg := baseConfig(ws.scheme(), 1, 10e9)
	cfg.Duration, cfg.Warmup = 2*ms, 0
	sim, _ := run(t, cfg)
	w := ws.senders[0]
	tx := algos.TransmitTime(1500, 10e9)
	ack := algos.TransmitTime(AckBytes, 10e9)
	rtt := 100*us + 2*tx + 2*ack
	if got := sim.lims[0].tp.rto(); got != DefaultRTOMin {
		t.Errorf("rto %d, want rto_min %d", got, DefaultRTOMin)
	}
	if len(w.sends) < 100 {
		t.Fatalf("%d frames sent", len(w.sends))
	}
	for k := 0; k+10 < len(w.sends); k++ {
		s := w.sends[k]
		if s.seq != int64(k)*1500 {
			t.Fatalf("frame %d sent at seq %d", k, s.seq)
		}
		gap := w.sends[k+10].at - s.at
		if k < 10 {
			if s.at != algos.Time(k)*tx { // the first window at line rate
				t.Fatalf("frame %d sent at %d, want %d", k, s.at, algos.Time(k)*tx)
			}
			continue
		}
		if d := gap - rtt; d < -1 || d > 1 {
			t.Fatalf("frame %d and frame %d sent %d ps apart, want one RTT %d", k, k+10, gap, rtt)
		}
	}
	// The rate a sample shows is the window over the RTT, not the
	// limiter's line rate.
	if got, want := sim.lims[0].sendingRate(), 10*1500*8/rtt.Seconds(); math.Abs(got/want-1) > 1e-6 {
		t.Errorf("sending rate %g, want window / RTT = %g", got, want)
	}
}

// lossyFlow runs one flow of 100 frames across a fat-tree with a window of
// four frames; frame 20 is lost the first time it is sent.
func lossyFlow(t *testing.T, mode Recovery) (*windowSender, *FlowRecord, *Packet) {
	return lossyFlowOf(t, mode, 100, 20)
}

// lossyFlowOf is lossyFlow with frames frames, frame lost lost once.
func lossyFlowOf(t *testing.T, mode Recovery, frames, lost int64) (*windowSender, *FlowRecord, *Packet) {
	t.Helper()
	ws := &windowScheme{window: 4 * 1500}
	cfg := fabric(ws.scheme(), fatTree4(t, 150e3), []Flow{{From: 0, To: 15, Size: frames * 1500}})
	cfg.Transport.Recovery = mode
	var rec FlowRecord
	cfg.OnFlow = func(r *FlowRecord) { rec = *r }
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	loseOnce(sim, lost)
	sim.Run()
	return ws.senders[0], &rec, sim
}

// Go-back-N resends from the lost frame: the receiver drops frames 21-23
// and NACKs the gap once; by then the window of four is out (20-23), so
// the sender resends those four, then goes on.
func TestTransportGoBackNResendsFromTheLostFrame(t *testing.T) {
	w, rec, sim := lossyFlow(t, RecoveryGoBackN)
	if rec.Outcome != FlowCompleted || sim.delivered[0].bytes != 100*1500 {
		t.Fatalf("flow %+v, %d bytes delivered", rec, sim.delivered[0].bytes)
	}
	if rec.Retransmitted != 4*1500 || rec.NACKs != 1 || rec.Timeouts != 0 || w.losses != 1 {
		t.Errorf("retransmitted %d B, %d NACKs, %d timeouts, %d losses; want 6000 B, 1, 0, 1", rec.Retransmitted, rec.NACKs, rec.Timeouts, w.losses)
	}
	if len(w.sends) != 104 {
		t.Fatalf("%d frames sent, want 104", len(w.sends))
	}
	for k, want := range []int64{20, 21, 22, 23} { // the resends follow frame 23's first send
		if got := w.sends[24+k].seq / 1500; got != want {
			t.Errorf("send %d is frame %d, want %d", 24+k, got, want)
		}
	}
}

// Selective repeat resends only the lost frame: the receiver keeps 21-23
// and NACKs each; the sender resends 20 alone.
func TestTransportSelectiveResendsOnlyTheLostFrame(t *testing.T) {
	w, rec, sim := lossyFlow(t, RecoverySelective)
	if rec.Outcome != FlowCompleted || sim.delivered[0].bytes != 100*1500 {
		t.Fatalf("flow %+v, %d bytes delivered", rec, sim.delivered[0].bytes)
	}
	if rec.Retransmitted != 1500 || rec.NACKs != 3 || rec.Timeouts != 0 || w.losses != 1 {
		t.Errorf("retransmitted %d B, %d NACKs, %d timeouts, %d losses; want 1500 B, 3, 0, 1", rec.Retransmitted, rec.NACKs, rec.Timeouts, w.losses)
	}
	if len(w.sends) != 101 || w.sends[24].seq != 20*1500 {
		t.Errorf("%d frames sent (want 101), the 25th is byte %d (want the resend of 30000)", len(w.sends), w.sends[24].seq)
	}
}

// A lost frame that no later frame reveals (the flow's last) is resent when
// the retransmission timer expires.
func TestTransportTimeoutResendsTheTail(t *testing.T) {
	for _, mode := range []Recovery{RecoveryGoBackN, RecoverySelective} {
		_, rec, _ := lossyFlowOf(t, mode, 10, 9)
		if rec.Outcome != FlowCompleted || rec.Timeouts != 1 || rec.Retransmitted != 1500 || rec.NACKs != 0 {
			t.Errorf("%s: flow %+v: want completed after one timeout and one resend", mode, rec)
		}
		if rec.Finish < DefaultRTOMin {
			t.Errorf("%s: finished at %d, before the timeout", mode, rec.Finish)
		}
	}
}

// Sized flows on a lossy path (an incast into a small buffer) complete with
// every byte delivered, their resends counted.
func TestTransportLossyIncastDeliversEveryByte(t *testing.T) {
	for _, mode := range []Recovery{RecoveryGoBackN, RecoverySelective} {
		ws := &windowScheme{window: 30 * 1500}
		ft := fatTree4(t, 30e3)
		flows, err := Incast(ft, 0, 8, 300e3, 0, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg := fabric(ws.scheme(), ft, flows)
		cfg.Duration = 20 * ms
		cfg.Transport.Recovery = mode
		var recs []FlowRecord
		cfg.OnFlow = func(r *FlowRecord) { recs = append(recs, *r) }
		sim, sum := run(t, cfg)
		var drops, retx int64
		for _, p := range sim.ports {
			drops += p.drops
		}
		for _, r := range recs {
			retx += r.Retransmitted
			if r.Outcome != FlowCompleted {
				t.Errorf("%s: flow %d %s", mode, r.ID, r.Outcome)
			}
		}
		for i := range flows {
			if sim.delivered[i].bytes != 300e3 {
				t.Errorf("%s: flow %d: %d bytes delivered, want 300000", mode, i, sim.delivered[i].bytes)
			}
		}
		if drops == 0 || retx == 0 || len(recs) != 8 || sum.Flows.Completed != 8 {
			t.Errorf("%s: %d drops, %d bytes resent, %d records: the incast should lose frames and resend them", mode, drops, retx, len(recs))
		}
	}
}

// The telemetry an ACK carries is what each egress port the data frame
// crossed had as the frame left it: with one flow alone on an idle path,
// every port has sent exactly the flow's bytes so far, holds nothing else,
// and runs at its link's rate.
// As control frames, its ACKs cross other ports (the reverse path's) and
// carry no telemetry of their own.
func TestTransportINTStampsThePortsCounters(t *testing.T) {
	for _, frames := range []bool{false, true} {
		intStampsThePortsCounters(t, frames)
	}
}

func intStampsThePortsCounters(t *testing.T, frames bool) {
	ws := &windowScheme{window: 8 * 1500, telemetry: true}
	ft := fatTree4(t, 150e3)
	cfg := fabric(ws.scheme(), ft, []Flow{{From: 0, To: 15, Size: 200 * 1500}})
	cfg.ControlFrames = frames
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	w := ws.senders[0]
	route := sim.lims[0].route
	if len(w.hops) < 190 || len(route) != 5 { // the last ACKs land after the flow is over
		t.Fatalf("%d ACKs, route %v", len(w.hops), route)
	}
	tx := algos.TransmitTime(1500, 10e9)
	for k, hops := range w.hops {
		if len(hops) != len(route) {
			t.Fatalf("ACK %d has %d hops, want %d", k, len(hops), len(route))
		}
		sent := w.sends[k].at // the flow sends in order, each frame once
		for i, h := range hops {
			p := sim.ports[route[i]]
			// The frame leaves hop i after the host's link and i+1
			// ports' transmissions and the links' propagation (1 us each).
			wantTS := sent + algos.Time(i+2)*tx + algos.Time(i+1)*us
			if h.TxBytes != int64(k+1)*1500 || h.QLen != 0 || h.Rate != p.capacity || h.TS != wantTS {
				t.Fatalf("ACK %d hop %d: %+v, want tx %d B, queue 0, rate %g, at %d", k, i, h, (k+1)*1500, p.capacity, wantTS)
			}
		}
	}
}

// Without recovery a lost frame stays lost: nothing is resent, the ACKs
// say the highest byte received so the window goes on, and the flow
// completes without the frame, or is lost if its last frame was.
func TestTransportNoneResendsNothing(t *testing.T) {
	for _, c := range []struct {
		lost    int64
		outcome FlowOutcome
	}{{20, FlowCompleted}, {99, FlowLost}} {
		ws := &windowScheme{window: 4 * 1500}
		cfg := fabric(ws.scheme(), fatTree4(t, 150e3), []Flow{{From: 0, To: 15, Size: 100 * 1500}})
		cfg.Transport.Recovery = RecoveryNone
		var rec FlowRecord
		cfg.OnFlow = func(r *FlowRecord) { rec = *r }
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sim.lims[0].tp.lose = func(k int64) bool { return k == c.lost }
		sim.Run()
		w := ws.senders[0]
		if rec.Outcome != c.outcome || rec.Retransmitted != 0 || rec.NACKs != 0 || len(w.sends) != 100 || sim.delivered[0].bytes != 99*1500 {
			t.Errorf("frame %d lost: %s, %d B resent, %d NACKs, %d sends, %d B delivered; want %s, none resent, 100 sends, 99 frames",
				c.lost, rec.Outcome, rec.Retransmitted, rec.NACKs, len(w.sends), sim.delivered[0].bytes, c.outcome)
		}
		if last := w.acks[len(w.acks)-1]; c.lost == 20 && last.Seq != 100*1500 {
			t.Errorf("the last ACK says %d, want the highest byte 150000", last.Seq)
		}
	}
}

// With PFC the incast loses nothing: no frame is resent, and every flow
// completes; sprayed over every path, go-back-N and selective repeat both
// deliver every byte of flows whose frames arrive out of order.
func TestTransportLosslessAndSprayed(t *testing.T) {
	ft := fatTree4(t, 300e3)
	flows, err := Incast(ft, 0, 6, 200e3, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		pfc   bool
		spray bool
		mode  Recovery
	}{{"pfc", true, false, RecoveryGoBackN}, {"spray go-back-N", false, true, RecoveryGoBackN}, {"spray selective", false, true, RecoverySelective}} {
		ws := &windowScheme{window: 40 * 1500}
		cfg := fabric(ws.scheme(), ft, flows)
		cfg.Duration = 20 * ms
		cfg.Transport.Recovery = c.mode
		if c.spray {
			cfg.Fabric.Routing = Spray
		}
		if c.pfc {
			cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true}
		}
		var recs []FlowRecord
		cfg.OnFlow = func(r *FlowRecord) { recs = append(recs, *r) }
		sim, _ := run(t, cfg)
		var drops, retx int64
		for _, p := range sim.ports {
			drops += p.drops
		}
		for _, r := range recs {
			retx += r.Retransmitted
			if r.Outcome != FlowCompleted {
				t.Errorf("%s: flow %d %s", c.name, r.ID, r.Outcome)
			}
		}
		for i := range flows {
			if sim.delivered[i].bytes != 200e3 {
				t.Errorf("%s: flow %d: %d B delivered", c.name, i, sim.delivered[i].bytes)
			}
		}
		if len(recs) != 6 || c.pfc && (drops != 0 || retx != 0) {
			t.Errorf("%s: %d records, %d drops, %d B resent", c.name, len(recs), drops, retx)
		}
	}
}

// loseOnce makes the first sender's transport lose its frame of index k,
// the first time it is sent only.
func loseOnce(sim *Packet, k int64) {
	lost := false
	sim.lims[0].tp.lose = func(i int64) bool {
		if i == k && !lost {
			lost = true
			return true
		}
		return false
	}
}
