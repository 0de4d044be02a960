package model

import (
	"crypto/sha256"
	"encoding/json"
	"testing"

	"qcnlab/algos"
)

// earlyRun runs cfg, with its receipts taken early where they may be
// (markEarly) or, without early, each at its arrival as an event of its
// own, and returns its summary, a hash of its samples and the receipts
// taken early.
func earlyRun(t *testing.T, cfg Config, early bool) (string, [32]byte, int64) {
	t.Helper()
	h := sha256.New()
	var buf []byte
	cfg.OnSample = func(x *Sample) {
		buf = SampleBytes(buf[:0], x, x.Rates, x.Delivered, x.CurrentRates)
		h.Write(buf)
	}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !early {
		for _, l := range sim.lims {
			l.ackGuard = 0
		}
	}
	sim.Run()
	js, err := json.Marshal(sim.Summary())
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, l := range sim.lims {
		if l.tp != nil {
			n += l.tp.early
		}
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return string(js), sum, n
}

// Taking a receipt as its frame leaves the last port, timed at its
// arrival, changes no number: the runs below, with receipts early and
// each at its own event, give the same summary and samples bit for bit
// (events counted alike). They cover the rate-based schemes over go-back-N
// and selective repeat, with losses (a small buffer), the ACK-clocked
// schemes with and without telemetry, on the dumbbell, and a fat-tree's
// ACKs out of band.
func TestEarlyReceiptsChangeNothing(t *testing.T) {
	type run struct {
		name string
		cfg  func() Config
	}
	dumbbell := func(scheme string, rec Recovery, buffer int) func() Config {
		return func() Config {
			cfg := ackBenchConfig(t, 20*algos.Millisecond, scheme)
			cfg.Transport.RateSchemes, cfg.Transport.Recovery = true, rec
			if buffer > 0 {
				cfg.Buffer = buffer
			}
			return cfg
		}
	}
	runs := []run{
		{"qcn go-back-N", dumbbell("qcn", RecoveryGoBackN, 0)},
		{"qcn go-back-N lossy", dumbbell("qcn", RecoveryGoBackN, 30e3)},
		{"qcn selective lossy", dumbbell("qcn", RecoverySelective, 30e3)},
		{"dctcp", dumbbell("dctcp", RecoveryGoBackN, 0)},
		{"hpcc", dumbbell("hpcc", RecoveryGoBackN, 0)},
		{"swift lossy", dumbbell("swift", RecoverySelective, 30e3)},
		{"timely", dumbbell("timely", RecoveryGoBackN, 0)},
		{"parking lot", func() Config {
			cfg := dumbbell("qcn", RecoveryGoBackN, 30e3)()
			cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 30e3, Delay: 2 * algos.Microsecond},
				{Capacity: 5e9, Buffer: 30e3, Delay: 3 * algos.Microsecond}}
			for i := range cfg.Sources {
				cfg.Sources[i].Path = [][]int{{0, 1}, {1}}[i%2]
			}
			return cfg
		}},
		{"fat-tree dctcp", func() Config { return fatTreeACKConfig(t, 2*algos.Millisecond, "dctcp", false) }},
		{"fat-tree hpcc", func() Config { return fatTreeACKConfig(t, 2*algos.Millisecond, "hpcc", false) }},
	}
	for _, r := range runs {
		sumOn, hashOn, early := earlyRun(t, r.cfg(), true)
		sumOff, hashOff, none := earlyRun(t, r.cfg(), false)
		// Selective repeat's receipts, a fabric's and an ACK-clocked
		// scheme's run at their arrival.
		c := r.cfg()
		want := c.Transport.Recovery == RecoveryGoBackN && c.Fabric == nil && !c.Scheme.NeedsTransport()
		if (early > 0) != want || none != 0 {
			t.Errorf("%s: %d receipts early, %d with them off", r.name, early, none)
		}
		if sumOn != sumOff {
			t.Errorf("%s: summaries differ\nearly: %s\n  off: %s", r.name, sumOn, sumOff)
		}
		if hashOn != hashOff {
			t.Errorf("%s: samples differ", r.name)
		}
	}
}

// On the speed scenario with ACKs (QCN over go-back-N), nearly every
// receipt is taken as its frame leaves the port: its receiver has no
// event per frame.
func TestBenchReceiptsAreEarly(t *testing.T) {
	cfg := ackBenchConfig(t, 20*algos.Millisecond, "qcn")
	cfg.Transport.RateSchemes = true
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	var early, acks int64
	for _, l := range sim.lims {
		early += l.tp.early
		acks += l.tp.acks
	}
	if frames := int64(sim.Frames()); early < frames*99/100 || acks < frames*9/10 {
		t.Errorf("%d frames delivered, %d receipts early, %d ACKs", frames, early, acks)
	}
}

// A port whose count of frames foreseen not to be received early has
// saturated keys its deliveries' slot at each arrival for the rest of the
// run, and its numbers stay those of the run with every receipt an event.
func TestSaturatedSlowCountStaysExact(t *testing.T) {
	cfg := ackBenchConfig(t, 20*algos.Millisecond, "qcn")
	cfg.Transport.RateSchemes, cfg.Buffer = true, 30e3 // losses: gaps foreseen
	want, _, _ := earlyRun(t, cfg, false)
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sim.ports {
		p.exitSeq |= slowMask
	}
	sim.Run()
	got, err := json.Marshal(sim.Summary())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("summaries differ\nsaturated: %s\n    events: %s", got, want)
	}
	for _, p := range sim.ports {
		if p.exitSeq&slowMask != slowMask || p.lazyGuard() {
			t.Errorf("%s: the count left saturation", p.name)
		}
	}
}

// Two sources whose frames reach the bottleneck in the same picosecond, at
// round-number delays, one starting late, ACKs every other frame: the
// order in which their frames enter must be the exact run's. An
// ACK-clocked scheme's ACK sent late reordered them (dctcp's marks, queue
// and ACKs differed); a rate-based scheme's, which lets no frame go, does
// not.
func TestEarlyReceiptsKeepTiesInOrder(t *testing.T) {
	for _, scheme := range []string{"qcn", "dcqcn", "dctcp", "hpcc", "swift", "timely"} {
		for _, start := range []algos.Time{0, 3800 * algos.Nanosecond, 7600 * algos.Nanosecond} {
			cfg := ackBenchConfig(t, 3*algos.Millisecond, scheme)
			cfg.Transport.RateSchemes, cfg.Transport.Recovery, cfg.Transport.AckEvery = true, RecoveryGoBackN, 2500
			cfg.FrameBytes, cfg.Buffer = 1250, 100e3
			cfg.Sources = cfg.Sources[:2]
			cfg.Sources[0].ForwardDelay, cfg.Sources[0].BackwardDelay, cfg.Sources[0].Start = 1600*algos.Nanosecond, 2400*algos.Nanosecond, start
			cfg.Sources[1].ForwardDelay, cfg.Sources[1].BackwardDelay = 1200*algos.Nanosecond, 1800*algos.Nanosecond
			var err error
			if cfg.Params, err = cfg.Scheme.Resolve(cfg.Network(), nil); err != nil {
				t.Fatal(err)
			}
			sumOn, hashOn, early := earlyRun(t, cfg, true)
			sumOff, hashOff, _ := earlyRun(t, cfg, false)
			if sumOn != sumOff || hashOn != hashOff {
				t.Errorf("%s, source 0 from %v: %d receipts early change the run", scheme, start, early)
			}
		}
	}
}
