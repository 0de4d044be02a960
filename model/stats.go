package model

import (
	"math"

	"qcnlab/algos"
)

// levelStats integrates a piecewise-constant level (a queue length) from a
// time on, exactly: mean, variance, extremes, and the time spent at each
// level in bins of one granule (a frame), in memory that does not grow with
// the run: the histogram has one bin per granule up to the highest level
// integrated, so that a port of a large buffer that never fills costs what
// its queue reached, not what its buffer could hold (a 32 MB buffer is
// 21,000 bins). Bin 0 holds the level 0 alone, so it is also the time at
// zero. A window or a phase starts a fresh measurement with restart.
//
// It is in two parts. levelStats is what every change touches, one cache
// line: the sums, the extremes and the lowest bins (low), for on a fabric
// most changes of most queues are between 0 and 2 frames (73-85% of them
// on a fat-tree permutation, k = 4 to 24), and a bin in a slice of its own
// was a cache miss at every change once the ports outgrow the caches. The
// other bins, and what only the boundaries read, are levelBins, which a
// port keeps on a cold line. The level itself is not kept: its owner has
// it (a port's occupancy), and says what it was as it changes (set); nor
// is 1/granule, the same for every port of a network (Packet.levelInv).
// Each bin adds the same times in the same order wherever it is kept, so
// the split changes no number.
type levelStats struct {
	last       algos.Time // time of the last change
	sum, sumSq float64    // integrals of level and level^2, in byte-picoseconds
	min, max   float64
	// low[k]: picoseconds at levels in ((k-1) granules, k granules]; the
	// bins above are levelBins.hist's.
	low [lowBins]float64
}

// levelBins is the rest of a level's statistics (levelStats): the bins
// above the low ones, read only when the level is there, and what the
// boundaries read.
type levelBins struct {
	// hist[k], from lowBins on, as levelStats.low: no bin above the
	// highest level integrated. hist is nil until the level passes the
	// low bins, then its first lowBins bins stay empty: an index with no
	// subtraction keeps set within the inliner's budget.
	hist    []float64
	from    algos.Time // start of the measurement
	inv     float64    // levelInv(granule)
	granule int32      // bytes, a whole number (a frame)
	bins    int32      // the most bins the histogram may need: levels up to the top given
}

// lowBins is how many of the lowest bins levelStats keeps inline.
const lowBins = 3

// levelInv is 1 / granule, a hair less so that whole granules stay in
// their bin: what levelStats.set is given.
func levelInv(granule float64) float64 { return (1 - 1e-9) / granule }

// newLevelStats follows a level from 0, expected up to top, in bins of
// granule, a whole number of bytes. Its histogram grows as the level
// reaches new heights, to the bins top needs and beyond if it must.
func newLevelStats(granule, top float64) (levelStats, levelBins) {
	return levelStats{min: math.Inf(1), max: math.Inf(-1)},
		levelBins{inv: levelInv(granule), granule: int32(granule), bins: int32(min(top/granule+2, math.MaxInt32))}
}

// grow extends the histogram with empty bins up to bin k, to twice its
// length or more, at most to the bins the top given needs (unless k is
// beyond), so that a queue that climbs frame by frame copies its
// histogram a few times, not at every frame, and adds dt to bin k. Out of
// line: set calls it only when the level it integrates has no bin yet.
//
//go:noinline
func (b *levelBins) grow(k int, dt float64) {
	n := max(k+1, min(2*max(len(b.hist), lowBins), int(b.bins)), 8)
	b.hist = append(b.hist, make([]float64, n-len(b.hist))...)
	b.hist[k] += dt
}

// set records that the level, old since the last change, changes at time
// t: it integrates old up to t, in its bin of 1/granule inv (levelInv),
// b's above the low ones. The integration is advance's, written out
// rather than called. Its extremes are compared, not taken with min and
// max, which keep NaN and -0 apart in a dozen more instructions at every
// change, and a level is neither: the body then costs the inliner more
// than its default budget, and the profile (default.pgo) has it inlined
// at its hot calls. A level that has no bin yet grows the histogram
// there, off the path the low bins take.
func (l *levelStats) set(t algos.Time, old, inv float64, b *levelBins) {
	if t > l.last {
		dt := float64(t - l.last)
		l.sum += old * dt
		l.sumSq += old * (old * dt)
		if k := int(old*inv + ceilBias); k < lowBins {
			l.low[k] += dt
		} else if k < len(b.hist) {
			b.hist[k] += dt
		} else {
			b.grow(k, dt)
		}
		if old < l.min {
			l.min = old
		}
		if old > l.max {
			l.max = old
		}
		l.last = t
	}
}

// advance integrates level, the level since the last change, up to t, at
// or after it (at it, the level counts toward the extremes).
func (l *levelStats) advance(t algos.Time, level float64, b *levelBins) {
	dt := float64(t - l.last)
	l.sum += level * dt
	l.sumSq += level * (level * dt)
	if k := int(level*b.inv + ceilBias); k < lowBins {
		l.low[k] += dt
	} else if k < len(b.hist) {
		b.hist[k] += dt
	} else {
		b.grow(k, dt)
	}
	l.min, l.max, l.last = min(l.min, level), max(l.max, level), t
}

