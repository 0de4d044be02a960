package model

import (
	"fmt"
	"slices"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// leaf6 is one switch with hosts h0 to h5 on 10 Gbps links of 1 us, each
// of its egress ports with buffer bytes (the per-port model's).
func leaf6(t *testing.T, buffer int) *topo.Topology {
	nodes := []topo.Node{{Name: "leaf", Kind: topo.Switch, Tier: "leaf", Level: 1}}
	var links []topo.Link
	for h := range 6 {
		name := fmt.Sprintf("h%d", h)
		nodes = append(nodes, topo.Node{Name: name, Kind: topo.Host})
		links = append(links, topo.Duplex(name, "leaf", 10e9, us, buffer))
	}
	tp, err := topo.Custom(nodes, links)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// Choudhury and Hahne's dynamic threshold, by hand. Two line-rate sources
// into one 10 Gbps port of a switch whose 300 KB are shared, no reserve,
// alpha 1: a frame joins the queue q while q + 1500 <= (300,000 - q),
// the last at q = 148,500, so the queue tops out at 150,000 B, alpha /
// (1 + alpha) of the buffer, and the rest is dropped.
func TestDynamicThresholdOfOneQueueByHand(t *testing.T) {
	cfg := baseConfig(noneScheme(t), 2, 10e9)
	realClocks(&cfg)
	cfg.Shared = &SharedBuffer{Switch: 300e3, Alpha: 1}
	_, sum := run(t, cfg)
	if b := sum.Bottlenecks[0]; b.QueueMax != 150e3 || b.Drops == 0 {
		t.Errorf("the queue peaked at %g B with %d drops, want 150000 B and drops", b.QueueMax, b.Drops)
	}
	cfg.Shared.Alpha = 0.5 // q + 1500 <= (300,000 - q) / 2 up to q = 99,000: 100,500 B
	_, sum = run(t, cfg)
	if b := sum.Bottlenecks[0]; b.QueueMax != 100.5e3 {
		t.Errorf("alpha 1/2: the queue peaked at %g B, want 100500 B", b.QueueMax)
	}
}

// Two congested queues share what is left: with a reserve R of 15,000 B
// for each of the leaf's six queues, the shared part is 300,000 - 90,000
// = 210,000 B, and each congested queue's part beyond its reserve settles
// at alpha (210,000 - 2 s), s = 70,000 B with alpha 1 (alpha / (1 + 2
// alpha) of it): each queue peaks at 85,000 B, give or take a frame. A
// queue that peaks while the other is k frames behind it holds up to
// (210,000 + 1,500 (k - 1)) / 3 beyond its reserve before its last frame:
// with the other two frames behind, as the switches' jitter may leave it,
// 87,000 B.
func TestDynamicThresholdOfTwoQueuesByHand(t *testing.T) {
	flows := []Flow{{From: 2, To: 0}, {From: 3, To: 0}, {From: 4, To: 1}, {From: 5, To: 1}}
	cfg := fabric(noneScheme(t), leaf6(t, 150e3), flows)
	realClocks(&cfg)
	cfg.Shared = &SharedBuffer{Switch: 300e3, Reserve: 15e3, Alpha: 1}
	_, sum := run(t, cfg)
	for _, b := range sum.Bottlenecks {
		if b.Name != "leaf->h0" && b.Name != "leaf->h1" {
			continue
		}
		if b.QueueMax < 85e3-1500 || b.QueueMax > 87e3 || b.Drops == 0 {
			t.Errorf("%s peaked at %g B with %d drops, want 83500 to 87000 B, and drops", b.Name, b.QueueMax, b.Drops)
		}
	}
}

// Lossless, the shared buffer's PFC is HPCC's: TestPFCDynamicThresholdOnA
// LeafByHand's leaf, whose six 500 KB ports shared their 3 MB, now a 3 MB
// switch buffer (no reserve) under the shared model: the same hand
// computation holds, to the picosecond and the byte. Hosts 2 and 3 are
// paused at 269 frame times + 1 us, host 1 a frame time later, and the
// port down to host 0 peaks at 543 frames, 814,500 B, with nothing
// dropped.
func TestSharedBufferPFCOnALeafByHand(t *testing.T) {
	cfg := fabric(noneScheme(t), leaf6(t, 500e3), []Flow{{From: 1, To: 0}, {From: 2, To: 0}, {From: 3, To: 0}})
	cfg.Duration = 3 * ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125}
	cfg.Shared = &SharedBuffer{Switch: 3e6, Alpha: 1}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	P := int32(len(sim.ports))
	paused := func() (out []int) {
		for h := 0; h <= 5; h++ {
			if sim.ingress[P+int32(h)].pausing {
				out = append(out, h)
			}
		}
		return out
	}
	const T = 1200 * algos.Nanosecond
	for _, c := range []struct {
		at   algos.Time
		want []int
	}{{269*T + us - 1, nil}, {269*T + us, []int{2, 3}}, {270*T + us - 1, []int{2, 3}}, {270*T + us, []int{1, 2, 3}}} {
		sim.Advance(c.at)
		if p := paused(); !slices.Equal(p, c.want) {
			t.Errorf("at %.6f us the paused links are hosts %v, want %v", float64(c.at)/1e6, p, c.want)
		}
	}
	sim.Run()
	for _, b := range sim.Summary().Bottlenecks {
		if b.Name == "leaf->h0" && (b.QueueMax != 543*1500 || b.Drops != 0) {
			t.Errorf("leaf->h0 peaked at %g B with %d drops, want 814500 B and none", b.QueueMax, b.Drops)
		}
		// The paused links are released as the port drains (XON): it
		// stays busy to the end.
		if b.Name == "leaf->h0" && b.Utilization < 0.999 {
			t.Errorf("leaf->h0 busy %.4g of the time: the paused links were not released", b.Utilization)
		}
	}
	if sw := sim.ports[0].sw; sw.used < 0 || sw.used > sw.size {
		t.Errorf("the switch holds %d B of %d", sw.used, sw.size)
	}
}

// A fat-tree of shared-buffer switches with a lossless class (an incast
// under PFC) and a lossy one (a permutation, dynamic thresholds): bytes
// are conserved, the lossless class drops nothing, the lossy one does,
// and no switch holds more than its buffer.
func TestSharedBufferFatTreeLosslessAndLossy(t *testing.T) {
	ft := fatTree4(t, 100e3)
	flows := Permutation(16, 1)
	for _, h := range []int{4, 6, 8, 10, 12, 14} {
		flows = append(flows, Flow{From: h, To: 0, Class: 1})
	}
	cfg := fabric(noneScheme(t), ft, flows)
	cfg.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
	cfg.Shared = &SharedBuffer{Switch: 600e3, Reserve: 3000, Alpha: 1}
	sim, _ := run(t, cfg)
	released, delivered, dropped, inNetwork := conservation(sim)
	if released != delivered+dropped+inNetwork {
		t.Errorf("%d bytes released, %d delivered + %d dropped + %d in the network = %d",
			released, delivered, dropped, inNetwork, delivered+dropped+inNetwork)
	}
	var lossy, lossless int64
	pauses := int64(0)
	for _, p := range sim.ports {
		lossy += p.cls.q[0].drops
		lossless += p.cls.q[1].drops
		pauses += p.pfc.pauseFrames
		if sw := p.sw; sw.used < 0 || sw.used > sw.size || sw.sharedUsed < 0 {
			t.Fatalf("a switch holds %d B of %d (%d shared)", sw.used, sw.size, sw.sharedUsed)
		}
	}
	if lossless != 0 || lossy == 0 || pauses == 0 {
		t.Errorf("drops: %d lossless, %d lossy; %d PAUSE frames: want none, some, some", lossless, lossy, pauses)
	}
}

// The same leaf with a reserve of 3,000 B for each of its six queues: the
// shared part PFC's thresholds follow shrinks by 18,000 B, a link's XOFF
// is (2,940,000 - U) / 8, and by the same count host 3 (sender m = 2)
// crosses it at k = 266 and hosts 1 and 2 at k = 267, each instant a_k
// = (k+1) 1.2 us + 1 us; each host releases frames up to two instants
// after (the PAUSE lands 1 us later), so at a_268 the switch holds 3 x
// 269 - 268 = 539 frames and at a_269 two more arrive and one leaves: a
// peak of 540 frames, 810,000 B, nothing dropped.
func TestSharedBufferReserveByHand(t *testing.T) {
	cfg := fabric(noneScheme(t), leaf6(t, 500e3), []Flow{{From: 1, To: 0}, {From: 2, To: 0}, {From: 3, To: 0}})
	cfg.Duration = 3 * ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125}
	cfg.Shared = &SharedBuffer{Switch: 3e6, Reserve: 3000, Alpha: 1}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	P := int32(len(sim.ports))
	paused := func() (out []int) {
		for h := 0; h <= 5; h++ {
			if sim.ingress[P+int32(h)].pausing {
				out = append(out, h)
			}
		}
		return out
	}
	const T = 1200 * algos.Nanosecond
	for _, c := range []struct {
		at   algos.Time
		want []int
	}{{267*T + us - 1, nil}, {267*T + us, []int{3}}, {268*T + us - 1, []int{3}}, {268*T + us, []int{1, 2, 3}}} {
		sim.Advance(c.at)
		if p := paused(); !slices.Equal(p, c.want) {
			t.Errorf("at %.6f us the paused links are hosts %v, want %v", float64(c.at)/1e6, p, c.want)
		}
	}
	sim.Run()
	for _, b := range sim.Summary().Bottlenecks {
		if b.Name == "leaf->h0" && (b.QueueMax != 540*1500 || b.Drops != 0) {
			t.Errorf("leaf->h0 peaked at %g B with %d drops, want 810000 B and none", b.QueueMax, b.Drops)
		}
	}
}

// The dynamic threshold's integer test, for a whole alpha, decides as the
// float product does, at and around every boundary.
func TestDynamicThresholdIntegerTestMatchesFloat(t *testing.T) {
	for _, alpha := range []float64{1, 2, 3, 64, 0.5, 1.5} {
		for _, reserve := range []int{0, 1500} {
			for used := 0; used <= 30000; used += 250 {
				for qb := 0; qb <= 40000; qb += 250 {
					b := &switchBuffer{size: 1 << 30, shared: 30000, reserve: reserve, alpha: alpha, sharedUsed: used}
					if a := int(alpha); float64(a) == alpha {
						b.alphaInt = a
					}
					q := &classQueue{bytes: qb}
					after := qb + 1500 - reserve
					want := !(after > 0 && float64(after) > alpha*float64(b.shared-used))
					if got := b.take(q, 0, 1500); got != want {
						t.Fatalf("alpha %g, reserve %d, shared used %d, queue %d: admitted %v, the float test %v", alpha, reserve, used, qb, got, want)
					}
				}
			}
		}
	}
}
