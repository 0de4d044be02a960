package model

import (
	"cmp"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"qcnlab/algos"
)

func TestEventHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var seq uint64
	h := eventHeap{seq: &seq}
	var want []event
	for i := 0; i < 2000; i++ {
		// Few distinct times, so ties are common.
		e := event{at: algos.Time(r.IntN(50)), limiter: int32(i)}
		h.push(e)
		e.seq = seq
		want = append(want, e)
		if i%3 == 0 { // interleave takes, whose slot the next push reuses
			got := h.take()
			slices.SortFunc(want, func(a, b event) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq)) })
			if got != want[0] {
				t.Fatalf("take %+v, want %+v", got, want[0])
			}
			want = want[1:]
		}
	}
	slices.SortFunc(want, func(a, b event) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq)) })
	for i, w := range want {
		if got := h.pop(); got != w {
			t.Fatalf("pop %d = %+v, want %+v", i, got, w)
		}
	}
	if h.len() != 0 {
		t.Fatalf("%d events left", h.len())
	}
}

func TestStreamQueueFindsTheEarliest(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{1, 2, 3, 10, 17} {
		var seq uint64
		var tree streamQueue
		tree.setup(n, &seq, true)
		at := make([]algos.Time, n)
		sq := make([]uint64, n)
		for i := range at {
			at[i] = algos.Never
		}
		if tree.top().at != algos.Never {
			t.Fatalf("n=%d: empty tree has a top", n)
		}
		for step := 0; step < 3000; step++ {
			src := r.IntN(n)
			v := algos.Time(r.IntN(20)) // ties are common
			if r.IntN(10) == 0 {
				v = algos.Never
			}
			tree.set(src, v)
			at[src], sq[src] = v, seq
			best := -1
			for i := range at {
				if at[i] != algos.Never && (best < 0 || at[i] < at[best] || at[i] == at[best] && sq[i] < sq[best]) {
					best = i
				}
			}
			got := tree.top()
			if best < 0 {
				if got.at != algos.Never {
					t.Fatalf("n=%d step %d: top %+v, want none", n, step, got)
				}
				continue
			}
			if int(got.seqSlot&(1<<slotBits-1)) != best || got.at != at[best] || got.seqSlot>>slotBits != sq[best] {
				t.Fatalf("n=%d step %d: top %+v, want source %d at %d seq %d", n, step, got, best, at[best], sq[best])
			}
		}
	}
}

func TestRingWrapsAndGrows(t *testing.T) {
	var r ring[int]
	next, expect := 0, 0
	for round := 0; round < 100; round++ {
		for i := 0; i < round%37+1; i++ {
			r.push(next)
			next++
		}
		for i := 0; i < round%23 && r.len() > 0; i++ {
			if v := r.pop(); v != expect {
				t.Fatalf("pop %d, want %d", v, expect)
			}
			expect++
		}
	}
	for r.len() > 0 {
		if v := r.pop(); v != expect {
			t.Fatalf("pop %d, want %d", v, expect)
		}
		expect++
	}
	if expect != next {
		t.Fatalf("popped %d of %d", expect, next)
	}
}

func TestLevelStats(t *testing.T) {
	// Level 10 on [0,5), 0 on [5,8), 4 on [8,20); measured over [2, 12].
	l := newLevelMeter(1, 10)
	l.set(0, 10)
	l.restart(2)
	l.set(5, 0)
	l.set(8, 4)
	mean, std, lo, hi, empty := l.snapshot(12).result()
	// In the window: 10 for 3, 0 for 3, 4 for 4.
	wantMean := (10*3 + 0*3 + 4*4) / 10.0
	wantVar := (100*3+16*4)/10.0 - wantMean*wantMean
	if math.Abs(mean-wantMean) > 1e-12 || math.Abs(std-math.Sqrt(wantVar)) > 1e-12 {
		t.Errorf("mean %g std %g, want %g %g", mean, std, wantMean, math.Sqrt(wantVar))
	}
	if lo != 0 || hi != 10 || math.Abs(empty-0.3) > 1e-12 {
		t.Errorf("min %g max %g empty %g", lo, hi, empty)
	}
	// Partial window: only up to 6.
	l2 := newLevelMeter(1, 10)
	l2.set(0, 10)
	l2.restart(2)
	l2.set(5, 0)
	mean, _, _, _, empty = l2.snapshot(6).result()
	if math.Abs(mean-30.0/4) > 1e-12 || math.Abs(empty-0.25) > 1e-12 {
		t.Errorf("partial: mean %g empty %g", mean, empty)
	}
}

