// Package batch executes the runs of an experiment on a pool of workers:
// at once up to the number of workers, each run's summary at its index
// whatever the number of workers, stopped by a context, with progress. It
// hands each run's samples and summary to a Sink (the result writers of
// package results) and knows nothing of files, CSV or figures.
package batch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/cost"
	"qcnlab/model"
)

// Workers is the number of runs a batch executes at once: n, or one per CPU
// when n is 0.
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// RunSummary is a run's summary and, in a sweep, the point it ran at.
type RunSummary struct {
	// Run is the run's index in the batch, from 0: its position in the
	// summary.json of the whole batch, and the run column of results.csv
	// and timeseries.csv.gz, which join on it.
	Run int `json:"run"`
	// WallSeconds is the wall-clock time the run took: the one number of a
	// run that is not reproducible, kept out of model.Summary, which is.
	WallSeconds float64 `json:"wall_seconds"`
	model.Summary
	Point map[string]string `json:"point,omitempty"`
	// DeliveredUnfair says the Jain index of what the sources delivered is
	// below output.fairness_threshold: a run may still have a time to
	// fairness, which on a chain judges the rates at which the sources'
	// frames reach the bottleneck, not what drop-tail lets through.
	DeliveredUnfair bool `json:"delivered_unfair"`
	// Label names the run ("qcn network.rtt=300us"); empty for a summary
	// read back from summary.json, which does not hold it.
	Label string `json:"-"`
}

// Reproducible is the part of a run's summary that the same file and seed
// give again whatever the number of workers: all of it but the wall time.
type Reproducible struct {
	Run     int               `json:"run"`
	Point   map[string]string `json:"point,omitempty"`
	Summary model.Summary     `json:"summary"`
}

// Reproducible returns the run's reproducible part.
func (r *RunSummary) Reproducible() Reproducible {
	return Reproducible{Run: r.Run, Point: r.Point, Summary: r.Summary}
}

// ReproducibleRuns returns the reproducible part of each run.
func ReproducibleRuns(runs []RunSummary) []Reproducible {
	out := make([]Reproducible, len(runs))
	for i := range runs {
		out[i] = runs[i].Reproducible()
	}
	return out
}

// InternalError is a panic in a run: a bug in qcnlab, reported with the
// stack where it happened.
type InternalError struct {
	Value any
	Stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error (a bug in qcnlab; please report it with this message): %v\n\n%s", e.Value, e.Stack)
}

// A Sink receives the runs of a batch as they execute. Its methods are
// called from the workers, concurrently for different runs.
type Sink interface {
	// Start is called as run i (its index in the batch) starts, with the
	// configuration it runs; the Recorder it returns takes the run's
	// samples and its end. An error fails the run, which still runs
	// without a recorder: its summary is kept.
	Start(i int, run experiments.Run, cfg *model.Config) (Recorder, error)
}

// A Recorder takes one run's samples as the simulation makes them, then
// either its summary or the news that it stopped short.
type Recorder interface {
	Sample(x *model.Sample)
	// Finish is called when the run has reached its end; an error fails
	// it, but its summary is kept.
	Finish(s *RunSummary) error
	// Discard is called when the run stops before its end: cancelled, or
	// failed.
	Discard()
}

// A FlowRecorder is a Recorder that also takes the run's flows of a given
// size as they end (model.Config.OnFlow).
type FlowRecorder interface {
	Recorder
	Flow(r *model.FlowRecord)
}

// Options control a batch.
type Options struct {
	Workers  int // runs at once; 0 means one per CPU (Workers)
	Progress func(Progress)
	Sink     Sink // what records the runs; nil for nothing
	// Memory bounds the runs in flight by the sum of their estimates
	// (experiments.RunCost), in bytes; 0 means cost.MaxMemoryInFlight.
	Memory float64
}

