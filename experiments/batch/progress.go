package batch

import (
	"sync"
	"time"
)

// Progress reports how far a piece of work has come: a batch's runs, a
// search's step, a reproduction's experiments.
type Progress struct {
	Done, Total int     // finished units of work (runs, experiments), all of them
	Fraction    float64 // of the whole work (a batch's simulated time), 0..1
	// Stage and Step name the step of work done in steps, such as a
	// search's "grid" (0), then "bisection 1" (1)...: Done, Total and
	// Fraction are then the step's. Empty and 0 for work in one step.
	Stage   string
	Step    int
	Elapsed time.Duration
	ETA     time.Duration // 0 until it can be estimated
}

// reportEvery is the most often a Tracker reports an update: a run's
// progress moves many times a second.
const reportEvery = 100 * time.Millisecond

// Tracker adds up the progress of units of work that go on concurrently,
// each weighing its share of the whole, and reports it: on a unit's update
// at most every reportEvery, and whenever a unit finishes. It is safe for
// concurrent use; the reports are never concurrent.
type Tracker struct {
	mu       sync.Mutex
	report   func(Progress)
	weights  []float64
	total    float64
	fraction []float64
	done     int
	start    time.Time
	last     time.Time
}

// NewTracker tracks n units, unit k weighing weight(k) (all the same if
// weight is nil), and reports to report (nothing, if nil).
func NewTracker(n int, weight func(k int) float64, report func(Progress)) *Tracker {
	t := &Tracker{report: report, fraction: make([]float64, n), weights: make([]float64, n), start: time.Now()}
	for k := range t.weights {
		t.weights[k] = 1
		if weight != nil {
			t.weights[k] = weight(k)
		}
		t.total += t.weights[k]
	}
	return t
}

// Update says unit k has done fraction f of its work.
func (t *Tracker) Update(k int, f float64) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction[k] = f
	if time.Since(t.last) > reportEvery {
		t.send()
	}
}

// Finish says unit k is done.
func (t *Tracker) Finish(k int) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction[k] = 1
	t.done++
	t.send()
}

func (t *Tracker) send() {
	t.last = time.Now()
	sum := 0.0
	for k, f := range t.fraction {
		sum += f * t.weights[k]
	}
	p := Progress{Done: t.done, Total: len(t.fraction), Elapsed: time.Since(t.start)}
	if t.total > 0 {
		p.Fraction = sum / t.total
	}
	if p.Fraction > 0.01 {
		p.ETA = time.Duration(float64(p.Elapsed) * (1 - p.Fraction) / p.Fraction)
	}
	t.report(p)
}
