package model

import (
	"math"
	"strings"
	"testing"

	"qcnlab/algos"
)

// overload is n sources at 10 Gbps line rate with no congestion control
// on a 10 Gbps dumbbell with a 1 MB buffer.
func overload(t testing.TB, n int) Config {
	cfg := baseConfig(noneScheme(t), n, 10e9)
	cfg.Params = algos.Values{}
	cfg.Buffer = 1e6
	cfg.Duration, cfg.Warmup = 20*algos.Millisecond, 2*algos.Millisecond
	return cfg
}

// With PFC nothing is dropped however overloaded the port; without it,
// drop-tail drops.
func TestPFCNeverDropsUnderOverload(t *testing.T) {
	cfg := overload(t, 4)
	_, tail := run(t, cfg)
	if tail.Bottlenecks[0].DropsTotal == 0 {
		t.Fatal("drop-tail at 4x overload dropped nothing")
	}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1}
	_, sum := run(t, cfg)
	b := sum.Bottlenecks[0]
	if b.DropsTotal != 0 {
		t.Errorf("PFC dropped %d frames", b.DropsTotal)
	}
	th, _ := cfg.PFCThresholds()
	if b.QueueMax > float64(cfg.Buffer) || b.QueueMax <= float64(th[0].Xoff) {
		t.Errorf("queue max %g, want above XOFF %d and within the buffer", b.QueueMax, th[0].Xoff)
	}
	if b.Utilization < 0.999 || b.PauseFrames == 0 || b.PausedFraction < 0.5 {
		t.Errorf("utilization %g, %d pause frames, paused %g of the time", b.Utilization, b.PauseFrames, b.PausedFraction)
	}
	// Each source gets a quarter of the link and is paused the rest.
	for _, s := range sum.Sources {
		if math.Abs(s.ThroughputBps-2.5e9) > 0.3e9 || math.Abs(s.PausedFraction-0.75) > 0.05 {
			t.Errorf("source %d: %g bps, paused %g", s.ID, s.ThroughputBps, s.PausedFraction)
		}
	}
	t.Logf("XOFF %d XON %d headroom %d; queue max %.0f, %d pause frames, paused %.3f",
		th[0].Xoff, th[0].Xon, th[0].Headroom, b.QueueMax, b.PauseFrames, b.PausedFraction)
}

// spreading is seed 000's congestion spreading in small: source 0 crosses
// both links at 4 Gbps, the victim (source 1) only the first at 4 Gbps, and
// source 2 joins at the second at 10 Gbps, overloading it.
func spreading(t testing.TB) Config {
	cfg := overload(t, 3)
	cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 1e6, Delay: 20 * us}, {Capacity: 10e9, Buffer: 1e6}}
	cfg.Sources[0].Path, cfg.Sources[1].Path, cfg.Sources[2].Path = []int{0, 1}, []int{0}, []int{1}
	cfg.Sources[0].LineRate, cfg.Sources[0].InitialRate = 4e9, 4e9
	cfg.Sources[1].LineRate, cfg.Sources[1].InitialRate = 4e9, 4e9
	return cfg
}

