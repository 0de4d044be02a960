package batch

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"qcnlab/experiments"
	"qcnlab/model"
)

func sweep(t *testing.T) []experiments.Run {
	t.Helper()
	e, err := experiments.Parse("sweep.toml", []byte(`
duration = "5ms"
warmup = "1ms"
algorithms = ["qcn", "dsm"]
[sources]
count = 3
[sweep]
seed = [1, 2]
`))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func TestWorkers(t *testing.T) {
	if Workers(3) != 3 || Workers(0) != runtime.GOMAXPROCS(0) {
		t.Errorf("Workers(3) %d, Workers(0) %d", Workers(3), Workers(0))
	}
}

// Each summary lands at its run's index: the same whatever the workers.
func TestSameSummariesWhateverTheWorkers(t *testing.T) {
	runs := sweep(t)
	var outs []string
	for _, w := range []int{1, 3} {
		sums, err := Runs(context.Background(), runs, Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		reproducible := make([]Reproducible, len(sums))
		for i, s := range sums {
			reproducible[i] = s.Reproducible()
		}
		js, _ := json.Marshal(reproducible)
		outs = append(outs, string(js))
		if sums[1].Algorithm != "dsm" || sums[2].Seed != 2 || sums[3].Label != "dsm seed=2" || sums[3].Point["seed"] != "2" {
			t.Errorf("run order: %s %d %q", sums[1].Algorithm, sums[2].Seed, sums[3].Label)
		}
	}
	if outs[0] != outs[1] {
		t.Error("summaries differ with the number of workers")
	}
}

// sink records what a batch hands it.
type sink struct {
	mu       sync.Mutex
	started  []int
	samples  map[int]int
	finished []int
}

type recorder struct {
	s *sink
	i int
}

func (s *sink) Start(i int, _ experiments.Run, _ *model.Config) (Recorder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = append(s.started, i)
	return recorder{s, i}, nil
}

func (r recorder) Sample(*model.Sample) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.s.samples[r.i]++
}

func (r recorder) Finish(*RunSummary) error {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.s.finished = append(r.s.finished, r.i)
	return nil
}

func (r recorder) Discard() {}

// Only the listed runs execute, each recorded from start to end with every
// sample, and progress counts them.
func TestExecuteListedRunsIntoASink(t *testing.T) {
	runs := sweep(t)
	s := &sink{samples: map[int]int{}}
	var last Progress
	sums, errs := Execute(context.Background(), runs, []int{1, 3}, Options{Workers: 2, Sink: s, Progress: func(p Progress) { last = p }})
	if sums[0] != nil || sums[2] != nil || sums[1] == nil || sums[3] == nil || errors.Join(errs...) != nil {
		t.Fatalf("summaries %v, errors %v", sums, errs)
	}
	slices.Sort(s.started)
	slices.Sort(s.finished)
	if !slices.Equal(s.started, []int{1, 3}) || !slices.Equal(s.finished, []int{1, 3}) || s.samples[1] != 500 {
		t.Errorf("started %v, finished %v, %d samples of run 1", s.started, s.finished, s.samples[1])
	}
	if last.Done != 2 || last.Total != 2 || last.Fraction != 1 {
		t.Errorf("last progress %+v", last)
	}
}

// A cancelled batch starts nothing and says so.
func TestCancelledBeforeAnyRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sums, err := Runs(ctx, sweep(t), Options{})
	if !errors.Is(err, context.Canceled) || slices.ContainsFunc(sums, func(s *RunSummary) bool { return s != nil }) {
		t.Errorf("%v, %v", sums, err)
	}
}

// A tracker weighs its units: a finished unit of weight 3 among weights
// 1 and 3 is three quarters of the work.
func TestTrackerWeighsUnits(t *testing.T) {
	var got []Progress
	tr := NewTracker(2, func(k int) float64 { return []float64{1, 3}[k] }, func(p Progress) { got = append(got, p) })
	tr.Finish(1)
	if len(got) != 1 || got[0].Done != 1 || got[0].Total != 2 || got[0].Fraction != 0.75 {
		t.Errorf("%+v", got)
	}
}

