package model

import (
	"fmt"
	"math"

	"qcnlab/algos"
)

// The QCN fluid model of seed 000, section II-B, equations 9-13: each source
// i is two rates, TR_i and CR_i; the switch is the queue q, the congestion
// measure Fb and the sampling probability p; each source sees the switch
// through its own feedback-loop delay tau_i (forward + backward). It models
// QCN with the byte counter only (no timer, hence no hyper-active increase),
// as the paper's does. The numbers of the paper generalise to the scenario:
// its 100 packets are BC_LIMIT / frame size, its 500 five times that.
//
// Departures from the paper, each a reading of what it leaves implicit:
//   - Fb in eq. 12 is positive under congestion (eq. 1 with the sign
//     flipped); feedback, and with it the decrease and the reset of TR,
//     exists only while it is positive, as in the packet-level CP.
//   - G_d Fb uses the quantised Fb as the RP does, but continuously: 64
//     levels over [0, Q_EQ(2W+1)], at most 63.
//   - Phi (fig. 2) is the mark table as a probability: frame size over the
//     bytes between samples for the quantised Fb.
//   - The queue stays in [0, buffer]; what overflows is dropped.
//
// Like eqs. 9-10 it resets TR to CR at every feedback: it has no
// first-cycle rule (pseudo-code lines 38-41), which is why it oscillates at
// shorter delays than the packet model (built-in qcn-fluid-vs-packet).
// A scheme it describes says so (algos.Scheme.Fluid): QCN.

// Fluid integrates the fluid model with a fixed step and a history of the
// delayed quantities.
type Fluid struct {
	cfg     Config
	now     algos.Time // the integration's time, a whole number of steps
	reached algos.Time // the time Advance was asked to reach: Now()
	dt      algos.Time
	steps   uint64
	done    bool

	// QCN parameters, rates in bits/s, sizes in bytes.
	qEq, w, gd, bc, rAI, minRate float64
	frame, capacity, buffer      float64 // capacity in bytes/s

	n      int
	cr, tr []float64
	q, p   float64
	delay  []int // per source, tau_i in steps

	// History of the last maxDelay+1 steps: p, Fb (in levels), and every
	// source's CR and TR.
	histLen int
	histP   []float64
	histLv  []float64
	histCR  [][]float64
	histTR  [][]float64

	level      levelMeter
	sentBytes  float64 // in (warmup, end]
	delivered  []float64
	dropped    float64 // bytes, in the window
	droppedAll float64
	departed   float64 // bytes, whole run

	nextSample algos.Time
	sample     Sample
	offered    []float64 // bytes offered by each source, whole run
	rates      rateSampler
}

// NewFluid builds the fluid model of a scheme that has one.
func NewFluid(cfg Config) (*Fluid, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if !cfg.Scheme.Fluid {
		return nil, fmt.Errorf("%s has no fluid model", cfg.Scheme.Name)
	}
	v := cfg.Params
	n := len(cfg.Sources)
	f := &Fluid{
		cfg: cfg, n: n,
		qEq: v["q_eq"], w: v["w"], gd: v["gd"], bc: v["bc_limit"], rAI: v["r_ai"], minRate: v["min_rate"],
		frame: float64(cfg.FrameBytes), capacity: cfg.Capacity / 8, buffer: float64(cfg.Buffer),
		cr: make([]float64, n), tr: make([]float64, n), delay: make([]int, n),
		level:      newLevelMeter(float64(cfg.FrameBytes), float64(cfg.Buffer)),
		delivered:  make([]float64, n),
		nextSample: cfg.SampleInterval,
		offered:    make([]float64, n),
		rates:      newSourceSampler(&cfg),
	}
	// A step resolves the queue: at most 1/200 of the buffer at line rate,
	// and at most 1 us, a tenth of any loop delay and a sample interval.
	f.dt = min(algos.Microsecond, cfg.SampleInterval, algos.Time(f.buffer/f.capacity/200*float64(algos.Second)))
	maxDelay := 0
	for i, s := range cfg.Sources {
		if loop := s.ForwardDelay + s.BackwardDelay; loop > 0 {
			f.dt = min(f.dt, max(loop/10, algos.Nanosecond))
		}
		f.cr[i], f.tr[i] = s.InitialRate, s.InitialRate
	}
	f.dt = max(f.dt, algos.Picosecond)
	for i, s := range cfg.Sources {
		f.delay[i] = int((s.ForwardDelay + s.BackwardDelay + f.dt/2) / f.dt)
		maxDelay = max(maxDelay, f.delay[i])
	}
	f.p = f.frame / qcnMarkBytes(0)
	f.histLen = maxDelay + 1
	f.histP = make([]float64, f.histLen)
	f.histLv = make([]float64, f.histLen)
	for i := range f.histP {
		f.histP[i] = f.p
	}
	for i := 0; i < n; i++ {
		f.histCR = append(f.histCR, make([]float64, f.histLen))
		f.histTR = append(f.histTR, make([]float64, f.histLen))
		for k := range f.histCR[i] {
			f.histCR[i][k], f.histTR[i][k] = f.cr[i], f.tr[i]
		}
	}
	f.sample = Sample{Queues: make([]int, 1), Rates: make([]float64, n), CurrentRates: make([]float64, n),
		Capacity: []float64{cfg.Capacity}}
	return f, nil
}

