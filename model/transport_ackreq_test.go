package model

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// A window below ack_every, by hand: a window of four frames, an ACK every
// eight (12,000 B). The receiver reaches no milestone before the window is
// out, so without more the flow would wait for its timer, resend frames the
// receiver has (which it does not answer) and never go on. The fourth frame
// of each window fills it and asks for an ACK, which the receiver sends at
// once: one ACK per window, of the window's last byte. Each window leaves
// at line rate as the ACK of the one before lands, one base RTT after its
// last frame left: window k's frames leave at k*(3tx + rtt) + j*tx, and
// its ACK lands at (k+1)*(3tx + rtt).
func TestTransportAckRequestByHand(t *testing.T) {
	ws := &windowScheme{window: 4 * 1500}
	cfg := baseConfig(ws.scheme(), 1, 10e9)
	cfg.Duration, cfg.Warmup = 2*ms, 0
	cfg.Transport.AckEvery = 8 * 1500
	sim, sum := run(t, cfg)
	w := ws.senders[0]
	tx := algos.TransmitTime(1500, 10e9)
	rtt := 100*us + 2*tx + 2*algos.TransmitTime(AckBytes, 10e9)
	turn := 3*tx + rtt // from a window's first frame to the next's
	wantACKs := int(cfg.Duration / turn)
	if len(w.acks) != wantACKs || counted(t, sum.Sources[0].ACKs) != int64(wantACKs) {
		t.Fatalf("%d ACKs (summary %d), want %d: one per window of four frames in %d ps",
			len(w.acks), *sum.Sources[0].ACKs, wantACKs, cfg.Duration)
	}
	for k, a := range w.acks {
		if want := int64(4*k+4) * 1500; a.Seq != want || a.Nack {
			t.Fatalf("ACK %d: seq %d (NACK %v), want %d", k, a.Seq, a.Nack, want)
		}
		if want := algos.Time(k+1) * turn; w.landed[k] < want-1 || w.landed[k] > want+1 {
			t.Fatalf("ACK %d landed at %d, want %d", k, w.landed[k], want)
		}
	}
	for j, s := range w.sends {
		want := algos.Time(j/4)*turn + algos.Time(j%4)*tx
		if s.seq != int64(j)*1500 || s.at < want-1 || s.at > want+1 {
			t.Fatalf("frame %d: seq %d at %d, want seq %d at %d", j, s.seq, s.at, j*1500, want)
		}
	}
	if n := len(w.sends); n != 4*(wantACKs+1) {
		t.Errorf("%d frames sent, want %d: a window per ACK and the first", n, 4*(wantACKs+1))
	}
	if tp := sim.lims[0].tp; tp.timeouts != 0 || tp.retx != 0 {
		t.Errorf("%d timeouts, %d B resent: an idle path needs neither", tp.timeouts, tp.retx)
	}
}

// shrinkingSender is a windowSender whose window falls to one frame at a
// timeout.
type shrinkingSender struct{ *windowSender }

func (s shrinkingSender) OnTimeout(algos.Time) { s.window = 1500 }

// A lost frame that asked for an ACK: the receiver has frames 0-2 and has
// acknowledged none (ack_every is eight frames); frame 3, which filled the
// window, is lost. At the timeout the window is one frame, so the resend
// of frame 0, which the receiver has, asks for an ACK; the receiver owes
// one (bytes 0-4499) and sends it although the frame is a duplicate, and
// the flow goes on. Go-back-N then resends frame 3 alone; selective
// repeat has resent frames 0-3 at once (the timeout marks them all).
func TestTransportDuplicateAskingForAnACKIsAnswered(t *testing.T) {
	for _, c := range []struct {
		mode Recovery
		retx int64
	}{{RecoveryGoBackN, 2 * 1500}, {RecoverySelective, 4 * 1500}} {
		var senders []*windowSender
		sc := &algos.Scheme{
			Name:  "shrinking",
			NewCP: func(algos.CPEnv, algos.Values) algos.CongestionPoint { return scriptedCP{&scripted{}} },
			NewSender: func(algos.SenderEnv, algos.Values) algos.Sender {
				w := &windowSender{window: 4 * 1500}
				senders = append(senders, w)
				return shrinkingSender{w}
			},
		}
		cfg := fabric(sc, fatTree4(t, 150e3), []Flow{{From: 0, To: 15, Size: 8 * 1500}})
		cfg.Transport = Transport{AckEvery: 8 * 1500, Recovery: c.mode}
		var rec FlowRecord
		cfg.OnFlow = func(r *FlowRecord) { rec = *r }
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		loseOnce(sim, 3)
		sim.Run()
		w := senders[0]
		if rec.Outcome != FlowCompleted || sim.delivered[0].bytes != 8*1500 {
			t.Fatalf("%s: flow %+v, %d B delivered", c.mode, rec, sim.delivered[0].bytes)
		}
		if rec.Timeouts != 1 || rec.Retransmitted != c.retx || rec.NACKs != 0 {
			t.Errorf("%s: %d timeouts, %d B resent, %d NACKs; want 1, %d, 0", c.mode, rec.Timeouts, rec.Retransmitted, rec.NACKs, c.retx)
		}
		if len(w.acks) == 0 || w.acks[0].Seq != 3*1500 {
			t.Fatalf("%s: ACKs %+v: the first should answer the duplicate with 4500", c.mode, w.acks)
		}
		if rec.Finish > 2*DefaultRTOMin {
			t.Errorf("%s: finished at %d, after a second timeout", c.mode, rec.Finish)
		}
	}
}

