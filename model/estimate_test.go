package model

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// measure runs cfg and returns the heap it held at its peak (above what was
// in use before), and its events. With live, garbage is collected before
// each look: the heap the run needs, not what the collector lets pile up.
func measure(t *testing.T, cfg Config, live bool) (peak float64, events uint64) {
	t.Helper()
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	base := m.HeapInuse
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	step := max(cfg.Duration/50, algos.Microsecond)
	var top uint64
	for !sim.Done() {
		sim.Advance(sim.Now() + step)
		if live {
			runtime.GC()
		}
		runtime.ReadMemStats(&m)
		top = max(top, m.HeapInuse)
	}
	sum := sim.Summary()
	if live {
		runtime.GC()
	}
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(sum)
	top = max(top, m.HeapInuse)
	return float64(top) - float64(base), sim.Events()
}

// The estimate errs high, within a stated factor of what runs take: memory
// from the peak heap in use (garbage included, as the process holds it) to
// estimateSlack times it, give or take a megabyte (the heap grows by spans
// and arenas), and events from those counted to estimateSlack times them.
func TestEstimate(t *testing.T) {
	qcn, _ := algos.Lookup("qcn")
	resolve := func(cfg Config) Config {
		v, err := cfg.Scheme.Resolve(cfg.Network(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Params = v
		return cfg
	}
	dumbbell := benchConfig(t, 50*ms)
	parking := parkingLot(qcn, 3e9, 3e9, 3e9)
	parking.Params, _ = qcn.Resolve(parking.Network(), nil)
	ft4 := resolve(fabric(qcn, fatTree4(t, 150e3), Permutation(16, 1)))
	ft8 := fatTreeConfig(t, 10*ms)
	ls, err := topo.LeafSpine(4, 2, 8, 10e9, 40e9, 300e3, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	short := resolve(fabric(qcn, ls, Permutation(32, 2)[:8]))
	sizes, _ := Workload("websearch")
	short.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.3, 32, 10e9, sizes), Sizes: sizes}
	short.Duration = 20 * ms
	for name, cfg := range map[string]Config{"dumbbell": dumbbell, "parking lot": parking, "k=4": ft4, "k=8": ft8, "leaf-spine short flows": short} {
		est := Estimate(cfg)
		peak, events := measure(t, cfg, false)
		t.Logf("%s: memory %.2f MB estimated, %.2f MB measured; events %.3g estimated, %d counted", name, est.Memory/1e6, peak/1e6, est.Events, events)
		if est.Memory+1e6 < peak || est.Memory > estimateSlack*peak+1e6 {
			t.Errorf("%s: memory estimated %.0f B, measured %.0f B: not within [1, %g] times", name, est.Memory, peak, float64(estimateSlack))
		}
		if est.Events < float64(events) || est.Events > estimateSlack*float64(events) {
			t.Errorf("%s: events estimated %.3g, counted %d: not within [1, %g] times", name, est.Events, events, float64(estimateSlack))
		}
	}
}

// Memory is bounded by the network and the frames in flight, not by the
// simulated time: a run eight times as long holds about the same heap (the
// most flows alive at once, and so limiters kept, drifts up a little).
func TestFabricMemoryIsFlatInTime(t *testing.T) {
	qcn, _ := algos.Lookup("qcn")
	sizes := FixedSize("20KB", 20e3)
	mk := func(d algos.Time) Config {
		cfg := fabric(qcn, fatTree4(t, 150e3), AllToAll(16)[:60])
		cfg.Params, _ = qcn.Resolve(cfg.Network(), nil)
		cfg.Fabric.Routing = Spray
		cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.2, 16, 10e9, sizes), Sizes: sizes}
		cfg.Duration = d
		return cfg
	}
	short, _ := measure(t, mk(10*ms), true)
	long, _ := measure(t, mk(80*ms), true)
	t.Logf("peak heap: %.2f MB over 10 ms, %.2f MB over 80 ms", short/1e6, long/1e6)
	if long > 2*short {
		t.Errorf("peak heap grew from %.0f B to %.0f B with the duration", short, long)
	}
}