// Execute runs the runs whose indices todo lists, in that order (nil: every
// run), on the workers. Each run's summary and error land at its index, so
// the result does not depend on the number of workers: a nil summary is a
// run that did not finish, cancelled (its error is ctx's) or failed; a
// summary with an error is a run that finished whose recording failed (its
// Sink's Start or its Recorder's Finish: an output it could not write). A
// panic in a run is that run's InternalError; the other runs go on. Once
// ctx is cancelled no run starts, and the runs in progress stop within a
// fraction of a second.
func Execute(ctx context.Context, runs []experiments.Run, todo []int, opt Options) ([]*RunSummary, []error) {
	if todo == nil {
		todo = make([]int, len(runs))
		for i := range todo {
			todo[i] = i
		}
	}
	workers := min(Workers(opt.Workers), max(1, len(todo)))
	tracker := NewTracker(len(todo), nil, opt.Progress)
	summaries := make([]*RunSummary, len(runs))
	errs := make([]error, len(runs))
	gate := gateFor(cmp.Or(opt.Memory, cost.MaxMemoryInFlight))
	type job struct {
		k    int
		need float64
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				i := todo[j.k]
				summaries[i], errs[i] = safeExecute(ctx, runs[i], i, opt.Sink, tracker, j.k)
				gate.release(j.need)
			}
		}()
	}
	for k := range todo {
		if ctx.Err() != nil {
			break
		}
		// Counted even one at a time: the gate is the process's, shared
		// with the batches running beside this one.
		r := runs[todo[k]]
		need := r.Exp.RunCost(r.Algorithm).Memory
		if !gate.acquire(ctx, need) {
			break
		}
		jobs <- job{k, need}
	}
	close(jobs)
	wg.Wait()
	return summaries, errs
}

// memoryGate admits runs while the estimates of those in flight, with
// theirs, fit its budget; one larger than the whole budget runs alone. A
// gate is the process's for its budget (gateFor), so that batches run at
// once (a reproduction's tasks, a search beside a batch) share it. Each
// batch asks in its runs' order, so a large run is not passed over for
// ever by its own batch's small ones.
type memoryGate struct {
	budget   float64
	mu       sync.Mutex
	inFlight float64
	running  int
	wake     chan struct{} // closed at a release, then replaced: wakes every waiter
}

var (
	gatesMu sync.Mutex
	gates   = map[float64]*memoryGate{}
)

// gateFor is the process's gate of that budget.
func gateFor(budget float64) *memoryGate {
	gatesMu.Lock()
	defer gatesMu.Unlock()
	g := gates[budget]
	if g == nil {
		g = &memoryGate{budget: budget, wake: make(chan struct{})}
		gates[budget] = g
	}
	return g
}

// acquire waits until need fits beside the runs in flight and reserves it;
// false if ctx ended first.
func (g *memoryGate) acquire(ctx context.Context, need float64) bool {
	for {
		g.mu.Lock()
		fits := g.running == 0 || g.inFlight+need <= g.budget
		if fits {
			g.inFlight += need
			g.running++
		}
		wake := g.wake
		g.mu.Unlock()
		if fits {
			return true
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return false
		}
	}
}

func (g *memoryGate) release(need float64) {
	g.mu.Lock()
	g.inFlight -= need
	g.running--
	close(g.wake)
	g.wake = make(chan struct{})
	g.mu.Unlock()
}

// Runs executes every run with no sink and returns their summaries in run
// order, nil for a run that did not finish. It is for callers that build
// their runs themselves, such as a search that picks its next points from
// the last ones. It returns the runs' failures joined, else ctx's error.
func Runs(ctx context.Context, runs []experiments.Run, opt Options) ([]*RunSummary, error) {
	summaries, errs := Execute(ctx, runs, nil, opt)
	if err := Failures(runs, errs); err != nil {
		return summaries, err
	}
	return summaries, ctx.Err()
}

// Failures joins the errors of the runs that failed, each named by its run;
// a run stopped by its context did not fail.
func Failures(runs []experiments.Run, errs []error) error {
	var failures []error
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			failures = append(failures, fmt.Errorf("%s: %w", runs[i].Label(), err))
		}
	}
	return errors.Join(failures...)
}

// safeExecute is execute with a panic turned into an InternalError for
// that run: the other runs go on, and the batch reports the bug.
func safeExecute(ctx context.Context, run experiments.Run, i int, sink Sink, tracker *Tracker, k int) (s *RunSummary, err error) {
	defer func() {
		if r := recover(); r != nil {
			ie, ok := r.(*InternalError) // from the build (unlessCancelled), with its own stack
			if !ok {
				ie = &InternalError{Value: r, Stack: debug.Stack()}
			}
			s, err = nil, ie
		}
	}()
	return execute(ctx, run, i, sink, tracker, k)
}