// scripted is a test scheme: its RPs send at a rate the test sets and record
// what reaches them; its CP answers frames with a test-chosen function.
type scripted struct {
	cp  func(now algos.Time, f *algos.Frame, qlen int) (algos.Feedback, bool)
	rps []*scriptedRP
	// rate, if set, decides an RP's rate on every event.
	rate func(rp *scriptedRP, now algos.Time) float64
	// timer, if set, gives an RP's next timer after now.
	timer func(rp *scriptedRP, now algos.Time) algos.Time
}

type scriptedRP struct {
	s         *scripted
	id        int
	r         float64
	timer     algos.Time
	sends     []algos.Time
	feedbacks []algos.Feedback
	fbTimes   []algos.Time
	expiries  []algos.Time
	lastEmpty bool
}

func (rp *scriptedRP) Rate() float64     { return rp.r }
func (rp *scriptedRP) CPID() int         { return 0 }
func (rp *scriptedRP) Timer() algos.Time { return rp.timer }
func (rp *scriptedRP) update(now algos.Time) {
	if rp.s.rate != nil {
		rp.r = rp.s.rate(rp, now)
	}
}
func (rp *scriptedRP) Feedback(now algos.Time, fb algos.Feedback) {
	rp.feedbacks = append(rp.feedbacks, fb)
	rp.fbTimes = append(rp.fbTimes, now)
	rp.update(now)
}
func (rp *scriptedRP) Transmit(now algos.Time, bytes int, empty bool) bool {
	rp.sends = append(rp.sends, now)
	rp.lastEmpty = empty
	old := rp.r
	rp.update(now)
	return rp.r != old
}
func (rp *scriptedRP) Expire(now algos.Time) {
	rp.expiries = append(rp.expiries, now)
	rp.timer = algos.Never
	if rp.s.timer != nil {
		rp.timer = rp.s.timer(rp, now)
	}
	rp.update(now)
}

type scriptedCP struct{ s *scripted }

func (cp scriptedCP) Arrive(now algos.Time, f *algos.Frame, qlen int, fb *algos.Feedback) bool {
	if cp.s.cp == nil {
		return false
	}
	out, ok := cp.s.cp(now, f, qlen)
	*fb = out
	return ok
}

func (s *scripted) scheme() *algos.Scheme {
	return &algos.Scheme{
		Name:  "scripted",
		NewCP: func(algos.CPEnv, algos.Values) algos.CongestionPoint { return scriptedCP{s} },
		NewRP: func(env algos.RPEnv, _ algos.Values) algos.ReactionPoint {
			rp := &scriptedRP{s: s, id: len(s.rps), r: env.InitialRate, timer: algos.Never}
			if s.timer != nil {
				rp.timer = s.timer(rp, env.Start)
			}
			s.rps = append(s.rps, rp)
			return rp
		},
	}
}

const us = algos.Microsecond

func baseConfig(sc *algos.Scheme, n int, rate float64) Config {
	cfg := Config{Scheme: sc, Seed: 1, Duration: 10 * algos.Millisecond, Warmup: 2 * algos.Millisecond,
		Capacity: 10e9, Buffer: 150e3, FrameBytes: 1500,
		SampleInterval: 10 * us, RateWindow: 1000 * us, FairnessThreshold: 0.9}
	for i := 0; i < n; i++ {
		cfg.Sources = append(cfg.Sources, SourceConfig{LineRate: 10e9, InitialRate: rate,
			ForwardDelay: 50 * us, BackwardDelay: 50 * us, Stop: algos.Never})
	}
	return cfg
}

func run(t *testing.T, cfg Config) (*Packet, Summary) {
	t.Helper()
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	if !sim.Done() || sim.Now() != cfg.Duration {
		t.Fatalf("run stopped at %d of %d", sim.Now(), cfg.Duration)
	}
	return sim, sim.Summary()
}