// A frame a port holds costs at most Layout.FrameBytes, and not far less:
// on a chain of two links without congestion control, the first fills its
// buffer, and the heap of one filled to 3 MB (2,000 frames) less that of
// one filled to 150 KB (100 frames), over the 1,900 frames between, is
// within [1/4, 1] of it. The estimate counts each frame a port may hold
// at FrameBytes.
func TestBytesPerFrameHeld(t *testing.T) {
	none, _ := algos.Lookup("none")
	mk := func(buffer int) Config {
		cfg := benchConfig(t, 5*ms)
		cfg.Scheme = none
		cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: buffer, Delay: us}, {Capacity: 100e9, Buffer: 150e3}}
		for i := range cfg.Sources {
			cfg.Sources[i].Path = []int{0, 1}
		}
		cfg.Params, _ = none.Resolve(cfg.Network(), nil)
		return cfg
	}
	small, big := mk(150e3), mk(3e6)
	heapSmall, _ := measure(t, small, true)
	heapBig, _ := measure(t, big, true)
	perFrame := (heapBig - heapSmall) / 1900
	layout := MemoryLayout(big)
	t.Logf("a frame held: %.0f B measured, %.0f B in the layout; a port %.0f B", perFrame, layout.FrameBytes, layout.PortBytes)
	if perFrame > layout.FrameBytes || perFrame < layout.FrameBytes/4 {
		t.Errorf("a frame held costs %.0f B, the layout says %.0f B", perFrame, layout.FrameBytes)
	}
	if d := Estimate(big).Memory - Estimate(small).Memory; d < 1900*layout.FrameBytes || d > 2048*layout.FrameBytes {
		t.Errorf("the estimate grows by %.0f B for 1,900 more frames of %.0f B", d, layout.FrameBytes)
	}
}

// A switch port and its host cost what Estimate counts for them, give or
// take a factor of 4: a star of 512 hosts less a star of 64, one flow
// each between hosts 0 and 1, over the 448 idle ports and hosts between
// (it counted every port's least rings, made at its first frame: 3.7 to
// 4.3 times the 1.2-1.4 KB measured; now twice). Each port counts at
// least Layout.PortBytes.
//
// With control frames (DCQCN's by default) each port has its one class as
// a class queue, and a control queue: 0.9 KB more measured than QCN's,
// which the estimate counted 56 B less.
func TestBytesPerPort(t *testing.T) {
	qcnMeasured, qcnEstimated := bytesPerPort(t, "qcn", false)
	measured, estimated := bytesPerPort(t, "dcqcn", true)
	if estimated-qcnEstimated < measured-qcnMeasured {
		t.Errorf("with control frames a port and its host cost %.0f B more, the estimate counts %.0f B more", measured-qcnMeasured, estimated-qcnEstimated)
	}
}

// bytesPerPort is what a port and its host cost, measured and estimated,
// under scheme.
func bytesPerPort(t *testing.T, scheme string, controlFrames bool) (measured, estimated float64) {
	qcn, _ := algos.Lookup(scheme)
	star := func(hosts int) Config {
		nodes := []topo.Node{{Name: "sw", Kind: topo.Switch}}
		var links []topo.Link
		for h := range hosts {
			name := fmt.Sprintf("h%d", h)
			nodes = append(nodes, topo.Node{Name: name, Kind: topo.Host})
			links = append(links, topo.Duplex(name, "sw", 10e9, us, 150e3))
		}
		st, err := topo.Custom(nodes, links)
		if err != nil {
			t.Fatal(err)
		}
		cfg := fabric(qcn, st, []Flow{{From: 0, To: 1}})
		cfg.Params, _ = qcn.Resolve(cfg.Network(), nil)
		cfg.ControlFrames = controlFrames
		return cfg
	}
	small, big := star(64), star(512)
	heapSmall, _ := measure(t, small, true)
	heapBig, _ := measure(t, big, true)
	measured = (heapBig - heapSmall) / 448
	estimated = (Estimate(big).Memory - Estimate(small).Memory) / 448
	layout := MemoryLayout(big)
	t.Logf("%s: a port and its host: %.0f B measured, %.0f B estimated; the layout's port %.0f B", scheme, measured, estimated, layout.PortBytes)
	if measured > estimated || measured < estimated/4 {
		t.Errorf("%s: a port and its host cost %.0f B, the estimate counts %.0f B", scheme, measured, estimated)
	}
	if estimated > 3*measured || estimated < layout.PortBytes {
		t.Errorf("%s: the estimate counts %.0f B a port and its host (%.0f B measured), the layout %.0f B a port", scheme, estimated, measured, layout.PortBytes)
	}
	return measured, estimated
}

