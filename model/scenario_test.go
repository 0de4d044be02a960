package model

import (
	"math"
	"sort"
	"testing"

	"qcnlab/algos"
)

const ms = algos.Millisecond

// A change at 10 ms changes the service rate at 10 ms: the frame on the
// wire finishes at the old rate, the ones behind it leave at the new one.
func TestCapacityChangeTakesEffectAtItsTime(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 1, 5e9)
	cfg.Duration, cfg.Warmup = 20*ms, 0
	cfg.Changes = []CapacityChange{{At: 10 * ms, Link: -1, Capacity: 1e9}}
	cfg.Phases = []algos.Time{10 * ms}
	var capBefore, capAt float64
	cfg.OnSample = func(x *Sample) {
		switch x.Time {
		case 10*ms - cfg.SampleInterval:
			capBefore = x.Capacity[0]
		case 10 * ms:
			capAt = x.Capacity[0]
		}
	}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Advance(10*ms + 20*us) // the queue builds behind the slower link
	p := sim.ports[0]
	if p.queued < 3 {
		t.Fatalf("%d frames queued 20 us after the drop to 1 Gbps from 5 Gbps", p.queued)
	}
	slow := algos.TransmitTime(1500, 1e9)
	for k, prev := 0, algos.Time(-1); k < 3; k++ { // follow the next departures
		done := p.headDone
		if prev >= 0 && done-prev != slow {
			t.Errorf("departures %d and %d %v apart, want %v (1500 B at 1 Gbps)", k-1, k, done-prev, slow)
		}
		sim.Advance(done)
		prev = done
	}
	sim.Run()
	sum := sim.Summary()
	if capBefore != 10e9 || capAt != 1e9 {
		t.Errorf("capacity in the time series: %g before 10 ms, %g at 10 ms", capBefore, capAt)
	}
	ph := sum.Phases
	if len(ph) != 2 || ph[0].End != 0.01 || ph[1].Start != 0.01 {
		t.Fatalf("phases %+v", ph)
	}
	// 5 Gbps of 10 before; all of the 1 Gbps after (the queue never empties).
	if u := ph[0].Bottlenecks[0].Utilization; math.Abs(u-0.5) > 0.01 {
		t.Errorf("utilization before the change %.4f, want 0.5", u)
	}
	if u := ph[1].Bottlenecks[0].Utilization; math.Abs(u-1) > 0.001 {
		t.Errorf("utilization after the change %.4f, want 1", u)
	}
	if th := ph[1].Sources[0].ThroughputBps; math.Abs(th-1e9) > 2e6 {
		t.Errorf("throughput after the change %.4g, want 1 Gbps", th)
	}
	if c := ph[0].Bottlenecks[0].CapacityBps; c != 10e9 {
		t.Errorf("phase 0 capacity %g", c)
	}
	if c := sum.Bottlenecks[0].CapacityBps; c != 1e9 {
		t.Errorf("capacity at the end %g", c)
	}
	// Over the run: 5 Gbps x 10 ms + 1 Gbps x 10 ms over 11 Gbps x 10 ms.
	if u := sum.Bottlenecks[0].Utilization; math.Abs(u-6.0/11) > 0.01 {
		t.Errorf("utilization over the run %.4f, want %.4f", u, 6.0/11)
	}
}

