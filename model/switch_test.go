package model

import (
	"fmt"
	"slices"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// The switch against what a real one does: three behaviours a packet
// simulator of perfectly periodic senders gets wrong unless it models what
// breaks their lock-step, and PFC decided per ingress port.

// sharesAPort reports whether flow i's route shares a port with another
// flow's.
func sharesAPort(sim *Packet, i int) bool {
	mine := map[int32]bool{}
	for _, j := range sim.lims[i].route {
		mine[j] = true
	}
	for k := range sim.statics {
		for _, j := range sim.lims[k].route {
			if k != i && mine[j] {
				return true
			}
		}
	}
	return false
}

// realClocks gives cfg what real hardware has (clock.go): hosts' clocks
// within Ethernet's 100 ppm, and switches whose forwarding latency varies
// by up to a frame time (1.2 us at 10 Gbps and 1500 B), the defaults of a
// fabric experiment.
func realClocks(cfg *Config) {
	cfg.ClockPPM, cfg.SwitchJitter = 100, algos.TransmitTime(cfg.FrameBytes, 10e9)
}

// phased splits cfg's run into windows of w from the warm-up on, one
// phase each.
func phased(cfg *Config, w algos.Time) {
	cfg.Phases = nil
	for t := cfg.Warmup; t < cfg.Duration; t += w {
		if t > 0 {
			cfg.Phases = append(cfg.Phases, t)
		}
	}
}

// shareEveryWindow checks that each of the sources of sum got between
// 0.5/n and 1.5/n of capacity in every phase after the warm-up.
func shareEveryWindow(t *testing.T, what string, sum Summary, sources []int, capacity float64) {
	t.Helper()
	n := float64(len(sources))
	for _, ph := range sum.Phases {
		if ph.Start < 0.0049 { // the warm-up
			continue
		}
		for _, i := range sources {
			got := ph.Sources[i].ThroughputBps
			if got < 0.5/n*capacity || got > 1.5/n*capacity {
				t.Errorf("%s: source %d got %.3g Gbps over [%g, %g] s, want %.3g to %.3g Gbps",
					what, i, got/1e9, ph.Start, ph.End, 0.5/n*capacity/1e9, 1.5/n*capacity/1e9)
			}
		}
	}
}

// A FIFO under overload shares its service roughly in proportion to the
// load offered: N line-rate sources into one drop-tail port each get about
// 1/N of it, over every 5 ms, on a dumbbell. (Without clock offsets and
// jitter, the chains' default, they get 10 and 0 Gbps: clock.go.)
func TestDropTailSharesAmongLineRateSourcesOnADumbbell(t *testing.T) {
	for _, n := range []int{2, 3} {
		cfg := baseConfig(noneScheme(t), n, 10e9)
		realClocks(&cfg)
		cfg.Duration, cfg.Warmup = 40*ms, 5*ms
		phased(&cfg, 5*ms)
		_, sum := run(t, cfg)
		var all []int
		for i := range n {
			all = append(all, i)
		}
		shareEveryWindow(t, "dumbbell", sum, all, 10e9)
	}
}

// The same on a fat-tree, where flows that share no port before collide
// at the port down to their common receiver: host 1 under the receiver's
// switch, hosts 2 and 3 through the two aggregation switches of its pod.
// (Flows that meet earlier arrive at the last port in proportion to what
// they got there, not 1/N each.)
func TestDropTailSharesAmongLineRateSourcesOnAFatTree(t *testing.T) {
	ft := fatTree4(t, 150e3)
	for _, from := range [][]int{{1, 2}, {1, 2, 3}} {
		var flows []Flow
		for _, h := range from {
			flows = append(flows, Flow{From: h, To: 0})
		}
		cfg := fabric(noneScheme(t), ft, flows)
		realClocks(&cfg)
		cfg.Duration, cfg.Warmup = 40*ms, 5*ms
		phased(&cfg, 5*ms)
		for cfg.Seed = 1; ; cfg.Seed++ { // a seed whose ECMP puts hosts 2 and 3 on different aggregation switches
			sim, err := NewPacket(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(from) < 3 || sim.lims[1].route[1] != sim.lims[2].route[1] {
				break
			}
		}
		_, sum := run(t, cfg)
		var all []int
		for i := range flows {
			all = append(all, i)
		}
		shareEveryWindow(t, "fat-tree", sum, all, 10e9)
	}
}

// Round-robin spraying of line-rate flows spreads each flow over all its
// equal-cost paths, on a whole permutation (where arrivals in lock-step
// would otherwise meet the switches' turns in the same order every time).
func TestRoundRobinSprayingSpreadsEveryFlowOfAPermutation(t *testing.T) {
	ft := fatTree4(t, 150e3)
	cfg := fabric(noneScheme(t), ft, Permutation(16, 1))
	cfg.Duration, cfg.Warmup = 20*ms, 5*ms
	cfg.Fabric.Routing, cfg.Fabric.Spray = Spray, RoundRobin
	realClocks(&cfg)
	_, sum := run(t, cfg)
	r := ft.Routes()
	for i, f := range cfg.Fabric.Flows {
		s := sum.Sources[i]
		if want := int(r.Paths(f.From, f.To)); s.PathCount != want {
			t.Errorf("flow %d (h%d->h%d): %d paths, want %d", i, f.From, f.To, s.PathCount, want)
		}
		if s.ThroughputBps < 1e9 {
			t.Errorf("flow %d (h%d->h%d): %.3g Gbps", i, f.From, f.To, s.ThroughputBps/1e9)
		}
	}
}

// PFC pauses the ingress links whose frames sit in the congested switch,
// not every link whose frames routing could send to the hot port: on seed
// 000's congestion spreading on a k = 4 fat-tree (pfc-spreading-fat-tree),
// a flow from host 1 to host 5 that shares no egress port with any other
// flow keeps its line rate and is never paused. (Under ECMP with seed 1 it
// shares core2->agg1.1 with the flow from host 13 to host 7, and shares
// that port's 10 Gbps with it; the test takes the first seed whose ECMP
// keeps it apart from every other flow.)
func TestPFCSparesAFlowThatNeverMeetsTheHotPort(t *testing.T) {
	ft := fatTree4(t, 300e3)
	flows, err := IncastFrom(0, []int{4, 6, 8, 10, 12, 14}, 0, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	flows = append(flows, Flow{From: 5, To: 1}, Flow{From: 9, To: 2}, Flow{From: 13, To: 7}, Flow{From: 11, To: 15}, Flow{From: 1, To: 5})
	cfg := fabric(noneScheme(t), ft, flows)
	cfg.Duration, cfg.Warmup = 30*ms, 10*ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true}
	realClocks(&cfg)
	for cfg.Seed = 1; ; cfg.Seed++ {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !sharesAPort(sim, len(flows)-1) {
			break
		}
	}
	_, sum := run(t, cfg)
	v := sum.Sources[len(flows)-1]
	if v.PausedFraction != 0 || v.ThroughputBps < 0.999*10e9 {
		t.Errorf("h1->h5: %.4g Gbps, paused %.3g of the time; want 10 Gbps, never paused", v.ThroughputBps/1e9, v.PausedFraction)
	}
	// The incast is still throttled by PAUSE, and nothing is dropped.
	for _, b := range sum.Bottlenecks {
		if b.Drops != 0 {
			t.Errorf("%s dropped %d frames under PFC", b.Name, b.Drops)
		}
	}
}

// PFC per ingress link against the reference semantics, computed by hand:
// one leaf switch of 500 KB ports, hosts 1 to 3 send at line rate into
// host 0 while host 4 sends to host 5. Every port may be fed by the 5
// other hosts' links, so each link's XOFF is its share of a port's buffer,
// 500 KB / 5 = 100 KB, less its headroom: a frame, what the host sends in
// the PAUSE's round trip (2 us at 10 Gbps: 2,500 B) and two frames, 7,000
// B: XOFF 93,000 B.
//
// With T = 1.2 us a frame time and d = 1 us, frame k of each sender reaches
// the switch at a_k = (k+1)T + d, three at a time; the port down to host 0
// serves one a frame time from a_0 in arrival order (hosts 1, 2, 3 at each
// instant), so after the instant a_k it holds 2k+3 frames, and sender m's
// link (m = 0, 1, 2) has k+1 - floor((k-m+2)/3) of them in the switch,
// whose departures have taken positions m, m+3, ... of the first k. That
// first exceeds 93,000 B (62 frames) for host 3 (m = 2) at k = 92, for
// hosts 1 and 2 at k = 93: PAUSE up host 3's link at a_92 = 112.6 us, up
// hosts 1's and 2's at a_93 = 113.8 us, and no other link. Each lands a
// microsecond later: host 3 has released frames up to 94 (112.8 us; 95
// would be at 114.0 us), hosts 1 and 2 up to 95 (114.0 us; 96 at 115.2
// us). The last arrival is at a_95, when the port holds 3*95 + 2 arrivals
// less 95 departures: its peak, 192 frames, 288,000 B. Host 4's flow never
// waits.
func TestPFCIngressIncastOnALeafByHand(t *testing.T) {
	nodes := []topo.Node{{Name: "leaf", Kind: topo.Switch, Tier: "leaf", Level: 1}}
	var links []topo.Link
	for h := range 6 {
		name := fmt.Sprintf("h%d", h)
		nodes = append(nodes, topo.Node{Name: name, Kind: topo.Host})
		links = append(links, topo.Duplex(name, "leaf", 10e9, us, 500e3))
	}
	tp, err := topo.Custom(nodes, links)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(noneScheme(t), tp, []Flow{{From: 1, To: 0}, {From: 2, To: 0}, {From: 3, To: 0}, {From: 4, To: 5}})
	cfg.Duration = ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	P := int32(len(sim.ports))
	for h := 1; h <= 5; h++ {
		if l := sim.ingress[P+int32(h)]; l.xoff != 93000 || l.xon != 90000 {
			t.Fatalf("host %d's link: XOFF %d, XON %d; want 93000, 90000", h, l.xoff, l.xon)
		}
	}
	const T = 1200 * algos.Nanosecond
	paused := func() (out []int) {
		for h := 0; h <= 5; h++ {
			if sim.ingress[P+int32(h)].pausing {
				out = append(out, h)
			}
		}
		return out
	}
	for _, c := range []struct {
		at   algos.Time
		want []int
	}{{93*T + us - 1, nil}, {93*T + us, []int{3}}, {94*T + us - 1, []int{3}}, {94*T + us, []int{1, 2, 3}}} {
		sim.Advance(c.at)
		if p := paused(); !slices.Equal(p, c.want) {
			t.Errorf("at %.6f us the paused links are hosts %v, want %v", float64(c.at)/1e6, p, c.want)
		}
	}
	sim.Run()
	sum := sim.Summary()
	var hot BottleneckSummary
	for _, b := range sum.Bottlenecks {
		if b.Name == "leaf->h0" {
			hot = b
		}
	}
	if hot.QueueMax != 192*1500 || hot.Drops != 0 {
		t.Errorf("leaf->h0 peaked at %g B with %d drops, want 288000 B and none", hot.QueueMax, hot.Drops)
	}
	if v := sum.Sources[3]; v.PausedFraction != 0 || v.ThroughputBps < 0.99*10e9 {
		t.Errorf("h4->h5: %.4g Gbps, paused %.3g of the time; want 10 Gbps, never paused", v.ThroughputBps/1e9, v.PausedFraction)
	}
	for i := range 3 {
		if s := sum.Sources[i]; s.PausedFraction == 0 || s.ThroughputBps < 0.3*10e9 {
			t.Errorf("incast flow %d: %.4g Gbps, paused %.3g of the time; want about a third of 10 Gbps, and paused", i, s.ThroughputBps/1e9, s.PausedFraction)
		}
	}
}

// ring5 is five switches in a ring, host i under switch i, links of 10
// Gbps, 1 us and buffers of buffer bytes, and flows from every host to the
// host two switches on clockwise: each flow's only shortest path, so every
// clockwise port carries two line-rate flows, and the frames of each wait
// for room in the next switch around the ring (a cycle of buffer
// dependencies).
func ring5(t *testing.T, buffer int) Config {
	var nodes []topo.Node
	var links []topo.Link
	for i := range 5 {
		nodes = append(nodes, topo.Node{Name: fmt.Sprintf("s%d", i), Kind: topo.Switch, Tier: "ring", Level: 1},
			topo.Node{Name: fmt.Sprintf("h%d", i), Kind: topo.Host})
		links = append(links, topo.Duplex(fmt.Sprintf("h%d", i), fmt.Sprintf("s%d", i), 10e9, us, buffer),
			topo.Duplex(fmt.Sprintf("s%d", i), fmt.Sprintf("s%d", (i+1)%5), 10e9, us, buffer))
	}
	tp, err := topo.Custom(nodes, links)
	if err != nil {
		t.Fatal(err)
	}
	var flows []Flow
	for i := range 5 {
		flows = append(flows, Flow{From: i, To: (i + 2) % 5})
	}
	cfg := fabric(noneScheme(t), tp, flows)
	cfg.Duration = 20 * ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, DeadlockAfter: ms}
	return cfg
}

// On a ring whose routes make a cycle of buffer dependencies, PFC
// deadlocks for real: every clockwise port paused, with frames, waiting on
// the next. The run stops a DeadlockAfter after the cycle closed, and its
// summary names the cycle.
func TestPFCDeadlockOnARingStopsTheRun(t *testing.T) {
	cfg := ring5(t, 100e3)
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	d := sim.Summary().PFCDeadlock
	if d == nil {
		t.Fatalf("no deadlock reported; the run reached %g s", sim.Now().Seconds())
	}
	if !sim.Done() || sim.Now() >= cfg.Duration || sim.Now().Seconds() != d.Detected {
		t.Errorf("run at %g s, done %v, deadlock detected at %g s", sim.Now().Seconds(), sim.Done(), d.Detected)
	}
	want := map[string]bool{"s0->s1": true, "s1->s2": true, "s2->s3": true, "s3->s4": true, "s4->s0": true}
	if len(d.Ports) != 5 {
		t.Errorf("cycle %v, want the five clockwise ports", d.Ports)
	}
	for _, p := range d.Ports {
		if !want[p] {
			t.Errorf("cycle %v: %s is not a clockwise port", d.Ports, p)
		}
	}
	if d.Detected-d.Since < 1e-3-1e-12 {
		t.Errorf("detected at %g s, the cycle closed at %g s: less than 1 ms", d.Detected, d.Since)
	}
	// It is a deadlock, not a slow spell: without the check nothing
	// moves from then to the end of the run.
	cfg.PFC.DeadlockAfter = 0
	cfg.Phases = []algos.Time{2 * ms}
	_, sum := run(t, cfg)
	for i, src := range sum.Phases[1].Sources {
		if src.ThroughputBps != 0 {
			t.Errorf("flow %d got %.3g Gbps after the deadlock", i, src.ThroughputBps/1e9)
		}
	}
}

// Heavy pausing without a cycle is no deadlock: seed 000's spreading on a
// fat-tree, every tier pausing, runs to its end.
func TestPFCSpreadingIsNoDeadlock(t *testing.T) {
	ft := fatTree4(t, 300e3)
	flows, err := IncastFrom(0, []int{4, 6, 8, 10, 12, 14}, 0, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(noneScheme(t), ft, append(flows, Flow{From: 5, To: 1}, Flow{From: 9, To: 2}, Flow{From: 13, To: 7}, Flow{From: 11, To: 15}))
	cfg.Duration = 20 * ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, DeadlockAfter: 100 * us}
	realClocks(&cfg)
	_, sum := run(t, cfg)
	if sum.PFCDeadlock != nil {
		t.Errorf("reported %v", sum.PFCDeadlock)
	}
	var pauses int64
	for _, tr := range sum.Tiers {
		pauses += tr.PauseFrames
	}
	if pauses == 0 {
		t.Error("no pause at all: the test proves nothing")
	}
}

// Dynamic thresholds, by hand: the leaf of TestPFCIngressIncastOnALeafByHand
// without host 4's flow, its six 500 KB ports sharing 3 MB, Alpha 1/8. Its
// six links' headroom is 42,000 B, so a link's XOFF is (2,958,000 - U) / 8
// with U the bytes in the switch. When sender m's frame of instant k
// arrives, U = (2k + m + 1) 1500 B and the link holds k+1 - floor((k-m+2)/3)
// frames: the first to exceed XOFF are hosts 2 and 3 at k = 268 (180
// frames against 268,875 and 268,687 B), at a_268 = 323.8 us, and host 1
// at k = 269, 325.0 us. Hosts 2 and 3 release frames up to 270, host 1 up
// to 271 before their PAUSE lands; at a_270 the switch holds 3*271 - 270 =
// 543 frames, and at a_271 one more arrival and one departure leave it
// there: a peak of 814,500 B, all at the port down to host 0, above its
// own 500 KB (the buffer is shared), and nothing dropped.
func TestPFCDynamicThresholdOnALeafByHand(t *testing.T) {
	nodes := []topo.Node{{Name: "leaf", Kind: topo.Switch, Tier: "leaf", Level: 1}}
	var links []topo.Link
	for h := range 6 {
		name := fmt.Sprintf("h%d", h)
		nodes = append(nodes, topo.Node{Name: name, Kind: topo.Host})
		links = append(links, topo.Duplex(name, "leaf", 10e9, us, 500e3))
	}
	tp, err := topo.Custom(nodes, links)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(noneScheme(t), tp, []Flow{{From: 1, To: 0}, {From: 2, To: 0}, {From: 3, To: 0}})
	cfg.Duration = ms
	cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125}
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
	}
}

