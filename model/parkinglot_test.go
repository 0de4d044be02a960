package model

import (
	"math"
	"testing"

	"qcnlab/algos"
)

// parkingLot is seed 004's figure 4 in small: two 10 Gbps links in a chain,
// 50 us apart. Source 0 crosses both, source 1 only the first, source 2 only
// the second.
func parkingLot(sc *algos.Scheme, rates ...float64) Config {
	cfg := baseConfig(sc, len(rates), 10e9)
	cfg.Links = []LinkConfig{
		{Capacity: 10e9, Buffer: 150e3, Delay: 50 * us},
		{Capacity: 10e9, Buffer: 150e3},
	}
	paths := [][]int{{0, 1}, {0}, {1}}
	for i, r := range rates {
		cfg.Sources[i].InitialRate = r
		cfg.Sources[i].LineRate = r
		cfg.Sources[i].Path = paths[i]
	}
	return cfg
}

func TestParkingLotRoutesFrames(t *testing.T) {
	s := &scripted{}
	cfg := parkingLot(s.scheme(), 3e9, 3e9, 3e9)
	_, sum := run(t, cfg)
	if len(sum.Bottlenecks) != 2 || sum.Bottlenecks[0].Name != "sw0" || sum.Bottlenecks[1].Name != "sw1" {
		t.Fatalf("bottlenecks %+v", sum.Bottlenecks)
	}
	// Link 0 carries sources 0 and 1 (6 Gbps), link 1 sources 0 and 2.
	for j, b := range sum.Bottlenecks {
		if math.Abs(b.Utilization-0.6) > 0.002 || b.Drops != 0 {
			t.Errorf("link %d: utilization %g drops %d, want 0.6 and none", j, b.Utilization, b.Drops)
		}
	}
	// Every source's bytes are delivered once, at its last link.
	for i, src := range sum.Sources {
		if math.Abs(src.ThroughputBps-3e9) > 0.01e9 {
			t.Errorf("source %d throughput %g, want 3 Gbps", i, src.ThroughputBps)
		}
	}
	// Frames that left the network: all sent but those still on the way
	// at the end, a frame every 4 us for 4 + 50 + 1.2 + 50 + 1.2 us from
	// source 0 (27 frames) and 4 + 50 + 1.2 us from each other (14).
	sent := uint64(3 * 3e9 / 8 / 1500 * cfg.Duration.Seconds())
	if got := sum.Frames; got > sent || got < sent-27-2*14 {
		t.Errorf("%d frames left the network of %d sent", got, sent)
	}
}

// Frames reach the second switch one link transmission and delay after the
// first, and its feedback comes back over the extra hop.
func TestParkingLotDelaysAndFeedback(t *testing.T) {
	s := &scripted{}
	type visit struct{ at, sent algos.Time }
	var visits []visit
	s.cp = func(now algos.Time, f *algos.Frame, qlen int) (algos.Feedback, bool) {
		visits = append(visits, visit{now, f.Sent})
		// Fb numbers the visit, so the RP's feedback can be traced back.
		return algos.Feedback{Fb: float64(len(visits)), Sent: f.Sent}, true
	}
	cfg := parkingLot(s.scheme(), 1e9)
	cfg.Sources = cfg.Sources[:1]
	cfg.Duration, cfg.Warmup = 300*us, 0
	run(t, cfg)
	serial := algos.TransmitTime(1500, 1e9)
	hop := algos.TransmitTime(1500, 10e9) + 50*us
	atFirst := map[algos.Time]algos.Time{}
	crossed := 0
	for _, v := range visits {
		if first, ok := atFirst[v.sent]; ok {
			if v.at != first+hop {
				t.Errorf("frame sent at %d reached the second switch at %d, want %d", v.sent, v.at, first+hop)
			}
			crossed++
			continue
		}
		if v.at != v.sent+serial+50*us {
			t.Errorf("frame sent at %d reached the first switch at %d", v.sent, v.at)
		}
		atFirst[v.sent] = v.at
	}
	if crossed == 0 {
		t.Fatal("no frame crossed both links")
	}
	rp := s.rps[0]
	for k, fb := range rp.feedbacks {
		v := visits[int(fb.Fb)-1]
		want := 50 * us // the first switch: the backward delay
		if atFirst[v.sent] != v.at {
			want += 50 * us // the second: one hop more
		}
		if got := rp.fbTimes[k] - v.at; got != want {
			t.Errorf("feedback %d took %d ps, want %d", k, got, want)
		}
	}
}

func TestParkingLotBottleneckMovesWithTheLoad(t *testing.T) {
	s := &scripted{}
	// Source 2 alone overloads link 1: its queue fills, link 0's does not.
	cfg := parkingLot(s.scheme(), 4e9, 4e9, 8e9)
	_, sum := run(t, cfg)
	if b := sum.Bottlenecks[0]; b.QueueMax > 3000 || b.Drops != 0 {
		t.Errorf("link 0 (8 Gbps offered): queue max %g drops %d", b.QueueMax, b.Drops)
	}
	if b := sum.Bottlenecks[1]; b.QueueMax != 150e3 || b.Drops == 0 || b.Utilization < 0.999 {
		t.Errorf("link 1 (12 Gbps offered): queue max %g drops %d utilization %g", b.QueueMax, b.Drops, b.Utilization)
	}
}

func TestPathValidation(t *testing.T) {
	s := &scripted{}
	cfg := parkingLot(s.scheme(), 1e9, 1e9, 1e9)
	cfg.Sources[0].Path = []int{1, 0}
	if _, err := NewPacket(cfg); err == nil {
		t.Error("a path going backwards was accepted")
	}
	cfg.Sources[0].Path = []int{0, 2}
	if _, err := NewPacket(cfg); err == nil {
		t.Error("a path past the last link was accepted")
	}
	// The loop delay to the farthest CP counts both ways over the hops.
	cfg.Sources[0].Path = []int{0, 1}
	if got := cfg.Network().MaxLoopDelay; got != 200*us {
		t.Errorf("max loop delay %d, want 50+50 us to the first switch plus 2 x 50 us of hop", got)
	}
}