// On a parking lot, frames re-timed at a changed port reach the next
// switch when they now leave, plus the hop.
func TestCapacityChangeRetimesTheNextHop(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 2, 8e9)
	cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 150e3, Delay: 20 * us}, {Capacity: 10e9, Buffer: 150e3}}
	cfg.Sources[0].Path = []int{0, 1}
	cfg.Sources[1].Path = []int{0}
	cfg.Changes = []CapacityChange{{At: 3 * ms, Link: 0, Capacity: 2e9}, {At: 6 * ms, Link: 0, Capacity: 10e9}}
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []algos.Time{3 * ms, 3*ms + 50*us, 6 * ms} {
		sim.Advance(at)
		p := sim.ports[0]
		seen := 0
		for seen < 3 { // the next onward departures, each followed onto the link
			done, onward := p.headDone, p.headFlags&queuedExit == 0
			if done == pendingDone || done > at+ms {
				t.Fatalf("at %v: the head leaves at %v", at, done)
			}
			sim.Advance(done)
			if !onward {
				continue
			}
			seen++
			if got := p.link.at(p.link.len() - int(p.onward) - 1).arrive; got != done+20*us { // the newest in flight
				t.Errorf("at %v: a frame leaving at %v reaches the next switch at %v, want %v", at, done, got, done+20*us)
			}
			if next := p.headDone; p.queued > 0 && next != done+algos.TransmitTime(1500, p.capacity) {
				t.Errorf("at %v: the next frame leaves at %v, want %v at %g bps", at, next, done+algos.TransmitTime(1500, p.capacity), p.capacity)
			}
		}
	}
	sim.Run()
	if b := sim.Summary().Bottlenecks; b[1].Drops != 0 || b[0].Utilization < 0.5 {
		t.Errorf("bottlenecks %+v", b)
	}
}

// The quantiles are those of the queue's exact trajectory, reconstructed
// event by event from the frames the port holds.
func TestQueueQuantilesMatchBruteForce(t *testing.T) {
	sc, _ := algos.Lookup("qcn")
	cfg := baseConfig(sc, 3, 10e9)
	cfg.Duration, cfg.Warmup = 5*ms, 0
	cfg.Params, _ = sc.Resolve(cfg.Network(), nil)
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	type piece struct {
		level int
		dt    algos.Time
	}
	var pieces []piece
	for !sim.Done() {
		next := min(sim.agenda.peek(), cfg.Duration)
		p := sim.ports[0]
		level, from := p.bytes, sim.Now()
		done := algos.Time(0) // the port serves in order: the head, then each after the one before
		var sizes []int
		p.eachQueued(int(p.queued), func(_ int, _ uint8, bytes int) bool {
			sizes = append(sizes, bytes)
			return true
		})
		for k, bytes := range sizes {
			if done = p.headDone; k > 0 {
				done = from + algos.TransmitTime(bytes, p.capacity)
			}
			if done > next {
				break
			}
			pieces = append(pieces, piece{level, done - from})
			level, from = level-bytes, done
		}
		pieces = append(pieces, piece{level, next - from})
		sim.Advance(next)
	}
	sort.Slice(pieces, func(i, j int) bool { return pieces[i].level < pieces[j].level })
	var total algos.Time
	for _, p := range pieces {
		total += p.dt
	}
	if total != cfg.Duration {
		t.Fatalf("brute force covers %v of %v", total, cfg.Duration)
	}
	got := sim.Summary().Bottlenecks[0].QueueQuantiles
	fields := []float64{got.P1, got.P5, got.P10, got.P25, got.P50, got.P75, got.P90, got.P95, got.P99}
	distinct := map[float64]bool{}
	for i, p := range QuantileLevels {
		var acc algos.Time
		want := -1
		for _, x := range pieces {
			acc += x.dt
			if float64(acc) >= p*float64(total) {
				want = x.level
				break
			}
		}
		if fields[i] != float64(want) {
			t.Errorf("p%g: %g bytes, brute force %d", p*100, fields[i], want)
		}
		distinct[fields[i]] = true
	}
	if len(distinct) < 4 {
		t.Errorf("quantiles %+v: too few distinct values to mean anything", got)
	}
}