// histogram returns the histogram's bins in one slice of its own, from bin
// 0 to the highest level's.
func (l *levelStats) histogram(b *levelBins) []float64 {
	h := make([]float64, max(len(b.hist), lowBins))
	copy(h, b.hist)
	copy(h, l.low[:])
	return h
}

// ceilBias rounds a level in granules up to a whole bin: with inv a hair
// under 1/granule, k granules land in bin k, and anything above zero (by
// more than a millionth of a granule) in bin 1 or above.
const ceilBias = 1 - 1e-6

// levelSummary is what levelStats measured over some time: a window, or a
// phase made of several.
type levelSummary struct {
	span       algos.Time
	sum, sumSq float64
	min, max   float64
	hist       []float64
	granule    float64
}

// snapshot is what l and b measured up to until, the level since the last
// change being level, leaving them as they are.
func (l *levelStats) snapshot(b *levelBins, until algos.Time, level float64) levelSummary {
	c, cb := *l, *b
	cb.hist = append([]float64(nil), b.hist...)
	if until > c.last {
		c.advance(until, level, &cb)
	}
	return levelSummary{span: max(0, until-cb.from), sum: c.sum, sumSq: c.sumSq,
		min: c.min, max: c.max, hist: c.histogram(&cb), granule: float64(cb.granule)}
}

// restart ends the measurement at t (a phase boundary), the level since the
// last change being level, and starts a fresh one from t; it returns what
// was measured.
func (l *levelStats) restart(b *levelBins, t algos.Time, level float64) levelSummary {
	s := l.snapshot(b, t, level)
	*l = levelStats{last: t, min: math.Inf(1), max: math.Inf(-1)}
	*b = levelBins{from: t, inv: b.inv, granule: b.granule, bins: b.bins}
	return s
}

// levelMeter is a level and its statistics together, for an owner that
// keeps no count of its own (the fluid model's queue) and tests: what a
// port keeps apart (levelStats, levelBins, its occupancy) in one value.
type levelMeter struct {
	stats levelStats
	bins  levelBins
	level float64
}

// newLevelMeter is newLevelStats' level, at 0.
func newLevelMeter(granule, top float64) levelMeter {
	l, b := newLevelStats(granule, top)
	return levelMeter{stats: l, bins: b}
}

// set records that the level changes to level at time t.
func (m *levelMeter) set(t algos.Time, level float64) {
	m.stats.set(t, m.level, m.bins.inv, &m.bins)
	m.level = level
}

// advance integrates the level up to t, at or after the last change.
func (m *levelMeter) advance(t algos.Time) { m.stats.advance(t, m.level, &m.bins) }

// snapshot is what m measured up to until, m left as it is.
func (m *levelMeter) snapshot(until algos.Time) levelSummary {
	return m.stats.snapshot(&m.bins, until, m.level)
}

// restart ends the measurement at t and starts a fresh one from t.
func (m *levelMeter) restart(t algos.Time) levelSummary {
	return m.stats.restart(&m.bins, t, m.level)
}

// add merges the measurement of a following stretch of time. The two
// histograms may differ in length: the bins one lacks are empty.
func (s *levelSummary) add(o levelSummary) {
	if s.granule == 0 {
		s.granule = o.granule
		s.min, s.max = math.Inf(1), math.Inf(-1)
	}
	if len(o.hist) > len(s.hist) {
		s.hist = append(s.hist, make([]float64, len(o.hist)-len(s.hist))...)
	}
	s.span += o.span
	s.sum += o.sum
	s.sumSq += o.sumSq
	s.min, s.max = min(s.min, o.min), max(s.max, o.max)
	for k, x := range o.hist {
		s.hist[k] += x
	}
}

// result returns mean, standard deviation, min, max and the fraction of time
// at zero.
func (s levelSummary) result() (mean, std, lo, hi, empty float64) {
	span := float64(s.span)
	if span <= 0 || math.IsInf(s.min, 1) { // no time measured yet
		return 0, 0, 0, 0, 0
	}
	mean = s.sum / span
	std = math.Sqrt(max(0, s.sumSq/span-mean*mean))
	return mean, std, s.min, s.max, s.hist[0] / span
}

// quantiles returns the time-weighted quantiles of the level. A level is
// binned up to a whole granule (a frame), so they are exact when the level
// moves in whole frames, as it does with one frame size, and at most one
// granule above otherwise.
func (s levelSummary) quantiles() Quantiles {
	var total float64
	for _, x := range s.hist {
		total += x
	}
	var q Quantiles
	if total <= 0 {
		return q
	}
	fields := []*float64{&q.P1, &q.P5, &q.P10, &q.P25, &q.P50, &q.P75, &q.P90, &q.P95, &q.P99}
	k, acc := 0, s.hist[0]
	for i, p := range QuantileLevels {
		// The smallest level at or below which the level spends p of the time.
		for acc < p*total && k < len(s.hist)-1 {
			k++
			acc += s.hist[k]
		}
		*fields[i] = float64(k) * s.granule
	}
	return q
}