// PAUSE spreads congestion upstream: the victim never crosses the second
// link but loses throughput to the first port's pauses, and no frame is
// lost anywhere, frames held back in a paused port included.
func TestPFCSpreadsCongestionUpstream(t *testing.T) {
	cfg := spreading(t)
	_, tail := run(t, cfg)
	if v := tail.Sources[1].ThroughputBps; math.Abs(v-4e9) > 0.05e9 || tail.Bottlenecks[1].DropsTotal == 0 {
		t.Fatalf("drop-tail: victim at %g bps, %d drops at the second link", v, tail.Bottlenecks[1].DropsTotal)
	}
	cfg.PFC = &PFC{Xoff: -1, Xon: -1}
	sim, sum := run(t, cfg)
	for j, b := range sum.Bottlenecks {
		if b.DropsTotal != 0 {
			t.Errorf("link %d dropped %d frames", j, b.DropsTotal)
		}
	}
	b0, b1 := sum.Bottlenecks[0], sum.Bottlenecks[1]
	if b1.PauseFrames == 0 || b0.HeldFraction < 0.2 || b0.PauseFrames == 0 {
		t.Errorf("second link sent %d pauses, first held %g of the time and sent %d", b1.PauseFrames, b0.HeldFraction, b0.PauseFrames)
	}
	if v := sum.Sources[1].ThroughputBps; v > 3.5e9 || sum.Sources[1].PausedFraction < 0.1 {
		t.Errorf("victim at %g bps, paused %g: congestion did not spread", v, sum.Sources[1].PausedFraction)
	}
	if b1.Utilization < 0.99 {
		t.Errorf("second link utilization %g", b1.Utilization)
	}
	// Every frame released is delivered or still in the network.
	for i := 0; i < sim.statics; i++ {
		src := sim.lims[i]
		out := sim.delivered[i].bytes
		if out > src.emitted || out < src.emitted/2 {
			t.Errorf("source %d: %d bytes delivered of %d released", i, out, src.emitted)
		}
	}
	t.Logf("victim %.2f Gbps paused %.2f; link 0 held %.2f, link 1 pausing %.2f; throughputs %.2f %.2f %.2f Gbps",
		sum.Sources[1].ThroughputBps/1e9, sum.Sources[1].PausedFraction, b0.HeldFraction, b1.PausedFraction,
		sum.Sources[0].ThroughputBps/1e9, sum.Sources[1].ThroughputBps/1e9, sum.Sources[2].ThroughputBps/1e9)
}

// A paused port holds the frames behind the one on the wire and sends them
// on, in order, when released: frames keep their order and spacing.
func TestPausedPortKeepsFramesInOrder(t *testing.T) {
	cfg := spreading(t)
	cfg.PFC = &PFC{Xoff: -1, Xon: -1}
	cfg.Duration, cfg.Warmup = 5*algos.Millisecond, 0
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var last algos.Time
	for !sim.Done() {
		sim.Advance(sim.Now() + us)
		p := sim.ports[0]
		l := &p.link
		onLink := l.len() - int(p.onward) // in flight, and the frame in service whose arrival is set
		if p.serving(0) {
			onLink++
		}
		for k := 0; k < onLink; k++ {
			h := l.at(k)
			if k > 0 && h.arrive < l.at(k-1).arrive+algos.TransmitTime(int(h.bytes), 10e9) {
				t.Fatalf("at %d: link frames arrive at %d then %d, closer than a frame", sim.Now(), l.at(k-1).arrive, h.arrive)
			}
			if h.arrive < sim.Now() {
				t.Fatalf("at %d: a frame due at %d is still on the link", sim.Now(), h.arrive)
			}
		}
		if l.len() > 0 {
			last = max(last, l.at(l.len()-1).arrive)
		}
	}
	if last == 0 {
		t.Fatal("nothing crossed the first link")
	}
}

func TestPFCThresholdErrors(t *testing.T) {
	cfg := overload(t, 4)
	for _, c := range []struct {
		pfc  PFC
		want string
	}{
		{PFC{Xoff: 100e3, Xon: 100e3}, "XON 100000 B must be below XOFF 100000 B"},
		{PFC{Xoff: 900e3, Xon: -1}, "XOFF 900000 B is above port 0's buffer (1000000 B) less its headroom (513500 B)"},
	} {
		cfg.PFC = &c.pfc
		if _, err := cfg.PFCThresholds(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.pfc, err, c.want)
		}
	}
	cfg.Buffer, cfg.PFC = 150e3, &PFC{Xoff: -1, Xon: -1}
	if _, err := NewPacket(cfg); err == nil || !strings.Contains(err.Error(), "cannot hold its PFC headroom") {
		t.Errorf("150 KB buffer for 4 sources at 100 us: %v", err)
	}
}