func TestUncongestedSourceMeetsNoQueue(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 1, 4e9)
	var maxQueue int
	var lastRate float64
	cfg.OnSample = func(x *Sample) {
		maxQueue = max(maxQueue, x.Queues[0])
		lastRate = x.Rates[0]
	}
	_, sum := run(t, cfg)
	b := sum.Bottlenecks[0]
	if maxQueue > 1500 || b.QueueMax > 1500 || b.Drops != 0 {
		t.Errorf("queue up to %d/%g bytes, %d drops, for a 4 Gbps source on 10 Gbps", maxQueue, b.QueueMax, b.Drops)
	}
	if math.Abs(b.Utilization-0.4) > 0.001 || math.Abs(sum.Sources[0].ThroughputBps-4e9)/4e9 > 0.001 {
		t.Errorf("utilization %g throughput %g, want 0.4 and 4 Gbps", b.Utilization, sum.Sources[0].ThroughputBps)
	}
	if math.Abs(lastRate-4e9)/4e9 > 0.002 {
		t.Errorf("window rate %g, want 4 Gbps", lastRate)
	}
	// Frames leave the rate limiter exactly 3 us apart (12000 bits at 4 Gbps).
	sends := s.rps[0].sends
	for i := 1; i < len(sends); i++ {
		if d := sends[i] - sends[i-1]; d != 3*us {
			t.Fatalf("gap %d ps between frames %d and %d", d, i-1, i)
		}
	}
	if b.EmptyFraction < 0.5 {
		t.Errorf("empty fraction %g, the queue should mostly be empty", b.EmptyFraction)
	}
}

func TestOverloadFillsBufferAndDrops(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 2, 10e9)
	_, sum := run(t, cfg)
	b := sum.Bottlenecks[0]
	if b.Utilization < 0.999 || b.Drops == 0 || b.QueueMax != 150e3 || b.QueueMin < 148.5e3 {
		t.Errorf("two line-rate sources: utilization %g drops %d queue [%g, %g]", b.Utilization, b.Drops, b.QueueMin, b.QueueMax)
	}
	// Half of what arrives is dropped, in bytes and frames alike.
	offered := 2 * 10e9 / 8 * (cfg.Duration - cfg.Warmup).Seconds()
	if got := float64(b.DroppedBytes) / offered; math.Abs(got-0.5) > 0.01 {
		t.Errorf("dropped %.3f of the offered bytes, want 0.5", got)
	}
	if b.DroppedBytes != b.Drops*1500 || sum.Frames == 0 {
		t.Errorf("dropped bytes %d for %d drops", b.DroppedBytes, b.Drops)
	}
	// Which source gets the freed slots is a drop-tail phase effect of
	// two perfectly periodic sources; together they fill the link.
	if got := sum.Sources[0].ThroughputBps + sum.Sources[1].ThroughputBps; math.Abs(got-10e9) > 0.01e9 {
		t.Errorf("throughputs add up to %g, want the capacity", got)
	}
}

func TestFeedbackTakesTheBackwardDelay(t *testing.T) {
	s := &scripted{}
	s.cp = func(now algos.Time, f *algos.Frame, qlen int) (algos.Feedback, bool) {
		return algos.Feedback{CPID: 1, Fb: float64(qlen), Sent: f.Sent}, true
	}
	cfg := baseConfig(s.scheme(), 2, 2e9)
	cfg.Sources[1].ForwardDelay, cfg.Sources[1].BackwardDelay = 10*us, 200*us
	_, sum := run(t, cfg)
	for i, rp := range s.rps {
		sc := cfg.Sources[i]
		serial := algos.TransmitTime(1500, sc.LineRate)
		if len(rp.fbTimes) == 0 {
			t.Fatalf("source %d got no feedback", i)
		}
		for j, at := range rp.fbTimes {
			if want := rp.feedbacks[j].Sent + serial + sc.ForwardDelay + sc.BackwardDelay; at != want {
				t.Fatalf("source %d feedback %d arrived at %d, want sent + serial + fwd + bwd = %d", i, j, at, want)
			}
		}
		if int64(len(rp.feedbacks)) != sum.Sources[i].FeedbackFrames {
			t.Errorf("source %d: %d feedbacks seen, summary says %d", i, len(rp.feedbacks), sum.Sources[i].FeedbackFrames)
		}
	}
	// Feedback generated in the last backward delay is still in flight:
	// at 2 Gbps (6 us a frame) at most 9 frames for 50 us, 34 for 200 us.
	inFlight := sum.Bottlenecks[0].FeedbackFrames - int64(len(s.rps[0].feedbacks)+len(s.rps[1].feedbacks))
	if inFlight < 0 || inFlight > 9+34 {
		t.Errorf("%d feedback frames generated but not delivered", inFlight)
	}
}

