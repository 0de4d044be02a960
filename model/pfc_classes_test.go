package model

import (
	"strings"
	"testing"
)

// pfcIncast is a k = 4 fat-tree where six hosts of the three other pods
// send to host 0 at line rate in class 1 (an incast that PFC holds
// back), while host 5 sends to host 1, under host 0's switch, in class 0,
// with PFC by ingress accounting. ECMP's seed is one whose victim shares
// a link into host 0's switch with the incast.
func pfcIncast(t *testing.T, classes int) (Config, int) {
	ft := fatTree4(t, 150e3)
	var flows []Flow
	for _, h := range []int{4, 6, 8, 10, 12, 14} {
		flows = append(flows, Flow{From: h, To: 0, Class: min(1, classes-1)})
	}
	victim := len(flows)
	flows = append(flows, Flow{From: 5, To: 1})
	cfg := fabric(noneScheme(t), ft, flows)
	realClocks(&cfg)
	cfg.Duration, cfg.Warmup = 10*ms, 2*ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true}
	if classes > 1 {
		cfg.Classes = &Classes{N: classes, Strict: classes, Weights: []int{1, 1}}
	}
	for cfg.Seed = 1; ; cfg.Seed++ {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		into := sim.lims[victim].route[2] // the victim's port into host 0's switch
		shared := false
		for i := range victim {
			shared = shared || sim.lims[i].route[2] == into
		}
		if shared {
			return cfg, victim
		}
	}
}

// PFC pauses the class that fills the switch, on the links it came in
// by, and no other: a class-0 flow that crosses a paused link keeps line
// rate and its host is never paused, where with one class the same link,
// paused for all, holds it back too. Nothing is dropped either way.
func TestPFCPausesOnlyTheCongestedClass(t *testing.T) {
	cfg, victim := pfcIncast(t, 1)
	_, one := run(t, cfg)
	cfg, victim = pfcIncast(t, 2)
	sim, two := run(t, cfg)
	v1, v2 := one.Sources[victim], two.Sources[victim]
	t.Logf("victim: one class %.4g Gbps paused %.3g; two classes %.4g Gbps paused %.3g; incast[0] paused %.3g", v1.ThroughputBps/1e9, v1.PausedFraction, v2.ThroughputBps/1e9, v2.PausedFraction, two.Sources[0].PausedFraction)
	if v1.ThroughputBps > 9e9 {
		t.Fatalf("one class: the victim got %.3g Gbps: the scenario does not pause it", v1.ThroughputBps/1e9)
	}
	if v2.ThroughputBps < 9.9e9 || v2.PausedFraction != 0 {
		t.Errorf("two classes: the victim got %.4g Gbps, paused %.3g of the time; want line rate, never paused (one class: %.3g Gbps, paused %.3g)",
			v2.ThroughputBps/1e9, v2.PausedFraction, v1.ThroughputBps/1e9, v1.PausedFraction)
	}
	var incast float64
	for i := range victim {
		incast += two.Sources[i].ThroughputBps
		if two.Sources[i].PausedFraction < 0.3 {
			t.Errorf("incast flow %d paused %.3g of the time: PFC should hold it back", i, two.Sources[i].PausedFraction)
		}
	}
	if incast < 9.8e9 || incast > 10.01e9 {
		t.Errorf("the incast delivered %.4g Gbps into host 0's 10 Gbps link", incast/1e9)
	}
	for _, sum := range []Summary{one, two} {
		for _, b := range sum.Bottlenecks {
			if b.DropsTotal != 0 {
				t.Errorf("port %s dropped %d frames under PFC", b.Name, b.DropsTotal)
			}
		}
	}
	paused := 0
	for j, p := range sim.ports {
		if p.pfc.classPausedBy != nil && p.pfc.classPausedBy[0] != 0 {
			t.Errorf("port %d: class 0 paused", j)
		}
		if p.pfc.pauseFrames > 0 {
			paused++
		}
	}
	if paused == 0 {
		t.Error("no port sent PAUSE")
	}
}

// The ring's deadlock with the flows in class 1 of two: the cycle is
// found the same way, and the report names the class paused at each port.
func TestPFCDeadlockNamesTheClass(t *testing.T) {
	cfg := ring5(t, 100e3)
	for i := range cfg.Fabric.Flows {
		cfg.Fabric.Flows[i].Class = 1
	}
	cfg.Classes = &Classes{N: 2, Strict: 2, Weights: []int{1, 1}}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	d := sim.Summary().PFCDeadlock
	if d == nil {
		t.Fatalf("no deadlock reported; the run reached %g s", sim.Now().Seconds())
	}
	if len(d.Ports) != 5 || len(d.Classes) != 5 {
		t.Errorf("cycle %v, classes %v: want the five clockwise ports", d.Ports, d.Classes)
	}
	for _, c := range d.Classes {
		if c != 1 {
			t.Errorf("classes %v, want 1 at each port", d.Classes)
			break
		}
	}
	if s := d.String(); !strings.Contains(s, "(class 1) -> ") {
		t.Errorf("report %q does not name the class", s)
	}
}
