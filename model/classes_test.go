package model

import (
	"math"
	"strings"
	"testing"

	"qcnlab/algos"
)

// twoClasses is a dumbbell of two line-rate `none` sources into one
// 10 Gbps port, source 0 in class 0 and source 1 in class 1, over 5 ms
// windows after a 5 ms warm-up, with real clocks (so no phase lock).
func twoClasses(t *testing.T, k Classes, rates ...float64) Config {
	cfg := baseConfig(noneScheme(t), 2, 10e9)
	for i, r := range rates {
		cfg.Sources[i].LineRate, cfg.Sources[i].InitialRate = r, r
	}
	cfg.Sources[1].Class = 1
	realClocks(&cfg)
	cfg.Duration, cfg.Warmup = 30*ms, 5*ms
	phased(&cfg, 5*ms)
	cfg.Classes = &k
	return cfg
}

// within checks each window's throughput of source i against want, to
// tol bits per second.
func within(t *testing.T, what string, sum Summary, i int, want, tol float64) {
	t.Helper()
	for _, ph := range sum.Phases {
		if ph.Start < 0.0049 {
			continue
		}
		if got := ph.Sources[i].ThroughputBps; math.Abs(got-want) > tol {
			t.Errorf("%s: source %d got %.6g Gbps over [%g, %g] s, want %.6g +- %.3g", what, i, got/1e9, ph.Start, ph.End, want/1e9, tol/1e9)
		}
	}
}

// DWRR with weights 3:1 and a quantum of one frame serves three frames of
// class 0 for each of class 1 while both have frames: two saturating
// sources get 3/4 and 1/4 of 10 Gbps, 7.5 and 2.5 Gbps, in every window,
// give or take one frame per 5 ms window (2.4 Mbps; measured: class 0
// exact, class 1 within 0.67 frames). A FIFO would give them about 5 each.
func TestDWRRSharesByWeight(t *testing.T) {
	cfg := twoClasses(t, Classes{N: 2, Weights: []int{3, 1}})
	_, sum := run(t, cfg)
	tol := 1500 * 8 / 5e-3
	within(t, "dwrr 3:1", sum, 0, 7.5e9, tol)
	within(t, "dwrr 3:1", sum, 1, 2.5e9, tol)
	// The port's summary has each class's share and queue.
	cl := sum.Bottlenecks[0].Classes
	if len(cl) != 2 || math.Abs(cl[0].ThroughputBps-7.5e9) > tol || math.Abs(cl[1].ThroughputBps-2.5e9) > tol ||
		cl[0].QueueMax < 100e3 || cl[1].Drops == 0 || cl[0].QueueMean < 100e3 || cl[0].QueueMean > cl[0].QueueMax {
		t.Errorf("the port's classes: %+v", cl)
	}
}

// Strict priority serves class 0 whenever it has a frame: at 4 Gbps it
// gets all of it and class 1 the 6 Gbps left; at line rate it starves
// class 1, which delivers nothing after the warm-up.
func TestStrictPriorityServesTheHighClassFirst(t *testing.T) {
	cfg := twoClasses(t, Classes{N: 2, Strict: 2, Weights: []int{1, 1}}, 4e9, 10e9)
	_, sum := run(t, cfg)
	tol := 2 * 1500 * 8 / 5e-3
	within(t, "strict, high at 4 Gbps", sum, 0, 4e9, tol)
	within(t, "strict, high at 4 Gbps", sum, 1, 6e9, tol)

	cfg = twoClasses(t, Classes{N: 2, Strict: 2, Weights: []int{1, 1}})
	_, sum = run(t, cfg)
	within(t, "strict, high at line rate", sum, 0, 10e9, tol)
	within(t, "strict, high at line rate", sum, 1, 0, 0)
}

