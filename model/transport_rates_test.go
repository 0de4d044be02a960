package model

import (
	"math"
	"testing"

	"qcnlab/algos"
)

// rateFlow runs one QCN flow of 100 frames across an idle fat-tree over the
// transport with recovery mode; frame 20 is lost the first time it is sent.
// Alone on its path QCN never slows it: it sends back to back at line rate.
func rateFlow(t *testing.T, name string, mode Recovery) (*FlowRecord, *Packet) {
	t.Helper()
	sc, err := algos.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(sc, fatTree4(t, 150e3), []Flow{{From: 0, To: 15, Size: 100 * 1500}})
	if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
		t.Fatal(err)
	}
	cfg.Transport = Transport{Recovery: mode, RateSchemes: true}
	var rec FlowRecord
	cfg.OnFlow = func(r *FlowRecord) { rec = *r }
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sim.lims[0].tp == nil || sim.lims[0].tp.rp == nil {
		t.Fatalf("%s over %s: no transport around the reaction point", name, mode)
	}
	loseOnce(sim, 20)
	sim.Run()
	return &rec, sim
}

// The numbers of rateFlow's path, by hand: a frame's transmission, and the
// round trip of an idle path of six 10 Gbps links of 1 us (a frame's
// transmission on each link forward, an ACK's back); a frame reaches its
// receiver after six transmissions and six propagations.
const (
	rateTx  = 1200 * algos.Nanosecond                 // 1500 B at 10 Gbps
	rateRTT = 12*us + 6*rateTx + 6*51200              // 64 B ACKs: 51.2 ns a link
	rateOne = 6*us + 6*rateTx                         // frame k reaches its receiver at k*rateTx + rateOne
	nackAt  = 21*rateTx + rateRTT                     // frame 21 reveals the gap; its NACK lands then
	rateK   = int64(nackAt / rateTx)                  // the last frame sent before the NACK lands: 37
	rateRet = (rateK + 1 - 20) * 1500                 // go-back-N resends 20..37
	rateFCT = algos.Time(rateK+1+79)*rateTx + rateOne // then 20..99 back to back from slot 38
	rateSel = 100*rateTx + rateOne                    // selective: one slot more than without loss
	selNack = rateK + 1 - 21                          // selective: a NACK per frame 21..37
)

// A frame lost on a QCN flow over go-back-N is resent: the receiver drops
// what follows the gap and NACKs it once; the NACK lands as frame 37 has
// left, and the sender resends from 20. The flow completes when frame 99,
// sent in slot 117, arrives: every byte delivered, its resends counted.
func TestTransportQCNGoBackNResendsTheLostFrame(t *testing.T) {
	if rateK != 37 {
		t.Fatalf("hand computation: the NACK lands after frame %d, not 37", rateK)
	}
	rec, sim := rateFlow(t, "qcn", RecoveryGoBackN)
	if rec.Outcome != FlowCompleted || sim.delivered[0].bytes != 100*1500 {
		t.Fatalf("flow %+v, %d bytes delivered", rec, sim.delivered[0].bytes)
	}
	if rec.Retransmitted != rateRet || rec.NACKs != 1 || rec.Timeouts != 0 {
		t.Errorf("resent %d B, %d NACKs, %d timeouts; want %d B (frames 20-37), 1, 0", rec.Retransmitted, rec.NACKs, rec.Timeouts, rateRet)
	}
	if got := rec.Finish - rec.Start; got != rateFCT {
		t.Errorf("FCT %d ps, want %d (frame 99 in slot 117)", got, rateFCT)
	}
	if got := sim.lims[0].emitted; got != 100*1500+rateRet {
		t.Errorf("%d bytes sent, want %d", got, 100*1500+rateRet)
	}
}

// Over selective repeat only the lost frame is resent, in the slot after
// the first NACK lands; every later frame up to then is NACKed once.
func TestTransportQCNSelectiveResendsOnlyTheLostFrame(t *testing.T) {
	rec, sim := rateFlow(t, "qcn", RecoverySelective)
	if rec.Outcome != FlowCompleted || sim.delivered[0].bytes != 100*1500 {
		t.Fatalf("flow %+v, %d bytes delivered", rec, sim.delivered[0].bytes)
	}
	if rec.Retransmitted != 1500 || rec.NACKs != selNack || rec.Timeouts != 0 {
		t.Errorf("resent %d B, %d NACKs, %d timeouts; want 1500 B, %d, 0", rec.Retransmitted, rec.NACKs, rec.Timeouts, selNack)
	}
	if got := rec.Finish - rec.Start; got != rateSel {
		t.Errorf("FCT %d ps, want %d", got, rateSel)
	}
}