// A congestion point costs no more than the estimate counts for it, as
// the engine builds them (from a slab, with a generator each), for every
// scheme: QCN's keeps its sampler's state apart, which the estimate
// missed when it counted the point's own struct alone (96 B counted,
// 104 B held).
func TestCongestionPointsWithinTheirEstimate(t *testing.T) {
	for _, name := range algos.Names() {
		sc, _ := algos.Lookup(name)
		if sc.NewCP == nil {
			continue
		}
		cfg := fabric(sc, fatTree4(t, 150e3), []Flow{{From: 0, To: 1}})
		cfg.Params, _ = sc.Resolve(cfg.Network(), nil)
		n, err := cfg.network()
		if err != nil {
			t.Fatal(err)
		}
		counted, _, _, _ := schemeSizes(&cfg, n)
		netw := cfg.networkOf(n)
		const points = 20000
		keep := make([]algos.CongestionPoint, points)
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		before := m.HeapAlloc
		slab := algos.NewCPSlab(points)
		for j := range keep {
			keep[j] = sc.NewCP(algos.CPEnv{Network: netw, CPID: j + 1, Capacity: netw.Capacity, Buffer: netw.Buffer,
				Rand: rand.New(rand.NewPCG(1, uint64(j))), Slab: slab}, cfg.Params)
		}
		runtime.GC()
		runtime.ReadMemStats(&m)
		held := max(float64(int64(m.HeapAlloc)-int64(before)), 0) / points
		runtime.KeepAlive(keep)
		if held > counted {
			t.Errorf("%s: a congestion point holds %.0f B, the estimate counts %.0f B", name, held, counted)
		}
	}
}

// What a port queues at its peak is within queueBounds, where the switch
// lets a queue hold more than its own buffer: three line-rate senders into
// one port of a switch of six 500 KB ports. In a 3 MB shared buffer, alpha
// 1, the port takes half of it (1,000 frames, TestDynamicThresholdOfOneQueueByHand's
// count); under PFC's dynamic thresholds the ports share their 3 MB, with or
// without the shared model, and the port peaks at 543 frames
// (TestSharedBufferPFCOnALeafByHand). The estimate counted each port's own
// 500 KB (333 frames). A lossy queue's bound is its admission's, within a
// frame. Under PFC a port holds no more than its flows send (three of
// 150 KB: 303 frames), and a ring deadlocked by PFC (ring5, run to its end)
// holds what it holds within its bounds.
func TestQueueBoundsHoldWhatASwitchAdmits(t *testing.T) {
	leaf := func(size int64, setup func(*Config)) Config {
		cfg := fabric(noneScheme(t), leaf6(t, 500e3), []Flow{{From: 1, To: 0, Size: size}, {From: 2, To: 0, Size: size}, {From: 3, To: 0, Size: size}})
		cfg.Duration = 3 * ms
		setup(&cfg)
		return cfg
	}
	dynamic := func(c *Config) { c.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125} }
	deadlocked := ring5(t, 100e3)
	deadlocked.PFC.DeadlockAfter = 0
	deadlocked.Duration = 3 * ms
	cases := []struct {
		name string
		cfg  Config
		most float64 // the bound leaf->h0 may have at most (0: any), frames
	}{
		{"shared buffer, lossy", leaf(0, func(c *Config) { c.Shared = &SharedBuffer{Switch: 3e6, Alpha: 1} }), 1001},
		{"shared buffer, alpha 1/2, reserves", leaf(0, func(c *Config) { c.Shared = &SharedBuffer{Switch: 3e6, Reserve: 15e3, Alpha: 0.5} }), 658},
		{"PFC's dynamic thresholds", leaf(0, dynamic), 0},
		{"shared buffer and PFC", leaf(0, func(c *Config) {
			dynamic(c)
			c.Shared = &SharedBuffer{Switch: 3e6, Alpha: 1}
		}), 0},
		{"PFC, flows of 150 KB", leaf(150e3, dynamic), 304},
		{"PFC deadlocked on a ring", deadlocked, 0},
	}
	for _, c := range cases {
		cfg := c.cfg
		bounds, names, sum := boundedRun(t, cfg)
		seen := 0
		for _, b := range sum.Bottlenecks {
			j, ok := names[b.Name]
			if !ok {
				continue
			}
			seen++
			frames := b.QueueMax / float64(cfg.FrameBytes)
			if frames > bounds[j]+1e-6 {
				t.Errorf("%s: %s held %.0f frames at its peak, beyond its bound of %.1f", c.name, b.Name, frames, bounds[j])
			}
			if b.Name == "leaf->h0" || frames > 0 && c.most == 0 {
				t.Logf("%s: %s peaked at %.0f frames, bound %.1f", c.name, b.Name, frames, bounds[j])
			}
			if b.Name == "leaf->h0" && c.most > 0 && bounds[j] > c.most {
				t.Errorf("%s: %s peaked at %.0f frames; its bound %.1f is above %g", c.name, b.Name, frames, bounds[j], c.most)
			}
		}
		if seen == 0 {
			t.Errorf("%s: no summary for its ports", c.name)
		}
	}
}

