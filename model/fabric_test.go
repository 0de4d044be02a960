package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// fabric is a config of scheme sc on topology t with flows, 5 ms long.
func fabric(sc *algos.Scheme, t *topo.Topology, flows []Flow) Config {
	return Config{Scheme: sc, Seed: 1, Duration: 5 * ms, FrameBytes: 1500,
		SampleInterval: 10 * us, RateWindow: 100 * us, FairnessThreshold: 0.9,
		Fabric: &Fabric{Topology: t, Flows: flows}}
}

func fatTree4(t testing.TB, buffer int) *topo.Topology {
	ft, err := topo.FatTree(4, 10e9, buffer, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// ECMP fixes each flow's path at its start: a shortest path of the
// topology's, the one its hash with the seed picks; another seed moves
// some flows.
func TestFabricECMPRoutesAreSeededShortestPaths(t *testing.T) {
	ft := fatTree4(t, 150e3)
	routes := func(seed uint64) []string {
		cfg := fabric(noneScheme(t), ft, AllToAll(16))
		cfg.Seed, cfg.Duration = seed, 10*us
		sim, _ := run(t, cfg)
		r := ft.Routes()
		var out []string
		for i, f := range cfg.Fabric.Flows {
			l := sim.lims[i]
			if len(l.route) != r.Hops(f.From, f.To) {
				t.Fatalf("flow %d: %d ports, the shortest path has %d", i, len(l.route), r.Hops(f.From, f.To))
			}
			node := ft.Attach(f.From)
			for _, j := range l.route {
				p := ft.Ports[sim.net.ports[j]]
				if !slices.Contains(r.NextHops(node, f.To), int32(sim.net.ports[j])) {
					t.Fatalf("flow %d: %s is not an equal-cost next hop", i, p.Name)
				}
				node = p.To
			}
			out = append(out, fmt.Sprint(l.route))
		}
		return out
	}
	a, b, c := routes(1), routes(1), routes(2)
	if !slices.Equal(a, b) {
		t.Error("the same seed routed the flows differently")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 1 and 2 routed all 240 flows alike")
	}
}

// Spraying sends a flow's frames over every equal-cost path, round robin
// or at random. (Round robin is each switch's over all the frames it
// sprays: flows in lockstep through one switch would share its turns, so
// these cross different aggregation switches on their way up.)
func TestFabricSprayUsesEveryPath(t *testing.T) {
	ft := fatTree4(t, 150e3)
	for _, mode := range []SprayMode{RoundRobin, RandomSpray} {
		cfg := fabric(noneScheme(t), ft, []Flow{{From: 0, To: 15}, {From: 4, To: 8}, {From: 8, To: 13}, {From: 6, To: 7}, {From: 2, To: 1}})
		cfg.Duration = ms
		cfg.Fabric.Routing, cfg.Fabric.Spray = Spray, mode
		_, sum := run(t, cfg)
		r := ft.Routes()
		for i, f := range cfg.Fabric.Flows {
			if got, want := sum.Sources[i].PathCount, int(r.Paths(f.From, f.To)); got != want {
				t.Errorf("spray %d flow %d: %d paths, want %d", mode, i, got, want)
			}
		}
	}
}

// recorder is a test scheme with a notification point that records the
// frames reaching each flow's receiver, and optionally marks frames.
type recorder struct {
	scripted
	mark     func(f *algos.Frame, qlen int) bool // on arrival at a CP
	received map[int][]algos.Frame
	at       map[int][]algos.Time
	answer   func(f *algos.Frame) bool // the NP sends a CNP
}

type recorderNP struct {
	r    *recorder
	flow int
}

func (np recorderNP) Receive(now algos.Time, f *algos.Frame, fb *algos.Feedback) bool {
	np.r.received[np.flow] = append(np.r.received[np.flow], *f)
	np.r.at[np.flow] = append(np.r.at[np.flow], now)
	if np.r.answer != nil && np.r.answer(f) {
		*fb = algos.Feedback{Fb: float64(now), Sent: f.Sent}
		return true
	}
	return false
}

type markingCP struct{ r *recorder }

func (cp markingCP) Arrive(now algos.Time, f *algos.Frame, qlen int, fb *algos.Feedback) bool {
	if cp.r.mark != nil && cp.r.mark(f, qlen) {
		f.ECN = true
	}
	return false
}

func (r *recorder) scheme() *algos.Scheme {
	r.received, r.at = map[int][]algos.Frame{}, map[int][]algos.Time{}
	sc := r.scripted.scheme()
	sc.NewCP = func(algos.CPEnv, algos.Values) algos.CongestionPoint { return markingCP{r} }
	sc.NewNP = func(env algos.NPEnv, _ algos.Values) algos.NotificationPoint { return recorderNP{r, env.Flow} }
	return sc
}

// Under ECMP a flow's frames reach its receiver in the order they were
// sent, though flows share ports and queues build; the receiver sees them
// a link's propagation after they leave the last port.
func TestFabricECMPKeepsFramesInOrder(t *testing.T) {
	r := &recorder{}
	ft := fatTree4(t, 150e3)
	cfg := fabric(r.scheme(), ft, append(Permutation(16, 3), AllToAll(16)[:40]...))
	cfg.Duration = 2 * ms
	_, sum := run(t, cfg)
	queued := 0.0
	for _, b := range sum.Bottlenecks {
		queued = max(queued, b.QueueMax)
	}
	if len(r.received) != len(cfg.Fabric.Flows) || queued < 10*1500 {
		t.Fatalf("%d of %d flows received, queues up to %g B: the test needs all, and queues", len(r.received), len(cfg.Fabric.Flows), queued)
	}
	for flow, frames := range r.received {
		for k := 1; k < len(frames); k++ {
			if frames[k].Sent <= frames[k-1].Sent {
				t.Fatalf("flow %d: frame sent at %v arrived after one sent at %v", flow, frames[k].Sent, frames[k-1].Sent)
			}
		}
	}
}

// Every byte released is delivered, dropped, or still in the network.
func TestFabricConservesFrames(t *testing.T) {
	ft := fatTree4(t, 30e3) // small buffers: drops
	for _, routing := range []Routing{ECMP, Spray} {
		flows := append(Permutation(16, 1), Flow{From: 3, To: 0}, Flow{From: 7, To: 0}, Flow{From: 9, To: 0, Size: 100e3})
		cfg := fabric(noneScheme(t), ft, flows)
		cfg.Fabric.Routing = routing
		sizes := FixedSize("20KB", 20e3)
		cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.1, 16, 10e9, sizes), Sizes: sizes}
		sim, sum := run(t, cfg)
		released, delivered, dropped, inNetwork := conservation(sim)
		if dropped == 0 || delivered == 0 {
			t.Fatalf("routing %d: %d bytes dropped, %d delivered: the test needs both", routing, dropped, delivered)
		}
		if released != delivered+dropped+inNetwork {
			t.Errorf("routing %d: %d bytes released, %d delivered + %d dropped + %d in the network = %d",
				routing, released, delivered, dropped, inNetwork, delivered+dropped+inNetwork)
		}
		if sum.Flows == nil || sum.Flows.Started < 100 || sum.Flows.Completed+sum.Flows.Lost < sum.Flows.Started*9/10 {
			t.Errorf("routing %d: the sized flow: %+v", routing, sum.Flows)
		}
	}
}