// A paced frame released onto its host's empty link keeps its forwarding
// jitter (clock.go): it reaches the switch at its release plus its
// transmission, propagation and its own draw, not before. Each frame seen
// on the first port's link then carries two draws (the host link's and the
// port's), so from release to the next switch the frames' times spread
// over up to twice the jitter; with the host's draw lost, within one.
func TestPacedFrameKeepsHostLinkJitter(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 1, 1e9) // a tenth of the line rate: the host link is empty at each release
	cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 150e3, Delay: 20 * us}, {Capacity: 10e9, Buffer: 150e3}}
	cfg.Sources[0].Path = []int{0, 1}
	cfg.Sources[0].ForwardDelay = us // its link is empty by its next release
	const jitter = 500 * algos.Nanosecond
	cfg.SwitchJitter = jitter
	cfg.Duration = 3 * ms
	cfg.SampleInterval = ms // a sample brings the host up to date (catchUp), its frames released before its slot's event
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ways := map[algos.Time]algos.Time{} // release -> arrival at the next switch
	for at := 1 * ms; at < 3*ms; at += 5 * us {
		sim.Advance(at)
		p := sim.ports[0]
		for k := 0; k < p.link.len(); k++ {
			if f := p.link.at(k); f.arrive > at { // departed: its arrival is known
				ways[f.sent] = f.arrive - f.sent
			}
		}
	}
	if len(ways) < 100 {
		t.Fatalf("saw %d frames, want at least 100", len(ways))
	}
	lo, hi := algos.Never, algos.Time(0)
	for _, w := range ways {
		lo, hi = min(lo, w), max(hi, w)
	}
	if hi-lo < jitter || hi-lo >= 2*jitter {
		t.Errorf("%d frames' ways from release to the next switch spread over %d ps, want within [%d, %d) (two draws of [0, %d))",
			len(ways), hi-lo, jitter, 2*jitter, jitter)
	}
}