// ACKs sent as control frames are served before data at the port down to
// their sender: two hosts sending to each other at their line rate with no
// scheme to slow them, each host's port carries the other's data and its
// own flow's ACKs, and its data falls behind by the ACKs' share (64 B per
// 1,500 B frame) for the whole run. Its bound holds that backlog.
func TestQueueBoundsHoldDataBehindControlFrames(t *testing.T) {
	cfg := fabric(noneScheme(t), leaf6(t, 32e6), []Flow{{From: 0, To: 1}, {From: 1, To: 0}})
	cfg.Duration = 3 * ms
	cfg.ControlFrames = true
	cfg.Transport = Transport{Recovery: RecoveryGoBackN, RateSchemes: true}
	bounds, names, sum := boundedRun(t, cfg)
	for _, name := range []string{"leaf->h0", "leaf->h1"} {
		var b *BottleneckSummary
		for i := range sum.Bottlenecks {
			if sum.Bottlenecks[i].Name == name {
				b = &sum.Bottlenecks[i]
			}
		}
		if b == nil {
			t.Fatalf("no summary for %s", name)
		}
		frames, bound := b.QueueMax/float64(cfg.FrameBytes), bounds[names[name]]
		t.Logf("%s peaked at %.0f frames, bound %.1f", name, frames, bound)
		if frames < 50 {
			t.Errorf("%s peaked at %.0f frames: its data did not fall behind", name, frames)
		}
		if frames > bound {
			t.Errorf("%s held %.0f frames at its peak, beyond its bound of %.1f", name, frames, bound)
		}
	}
}

// boundedRun runs cfg and returns each simulated port's queue bound
// (queueBounds), the ports' indices by the names their summaries give
// them ("leaf->h0"), and the run's summary.
func boundedRun(t *testing.T, cfg Config) ([]float64, map[string]int, Summary) {
	t.Helper()
	n, err := cfg.network()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for j, tp := range n.ports {
		p := n.topo.Ports[tp]
		names[n.topo.Nodes[p.From].Name+"->"+n.topo.Nodes[p.To].Name] = j
	}
	_, sum := run(t, cfg)
	return queueBounds(&cfg, n), names, sum
}

// The estimate counts each HPCC sender's telemetry ring as newTransport
// sizes it: by its path's bandwidth-delay product, which on long, fast
// links is far more than the 64 frames of 5 hops it once counted (a k = 4
// fat-tree of 100 Gbps, 20 us links: 36 MB built, 12 MB estimated).
func TestTelemetryRingsCountedAsBuilt(t *testing.T) {
	sc, err := algos.Lookup("hpcc")
	if err != nil {
		t.Fatal(err)
	}
	ft, err := topo.FatTree(4, 100e9, 150e3, topo.Uniform(20*us))
	if err != nil {
		t.Fatal(err)
	}
	// Flows under one edge switch, across a pod, across the core.
	cfg := fabric(sc, ft, []Flow{{From: 0, To: 1}, {From: 2, To: 4}, {From: 5, To: 12}, {From: 9, To: 3}})
	cfg.Params, _ = sc.Resolve(cfg.Network(), nil)
	s, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hop := float64(unsafe.Sizeof(algos.Hop{}))
	var built float64
	for _, l := range s.lims {
		if l.tp != nil {
			built += float64(len(l.tp.ints)) * hop
		}
	}
	n, err := cfg.network()
	if err != nil {
		t.Fatal(err)
	}
	var counted float64
	for i, f := range n.flows {
		route := f.route
		if route == nil {
			route = n.route(cfg.Seed, f.host, f.dst, uint64(i))
		}
		counted += flowINTBytes(&cfg, n, f, route)
	}
	if least := float64(len(n.flows)*64*2) * hop; built <= least {
		t.Fatalf("the rings hold %.0f B, no more than the least (%.0f B): the case does not test their sizing", built, least)
	}
	if counted != built {
		t.Errorf("the telemetry rings hold %.0f B, the estimate counts %.0f B", built, counted)
	}
	if est := Estimate(cfg); est.FlowMemory < built {
		t.Errorf("the flows are estimated at %.0f B, less than their telemetry rings' %.0f B", est.FlowMemory, built)
	}
}