// qcnMarkBytes is QCN's mark table (seed 001 lines 196-208): bytes between
// samples for a quantised Fb.
func qcnMarkBytes(level int) float64 {
	return [8]float64{150e3, 75e3, 50e3, 37.5e3, 30e3, 25e3, 21.5e3, 18.5e3}[min(level, 63)/8]
}

// Now is the time Advance last reached; the integration, in whole steps, is
// less than one step (at most a microsecond) behind it.
func (f *Fluid) Now() algos.Time { return max(f.now, f.reached) }
func (f *Fluid) Done() bool      { return f.done }
func (f *Fluid) Events() uint64  { return f.steps }
func (f *Fluid) Frames() uint64  { return uint64(f.departed / f.frame) }

// Advance integrates up to until (or the end of the run).
func (f *Fluid) Advance(until algos.Time) {
	end := min(until, f.cfg.Duration)
	for f.now+f.dt <= end {
		f.step()
		for f.nextSample <= f.now {
			f.takeSample(f.nextSample)
			f.nextSample += f.cfg.SampleInterval
		}
	}
	f.reached = max(f.reached, end)
	if end == f.cfg.Duration {
		f.level.advance(end)
		f.done = true
		f.now = end
	}
}

// active reports whether source i sends at time t.
func (f *Fluid) active(i int, t algos.Time) bool {
	s := f.cfg.Sources[i]
	return t >= s.Start && t < s.Stop
}