// A class's queue is drop-tail on its own buffer: the starved class
// fills its own and drops, the served one never fills.
func TestAStarvedClassDropsInItsOwnBuffer(t *testing.T) {
	cfg := twoClasses(t, Classes{N: 2, Strict: 2, Weights: []int{1, 1}})
	sim, _ := run(t, cfg)
	p := sim.ports[0]
	hi, lo := &p.cls.q[0], &p.cls.q[1]
	if hi.drops != 0 || hi.bytes > 2*1500 {
		t.Errorf("high class: %d drops, %d B queued; want none and at most 2 frames", hi.drops, hi.bytes)
	}
	if lo.drops == 0 || lo.bytes+1500 <= lo.buffer {
		t.Errorf("low class: %d drops, %d B queued of %d; want it full and dropping", lo.drops, lo.bytes, lo.buffer)
	}
}

// One class, given explicitly, is the port of the seeds to the bit.
func TestOneClassIsTheFIFO(t *testing.T) {
	a := baseConfig(noneScheme(t), 3, 10e9)
	realClocks(&a)
	b := a
	b.Classes = &Classes{N: 1, Weights: []int{1}}
	_, sa := run(t, a)
	_, sb := run(t, b)
	for i := range sa.Sources {
		if sa.Sources[i].ThroughputBps != sb.Sources[i].ThroughputBps {
			t.Errorf("source %d: %v with one class given, %v without", i, sb.Sources[i].ThroughputBps, sa.Sources[i].ThroughputBps)
		}
	}
}

// With classes, every byte released is still delivered, dropped or in the
// network, on a fat-tree, sprayed or not, with DCQCN's receivers and
// marking at departure and short flows in another class.
func TestClassesConserveFrames(t *testing.T) {
	ft := fatTree4(t, 30e3)
	dcqcn, err := algos.Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []*algos.Scheme{noneScheme(t), dcqcn} {
		for _, routing := range []Routing{ECMP, Spray} {
			flows := append(Permutation(16, 1), Flow{From: 3, To: 0}, Flow{From: 7, To: 0}, Flow{From: 9, To: 0, Size: 100e3})
			for i := range flows {
				flows[i].Class = i % 3
			}
			cfg := fabric(sc, ft, flows)
			if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
				t.Fatal(err)
			}
			cfg.Fabric.Routing = routing
			sizes := FixedSize("20KB", 20e3)
			cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.1, 16, 10e9, sizes), Sizes: sizes, Class: 1}
			cfg.Classes = &Classes{N: 3, Strict: 1, Weights: []int{1, 2, 1}}
			sim, sum := run(t, cfg)
			released, delivered, dropped, inNetwork := conservation(sim)
			if dropped == 0 || delivered == 0 {
				t.Fatalf("%s, routing %d: %d bytes dropped, %d delivered: the test needs both", sc.Name, routing, dropped, delivered)
			}
			if released != delivered+dropped+inNetwork {
				t.Errorf("%s, routing %d: %d bytes released, %d delivered + %d dropped + %d in the network = %d",
					sc.Name, routing, released, delivered, dropped, inNetwork, delivered+dropped+inNetwork)
			}
			if sum.Flows == nil || sum.Flows.Started < 100 || sum.Flows.Completed+sum.Flows.Lost < sum.Flows.Started*9/10 {
				t.Errorf("%s, routing %d: the sized flows: %+v", sc.Name, routing, sum.Flows)
			}
		}
	}
}

// The frames that leave a port with classes out of their arrival order go
// on to the next switch as themselves: on a chain of two links, the
// second port delivers the 3:1 shares the first one's DWRR made.
func TestFramesLeaveClassesAsThemselves(t *testing.T) {
	cfg := twoClasses(t, Classes{N: 2, Weights: []int{3, 1}})
	cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 150e3, Delay: 10 * us}, {Capacity: 10e9, Buffer: 150e3}}
	for i := range cfg.Sources {
		cfg.Sources[i].Path = []int{0, 1}
	}
	sim, sum := run(t, cfg)
	tol := 4 * 1500 * 8 / 5e-3
	within(t, "dwrr 3:1, then a second link", sum, 0, 7.5e9, tol)
	within(t, "dwrr 3:1, then a second link", sum, 1, 2.5e9, tol)
	if q := sim.ports[1].cls.q; q[0].sent == 0 || q[1].sent == 0 || q[0].sent/3 > q[1].sent+10e3 || q[1].sent > q[0].sent/3+10e3 {
		t.Errorf("second port: classes sent %d and %d B, want 3:1", q[0].sent, q[1].sent)
	}
}

