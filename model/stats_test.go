package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"qcnlab/algos"
)

// A queue's histogram holds bins up to the highest level it reached, not
// up to its buffer: a 32 MB buffer whose queue never passes two frames
// keeps a handful of bins (it kept 21,335, 170 KB, per port and per
// boundary).
func TestLevelStatsHistogramGrowsWithTheLevel(t *testing.T) {
	l := newLevelStats(1500, 32e6)
	for i := range 1000 {
		l.reach(float64(1500 * (i % 3)))
		l.set(algos.Time(i), float64(1500*(i%3)))
	}
	s := l.restart(1000)
	if len(s.hist) > 8 || len(l.hist) > 8 {
		t.Errorf("a queue of at most 2 frames in a 32 MB buffer keeps %d bins, then %d", len(s.hist), len(l.hist))
	}
	l.reach(1500 * 5000)
	l.set(1001, 1500*5000)
	l.set(1002, 0)
	if n := len(l.snapshot(1003).hist); n < 5001 || n > 2*5001 {
		t.Errorf("a queue that reached 5000 frames keeps %d bins", n)
	}
}

// Summaries of stretches whose histograms grew to different lengths merge
// to the numbers of one histogram sized for the whole buffer: the bins one
// lacks are empty.
func TestLevelStatsMergeOfUnequalHistograms(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	grown := newLevelStats(1, 400)
	full := newLevelStats(1, 400)
	full.hist = make([]float64, full.bins) // the layout before histograms grew
	full.top = math.Inf(1)
	var a, b levelSummary
	at := algos.Time(0)
	for seg := range 6 {
		top := []int{3, 100, 0, 40, 60, 1}[seg]
		for range 200 {
			at += algos.Time(1 + r.IntN(50))
			level := float64(r.IntN(top + 1))
			grown.reach(level)
			grown.set(at, level)
			full.set(at, level)
		}
		at++
		a.add(grown.restart(at))
		b.add(full.restart(at))
		full.hist, full.top = make([]float64, full.bins), math.Inf(1)
	}
	if a.quantiles() != b.quantiles() || a.sum != b.sum || a.sumSq != b.sumSq || a.min != b.min || a.max != b.max {
		t.Errorf("merged: %+v %v, want %+v %v", a.quantiles(), a.sum, b.quantiles(), b.sum)
	}
	_, _, _, _, ea := a.result()
	_, _, _, _, eb := b.result()
	if ea != eb || len(a.hist) >= len(b.hist) {
		t.Errorf("empty %g, want %g; %d bins against %d", ea, eb, len(a.hist), len(b.hist))
	}
}
