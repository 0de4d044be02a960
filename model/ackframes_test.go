package model

import (
	"testing"

	"qcnlab/algos"
)

// ackFabric is a window scheme's flows on a k = 4 fat-tree (10 Gbps, 1 us
// links), its ACKs as control frames or not.
func ackFabric(t *testing.T, ws *windowScheme, flows []Flow, frames bool) Config {
	cfg := fabric(ws.scheme(), fatTree4(t, 150e3), flows)
	cfg.Duration = 2 * ms
	cfg.ControlFrames = frames
	return cfg
}

// An ACK as a frame over an idle reverse path, by hand: host 0 sends to
// host 15 (five switch ports each way) with a window of one frame, so each
// frame leaves as the ACK of the one before lands. The data frame takes
// six links' transmission (1.2 us) and propagation (1 us); its ACK the
// receiver's link and five switch ports', each a 64 B frame's
// transmission (51.2 ns) and 1 us. The round trip is the same out of
// band, where nothing queues either; as frames, the reverse path's ports
// carry every ACK's 64 bytes, and no other.
func TestAckFrameByHand(t *testing.T) {
	flows := []Flow{{From: 0, To: 15}}
	tx, ack := algos.TransmitTime(1500, 10e9), algos.TransmitTime(ControlBytes, 10e9)
	want := 6*(tx+us) + 6*(ack+us)
	for _, frames := range []bool{false, true} {
		ws := &windowScheme{window: 1500}
		sim, _ := run(t, ackFabric(t, ws, flows, frames))
		w := ws.senders[0]
		if len(w.acks) < 100 {
			t.Fatalf("frames %v: %d ACKs", frames, len(w.acks))
		}
		for k, a := range w.acks {
			if rtt := w.landed[k] - a.Sent; rtt != want {
				t.Fatalf("frames %v: ACK %d lands %d ps after its frame left, want %d", frames, k, rtt, want)
			}
		}
		// Every port the data crosses, and every one its ACKs cross.
		l := sim.lims[0]
		fwd, back := map[int32]bool{}, map[int32]bool{}
		for _, pi := range l.route {
			fwd[pi] = true
		}
		for _, pi := range sim.backRoute(flowSpec{route: l.route, host: 0}) {
			back[pi] = true
		}
		for j, p := range sim.ports {
			pi := int32(j)
			lo, hi := int64(0), int64(0)
			switch {
			case fwd[pi]: // the last frame may be on its way
				hi = int64(len(w.sends)) * 1500
				lo = hi - 1500
			case back[pi] && frames: // the last ACK may be on its way
				lo = int64(len(w.acks)) * ControlBytes
				hi = lo + ControlBytes
			}
			if p.sent() < lo || p.sent() > hi {
				t.Errorf("frames %v: port %s sent %d B, want %d to %d", frames, p.name, p.sent(), lo, hi)
			}
		}
	}
}

// An ACK waits at each port of its reverse path for the frame on the
// wire, at most one data frame's time, and never for the data queued
// behind it: host 0's flow to host 15 has its ACKs cross the port down to
// host 0, where two greedy flows (hosts 1 and 2 to host 0) keep a long
// queue, and host 2's may share the port above it. Its round trips are at
// most a data frame's time per port of the reverse path that carries
// data (and a few control frames', the others' ACKs that its own data
// may meet on the way up) above the idle path's, and some are above it.
func TestAckFrameWaitsOnlyForTheFrameOnTheWire(t *testing.T) {
	flows := []Flow{{From: 0, To: 15}, {From: 1, To: 0}, {From: 2, To: 0}}
	ws := &windowScheme{window: 1500}
	cfg := ackFabric(t, ws, flows, true)
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ws.senders[1].window, ws.senders[2].window = 100*1500, 100*1500
	sim.Run()
	tx, ack := algos.TransmitTime(1500, 10e9), algos.TransmitTime(ControlBytes, 10e9)
	idle := 6*(tx+us) + 6*(ack+us)
	w := ws.senders[0]
	if len(w.acks) < 50 {
		t.Fatalf("%d ACKs", len(w.acks))
	}
	var most algos.Time
	for k, a := range w.acks {
		rtt := w.landed[k] - a.Sent
		if rtt < idle {
			t.Fatalf("ACK %d: round trip %d ps, below the idle path's %d", k, rtt, idle)
		}
		most = max(most, rtt-idle)
	}
	withData := 0 // the reverse path's ports that carry more than ACKs
	for _, pi := range sim.backRoute(flowSpec{route: sim.lims[0].route, host: 0}) {
		if sim.ports[pi].sent() > int64(len(w.acks)+1)*ControlBytes {
			withData++
		}
	}
	sum := sim.Summary()
	for _, b := range sum.Bottlenecks {
		if b.Name == "edge0.0->h0" && b.QueueMax < 20*1500 {
			t.Errorf("the port down to host 0 queued at most %g B: the test needs a queue", b.QueueMax)
		}
	}
	t.Logf("round trips up to %d ps above the idle path's %d; %d ports of the reverse path carry data", most, idle, withData)
	if withData == 0 || most == 0 || most > algos.Time(withData)*tx+4*ack {
		t.Errorf("round trips up to %d ps above the idle path's, want above 0 and at most a data frame's %d at each of %d ports and four ACKs'", most, tx, withData)
	}
}