// execute runs one simulation in steps, so that it can be cancelled and its
// progress reported. Building it (a large fabric's network and routes take
// seconds) and every step end as soon as ctx is cancelled, or after at most
// checkEvents events.
func execute(ctx context.Context, run experiments.Run, i int, sink Sink, tracker *Tracker, k int) (*RunSummary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := unlessCancelled(ctx, func() (model.Config, error) { return run.Exp.Config(run.Algorithm) })
	if err != nil {
		return nil, err
	}
	// A recorder that cannot start (an output that cannot be written)
	// fails the run, but the simulation still runs: its numbers are kept.
	var rec Recorder
	var recordErr error
	if sink != nil {
		if rec, recordErr = sink.Start(i, run, &cfg); recordErr != nil {
			rec = nil
		}
	}
	if rec != nil {
		cfg.OnSample = rec.Sample
		if fr, ok := rec.(FlowRecorder); ok {
			cfg.OnFlow = fr.Flow
		}
	}
	discard := func() {
		if rec != nil {
			rec.Discard()
		}
	}
	start := time.Now()
	sim, err := unlessCancelled(ctx, func() (model.Sim, error) { return model.New(cfg) })
	if err != nil {
		discard()
		return nil, err
	}
	step := stepFor(run.Exp, cfg.Duration)
	for !sim.Done() {
		if checking != nil {
			checking(sim.Events())
		}
		if err := ctx.Err(); err != nil {
			discard()
			return nil, err
		}
		advance(sim, sim.Now()+step)
		tracker.Update(k, float64(sim.Now())/float64(cfg.Duration))
	}
	sum := &RunSummary{Run: i, Summary: sim.Summary(), Label: run.Label()}
	sum.DeliveredUnfair = sum.JainFairness != nil && *sum.JainFairness < cfg.FairnessThreshold
	sum.WallSeconds = time.Since(start).Seconds()
	if len(run.Point) > 0 {
		sum.Point = map[string]string{}
		for _, a := range run.Point {
			sum.Point[a.Key] = a.Value
		}
	}
	if rec != nil {
		recordErr = rec.Finish(sum)
	}
	tracker.Finish(k)
	return sum, recordErr
}

// checkEvents is the most events a packet-level run handles between two
// looks at its context: a tenth of a second at a million events a second,
// about what a fabric of thousands of hosts does (a step of simulated time
// held 700,000 events and 1.5 s of computing on a 16,000-host fat-tree).
const checkEvents = 100_000

// checking, set by the tests only, hears the events a run has handled each
// time it looks at its context.
var checking func(events uint64)

// advance runs sim towards until: the packet model stops early after
// checkEvents events; the others' steps are bounded by stepFor.
func advance(sim model.Sim, until algos.Time) {
	if b, ok := sim.(interface{ AdvanceBounded(algos.Time, uint64) }); ok {
		b.AdvanceBounded(until, checkEvents)
		return
	}
	sim.Advance(until)
}

// stepFor is how far a run advances between checks for cancellation and
// progress reports: at most a millisecond and a 200th of the run, and, on a
// chain, about a million events by Cost's estimate (the fluid model's
// integration steps are bounded by it). A fabric's is not asked for: it
// builds the fabric's network again, seconds for thousands of hosts that
// nothing would interrupt, and its runs are bounded by events (advance).
func stepFor(e *experiments.Experiment, d algos.Time) algos.Time {
	step := max(10*algos.Microsecond, min(algos.Millisecond, d/200))
	if e.IsFabric() {
		return step
	}
	if ev := e.Cost().Events; ev > 0 {
		step = min(step, algos.Time(float64(d)*1e6/ev))
	}
	return max(step, algos.Picosecond)
}

// unlessCancelled returns f's result, or ctx's error as soon as ctx is
// done: building a simulation does not watch a context. f then finishes in
// the background and its result is dropped; a panic in f is re-raised here
// while anyone waits for it, so that safeExecute reports it.
func unlessCancelled[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v     T
		err   error
		panic *InternalError
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panic: &InternalError{Value: r, Stack: debug.Stack()}}
			}
		}()
		v, err := f()
		done <- result{v: v, err: err}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic)
		}
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