// The phases split the run: counters add up to the window's, time-weighted
// means average to its mean, extremes to its extremes.
func TestPhasesComposeToTheWholeRun(t *testing.T) {
	sc, _ := algos.Lookup("qcn")
	cfg := baseConfig(sc, 4, 10e9)
	cfg.Duration, cfg.Warmup = 12*ms, 2*ms
	cfg.Params, _ = sc.Resolve(cfg.Network(), nil)
	cfg.Sources[3].Start = 4 * ms
	cfg.Phases = []algos.Time{2 * ms, 5 * ms, 5*ms + 300*us, 9 * ms}
	cfg.Changes = []CapacityChange{{At: 7 * ms, Link: -1, Capacity: 4e9}}
	_, sum := run(t, cfg)
	if len(sum.Phases) != 5 {
		t.Fatalf("%d phases, want 5", len(sum.Phases))
	}
	whole := sum.Bottlenecks[0]
	var drops, dropped, feedbacks int64 // of the phases
	var span, mean, empty, lo, hi, served = 0.0, 0.0, 0.0, math.Inf(1), math.Inf(-1), 0.0
	// The capacity integrated over [a, b] s: 10 Gbps until the change at
	// 7 ms, 4 Gbps after.
	capBits := func(a, b float64) float64 {
		return 10e9*max(0, min(b, 0.007)-a) + 4e9*max(0, b-max(a, 0.007))
	}
	delivered := make([]int64, 4)
	var srcFeedbacks int64
	for k, ph := range sum.Phases {
		b := ph.Bottlenecks[0]
		feedbacks += b.FeedbackFrames
		for _, s := range ph.Sources {
			srcFeedbacks += s.FeedbackFrames
		}
		if k == 0 {
			continue // the warm-up
		}
		d := ph.End - ph.Start
		span += d
		mean += b.QueueMean * d
		empty += b.EmptyFraction * d
		lo, hi = min(lo, b.QueueMin), max(hi, b.QueueMax)
		drops += b.Drops
		dropped += b.DroppedBytes
		for i, s := range ph.Sources {
			delivered[i] += s.DeliveredBytes
		}
		served += b.Utilization * capBits(ph.Start, ph.End)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
	if !near(mean/span, whole.QueueMean) || !near(empty/span, whole.EmptyFraction) || lo != whole.QueueMin || hi != whole.QueueMax {
		t.Errorf("phases: mean %g empty %g min %g max %g; run: %+v", mean/span, empty/span, lo, hi, whole)
	}
	if drops != whole.Drops || dropped != whole.DroppedBytes || feedbacks != whole.FeedbackFrames {
		t.Errorf("phases: %d drops, %d bytes, %d feedback frames; run: %+v", drops, dropped, feedbacks, whole)
	}
	var total int64
	for i, s := range sum.Sources {
		if delivered[i] != s.DeliveredBytes {
			t.Errorf("source %d: %d bytes over the phases, %d over the run", i, delivered[i], s.DeliveredBytes)
		}
		total += s.FeedbackFrames
	}
	if srcFeedbacks != total {
		t.Errorf("sources: %d feedback frames over the phases, %d over the run", srcFeedbacks, total)
	}
	// Utilization: the bits the phases served add up to the run's, within
	// the frame on the wire at the change, which finishes at the old rate
	// (the test's capacity integral switches at 7 ms sharp).
	window := capBits(0.002, 0.012)
	if u := served / window; math.Abs(u-whole.Utilization) > 1500*8/window || whole.Utilization > 1 {
		t.Errorf("utilization %g from the phases, %g over the run", u, whole.Utilization)
	}
	if sum.Phases[1].Sources[3].DeliveredBytes == 0 || sum.Phases[0].Sources[3].DeliveredBytes != 0 {
		t.Errorf("source 3 starts at 4 ms: phases %+v", sum.Phases[:2])
	}
}

// The feedback latency is drawn per frame, within its range, and feedback
// from a port to a source arrives in the order it was generated (here one
// per frame, so most wait behind the one before: the loops bunch toward
// the longest).
func TestFeedbackLatencyVariesAndKeepsOrder(t *testing.T) {
	s := &scripted{}
	seq := 0.0
	s.cp = func(now algos.Time, f *algos.Frame, qlen int) (algos.Feedback, bool) {
		seq++
		return algos.Feedback{Fb: seq, Sent: now}, true // every frame, stamped with the time it was generated
	}
	cfg := baseConfig(s.scheme(), 2, 2e9)
	cfg.Duration = 3 * ms
	cfg.Sources[1].ForwardDelay, cfg.Sources[1].BackwardDelay = 150*us, 250*us
	cfg.FeedbackLatency = UniformDist(100*us, 300*us)
	_, sum := run(t, cfg)
	for i, rp := range s.rps {
		src := cfg.Sources[i]
		prop := src.ForwardDelay + src.BackwardDelay
		lo, hi := algos.Never, algos.Time(0)
		for k, fb := range rp.feedbacks {
			if k > 0 && fb.Fb <= rp.feedbacks[k-1].Fb {
				t.Fatalf("source %d: feedback %g arrived after %g", i, fb.Fb, rp.feedbacks[k-1].Fb)
			}
			took := rp.fbTimes[k] - fb.Sent + src.ForwardDelay
			lo, hi = min(lo, took), max(hi, took)
		}
		if len(rp.feedbacks) < 100 || lo < prop+100*us || hi > prop+300*us || hi-lo < 50*us {
			t.Errorf("source %d: %d feedback frames, loops in [%v, %v], want within [%v, %v] and spread",
				i, len(rp.feedbacks), lo, hi, prop+100*us, prop+300*us)
		}
		ss := sum.Sources[i]
		if ss.LoopDelayMin == nil || ss.LoopDelayMax == nil {
			t.Fatalf("source %d: no loop delays in the summary", i)
		}
		if *ss.LoopDelayMin < (prop+100*us).Seconds()-1e-12 || *ss.LoopDelayMax > (prop+300*us).Seconds()+1e-12 ||
			*ss.LoopDelayMin > lo.Seconds()+1e-12 {
			t.Errorf("source %d: summary loops [%g, %g], seen [%v, %v]", i, *ss.LoopDelayMin, *ss.LoopDelayMax, lo, hi)
		}
	}
}

func TestScenarioValidation(t *testing.T) {
	s := &scripted{}
	for name, mutate := range map[string]func(*Config){
		"change after the end":  func(c *Config) { c.Changes = []CapacityChange{{At: c.Duration, Link: -1, Capacity: 1e9}} },
		"change to no capacity": func(c *Config) { c.Changes = []CapacityChange{{At: 0, Link: -1, Capacity: 0}} },
		"change on no link":     func(c *Config) { c.Changes = []CapacityChange{{At: 0, Link: 1, Capacity: 1e9}} },
		"phase at the end":      func(c *Config) { c.Phases = []algos.Time{c.Duration} },
		"phases backwards":      func(c *Config) { c.Phases = []algos.Time{2 * ms, 1 * ms} },
		"latency backwards":     func(c *Config) { c.FeedbackLatency = UniformDist(3*us, 2*us) },
	} {
		cfg := baseConfig(s.scheme(), 1, 1e9)
		mutate(&cfg)
		if _, err := NewPacket(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A capacity change re-times the frames behind the one on the wire, and
// each keeps its forwarding jitter (clock.go): their arrivals at the next
// switch are not set back to departure plus propagation exactly.
func TestCapacityChangeKeepsForwardingJitter(t *testing.T) {
	s := &scripted{}
	cfg := baseConfig(s.scheme(), 2, 8e9)
	cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 150e3, Delay: 20 * us}, {Capacity: 10e9, Buffer: 150e3}}
	cfg.Sources[0].Path = []int{0, 1}
	cfg.Sources[1].Path = []int{0}
	cfg.Changes = []CapacityChange{{At: 3 * ms, Link: 0, Capacity: 2e9}}
	const jitter = 500 * algos.Nanosecond
	cfg.SwitchJitter = jitter
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	slow := algos.TransmitTime(1500, 2e9)
	exact, gaps := 0, 0
	for at := 3*ms + 100*us; at < 3*ms+400*us; at += 10 * us { // the frames queued at the change leave
		sim.Advance(at)
		p := sim.ports[0]
		var prev algos.Time
		for k := 0; k < p.link.len(); k++ { // in flight, or in service
			f := p.link.at(k)
			if f.arrive <= at || f.arrive > at+20*us+slow+jitter {
				continue
			}
			if prev != 0 {
				gaps++
				gap := f.arrive - prev
				if gap%slow == 0 { // departures are slow apart, or a multiple with other frames between
					exact++
				}
				if gap <= slow-jitter {
					t.Errorf("at %v: arrivals %v apart, want at least %v less the jitter", at, gap, slow)
				}
			}
			prev = f.arrive
		}
	}
	if gaps < 10 || exact == gaps {
		t.Errorf("%d of %d gaps between arrivals exact multiples of %v: the re-timed frames lost their jitter", exact, gaps, slow)
	}
}