// Open loop (the default), the same loss leaves the flow one frame short:
// it "completes" without it, as the seeds' sources do, and nothing is
// resent or acknowledged.
func TestTransportQCNOpenLoopByDefault(t *testing.T) {
	sc, _ := algos.Lookup("qcn")
	for _, tr := range []Transport{{}, {Recovery: RecoveryNone, RateSchemes: true}, {Recovery: RecoveryGoBackN}} {
		cfg := fabric(sc, fatTree4(t, 150e3), []Flow{{From: 0, To: 15, Size: 100 * 1500}})
		cfg.Params, _ = sc.Resolve(cfg.Network(), nil)
		cfg.Transport = tr
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if sim.lims[0].tp != nil {
			t.Errorf("%+v: QCN runs over the transport", tr)
		}
	}
}

// Every rate-based scheme runs over either recovery on a lossy incast:
// the scheme sets the rate, the transport resends, and every flow
// completes with every byte delivered.
func TestTransportRateSchemesRecoverOnALossyIncast(t *testing.T) {
	for _, name := range []string{"qcn", "qcn-t", "ecm", "n-aimd", "ap-n-aimd", "dsm", "dcqcn", "none"} {
		for _, mode := range []Recovery{RecoveryGoBackN, RecoverySelective} {
			sc, err := algos.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			ft := fatTree4(t, 30e3)
			flows, err := Incast(ft, 0, 8, 150e3, 0, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			cfg := fabric(sc, ft, flows)
			if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
				t.Fatal(err)
			}
			cfg.Duration = 20 * ms
			cfg.Transport = Transport{Recovery: mode, RateSchemes: true}
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
					t.Errorf("%s %s: flow %d %s", name, mode, r.ID, r.Outcome)
				}
			}
			for i := range flows {
				if sim.delivered[i].bytes != 150e3 {
					t.Errorf("%s %s: flow %d: %d bytes delivered, want 150000", name, mode, i, sim.delivered[i].bytes)
				}
			}
			if drops == 0 || retx == 0 || len(recs) != 8 {
				t.Errorf("%s %s: %d drops, %d bytes resent, %d records: the incast should lose frames and resend them", name, mode, drops, retx, len(recs))
			}
		}
	}
}

// A rate-based scheme's frame carries its CM-Tag's CPID and its index in
// one field: the CPID reads back whole, and the index, modulo what the
// bits left hold, reads back as the one nearest the receiver's, across the
// wrap.
func TestTransportTagsCarryCPIDAndIndex(t *testing.T) {
	s := &Packet{cpidShift: 10, cpidMask: 1<<10 - 1}
	tp := &transport{s: s, frame: 1500}
	m := int64(1) << 22
	for _, c := range []struct{ rcv, k int64 }{{0, 0}, {0, 5}, {100, 90}, {m - 3, m + 4}, {m + 4, m - 3}, {5*m + 7, 5*m + 7 + m/2 - 1}, {5*m + 7, 5*m + 7 - m/2}} {
		tp.rcvNxt = c.rcv * 1500
		for _, cpid := range []int32{0, 1, 1023} {
			f := s.tagFrame(cpid, c.k)
			if got := f & s.cpidMask; got != cpid {
				t.Errorf("frame %d tagged %d reads CPID %d", c.k, cpid, got)
			}
			if got := tp.frameIndex(f); got != c.k {
				t.Errorf("frame %d tagged %d, receiver at %d: reads index %d", c.k, cpid, c.rcv, got)
			}
		}
	}
}

// HPCC's T is each flow's own base RTT by default; with base_rtt = "max"
// (the HPCC code's GLOBAL_T 1) every flow's is the largest over the pairs
// of hosts: on the fat-tree of 1 us, 10 Gbps links, six links across the
// core, two within an edge switch.
func TestTransportHPCCBaseRTT(t *testing.T) {
	sc, _ := algos.Lookup("hpcc")
	far := 12*us + 6*rateTx + 6*51200 // propagation both ways, data forward, ACKs back
	near := 4*us + 2*rateTx + 2*51200
	for _, c := range []struct {
		choice    float64
		near, far algos.Time
	}{{algos.HPCCBaseRTTFlow, near, far}, {algos.HPCCBaseRTTMax, far, far}} {
		cfg := fabric(sc, fatTree4(t, 150e3), []Flow{{From: 0, To: 1, Size: 1e6}, {From: 0, To: 15, Size: 1e6}})
		var err error
		if cfg.Params, err = sc.Resolve(cfg.Network(), algos.Values{"base_rtt": c.choice}); err != nil {
			t.Fatal(err)
		}
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []algos.Time{c.near, c.far} {
			w := sim.lims[i].tp.sender.Window() // line rate x T at the start
			if got := 10e9 * want.Seconds() / 8; w < got-1 || w > got+1 {
				t.Errorf("base_rtt %s: flow %d starts with window %g B, want %g (T = %d ps)", algos.HPCCBaseRTTs[int(c.choice)], i, w, got, want)
			}
		}
	}
}

