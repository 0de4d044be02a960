package model

import (
	"math"

	"qcnlab/algos"
)

// levelStats integrates a piecewise-constant level (a queue length) over the
// window [from, to] exactly: mean, variance, extremes and time at zero, in
// constant memory however long the run.
type levelStats struct {
	from, to   algos.Time
	last       algos.Time // time of the last change
	level      float64    // level since last
	sum, sumSq float64    // integrals of level and level^2, in byte-picoseconds
	empty      algos.Time // time spent at zero
	min, max   float64
}

func newLevelStats(from, to algos.Time) levelStats {
	return levelStats{from: from, to: to, min: math.Inf(1), max: math.Inf(-1)}
}

// set records that the level changes to level at time t.
func (l *levelStats) set(t algos.Time, level float64) {
	if t > l.last {
		l.advance(t)
	}
	l.level = level
}

// advance integrates the current level up to t.
func (l *levelStats) advance(t algos.Time) {
	if l.last >= l.from && t <= l.to { // inside the window: the usual case
		dt := float64(t - l.last)
		x := l.level * dt
		l.sum += x
		l.sumSq += l.level * x
		if l.level == 0 {
			l.empty += t - l.last
		}
		// Plain comparisons: the built-in min and max also handle NaN,
		// which costs on every departure.
		if l.level < l.min {
			l.min = l.level
		}
		if l.level > l.max {
			l.max = l.level
		}
		l.last = t
		return
	}
	a, b := max(l.last, l.from), min(t, l.to)
	if b > a {
		dt := float64(b - a)
		x := l.level * dt
		l.sum += x
		l.sumSq += l.level * x
		if l.level == 0 {
			l.empty += b - a
		}
		l.min, l.max = min(l.min, l.level), max(l.max, l.level)
	}
	l.last = max(l.last, t)
}

// result returns mean, standard deviation, min, max and the fraction of time
// at zero over the part of the window up to `until`.
func (l levelStats) result(until algos.Time) (mean, std, lo, hi, empty float64) {
	l.advance(until)
	span := float64(min(until, l.to) - l.from)
	if span <= 0 {
		return 0, 0, 0, 0, 0
	}
	if math.IsInf(l.min, 1) { // no time in the window yet
		return 0, 0, 0, 0, 0
	}
	mean = l.sum / span
	std = math.Sqrt(max(0, l.sumSq/span-mean*mean))
	return mean, std, l.min, l.max, float64(l.empty) / span
}

// jain is Jain's fairness index of xs: (sum x)^2 / (n sum x^2).
func jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 1
	}
	return s * s / (float64(len(xs)) * s2)
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

func newRateSampler(cfg *Config) rateSampler {
	r := rateSampler{
		interval:  cfg.SampleInterval,
		windowLen: max(1, int((cfg.RateWindow+cfg.SampleInterval/2)/cfg.SampleInterval)),
		fair:      fairness{threshold: cfg.FairnessThreshold},
	}
	r.history = make([]float64, r.windowLen*len(cfg.Sources))
	for _, s := range cfg.Sources {
		// A source counts toward fairness once its bytes have reached the
		// bottleneck for a whole window, and until they stop arriving.
		r.fairFrom = append(r.fairFrom, s.Start+s.ForwardDelay+cfg.RateWindow)
		r.fairTo = append(r.fairTo, satAdd(s.Stop, s.ForwardDelay))
	}
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
	r.fair.observe(t, active < 2 || (hi > 0 && lo/hi >= r.fair.threshold))
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

func (f *fairness) result() *float64 {
	if !f.fair {
		return nil
	}
	t := f.fairSince.Seconds()
	return &t
}

// satAdd adds two times, saturating at Never.
func satAdd(a, b algos.Time) algos.Time {
	if a > algos.Never-b {
		return algos.Never
	}
	return a + b
}
