package model

import (
	"fmt"
	"math"
	"slices"

	"qcnlab/algos"
)

// The convergence model of seed 002, section IV-B (eqs. 6-25) and V-B2
// (eqs. 26-28): the expected change of each source's rate per sampling
// period of the congestion point, in the third stage of QCN's evolution,
// where the queue sits at its equilibrium (assumption 4), every feedback
// carries Fb = 1 (assumption 5), feedback has no delay (assumption 2) and
// the rates add up to the capacity. Each period the model finds p[Fb>0],
// the probability that a sample brings feedback, such that the expected
// changes add up to zero (section IV-B, solved "numerically" as the paper
// does in Matlab: bisection here), and moves every rate by its expected
// change. The paper analyses two sources; so does the model.
//
// Readings of what the paper leaves implicit, each in one place:
//   - The sampling period is the time to send the mark table's bytes at
//     Fb = 1 (150 KB, seed 001) at the capacity: 1.2 ms at 1 Gbps.
//   - QCN and QCN-AIMD ignore the timer (assumption 3: "we only consider
//     the Byte Counter and ignore the Timer"), so HAI is absent for every
//     scheme.
//   - QCN-TIMER's samples per timer cycle: eq. 26 prints C*T_t/T_s, which
//     is not a count; T_t/T_s, the periods in one timer cycle, is, and it
//     is the paper's point that it does not depend on the rate. QCN-T is
//     QCN-TIMER with its own timer period (section VI; figure 10's 2.4 ms),
//     with AI cycles of full length if half_ai_cycles is off.
//   - The five FR cycles are FAST_RECOVERY_TH, the AI byte-counter cycle
//     half of BC_LIMIT, as in the packet-level reaction point.
//   - Rates that do not add up to the capacity are scaled to do so (the
//     model's stable state, section IV-B: sum R_i = C); each stays within
//     [MIN_RATE, its line rate].
//   - The queue is Q_EQ throughout: the model's assumption, not a result.
//
// A scheme the model covers gives its law (algos.Scheme.Convergence): QCN,
// QCN-AIMD, QCN-TIMER and QCN-T.

// ConvergenceStats is what the convergence model adds to a summary.
type ConvergenceStats struct {
	// PFbMin and PFbMax bound p[Fb>0] over the run (seed 002 figure 3).
	PFbMin float64 `json:"p_fb_min"`
	PFbMax float64 `json:"p_fb_max"`
	// Unsolved counts the periods where sum E(dR_i) = 0 had no solution
	// with p[Fb>0] <= 1 (the paper finds none for QCN-TIMER at 15 ms); the
	// model then takes p[Fb>0] = 1.
	Unsolved int `json:"unsolved_periods"`
}

// expectedChange is one scheme's law of seed 002: E(dR) for a source at
// rate R given p[Fb>0].
type expectedChange struct {
	aimd       bool    // eq. 28 instead of eq. 25/26
	timer      bool    // cycles are timer periods, not bytes (eq. 26)
	gdFb       float64 // G_d * F_b, F_b = 1 (assumption 5)
	rAI        float64 // bits/s
	fr         float64 // fast-recovery cycles
	frCycle    float64 // bytes (byte counter) or seconds (timer) of an FR cycle
	aiCycle    float64 // the same for an AI cycle
	sampleTime float64 // T_s, seconds
	capacity   float64 // bits/s
}

func newExpectedChange(cfg *Config) expectedChange {
	v := cfg.Params
	e := expectedChange{gdFb: v["gd"], rAI: v["r_ai"], fr: v["fast_recovery_th"], capacity: cfg.Capacity}
	e.sampleTime = qcnMarkBytes(1) * 8 / cfg.Capacity
	law := cfg.Scheme.Convergence
	e.aimd, e.timer = law.AIMD, law.Timer
	e.frCycle, e.aiCycle = law.Cycles(v)
	return e
}

// samples is the number of sampling periods in a cycle at rate r: eq. 17's
// C/R for a byte-counter cycle of the mark table's length, T_t/T_s for a
// timer cycle (eq. 26).
func (e *expectedChange) samples(cycle, r float64) float64 {
	if e.timer {
		return cycle / e.sampleTime
	}
	return cycle * 8 / r / e.sampleTime
}

// at returns E(dR) for a source at rate r when a sample brings feedback with
// probability pfb: eq. 25 (QCN, with FAST_RECOVERY_TH for the paper's 5),
// eq. 26 (timer cycles) or eq. 28 (QCN-AIMD).
func (e *expectedChange) at(r, pfb float64) float64 {
	p := pfb * r / e.capacity // eq. 8
	l := math.Log1p(-p)
	x := math.Exp(e.samples(e.frCycle, r) * l) // no feedback through an FR cycle
	dec := -e.gdFb * r * p                     // eqs. 7-8
	if e.aimd {
		return dec + e.rAI*p*x/(1-x) // eq. 28
	}
	y := math.Exp(e.samples(e.aiCycle, r) * l) // ... through an AI cycle
	xf := math.Exp(e.fr * e.samples(e.frCycle, r) * l)
	return dec +
		0.5*e.gdFb*r*p*x/(1-0.5*x) + // FR, eq. 25 second term
		e.rAI*p*xf*y/(1-y) - // AI, third and fourth terms
		0.5*e.rAI*p*xf*y/(1-0.5*y)
}