// step advances the model by dt with Euler's method.
func (f *Fluid) step() {
	dt := f.dt.Seconds()
	k := int(f.steps % uint64(f.histLen)) // this step's history slot

	// Switch side, eqs. 11-13, with rates in bytes/s.
	arrival := 0.0
	for i := range f.cr {
		if f.active(i, f.now) {
			arrival += f.cr[i] / 8
		}
	}
	fb := f.q - f.qEq + f.w*f.frame/(f.p*f.capacity)*(arrival-f.capacity) // eq. 12
	lv := 0.0
	if fb > 0 {
		lv = min(63, fb/(f.qEq*(2*f.w+1))*64)
	}
	phi := f.frame / qcnMarkBytes(int(lv))
	f.histP[k], f.histLv[k] = f.p, lv

	// Sources, eqs. 9-10, seeing the switch tau_i ago. Sources with the
	// same delay see the same p: the powers of (1-p) are computed once.
	cycle := f.bc / f.frame // the paper's 100 packets
	lastD, reset, ai := -1, 0.0, 0.0
	for i := range f.cr {
		f.histCR[i][k], f.histTR[i][k] = f.cr[i], f.tr[i]
		if !f.active(i, f.now) {
			continue
		}
		d := (k - f.delay[i] + f.histLen) % f.histLen
		crD, trD, pD, lvD := f.histCR[i][d], f.histTR[i][d], f.histP[d], f.histLv[d]
		pf := 0.0 // probability a sample of this source's frames brings feedback
		if lvD > 0 {
			pf = pD
		}
		pkts := crD / 8 / f.frame // the source's frames per second at the switch
		// Rate of byte-counter cycles completed without feedback: the
		// paper's CR p / ((1-p)^-100 - 1), which is CR/100 when p = 0.
		if d != lastD {
			lastD, reset, ai = d, 1/cycle, 1 // the limits as p -> 0
			if pf > 0 {
				l := math.Log1p(-pf)
				reset = pf / math.Expm1(-cycle*l) // p / ((1-p)^-100 - 1)
				ai = math.Exp(5 * cycle * l)      // (1-p)^500
			}
		}
		increases := pkts * reset
		dTR := -(f.tr[i]-f.cr[i])*pkts*pf + ai*f.rAI*pkts/cycle
		dCR := -f.gd*lvD*f.cr[i]*pkts*pf + (trD-crD)/2*increases
		f.tr[i] += dTR * dt
		f.cr[i] = min(max(f.cr[i]+dCR*dt, f.minRate), f.cfg.Sources[i].LineRate)
	}

	// The queue, clamped to [0, buffer]; overflow is dropped, and each
	// source keeps its share of what is admitted.
	q := f.q + (arrival-f.capacity)*dt
	admitted, over := 1.0, 0.0
	if q > f.buffer {
		over = q - f.buffer
		f.droppedAll += over
		if f.now >= f.cfg.Warmup {
			f.dropped += over
		}
		admitted = 1 - over/(arrival*dt)
		q = f.buffer
	}
	q = max(q, 0)
	out := (f.q + arrival*dt - over - q) / dt // what left, at most the capacity
	f.p += 500 * (phi - f.p) * dt             // eq. 13
	next := f.now + f.dt
	if f.now >= f.cfg.Warmup && f.level.bins.from < f.cfg.Warmup {
		f.level.restart(f.cfg.Warmup) // the window begins
	}
	f.level.set(f.now, f.q)
	f.q = q
	f.departed += out * dt
	inWindow := next > f.cfg.Warmup && next <= f.cfg.Duration
	if inWindow {
		f.sentBytes += out * dt
	}
	for i := range f.cr {
		if f.active(i, f.now) {
			bytes := f.histCR[i][k] / 8 * dt
			f.offered[i] += bytes
			if inWindow {
				f.delivered[i] += bytes * admitted
			}
		}
	}
	f.now = next
	f.steps++
}

// takeSample records the time series at t (the step just taken ends at or
// after it).
func (f *Fluid) takeSample(t algos.Time) {
	f.sample.Time = t
	f.sample.Queues[0] = int(f.q + 0.5)
	copy(f.sample.CurrentRates, f.cr)
	f.rates.observe(t, f.offered, f.sample.Rates)
	if f.cfg.OnSample != nil {
		f.cfg.OnSample(&f.sample)
	}
}

// Summary reports the metrics over [warmup, now].
func (f *Fluid) Summary() Summary {
	cfg := &f.cfg
	span := (min(f.now, cfg.Duration) - cfg.Warmup).Seconds()
	var lv levelSummary // zero until the window begins
	if f.level.bins.from >= cfg.Warmup {
		lv = f.level.snapshot(f.now)
	}
	mean, std, lo, hi, empty := lv.result()
	b := BottleneckSummary{
		Name: "sw0", CapacityBps: cfg.Capacity,
		QueueMean: mean, QueueStd: std, QueueMin: lo, QueueMax: hi, EmptyFraction: empty,
		QEq:            cfg.Scheme.QueueTarget(cfg.Params),
		QueueQuantiles: lv.quantiles(),
		DroppedBytes:   int64(f.dropped), DropsTotal: int64(f.droppedAll / f.frame), Drops: int64(f.dropped / f.frame),
	}
	sum := Summary{Algorithm: cfg.Scheme.Name, Model: "fluid", Seed: cfg.Seed, SimSeconds: f.now.Seconds(),
		Events: f.steps, Frames: f.Frames()}
	for i := range f.cr {
		sum.Sources = append(sum.Sources, SourceSummary{ID: i, FinalRateBps: f.cr[i], DeliveredBytes: int64(f.delivered[i])})
	}
	if span > 0 {
		b.Utilization = utilization(f.sentBytes*8, cfg.Capacity*span)
	}
	sum.Bottlenecks = []BottleneckSummary{b}
	sum.JainFairness = cfg.throughputs(sum.Sources, span, cfg.Warmup, cfg.Duration)
	sum.TimeToFairness = f.rates.fair.result(f.now, f.cfg.FairHold())
	return sum
}