// A rate change between two frames keeps the credit already earned.
func TestRateLimiterKeepsCredit(t *testing.T) {
	s := &scripted{}
	// Source starts at 1 Gbps (12 us per frame). At 106 us, halfway to its
	// 10th frame, a timer drops it to 0.5 Gbps: the remaining 6 us of
	// credit take 12 us, so the 10th frame leaves at 120 us, then every 24.
	s.timer = func(rp *scriptedRP, now algos.Time) algos.Time {
		if now == 0 {
			return 102 * us
		}
		return algos.Never
	}
	s.rate = func(rp *scriptedRP, now algos.Time) float64 {
		if len(rp.expiries) > 0 {
			return 0.5e9
		}
		return 1e9
	}
	cfg := baseConfig(s.scheme(), 1, 1e9)
	cfg.Duration = algos.Millisecond
	cfg.Warmup = 0
	run(t, cfg)
	sends := s.rps[0].sends
	want := []algos.Time{0, 12, 24, 36, 48, 60, 72, 84, 96, 114, 138, 162}
	for i, w := range want {
		if sends[i] != w*us {
			t.Fatalf("frame %d left at %v us, want %d (all: %v)", i, float64(sends[i])/1e6, w, sends[:len(want)])
		}
	}
	if s.rps[0].expiries[0] != 102*us {
		t.Errorf("timer expired at %d", s.rps[0].expiries[0])
	}
}

func TestStartAndStop(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 2, 5e9)
	cfg.Sources[1].Start = 3 * algos.Millisecond
	cfg.Sources[1].Stop = 6 * algos.Millisecond
	var rateAt = map[algos.Time]float64{}
	cfg.OnSample = func(x *Sample) { rateAt[x.Time] = x.Rates[1] }
	_, sum := run(t, cfg)
	sends := s.rps[1].sends
	if sends[0] != 3*algos.Millisecond || sends[len(sends)-1] >= 6*algos.Millisecond {
		t.Errorf("source 1 sent from %d to %d, want within [3ms, 6ms)", sends[0], sends[len(sends)-1])
	}
	if !s.rps[1].lastEmpty || s.rps[0].lastEmpty {
		t.Error("backlogEmpty should mark the last frame of a stopping source only")
	}
	// 3 ms at 5 Gbps, minus nothing: 1250 frames, all delivered in the window.
	if got := sum.Sources[1].DeliveredBytes; got != 1250*1500 {
		t.Errorf("delivered %d bytes, want %d", got, 1250*1500)
	}
	if rateAt[2*algos.Millisecond] != 0 || math.Abs(rateAt[5*algos.Millisecond]-5e9) > 0.01e9 || rateAt[8*algos.Millisecond] != 0 {
		t.Errorf("window rates at 2/5/8 ms: %g %g %g", rateAt[2*algos.Millisecond], rateAt[5*algos.Millisecond], rateAt[8*algos.Millisecond])
	}
}