// A chain's short flows run over the transport, each a connection of its
// own on its source's host: alone on an idle dumbbell a window of the whole
// flow sends it back to back, and it completes in its ideal time exactly.
func TestTransportChainShortFlowAlone(t *testing.T) {
	ws := &windowScheme{window: 1e9}
	cfg := baseConfig(ws.scheme(), 1, 10e9)
	cfg.Warmup = 0
	cfg.Traffic = &Traffic{ShortRate: 1000, ShortSizes: FixedSize("fixed", 100*1500), Drain: Drain{MaxFlows: 1}}
	var recs []FlowRecord
	cfg.OnFlow = func(r *FlowRecord) { recs = append(recs, *r) }
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run() // until the flow is over (drained)
	if len(recs) != 1 || recs[0].Outcome != FlowCompleted {
		t.Fatalf("records %+v, want one completed", recs)
	}
	r := recs[0]
	if got, want := (r.Finish - r.Start).Seconds(), r.Ideal; math.Abs(got-want) > 1e-12 {
		t.Errorf("FCT %g s, want the ideal %g s", got, want)
	}
	if len(ws.senders) != 2 || len(ws.senders[1].sends) != 100 || len(ws.senders[0].sends) != 0 {
		t.Errorf("%d senders; want the source's, idle, and the flow's, 100 frames", len(ws.senders))
	}
	if sim.lims[0].tp == nil || !sim.lims[0].tp.done {
		t.Error("the source's own connection (no long flows) is not idle")
	}
}

// On a lossy dumbbell (a 15 KB buffer) the chain's short flows beside one
// greedy connection per source lose frames, resend them, and every one
// completes with every byte, for an ACK-clocked scheme and for QCN over
// go-back-N and selective repeat.
func TestTransportChainShortFlowsRecover(t *testing.T) {
	type run struct {
		name string
		mode Recovery
	}
	for _, c := range []run{{"dctcp", RecoveryGoBackN}, {"qcn", RecoveryGoBackN}, {"qcn", RecoverySelective}} {
		sc, _ := algos.Lookup(c.name)
		cfg := baseConfig(sc, 4, 10e9)
		cfg.Buffer = 15e3
		cfg.Duration, cfg.Warmup = 40*ms, 0
		var err error
		if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
			t.Fatal(err)
		}
		cfg.Transport = Transport{Recovery: c.mode, RateSchemes: true}
		cfg.Traffic = &Traffic{LongFlows: 1, ShortRate: 2000, ShortSizes: FixedSize("fixed", 30*1500), Drain: Drain{MaxFlows: 20}}
		var recs []FlowRecord
		cfg.OnFlow = func(r *FlowRecord) { recs = append(recs, *r) }
		sim, _ := NewPacket(cfg)
		sim.Run()
		var retx int64
		done := 0
		for _, r := range recs {
			retx += r.Retransmitted
			if r.Outcome == FlowCompleted {
				done++
			}
			if r.Outcome == FlowLost || r.From == "" || r.To != "sink" {
				t.Errorf("%s %s: flow %+v", c.name, c.mode, r)
			}
		}
		t.Logf("%s %s: %d drops, %d B resent, %d records, %d completed, %d frames", c.name, c.mode, sim.ports[0].drops, retx, len(recs), done, sim.Frames())
		if sim.ports[0].drops == 0 || retx == 0 || len(recs) != 20 || done != 20 {
			t.Errorf("%s %s: %d drops, %d B resent, %d records, %d completed: want drops, resends, 20 completed", c.name, c.mode, sim.ports[0].drops, retx, len(recs), done)
		}
	}
}

// A phase's transport counters are exact at its boundaries: the ACKs a
// phase counts are those that reached the sender within it, whenever the
// sender's host runs them (it runs its own events late).
func TestTransportCountersExactAtBoundaries(t *testing.T) {
	ws := &windowScheme{window: 10 * 1500}
	cfg := baseConfig(ws.scheme(), 2, 10e9)
	cfg.Duration, cfg.Warmup = 3*ms, 0
	for k := range algos.Time(20) { // boundaries at many points of the ACKs' cycle
		cfg.Phases = append(cfg.Phases, ms+k*(37*us+300*algos.Nanosecond))
	}
	sim, sum := run(t, cfg)
	if len(sum.Phases) != len(cfg.Phases)+1 {
		t.Fatalf("%d phases", len(sum.Phases))
	}
	bounds := append(append([]algos.Time{0}, cfg.Phases...), cfg.Duration+1)
	for i, w := range ws.senders {
		var total int64
		for k, ph := range sum.Phases {
			want := int64(0)
			for _, at := range w.landed {
				if at >= bounds[k] && at < bounds[k+1] {
					want++
				}
			}
			if got := counted(t, ph.Sources[i].ACKs); got != want {
				t.Errorf("source %d phase %d: %d ACKs, want the %d that landed in [%d, %d)", i, k, got, want, bounds[k], bounds[k+1])
			}
			total += counted(t, ph.Sources[i].ACKs)
		}
		if total != sim.lims[i].tp.acks {
			t.Errorf("source %d: phases count %d ACKs, the run %d", i, total, sim.lims[i].tp.acks)
		}
	}
}