// conservation returns the bytes the run's flows released, delivered,
// dropped and has still in the network (on hosts' links, in queues, on the
// wire), short flows whose limiters were reused included.
func conservation(sim *Packet) (released, delivered, dropped, inNetwork int64) {
	for i, l := range sim.lims {
		released += l.emitted
		delivered += sim.delivered[i].bytes
	}
	if sim.fabric != nil {
		released += sim.pool.retired[0]
		delivered += sim.pool.retired[1]
	}
	for _, h := range sim.hosts {
		for k := 0; k < h.inflight.len(); k++ {
			inNetwork += int64(h.inflight.at(k).bytes)
		}
	}
	for _, p := range sim.ports {
		dropped += p.dropped
		inNetwork += int64(p.bytes)
		for k := 0; k < p.link.len()-int(p.onward); k++ { // on the wire beyond the queue
			if f := p.link.at(k); f.arrive-p.delay <= sim.now {
				inNetwork += int64(f.bytes)
			}
		}
	}
	return released, delivered, dropped, inNetwork
}

// Feedback from a congestion point reaches the flow's reaction point after
// the propagation of the path back to the host: the reverse of the one the
// frame took, hop by hop, the host's link included.
func TestFabricFeedbackTakesTheReversePath(t *testing.T) {
	s := &scripted{}
	s.cp = func(now algos.Time, f *algos.Frame, qlen int) (algos.Feedback, bool) {
		return algos.Feedback{Fb: float64(now), Sent: f.Sent}, true // every frame, stamped with when
	}
	// Host links 1 us, uplinks 3 us: the reverse paths differ by hop.
	ls, err := topo.LeafSpine(3, 2, 2, 10e9, 10e9, 150e3, func(l topo.Link) algos.Time {
		if strings.HasPrefix(l.A, "h") {
			return us
		}
		return 3 * us
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, routing := range []Routing{ECMP, Spray} {
		s.rps = nil
		cfg := fabric(s.scheme(), ls, []Flow{{From: 0, To: 5, InitialRate: 1e9}, {From: 1, To: 0, InitialRate: 1e9}})
		cfg.Duration = 200 * us
		cfg.Fabric.Routing = routing
		run(t, cfg)
		// Flow 0 crosses leaf0, a spine and leaf2: feedback from them comes
		// back over 1, 1+3 and 1+3+3 us. Flow 1 stays under leaf0: 1 us.
		want := [][]algos.Time{{us, 4 * us, 7 * us}, {us}}
		for i, rp := range s.rps {
			seen := map[algos.Time]bool{}
			for k, fb := range rp.feedbacks {
				d := rp.fbTimes[k] - algos.Time(fb.Fb)
				if !slices.Contains(want[i], d) {
					t.Fatalf("routing %d flow %d: feedback took %v, want one of %v", routing, i, d, want[i])
				}
				seen[d] = true
			}
			if len(seen) != len(want[i]) {
				t.Errorf("routing %d flow %d: feedback came back over %v, want each of %v", routing, i, seen, want[i])
			}
		}
	}
}

// PFC on a fabric: an incast overloads the receiver's edge port, which
// pauses the ports and hosts that feed it; they fill and pause theirs, up
// the tree: the aggregation switches' ports down to the edge are paused,
// then the cores'. Nothing is dropped.
func TestFabricPFCSpreadsUpTheTiers(t *testing.T) {
	ft := fatTree4(t, 300e3)
	flows, err := Incast(ft, 0, 12, 0, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(noneScheme(t), ft, flows)
	cfg.Params = algos.Values{}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1}
	cfg.Warmup = ms
	_, sum := run(t, cfg)
	tiers := map[string]TierSummary{}
	for _, tr := range sum.Tiers {
		tiers[tr.Tier] = tr
		if tr.Drops != 0 {
			t.Errorf("tier %s dropped %d frames", tr.Tier, tr.Drops)
		}
	}
	for _, name := range []string{"host", "agg down", "core down"} {
		if tiers[name].HeldFractionMax < 0.1 {
			t.Errorf("tier %s: paused at most %.3f of the time: congestion did not spread there (%+v)", name, tiers[name].HeldFractionMax, tiers[name])
		}
	}
	if tiers["edge down"].PauseFrames == 0 || tiers["edge down"].UtilizationMax < 0.99 {
		t.Errorf("the receiver's port: %+v", tiers["edge down"])
	}
}

// With one queue per port, a paused port holds frames for every
// destination: 802.1Qbb's head-of-line blocking. Two hosts under leaf 1
// send into host 0 under leaf 0, a third under leaf 1 to leaf 2; the
// uplinks are fast, so only the receiver's port is congested. Without PFC
// the victim keeps its line rate; with it, leaf 0's port to the receiver
// pauses the spine's port to leaf 0, which pauses leaf 1's uplink, where
// the victim's frames wait behind the incast's.
func TestFabricPFCHeadOfLineBlocking(t *testing.T) {
	ls, err := topo.LeafSpine(3, 1, 4, 10e9, 40e9, 1e6, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	flows := []Flow{{From: 4, To: 0}, {From: 5, To: 0}, {From: 6, To: 8}}
	for _, pfc := range []bool{false, true} {
		cfg := fabric(noneScheme(t), ls, flows)
		cfg.Params = algos.Values{}
		if pfc {
			cfg.PFC = &PFC{Xoff: -1, Xon: -1}
		}
		cfg.Warmup = ms
		_, sum := run(t, cfg)
		victim := sum.Sources[2].ThroughputBps
		var drops int64
		held := map[string]float64{}
		for _, b := range sum.Bottlenecks {
			drops += b.Drops
			held[b.Name] = b.HeldFraction
		}
		switch {
		case !pfc && (drops == 0 || victim < 0.99*10e9):
			t.Errorf("drop-tail: %d drops, the victim at %g bps", drops, victim)
		case pfc && (drops != 0 || victim > 8e9 || held["leaf1->spine0"] < 0.1 || held["spine0->leaf0"] < 0.1):
			t.Errorf("PFC: %d drops, the victim at %g bps, held %v", drops, victim, held)
		}
		t.Logf("PFC %v: the victim at %.2f Gbps; held: leaf1->spine0 %.2f, spine0->leaf0 %.2f",
			pfc, victim/1e9, held["leaf1->spine0"], held["spine0->leaf0"])
	}
}

// An incast's completion time: from its start to the last byte of its last
// flow, at least what the receiver's link takes to carry all of it.
func TestFabricIncastCompletion(t *testing.T) {
	ls, err := topo.LeafSpine(4, 2, 4, 10e9, 40e9, 4e6, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	flows, err := Incast(ls, 0, 8, 200e3, 100*us, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flows {
		if ls.Attach(f.From) == ls.Attach(0) {
			t.Fatalf("sender %d is under the receiver's leaf", f.From)
		}
	}
	cfg := fabric(noneScheme(t), ls, flows)
	cfg.Params = algos.Values{}
	_, sum := run(t, cfg)
	fs := sum.Flows
	if fs == nil || fs.IncastFlows != 8 || fs.IncastCompleted == nil || *fs.IncastCompleted != 8 || fs.IncastCompletion == nil || fs.Completed != 8 {
		t.Fatalf("flows %+v", fs)
	}
	least := 8 * 200e3 * 8 / 10e9 // the receiver's link's time for all of it
	if got := *fs.IncastCompletion; got < least || got > least*1.1 {
		t.Errorf("incast completion %g s, want a little above %g s", got, least)
	}
	if fs.SlowdownMean < 4 {
		t.Errorf("slowdown %g: eight flows sharing a link should each take several times its ideal", fs.SlowdownMean)
	}
}

// Short flows between random hosts each get a rate limiter, whose slot is
// reused once the flow is over: the limiters are as many as flows alive.
func TestFabricShortFlows(t *testing.T) {
	ft := fatTree4(t, 150e3)
	cfg := fabric(noneScheme(t), ft, nil)
	cfg.Params = algos.Values{}
	cfg.Duration = 20 * ms
	sizes := FixedSize("30KB", 30e3)
	cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.3, 16, 10e9, sizes), Sizes: sizes}
	sim, sum := run(t, cfg)
	fs := sum.Flows
	if fs == nil || fs.Started < 3000 || fs.Completed < fs.Started*9/10 {
		t.Fatalf("flows %+v", fs)
	}
	if len(sim.lims) > 200 {
		t.Errorf("%d limiters for %d flows", len(sim.lims), fs.Started)
	}
	if fs.SlowdownMean < 1 || fs.FCTP50 < 30e3*8/10e9 {
		t.Errorf("flows %+v", fs)
	}
	if math.Abs(ShortFlowRate(0.3, 16, 10e9, sizes)-0.3*16*10e9/8/30e3) > 1e-6 {
		t.Error("ShortFlowRate")
	}
}

func TestFabricValidation(t *testing.T) {
	ft := fatTree4(t, 150e3)
	islands, err := topo.Custom([]topo.Node{{Name: "a"}, {Name: "b"}, {Name: "s", Kind: topo.Switch}, {Name: "t", Kind: topo.Switch}},
		[]topo.Link{topo.Duplex("a", "s", 1e9, 0, 3000), topo.Duplex("b", "t", 1e9, 0, 3000)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t     *topo.Topology
		flows []Flow
		want  string
	}{
		{ft, []Flow{{From: 0, To: 1}, {From: 3, To: 3}}, "flow 1: a flow from host 3 (h3) to itself"},
		{ft, []Flow{{From: 0, To: 16}}, "flow 0: host 16 is out of range"},
		{islands, []Flow{{From: 0, To: 1}}, "flow 0: no route from host 0 (a) to host 1 (b)"},
		{ft, []Flow{{From: 0, To: 1, InitialRate: 20e9}}, "flow 0: its initial rate"},
		{ft, []Flow{{From: 0, To: 1, Start: 5, Stop: 5}}, "flow 0: it must start"},
		{nil, []Flow{{From: 0, To: 1}}, "no topology"},
		{ft, nil, "fabric: no flows"},
	} {
		cfg := fabric(noneScheme(t), c.t, c.flows)
		if _, err := NewPacket(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.flows, err, c.want)
		}
	}
	small, _ := topo.FatTree(4, 10e9, 1000, nil)
	if _, err := NewPacket(fabric(noneScheme(t), small, Permutation(16, 1))); err == nil || !strings.Contains(err.Error(), "port edge0.0->h0: its buffer (1000 B) must hold a frame") {
		t.Errorf("small buffers: %v", err)
	}
}

func TestPatterns(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		p := Permutation(9, seed)
		to := map[int]bool{}
		for i, f := range p {
			if f.From != i || f.To == i || to[f.To] {
				t.Fatalf("seed %d: %v is not a derangement", seed, p)
			}
			to[f.To] = true
		}
	}
	if !slices.Equal(Permutation(16, 4), Permutation(16, 4)) || slices.Equal(Permutation(16, 4), Permutation(16, 5)) {
		t.Error("permutations are not the seed's")
	}
	if n := len(AllToAll(5)); n != 20 {
		t.Errorf("all-to-all of 5: %d flows", n)
	}
	ft := fatTree4(t, 150e3)
	in, err := Incast(ft, 5, 14, 1e6, ms, 10*us, 1)
	if err != nil {
		t.Fatal(err)
	}
	senders := map[int]bool{}
	for _, f := range in {
		if f.To != 5 || !f.Incast || f.Size != 1e6 || f.Start < ms || f.Start >= ms+10*us || ft.Attach(f.From) == ft.Attach(5) || senders[f.From] {
			t.Fatalf("incast flow %+v", f)
		}
		senders[f.From] = true
	}
	if _, err := Incast(ft, 5, 15, 0, 0, 0, 1); err == nil {
		t.Error("15 senders from the 14 hosts not under host 5's switch")
	}
	// On a single switch every host is under the receiver's: the senders
	// are drawn among all the others.
	one, err := topo.LeafSpine(1, 1, 6, 10e9, 10e9, 150e3, func(topo.Link) algos.Time { return us })
	if err != nil {
		t.Fatal(err)
	}
	in, err = Incast(one, 2, 5, 0, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	from := map[int]bool{}
	for _, f := range in {
		if f.To != 2 || f.From == 2 || from[f.From] {
			t.Fatalf("single-switch incast flow %+v", f)
		}
		from[f.From] = true
	}
	if _, err := Incast(one, 2, 6, 0, 0, 0, 1); err == nil || !strings.Contains(err.Error(), "5 other hosts") {
		t.Errorf("6 senders from the 5 others: %v", err)
	}
}

// A marking scheme's round trip: the congestion point marks frames (ECN)
// as they arrive above a queue, or as they leave (DepartingCP); the mark
// travels with the frame to the receiver's notification point, which sends
// a CNP back to the flow's reaction point over the reverse path.
func TestFabricMarksReachTheNotificationPoint(t *testing.T) {
	for _, onDeparture := range []bool{false, true} {
		r := &recorder{}
		r.mark = func(f *algos.Frame, qlen int) bool { return qlen > 20*1500 }
		r.answer = func(f *algos.Frame) bool { return f.ECN }
		sc := r.scheme()
		if onDeparture {
			sc.NewCP = func(algos.CPEnv, algos.Values) algos.CongestionPoint { return departingCP{r} }
		}
		ft := fatTree4(t, 150e3)
		flows, err := Incast(ft, 0, 4, 0, 0, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		flows = append(flows, Flow{From: 1, To: 15}) // never marked: its path is not congested
		cfg := fabric(sc, ft, flows)
		cfg.Duration = ms
		_, sum := run(t, cfg)
		var marked int64
		for _, b := range sum.Bottlenecks {
			marked += b.MarkedFrames
		}
		var ecn, cnps int64
		for i := range flows {
			for _, f := range r.received[i] {
				if f.ECN {
					ecn++
				}
			}
			cnps += sum.Sources[i].CNPs
			if got := int64(len(r.rps[i].feedbacks)); got != sum.Sources[i].CNPs {
				t.Errorf("flow %d: %d notifications reached its RP, the summary says %d", i, got, sum.Sources[i].CNPs)
			}
		}
		if marked == 0 || ecn == 0 || cnps == 0 || sum.Sources[4].CNPs != 0 {
			t.Fatalf("on departure %v: %d frames marked, %d received marked, %d CNPs (%d to the unmarked flow)",
				onDeparture, marked, ecn, cnps, sum.Sources[4].CNPs)
		}
		// Every CNP left the receiver as a marked frame arrived, and every
		// mark answered reached the RP, unless still on its way at the end.
		if cnps > ecn || ecn-cnps > 8 {
			t.Errorf("on departure %v: %d marked frames received, %d CNPs delivered", onDeparture, ecn, cnps)
		}
		// A CNP crosses the reverse of the flow's path: a link of 1 us per
		// switch and one more.
		for i := range 4 {
			rp := r.rps[i]
			want := algos.Time(ft.Routes().Hops(flows[i].From, flows[i].To)+1) * us
			for k, fb := range rp.feedbacks {
				if d := rp.fbTimes[k] - algos.Time(fb.Fb); d != want {
					t.Fatalf("flow %d: a CNP took %v, want %v", i, d, want)
				}
			}
		}
	}
}

type departingCP struct{ r *recorder }

func (cp departingCP) Arrive(now algos.Time, f *algos.Frame, qlen int, fb *algos.Feedback) bool {
	return false
}

func (cp departingCP) Depart(now algos.Time, f *algos.Frame, qlen int) {
	if qlen > 20*1500 {
		f.ECN = true
	}
}

// On a chain the notification point sits at the egress of the flow's last
// port: a CNP takes the source's backward delay (and the hops back).
func TestChainMarksReachTheNotificationPoint(t *testing.T) {
	r := &recorder{}
	r.mark = func(f *algos.Frame, qlen int) bool { return qlen > 20*1500 }
	r.answer = func(f *algos.Frame) bool { return f.ECN }
	cfg := baseConfig(r.scheme(), 3, 10e9)
	cfg.Sources[1].BackwardDelay = 80 * us
	cfg.Duration, cfg.Warmup = 2*ms, 0
	_, sum := run(t, cfg)
	if sum.Bottlenecks[0].MarkedFrames == 0 {
		t.Fatal("nothing marked")
	}
	for i, rp := range r.rps {
		if int64(len(rp.feedbacks)) != sum.Sources[i].CNPs || len(rp.feedbacks) == 0 {
			t.Fatalf("source %d: %d CNPs, summary %d", i, len(rp.feedbacks), sum.Sources[i].CNPs)
		}
		for k, fb := range rp.feedbacks {
			if d := rp.fbTimes[k] - algos.Time(fb.Fb); d != cfg.Sources[i].BackwardDelay {
				t.Fatalf("source %d: a CNP took %v, want its backward delay %v", i, d, cfg.Sources[i].BackwardDelay)
			}
		}
	}
}

// Everything a fabric does at once: spraying, short flows, an incast, PFC,
// a drawn feedback latency, marks and CNPs, phases and a capacity change;
// bytes are conserved and every flow of a given size is accounted for.
func TestFabricEverythingAtOnce(t *testing.T) {
	r := &recorder{}
	r.mark = func(f *algos.Frame, qlen int) bool { return qlen > 30*1500 }
	r.answer = func(f *algos.Frame) bool { return f.ECN }
	r.cp = func(now algos.Time, f *algos.Frame, qlen int) (algos.Feedback, bool) { return algos.Feedback{}, false }
	ft := fatTree4(t, 500e3)
	in, err := Incast(ft, 3, 10, 200e3, ms, 50*us, 2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(r.scheme(), ft, append(Permutation(16, 2), in...))
	cfg.Fabric.Routing, cfg.Fabric.Spray = Spray, RandomSpray
	sizes := FixedSize("40KB", 40e3)
	cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.2, 16, 10e9, sizes), Sizes: sizes}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1}
	cfg.FeedbackLatency = UniformDist(us, 5*us)
	cfg.Warmup, cfg.Phases = ms, []algos.Time{2 * ms, 3 * ms}
	cfg.Changes = []CapacityChange{{At: 2 * ms, Link: 5, Capacity: 2e9}}
	sim, sum := run(t, cfg)
	released, delivered, dropped, inNetwork := conservation(sim)
	if released != delivered+dropped+inNetwork {
		t.Errorf("%d bytes released, %d delivered + %d dropped + %d in the network", released, delivered, dropped, inNetwork)
	}
	fs := sum.Flows
	if fs == nil || fs.IncastFlows != 10 || fs.Started < 100 || fs.Completed == 0 || len(sum.Phases) != 3 {
		t.Fatalf("flows %+v, %d phases", fs, len(sum.Phases))
	}
	var cnps int64
	for _, s := range sum.Sources {
		cnps += s.CNPs
	}
	if cnps == 0 || dropped != 0 {
		t.Errorf("%d CNPs, %d bytes dropped under PFC", cnps, dropped)
	}
}