func TestTimeToFairness(t *testing.T) {
	s := &scripted{}
	// Source 1 runs at 1 Gbps until 4 ms, then at 5 Gbps like source 0.
	s.timer = func(rp *scriptedRP, now algos.Time) algos.Time {
		if now == 0 && rp.id == 1 {
			return 4 * algos.Millisecond
		}
		return algos.Never
	}
	s.rate = func(rp *scriptedRP, now algos.Time) float64 {
		if rp.id == 1 && len(rp.expiries) == 0 {
			return 1e9
		}
		return 5e9
	}
	cfg := baseConfig(s.scheme(), 2, 5e9)
	cfg.Sources[1].InitialRate = 1e9
	_, sum := run(t, cfg)
	if sum.TimeToFairness == nil {
		t.Fatal("never fair")
	}
	// The 1 ms window rate of source 1 passes 0.9 * 5 Gbps when 90% of
	// the window is at the new rate: about 0.9 ms after 4 ms + forward delay.
	got := *sum.TimeToFairness
	if got < 4.8e-3 || got > 5.1e-3 {
		t.Errorf("time to fairness %g s, want about 4.95 ms", got)
	}
}

func TestDeterministicAndSeedSensitive(t *testing.T) {
	sc, _ := algos.Lookup("qcn")
	mk := func(seed uint64) Summary {
		cfg := baseConfig(sc, 4, 10e9)
		cfg.Duration = 30 * algos.Millisecond
		cfg.Seed = seed
		v, err := sc.Resolve(cfg.Network(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Params = v
		_, sum := run(t, cfg)
		return sum
	}
	a, b, c := mk(7), mk(7), mk(8)
	if !equalSummaries(a, b) {
		t.Errorf("same seed, different results:\n%+v\n%+v", a, b)
	}
	if equalSummaries(a, c) {
		t.Error("seeds 7 and 8 gave identical results")
	}
}

func equalSummaries(a, b Summary) bool {
	if a.Events != b.Events || a.Frames != b.Frames || !reflect.DeepEqual(a.Bottlenecks[0], b.Bottlenecks[0]) {
		return false
	}
	return reflect.DeepEqual(a.Sources, b.Sources) // the loop delays are pointers
}

func TestConfigValidation(t *testing.T) {
	s := &scripted{}
	for name, mutate := range map[string]func(*Config){
		"no sources":         func(c *Config) { c.Sources = nil },
		"warmup >= duration": func(c *Config) { c.Warmup = c.Duration },
		"tiny buffer":        func(c *Config) { c.Buffer = 100 },
		"zero capacity":      func(c *Config) { c.Capacity = 0 },
		"stop before start":  func(c *Config) { c.Sources[0].Start, c.Sources[0].Stop = 5, 5 },
		"initial > line":     func(c *Config) { c.Sources[0].InitialRate = 20e9 },
		"window < interval":  func(c *Config) { c.RateWindow = c.SampleInterval / 2 },
		"frame over 16 bits": func(c *Config) { c.FrameBytes, c.Buffer = 1<<16+1500, 1<<20 },
	} {
		cfg := baseConfig(s.scheme(), 1, 1e9)
		mutate(&cfg)
		if _, err := NewPacket(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A source may start at any time, up to the last the clock can hold:
// one that starts too late for the run to reach changes nothing, however
// close to Never its start and however long its link (the soonest its
// first frame could arrive is past Never, not a time that wrapped round
// before all others and took the agenda's other hosts' turns).
func TestSourceStartingNearNeverChangesNothing(t *testing.T) {
	sc, err := algos.Lookup("qcn")
	if err != nil {
		t.Fatal(err)
	}
	runWith := func(start algos.Time) (uint64, uint64) {
		cfg := baseConfig(sc, 3, 10e9)
		cfg.Duration, cfg.Warmup = 200*us, 0
		cfg.Sources[1].Start, cfg.Sources[1].ForwardDelay = start, 10*algos.Millisecond
		if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
			t.Fatal(err)
		}
		sim, _ := run(t, cfg)
		return sim.Frames(), sim.Events()
	}
	frames, events := runWith(algos.Second)
	if frames == 0 {
		t.Fatal("two sources at line rate delivered no frame in 200 us")
	}
	for _, start := range []algos.Time{algos.Never - 1, algos.Never - 10*algos.Millisecond + 1, algos.Never / 2} {
		if f, e := runWith(start); f != frames || e != events {
			t.Errorf("a source starting at %d: %d frames and %d events, want %d and %d (it starts after the run)", start, f, e, frames, events)
		}
	}
}