// solve finds p[Fb>0] in (0, 1] with sum E(dR_i) = 0 by bisection (the sum
// falls as p[Fb>0] grows: more decreases, fewer increases), starting from a
// bracket around hint, the last period's value. ok is false if the
// increases win even at p[Fb>0] = 1.
func (e *expectedChange) solve(rates []float64, hint float64) (pfb float64, ok bool) {
	sum := func(pfb float64) float64 {
		s := 0.0
		for _, r := range rates {
			s += e.at(r, pfb)
		}
		return s
	}
	const floor = 1e-12
	if sum(1) >= 0 {
		return 1, false
	}
	lo, hi := floor, 1.0
	if hint > floor && hint < 1 {
		// Widen a small bracket around the hint until it holds the root.
		for w := 1e-3; ; w *= 8 {
			a, b := max(floor, hint*(1-w)), min(1, hint*(1+w))
			if (a == floor || sum(a) > 0) && (b == 1 || sum(b) <= 0) {
				lo, hi = a, b
				break
			}
		}
	}
	if sum(lo) <= 0 {
		return lo, true
	}
	for hi-lo > 1e-10*hi {
		mid := (lo + hi) / 2
		if sum(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, true
}

// Convergence steps seed 002's model one sampling period at a time.
type Convergence struct {
	cfg     Config
	law     expectedChange
	period  algos.Time
	now     algos.Time
	periods uint64
	done    bool

	rates, next []float64 // bits/s
	pfb         float64   // p[Fb>0] of the current period
	stats       ConvergenceStats
	feedback    []float64 // expected feedback frames per source, in the window

	offered   []float64 // bytes per source, whole run
	delivered []float64 // bytes per source, in the window
	departed  float64   // bytes, whole run

	nextSample algos.Time
	sample     Sample
	sampler    rateSampler
}

// NewConvergence builds seed 002's convergence model for two sources.
func NewConvergence(cfg Config) (*Convergence, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Scheme.Convergence == nil {
		return nil, fmt.Errorf("the convergence model covers the schemes that give it their law (algos.Scheme.Convergence), not %s", cfg.Scheme.Name)
	}
	if len(cfg.Sources) != 2 || len(cfg.Links) > 1 {
		return nil, fmt.Errorf("the convergence model is for 2 sources on one link (seed 002 section IV-B)")
	}
	if err := cfg.convergenceUnsupported(); err != "" {
		return nil, fmt.Errorf("the convergence model has %s (seed 002 section IV-B)", err)
	}
	c := &Convergence{cfg: cfg, law: newExpectedChange(&cfg), stats: ConvergenceStats{PFbMin: math.Inf(1)},
		feedback: make([]float64, 2), offered: make([]float64, 2), delivered: make([]float64, 2),
		nextSample: cfg.SampleInterval, sampler: newSourceSampler(&cfg)}
	c.period = max(algos.Time(c.law.sampleTime*float64(algos.Second)+0.5), 1)
	total := 0.0
	for _, s := range cfg.Sources {
		total += s.InitialRate
	}
	for _, s := range cfg.Sources {
		c.rates = append(c.rates, c.clamp(s.InitialRate*cfg.Capacity/total, s))
	}
	c.next = slices.Clone(c.rates)
	c.sample = Sample{Queues: make([]int, 1), Rates: make([]float64, 2), CurrentRates: make([]float64, 2),
		Capacity: []float64{cfg.Capacity}}
	c.solve()
	return c, nil
}

// convergenceUnsupported names what in cfg the convergence model cannot
// honour, "" if nothing: seed 002's two sources send from the start to the
// end with one greedy flow each (the third stage), the capacity is fixed and
// feedback is immediate (assumption 2), the queue never fills (assumption
// 4), so no PAUSE.
func (cfg *Config) convergenceUnsupported() string {
	for _, s := range cfg.Sources {
		if s.Start != 0 || s.Stop < cfg.Duration {
			return "no sources starting or stopping during the run"
		}
	}
	switch {
	case cfg.Traffic != nil:
		return "one greedy flow per source, no traffic"
	case len(cfg.Changes) > 0:
		return "a fixed capacity"
	case cfg.FeedbackLatency.Max() != 0:
		return "no feedback latency"
	case cfg.PFC != nil:
		return "no PFC"
	case len(cfg.Phases) > 0:
		return "no phases"
	}
	return ""
}

func (c *Convergence) clamp(r float64, s SourceConfig) float64 {
	return min(max(r, c.cfg.Params["min_rate"]), s.LineRate)
}

// solve finds this period's p[Fb>0] and the rates at its end.
func (c *Convergence) solve() {
	pfb, ok := c.law.solve(c.rates, c.pfb)
	if !ok {
		c.stats.Unsolved++
	}
	c.pfb = pfb
	c.stats.PFbMin, c.stats.PFbMax = min(c.stats.PFbMin, pfb), max(c.stats.PFbMax, pfb)
	for i, r := range c.rates {
		c.next[i] = c.clamp(r+c.law.at(r, pfb), c.cfg.Sources[i])
	}
}

func (c *Convergence) Now() algos.Time { return c.now }
func (c *Convergence) Done() bool      { return c.done }
func (c *Convergence) Events() uint64  { return c.periods }
func (c *Convergence) Frames() uint64 {
	return uint64(c.departed / float64(c.cfg.FrameBytes))
}

// Advance steps the model up to until (or the end of the run). Rates are
// constant within a period; samples fall wherever the sample interval puts
// them.
func (c *Convergence) Advance(until algos.Time) {
	end := min(until, c.cfg.Duration)
	for c.now < end {
		boundary := algos.Time(c.periods+1) * c.period
		t := min(end, boundary, c.nextSample)
		c.flow(c.now, t)
		c.now = t
		if c.now == c.nextSample {
			c.takeSample(c.now)
			c.nextSample += c.cfg.SampleInterval
		}
		if c.now == boundary {
			c.periods++
			c.rates, c.next = c.next, c.rates
			c.solve()
		}
	}
	if c.now >= c.cfg.Duration {
		c.done = true
	}
}

// flow moves the bytes of [from, to] at the current rates.
func (c *Convergence) flow(from, to algos.Time) {
	dt := (to - from).Seconds()
	w0, w1 := max(from, c.cfg.Warmup), min(to, c.cfg.Duration)
	inWindow := max(0, (w1 - w0).Seconds())
	for i, r := range c.rates {
		c.offered[i] += r / 8 * dt
		c.departed += r / 8 * dt
		c.delivered[i] += r / 8 * inWindow
		c.feedback[i] += c.pfb * r / c.cfg.Capacity * inWindow / c.law.sampleTime
	}
}

func (c *Convergence) takeSample(t algos.Time) {
	c.sample.Time = t
	c.sample.Queues[0] = int(c.cfg.Scheme.QueueTarget(c.cfg.Params) + 0.5)
	copy(c.sample.CurrentRates, c.rates)
	c.sampler.observe(t, c.offered, c.sample.Rates)
	if c.cfg.OnSample != nil {
		c.cfg.OnSample(&c.sample)
	}
}

// Rates returns the model's current rates, bits per second.
func (c *Convergence) Rates() []float64 { return slices.Clone(c.rates) }

// PFb is p[Fb>0] of the current sampling period.
func (c *Convergence) PFb() float64 { return c.pfb }

// Summary reports the metrics over [warmup, now]. The queue is the model's
// assumption (Q_EQ, never empty), not a result.
func (c *Convergence) Summary() Summary {
	cfg := &c.cfg
	span := (min(c.now, cfg.Duration) - cfg.Warmup).Seconds()
	qEq := cfg.Scheme.QueueTarget(cfg.Params)
	// Every quantile is Q_EQ too, so queue CDFs and quantile columns put
	// the model's assumed queue where the packet model puts its measured one.
	b := BottleneckSummary{Name: "sw0", CapacityBps: cfg.Capacity,
		QueueMean: qEq, QueueMin: qEq, QueueMax: qEq, QEq: qEq,
		QueueQuantiles: Quantiles{qEq, qEq, qEq, qEq, qEq, qEq, qEq, qEq, qEq}}
	sum := Summary{Algorithm: cfg.Scheme.Name, Model: "convergence", Seed: cfg.Seed, SimSeconds: c.now.Seconds(),
		Events: c.periods, Frames: c.Frames()}
	sent := 0.0
	for i, r := range c.rates {
		fb := int64(c.feedback[i] + 0.5)
		sum.Sources = append(sum.Sources, SourceSummary{ID: i, FinalRateBps: r,
			DeliveredBytes: int64(c.delivered[i]), FeedbackFrames: fb})
		sent += c.delivered[i]
		b.FeedbackFrames += fb
	}
	if span > 0 {
		b.Utilization = utilization(sent*8, cfg.Capacity*span)
	}
	sum.Bottlenecks = []BottleneckSummary{b}
	sum.JainFairness = cfg.throughputs(sum.Sources, span, cfg.Warmup, cfg.Duration)
	sum.TimeToFairness = c.sampler.fair.result(c.now, c.cfg.FairHold())
	st := c.stats
	sum.Convergence = &st
	return sum
}