// RED per class: DCQCN's marking with class 1's thresholds low and class
// 0's above anything its queue reaches marks class 1's frames only, at
// enqueue and at dequeue alike.
func TestECNPerClass(t *testing.T) {
	sc, err := algos.Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []float64{algos.DCQCNMarkOnEnqueue, algos.DCQCNMarkOnDequeue} {
		cfg := twoClasses(t, Classes{N: 2, Weights: []int{1, 1}, Params: []algos.Values{
			{"k_min": 10e6, "k_max": 20e6}, {"k_min": 5e3, "k_max": 10e3, "p_max": 1}}})
		cfg.Scheme = sc
		if cfg.Params, err = sc.Resolve(cfg.Network(), algos.Values{"mark_on": on}); err != nil {
			t.Fatal(err)
		}
		_, sum := run(t, cfg)
		cl := sum.Bottlenecks[0].Classes
		if cl[0].MarkedFrames != 0 || cl[1].MarkedFrames == 0 {
			t.Errorf("mark_on %g: classes marked %d and %d frames, want none and some", on, cl[0].MarkedFrames, cl[1].MarkedFrames)
		}
	}
	// The scheme checks each class's parameters.
	cfg := twoClasses(t, Classes{N: 2, Weights: []int{1, 1}, Params: []algos.Values{nil, {"k_min": 20e3, "k_max": 10e3}}})
	cfg.Scheme = sc
	cfg.Params, _ = sc.Resolve(cfg.Network(), nil)
	if _, err := NewPacket(cfg); err == nil || !strings.Contains(err.Error(), "class 1's parameters") {
		t.Errorf("k_min above k_max in class 1: %v", err)
	}
}

// TestFabricClassPortsNeverMix checks what mustServeClasses' shortcut
// rests on: at a fabric's port with classes and no control frames, the
// frames in its queue and its classes' queues all leave the network there
// (a port to a host: none goes on) or all go on (to a switch: none is on
// its way to a receiver), with receivers followed (DCQCN), both classes
// busy in a shared buffer, after every event.
func TestFabricClassPortsNeverMix(t *testing.T) {
	flows := AllToAll(16)
	for i := range flows {
		flows[i].Class = i % 2
	}
	cfg := dcqcnFabric(t, flows)
	cfg.Duration = 200 * us
	cfg.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	cfg.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
	ft := cfg.Fabric.Topology
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	toHost := portsToHosts(sim, ft)
	waited, exitsWaited := false, false
	for !sim.Done() {
		sim.AdvanceBounded(cfg.Duration, 1)
		for j, p := range sim.ports {
			cs := p.cls
			if p.odd&portOddMixed != 0 || cs == nil || cs.watch {
				t.Fatalf("port %d: mixed %v, classes %v, watched", j, p.odd&portOddMixed != 0, cs != nil)
			}
			onward, exits := int(p.onward)+cs.waitOnward, p.exiting+cs.waitExits
			if toHost[j] && onward != 0 || !toHost[j] && exits != 0 {
				t.Fatalf("at %d: port %d (to a host %v) holds %d frames that go on, %d that leave", sim.Now(), j, toHost[j], onward, exits)
			}
			waited = waited || cs.waitOnward > 0
			exitsWaited = exitsWaited || cs.waitExits > 0
		}
	}
	if !waited || !exitsWaited {
		t.Fatalf("no frame waited in a class's queue (going on %v, leaving %v)", waited, exitsWaited)
	}
	chain, err := NewPacket(twoClasses(t, Classes{N: 2, Weights: []int{1, 1}}))
	if err != nil {
		t.Fatal(err)
	}
	for j, p := range chain.ports {
		if !p.cls.watch {
			t.Errorf("chain port %d with classes is not watched", j)
		}
	}
}