// A window below ack_every never stalls a flow: one 1 MB flow on an idle
// leaf-spine completes, under every window scheme, with ACKs every 32 KB
// or 64 KB (above the windows the schemes start with), under every
// recovery, without a single timeout.
func TestTransportAckEveryAboveTheWindowCompletes(t *testing.T) {
	ls, err := topo.LeafSpine(4, 2, 4, 10e9, 10e9, 100e3, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"dctcp", "timely", "hpcc", "swift"} {
		sc, err := algos.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, every := range []int64{32e3, 64e3} {
			for _, mode := range []Recovery{RecoveryGoBackN, RecoverySelective, RecoveryNone} {
				cfg := fabric(sc, ls, []Flow{{From: 0, To: 5, Size: 1e6}})
				cfg.Duration = 20 * ms
				cfg.ControlFrames = true
				if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
					t.Fatal(err)
				}
				cfg.Transport = Transport{AckEvery: every, Recovery: mode}
				var rec FlowRecord
				cfg.OnFlow = func(r *FlowRecord) { rec = *r }
				sim, _ := run(t, cfg)
				if rec.Outcome != FlowCompleted || sim.delivered[0].bytes != 1e6 || rec.Timeouts != 0 || rec.Retransmitted != 0 {
					t.Errorf("%s, ack_every %d B, %s: %s, %d B delivered, %d timeouts, %d B resent; want completed, 1 MB, none",
						name, every, mode, rec.Outcome, sim.delivered[0].bytes, rec.Timeouts, rec.Retransmitted)
				}
			}
		}
	}
}

// A chain's source over the transport counts every connection it has: its
// greedy flow's ACKs, NACKs, resent bytes and timeouts and those of each
// short flow it sent, which run over connections of their own. On a
// dumbbell with a small buffer, both lose frames; each source's counters
// are the sums of its short flows' records and its greedy flow's.
func TestTransportSourceCountsItsShortFlows(t *testing.T) {
	sc, err := algos.Lookup("qcn")
	if err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig(sc, 4, 10e9)
	cfg.Duration, cfg.Warmup, cfg.Buffer = 20*ms, 0, 20e3
	if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
		t.Fatal(err)
	}
	cfg.Traffic = &Traffic{LongFlows: 1, ShortRate: 20000, ShortSizes: FixedSize("100KB", 100e3), Drain: Drain{Stop: 2 * ms}}
	cfg.Transport = Transport{Recovery: RecoveryGoBackN, RateSchemes: true}
	short := make(map[string]transportCounts)
	var flows int
	cfg.OnFlow = func(r *FlowRecord) {
		flows++
		c := short[r.From]
		short[r.From] = c.plus(transportCounts{retx: r.Retransmitted, timeouts: r.Timeouts, nacks: r.NACKs})
	}
	sim, sum := run(t, cfg)
	var shortRetx, greedyRetx int64
	for i, ss := range sum.Sources {
		g := sim.lims[i].transportCounts()
		want := g.plus(short["src"+strconv.Itoa(i)])
		shortRetx += short["src"+strconv.Itoa(i)].retx
		greedyRetx += g.retx
		got := transportCounts{counted(t, ss.ACKs), counted(t, ss.RetransmittedBytes), counted(t, ss.Timeouts), counted(t, ss.NACKs)}
		if got.retx != want.retx || got.timeouts != want.timeouts || got.nacks != want.nacks {
			t.Errorf("source %d: %d B resent, %d timeouts, %d NACKs; want its greedy flow's and short flows' sums %d B, %d, %d",
				i, got.retx, got.timeouts, got.nacks, want.retx, want.timeouts, want.nacks)
		}
		if got.acks <= g.acks {
			t.Errorf("source %d: %d ACKs, no more than its greedy flow's %d", i, got.acks, g.acks)
		}
	}
	if flows < 20 || shortRetx == 0 || greedyRetx == 0 || sim.pool.transport == nil {
		t.Errorf("%d short flows, %d B resent by them, %d B by the greedy flows, limiters reused %v: the test needs losses on both and reused limiters",
			flows, shortRetx, greedyRetx, sim.pool.transport != nil)
	}
}

// counted is a source's transport count, which a source over the
// transport always has.
func counted(t *testing.T, n *int64) int64 {
	t.Helper()
	if n == nil {
		t.Fatal("a source over the transport without a transport count")
	}
	return *n
}

// A source over the transport has its four counts in the summary even when
// they are 0 (summary.json then says 0, not nothing: "timeouts" present
// and 0 is not "not over the transport"); a source not over it has none.
func TestTransportZeroCountsAreWritten(t *testing.T) {
	ws := &windowScheme{window: 4 * 1500}
	cfg := baseConfig(ws.scheme(), 1, 10e9)
	cfg.Duration, cfg.Warmup = ms, 0
	_, sum := run(t, cfg)
	data, err := json.Marshal(sum.Sources[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"acks":`, `"nacks":0`, `"retransmitted_bytes":0`, `"timeouts":0`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("source over the transport: %s has no %s", data, key)
		}
	}
	open := baseConfig(noneScheme(t), 1, 10e9)
	open.Duration, open.Warmup = ms, 0
	_, sum = run(t, open)
	data, err = json.Marshal(sum.Sources[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"acks", "nacks", "retransmitted_bytes", "timeouts"} {
		if strings.Contains(string(data), `"`+key+`"`) {
			t.Errorf("source open loop: %s has %s", data, key)
		}
	}
}