// QuantileLevels are the probabilities of Quantiles' fields, in order.
var QuantileLevels = []float64{0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99}

// Quantiles are time-weighted quantiles of a queue, in bytes.
type Quantiles struct {
	P1  float64 `json:"p1"`
	P5  float64 `json:"p5"`
	P10 float64 `json:"p10"`
	P25 float64 `json:"p25"`
	P50 float64 `json:"p50"`
	P75 float64 `json:"p75"`
	P90 float64 `json:"p90"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// jain is Jain's fairness index of xs: (sum x)^2 / (n sum x^2).
func jain(xs []float64) *float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return nil // no traffic: there is no fairness to measure
	}
	j := s * s / (float64(len(xs)) * s2)
	return &j
}

// rateSampler turns each source's cumulative bytes into its rate averaged
// over the rate window at every sample, and follows the time to fairness.
// It keeps one window of history per source: memory does not grow.
type rateSampler struct {
	interval         algos.Time
	windowLen        int // samples per window
	samples          int
	history          []float64 // [slot*sources + source]: cumulative bytes windowLen samples ago
	fairFrom, fairTo []algos.Time
	fair             fairness
}

// newSourceSampler is the rate sampler of the Config's sources (the fluid
// and convergence models').
func newSourceSampler(cfg *Config) rateSampler {
	var from, to []algos.Time
	for _, s := range cfg.Sources {
		from = append(from, s.Start+s.ForwardDelay+cfg.RateWindow)
		to = append(to, satAdd(s.Stop, s.ForwardDelay))
	}
	return newRateSampler(cfg, from, to)
}

// newRateSampler follows flows: a flow counts toward fairness from
// fairFrom (its bytes have reached its first port for a whole window) to
// fairTo (they stop arriving).
func newRateSampler(cfg *Config, fairFrom, fairTo []algos.Time) rateSampler {
	r := rateSampler{
		interval:  cfg.SampleInterval,
		windowLen: max(1, int((cfg.RateWindow+cfg.SampleInterval/2)/cfg.SampleInterval)),
		fair:      fairness{threshold: cfg.FairnessThreshold},
		fairFrom:  fairFrom,
		fairTo:    fairTo,
	}
	r.history = make([]float64, r.windowLen*len(fairFrom))
	return r
}

// observe sets rates[i] to source i's rate over the window ending at t, in
// bits per second, from cumulative[i], its bytes so far, and records
// whether the rates are fair.
func (r *rateSampler) observe(t algos.Time, cumulative, rates []float64) {
	slot := r.samples % r.windowLen
	r.samples++
	span := min(r.samples, r.windowLen)
	perWindow := 8 * float64(algos.Second) / (float64(span) * float64(r.interval)) // bytes -> bits/s
	history := r.history[slot*len(cumulative) : (slot+1)*len(cumulative)]
	full := r.samples > r.windowLen // history holds a whole window ago
	lo, hi, active := 0.0, 0.0, 0
	for i, now := range cumulative {
		old := 0.0
		if full {
			old = history[i]
		}
		rate := (now - old) * perWindow
		rates[i] = rate
		history[i] = now
		if t >= r.fairFrom[i] && t < r.fairTo[i] {
			if active == 0 || rate < lo {
				lo = rate
			}
			if rate > hi {
				hi = rate
			}
			active++
		}
	}
	// No source counting, or none sending, is not fair: there is no
	// traffic to share.
	r.fair.observe(t, hi > 0 && (active < 2 || lo/hi >= r.fair.threshold))
}

// fairness finds the time after which min/max of the window rates stays at or
// above the threshold to the end.
type fairness struct {
	threshold float64
	fairSince algos.Time // first sample of the current fair stretch
	fair      bool
}

// observe records whether the rates at sample t are fair.
func (f *fairness) observe(t algos.Time, ok bool) {
	if ok && !f.fair {
		f.fairSince = t
	}
	f.fair = ok
}

// result is the time to fairness at end: when the last fair stretch began,
// if it has lasted at least hold (FairHold) by end; nil otherwise, so that a
// run fair only in its last milliseconds does not report its length.
func (f *fairness) result(end, hold algos.Time) *float64 {
	if !f.fair || end-f.fairSince < hold {
		return nil
	}
	t := f.fairSince.Seconds()
	return &t
}

// FairHold is how long a run must stay fair, to its end, for its time to
// fairness to count: one rate window (the shortest stretch the rates can
// resolve) or a twentieth of the run, whichever is longer (a long run fair
// only at its very end has not converged).
func (c *Config) FairHold() algos.Time { return max(c.RateWindow, c.Duration/20) }

// satAdd adds two times, saturating at Never.
func satAdd(a, b algos.Time) algos.Time {
	if a > algos.Never-b {
		return algos.Never
	}
	return a + b
}

// utilization is the share of capacity bits that served bits used, to 12
// digits: sums of bits and of capacity carry rounding errors of about 1e-14,
// which would read as a link busier than full.
func utilization(served, capacity float64) float64 {
	return math.Round(served/capacity*1e12) / 1e12
}
