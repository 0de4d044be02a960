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
		l.min, l.max = min(l.min, l.level), max(l.max, l.level)
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
