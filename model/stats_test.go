package model

import (
	"math/rand/v2"
	"slices"
	"testing"

	"qcnlab/algos"
)

// A queue's histogram holds bins up to the highest level it reached, not
// up to its buffer: a 32 MB buffer whose queue never passes two frames
// keeps a handful of bins (it kept 21,335, 170 KB, per port and per
// boundary).
func TestLevelStatsHistogramGrowsWithTheLevel(t *testing.T) {
	l := newLevelMeter(1500, 32e6)
	for i := range 1000 {
		l.set(algos.Time(i), float64(1500*(i%3)))
	}
	s := l.restart(1000)
	if len(s.hist) > 8 || len(l.bins.hist) > 0 {
		t.Errorf("a queue of at most 2 frames in a 32 MB buffer keeps %d bins, then %d", len(s.hist), len(l.bins.hist))
	}
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
	grown := newLevelMeter(1, 400)
	full := newLevelMeter(1, 400)
	full.bins.hist = make([]float64, full.bins.bins) // the layout before histograms grew
	var a, b levelSummary
	at := algos.Time(0)
	for seg := range 6 {
		top := []int{3, 100, 0, 40, 60, 1}[seg]
		for range 200 {
			at += algos.Time(1 + r.IntN(50))
			level := float64(r.IntN(top + 1))
			grown.set(at, level)
			full.set(at, level)
		}
		at++
		a.add(grown.restart(at))
		b.add(full.restart(at))
		full.bins.hist = make([]float64, full.bins.bins)
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

// A queue that stays within the low bins (0 to 2 frames, where most
// queues of a fabric spend most changes) keeps its histogram in its own
// record: no slice, no allocation, so a change touches no other cache
// line. Its bins are those of a plain histogram all the same.
func TestLevelStatsLowBinsStayInline(t *testing.T) {
	var l levelMeter
	allocs := testing.AllocsPerRun(10, func() {
		l = newLevelMeter(1500, 150e3)
		for i := range 100 {
			level := float64(1500 * (i % 3))
			l.set(algos.Time(10*i+i%7), level)
		}
	})
	if allocs != 0 || l.bins.hist != nil {
		t.Errorf("a queue of at most 2 frames allocates %v times, keeps %d bins in a slice", allocs, len(l.bins.hist))
	}
	want := make([]float64, 3)
	last, level := algos.Time(0), 0.0
	for i := range 100 {
		at := algos.Time(10*i + i%7)
		want[int(level/1500)] += float64(at - last)
		last, level = at, float64(1500*(i%3))
	}
	want[int(level/1500)] += float64(1000 - last)
	if got := l.snapshot(1000).hist; !slices.Equal(got[:min(3, len(got))], want) || slices.ContainsFunc(got[min(3, len(got)):], func(x float64) bool { return x != 0 }) {
		t.Errorf("bins %v, want %v", got, want)
	}
}

// Split between the inline bins and the slice, a histogram adds the same
// times in the same order as one slice does: every bin, sum and extreme is
// equal to the bit, as the queue moves across the split and back.
func TestLevelStatsSplitHistogramIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	l := newLevelMeter(1500, 150e3)
	ref := make([]float64, 102)
	var sum, sumSq float64
	at, last, level := algos.Time(0), algos.Time(0), 0.0
	for range 5000 {
		at += algos.Time(r.IntN(3000)) // ties included
		next := float64(r.IntN(1500 * 6))
		if r.IntN(4) == 0 {
			next = float64(1500 * r.IntN(100))
		}
		if at > last {
			dt := float64(at - last)
			sum += level * dt
			sumSq += level * (level * dt)
			ref[int(level*((1-1e-9)/1500)+ceilBias)] += dt
			last = at
		}
		level = next
		l.set(at, level)
	}
	s := l.snapshot(at)
	got := append(s.hist, make([]float64, len(ref)-len(s.hist))...)
	if !slices.Equal(got, ref) || s.sum != sum || s.sumSq != sumSq {
		t.Errorf("split histogram differs from one slice's: sum %v against %v", s.sum, sum)
	}
}
