package model

import (
	"math"
	"testing"

	"qcnlab/algos"
)

// dcqcnFabric is DCQCN on a k = 4 fat-tree with flows, its parameters
// resolved.
func dcqcnFabric(t *testing.T, flows []Flow) Config {
	sc, err := algos.Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(sc, fatTree4(t, 150e3), flows)
	if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// A CNP as a frame, by hand: host 1 sends to host 0, under the same edge
// switch; the CNP crosses host 0's NIC link and the port down to host 1,
// each a 64 B frame's time (51.2 ns at 10 Gbps) on top of the links'
// propagation, which is all out-of-band feedback takes. Every loop is
// 102.4 ns longer, no more, when nothing else crosses those ports.
func TestControlFrameLoopByHand(t *testing.T) {
	loops := func(frames bool) (lo, hi float64) {
		cfg := dcqcnFabric(t, []Flow{{From: 1, To: 0}, {From: 2, To: 0}})
		cfg.ControlFrames = frames
		_, sum := run(t, cfg)
		s := sum.Sources[0]
		if s.CNPs == 0 || s.LoopDelayMin == nil {
			t.Fatalf("frames %v: %d CNPs", frames, s.CNPs)
		}
		return *s.LoopDelayMin, *s.LoopDelayMax
	}
	oobLo, oobHi := loops(false)
	lo, hi := loops(true)
	serial := algos.TransmitTime(ControlBytes, 10e9).Seconds()
	if math.Abs(lo-oobLo-2*serial) > 1e-12 || math.Abs(hi-oobHi-2*serial) > 1e-12 {
		t.Errorf("loops %g..%g s as frames, %g..%g s out of band: want 2 x %g s more", lo, hi, oobLo, oobHi, serial)
	}
}

// Control frames wait for the frame on the wire, never for the data
// queued behind it: the CNPs to host 1 cross the port down to it, where
// hosts 2 and 3's flows into host 1 keep a queue; their loops stay
// within one data frame's time (1.2 us) and their own 102.4 ns of the
// out-of-band loop, while that port's queue is far longer. The reverse
// path's ports carry them: their bytes count in its utilization.
func TestControlFramesJumpTheDataQueue(t *testing.T) {
	flows := []Flow{{From: 1, To: 0}, {From: 2, To: 1}, {From: 3, To: 1}, {From: 5, To: 0}}
	cfg := dcqcnFabric(t, flows)
	_, oob := run(t, cfg)
	cfg.ControlFrames = true
	sim, sum := run(t, cfg)
	s := sum.Sources[0]
	if s.CNPs == 0 {
		t.Fatal("no CNP to host 1")
	}
	t.Logf("loops: out of band %g..%g s, frames %g..%g s", *oob.Sources[0].LoopDelayMin, *oob.Sources[0].LoopDelayMax, *s.LoopDelayMin, *s.LoopDelayMax)
	bound := *oob.Sources[0].LoopDelayMax + algos.TransmitTime(1500, 10e9).Seconds() + 2*algos.TransmitTime(ControlBytes, 10e9).Seconds()
	if *s.LoopDelayMax > bound+1e-12 {
		t.Errorf("loop up to %g s, want at most %g s", *s.LoopDelayMax, bound)
	}
	var down *port
	for _, p := range sim.ports {
		if p.name == "edge0.0->h1" {
			down = p
		}
	}
	for _, b := range sum.Bottlenecks {
		if b.Name == "edge0.0->h1" {
			t.Logf("edge0.0->h1: queue max %g B", b.QueueMax)
		}
		if b.Name == "edge0.0->h1" && b.QueueMax < 10*1500 {
			t.Errorf("the port down to host 1 queued at most %g B: the test needs a queue", b.QueueMax)
		}
	}
	if down == nil || down.cls.ctl.bytes != 0 && down.cls.ctl.bytes%ControlBytes != 0 {
		t.Fatalf("the port down to host 1: %+v", down)
	}
}

// Control frames need a fabric routed by ECMP.
func TestControlFramesNeedAFabricsReversePorts(t *testing.T) {
	cfg := baseConfig(noneScheme(t), 2, 10e9)
	cfg.ControlFrames = true
	if _, err := NewPacket(cfg); err == nil {
		t.Error("control frames on a dumbbell: no error")
	}
	cfg = dcqcnFabric(t, []Flow{{From: 1, To: 0}})
	cfg.ControlFrames, cfg.Fabric.Routing = true, Spray
	if _, err := NewPacket(cfg); err == nil {
		t.Error("control frames on a sprayed fabric: no error")
	}
}

// Control frames with everything else of the switch: two classes in
// shared buffers, PFC on the incast's class, short flows whose limiters
// are reused: the run completes, CNPs arrive as frames, nothing lossless
// is dropped, and every control queue has drained or holds whole frames.
func TestControlFramesWithClassesAndPFC(t *testing.T) {
	flows := Permutation(16, 1)
	for _, h := range []int{4, 6, 8, 10, 12, 14} {
		flows = append(flows, Flow{From: h, To: 0, Class: 1})
	}
	cfg := dcqcnFabric(t, flows)
	realClocks(&cfg)
	cfg.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
	cfg.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
	sizes := FixedSize("20KB", 20e3)
	cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.1, 16, 10e9, sizes), Sizes: sizes}
	cfg.ControlFrames = true
	sim, sum := run(t, cfg)
	var cnps int64
	for _, s := range sum.Sources {
		cnps += s.CNPs
	}
	if cnps == 0 {
		t.Error("no CNP arrived")
	}
	for _, p := range sim.ports {
		if p.cls.q[1].drops != 0 {
			t.Errorf("port %s dropped %d lossless frames", p.name, p.cls.q[1].drops)
		}
		if b := p.cls.ctl.bytes; b < 0 || b%ControlBytes != 0 {
			t.Errorf("port %s's control queue holds %d B", p.name, b)
		}
	}
	if n := sim.messages.alive(); n > 10000 {
		t.Errorf("%d messages alive at the end", n)
	}
}