// inFlight is a sink that tracks the estimates of the runs going on.
type inFlight struct {
	mu        sync.Mutex
	need      []float64 // each run's estimate
	now, most float64
	running   int
	overrun   int // starts that took the runs in flight past the budget
	budget    float64
}

type flightRecorder struct {
	s *inFlight
	i int
}

func (s *inFlight) Start(i int, _ experiments.Run, _ *model.Config) (Recorder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now += s.need[i]
	s.running++
	if s.running > 1 && s.now > s.budget {
		s.overrun++
	}
	s.most = max(s.most, s.now)
	return flightRecorder{s, i}, nil
}

func (r flightRecorder) Sample(*model.Sample) {}
func (r flightRecorder) Finish(*RunSummary) error {
	r.Discard()
	return nil
}

func (r flightRecorder) Discard() {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.s.now -= r.s.need[r.i]
	r.s.running--
}

// However many workers, the runs in flight fit the memory budget by their
// estimates (a run larger than it runs alone), and the summaries are those
// of one worker: --workers 100000000 once let every run start at once,
// each allowed 4GB.
func TestMemoryBudgetBoundsTheRunsInFlight(t *testing.T) {
	runs := sweep(t)
	runs = append(runs, sweep(t)...) // eight runs
	need := make([]float64, len(runs))
	largest := 0.0
	for i, r := range runs {
		need[i] = r.Exp.RunCost(r.Algorithm).Memory
		largest = max(largest, need[i])
	}
	if largest <= 0 {
		t.Fatal("no estimate")
	}
	alone, err := Runs(context.Background(), runs, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []float64{2 * largest, largest / 2} {
		s := &inFlight{need: need, budget: budget}
		sums, errs := Execute(context.Background(), runs, nil, Options{Workers: 8, Sink: s, Memory: budget})
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if s.overrun > 0 {
			t.Errorf("budget %.0f B: %d runs started past it (at most %.0f B in flight)", budget, s.overrun, s.most)
		}
		a, _ := json.Marshal(ReproducibleRuns(deref(alone)))
		b, _ := json.Marshal(ReproducibleRuns(deref(sums)))
		if string(a) != string(b) {
			t.Errorf("budget %.0f B: the summaries differ from one worker's", budget)
		}
	}
}

func deref(sums []*RunSummary) []RunSummary {
	out := make([]RunSummary, len(sums))
	for i, s := range sums {
		out[i] = *s
	}
	return out
}

// Batches run at once share the process's budget: two of them (one with
// a single worker, which reckons too), each of whose runs is over half of
// it, never have two runs in flight together. Each run dwells in its start
// so that, were the budget a batch's own, the other batch's run would
// start beside it.
func TestBatchesAtOnceShareTheMemoryBudget(t *testing.T) {
	runs := sweep(t)
	need := make([]float64, len(runs))
	smallest := math.Inf(1)
	for i, r := range runs {
		need[i] = r.Exp.RunCost(r.Algorithm).Memory
		smallest = min(smallest, need[i])
	}
	budget := smallest * 1.5 // no two runs fit together
	s := &inFlight{need: need, budget: budget}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for b, workers := range []int{1, 4} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, e := Execute(context.Background(), runs, nil, Options{Workers: workers, Sink: slowStart{s}, Memory: budget})
			errs[b] = errors.Join(e...)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if s.overrun > 0 {
		t.Errorf("%d runs started past the budget of %.0f B shared by two batches (at most %.0f B in flight)", s.overrun, budget, s.most)
	}
}

// slowStart is inFlight whose runs dwell 20 ms in their start.
type slowStart struct{ *inFlight }

func (s slowStart) Start(i int, r experiments.Run, c *model.Config) (Recorder, error) {
	rec, err := s.inFlight.Start(i, r, c)
	time.Sleep(20 * time.Millisecond)
	return rec, err
}
