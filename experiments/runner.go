package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"qcnlab/algos"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
)

// Options control a batch run.
type Options struct {
	Workers int    // runs at once; 0 means one per CPU
	OutDir  string // if set, write summary.json, timeseries.csv and experiment.toml here
	// Out, if set, is an output directory already open (a folder of a
	// larger output, such as reproduce's runs/); it overrides OutDir and
	// the caller finishes it.
	Out   *outdir.Dir
	Plot  string // with OutDir: also a figure per run in plots/, "png" or "svg"
	Shard Shard  // run one slice of the batch; the zero value runs it all
	// Abort, if set, stops the writing of the outputs. A batch cancelled
	// by its ctx still writes the runs that finished; a cancellation that
	// comes once they are being written (ctx's, if the batch ran to its
	// end, or Abort's: a second Ctrl-C) stops the writing.
	Abort    context.Context
	Progress func(Progress)
}

// Shard is the Index-th (from 0) of Count disjoint slices of a batch: run k
// of the batch, in run order, belongs to slice k mod Count. Every slice of a
// sweep gets a share of each algorithm and point, and the slices together
// are the batch.
type Shard struct{ Index, Count int }

func (s Shard) sharded() bool { return s.Count > 0 }

// Runs lists the indices, in run order, of the slice's runs among n.
func (s Shard) Runs(n int) []int {
	var ids []int
	for k := 0; k < n; k++ {
		if !s.sharded() || k%s.Count == s.Index {
			ids = append(ids, k)
		}
	}
	return ids
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Progress reports how far a batch has come.
type Progress struct {
	Done, Total int     // finished runs, all runs
	Fraction    float64 // of the whole batch's simulated time, 0..1
}

// Result is what a batch produced: one summary per finished run, in run
// order whatever the number of workers.
type Result struct {
	Experiment string       `json:"experiment"`
	Complete   bool         `json:"complete"`
	Runs       []RunSummary `json:"runs"`
	stopped    bool         // cancelled, rather than incomplete for failed runs
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

// RunSummary is a run's summary and, in a sweep, the point it ran at.
type RunSummary struct {
	model.Summary
	Point map[string]string `json:"point,omitempty"`
	label string
}

// Execute runs every run of the experiment. If ctx is cancelled it stops the
// runs in progress and still returns, and writes, the runs that finished,
// with Complete false and ctx's error.
func Execute(ctx context.Context, e *Experiment, opt Options) (*Result, error) {
	runs, err := e.Runs()
	if err != nil {
		return nil, err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Shard.sharded() && (opt.Shard.Index < 0 || opt.Shard.Index >= opt.Shard.Count) {
		return nil, fmt.Errorf("shard %s: the index must be in [0, %d)", opt.Shard, opt.Shard.Count)
	}
	todo := opt.Shard.Runs(len(runs))
	workers = min(workers, max(1, len(todo)))

	var out *outputs
	if opt.Plot != "" && ((opt.OutDir == "" && opt.Out == nil) || !contains(PlotFormats, opt.Plot)) {
		return nil, fmt.Errorf("plots need an output directory and a format in %q", PlotFormats)
	}
	if dir := opt.Out; dir != nil || opt.OutDir != "" {
		if dir == nil {
			if dir, err = outdir.Open(opt.OutDir); err != nil {
				return nil, err
			}
			defer dir.Close() // after Finish, nothing
		}
		if out, err = newOutputs(dir, e, runs, opt.Plot, opt.Shard); err != nil {
			return nil, err
		}
		defer out.cleanup()
	}

	summaries, errs := pool(ctx, runs, todo, workers, out, newTracker(len(todo), opt.Progress))

	res := &Result{Experiment: e.Name, Complete: true, stopped: ctx.Err() != nil}
	var failures []error
	for _, i := range todo {
		if s := summaries[i]; s != nil {
			res.Runs = append(res.Runs, *s)
			continue
		}
		res.Complete = false
		if errs[i] != nil && !errors.Is(errs[i], context.Canceled) && !errors.Is(errs[i], context.DeadlineExceeded) {
			failures = append(failures, fmt.Errorf("%s: %w", runs[i].Label(), errs[i]))
		}
	}
	if out != nil {
		wctx, cancel := writeContext(ctx, opt.Abort)
		err := out.finish(wctx, res, summaries)
		cancel()
		if err != nil {
			failures = append(failures, err)
		} else if opt.Out == nil {
			// The batch's outputs are all written: what an earlier batch
			// wrote and this one did not goes.
			failures = append(failures, out.dir.Finish())
		}
	}
	if err := errors.Join(failures...); err != nil {
		return res, err
	}
	if !res.Complete {
		return res, ctx.Err()
	}
	return res, nil
}

// writeContext is the context that stops the writing of a batch's outputs:
// abort's, and ctx's unless ctx was cancelled already (then the outputs are
// what the cancellation is to keep).
func writeContext(ctx, abort context.Context) (context.Context, context.CancelFunc) {
	if abort == nil {
		abort = context.Background()
	}
	w, cancel := context.WithCancel(abort)
	if ctx.Err() == nil {
		stop := context.AfterFunc(ctx, cancel)
		return w, func() { stop(); cancel() }
	}
	return w, cancel
}

// ExecuteRuns runs the given runs, with opt's workers and progress but no
// output files (opt.OutDir must be empty), and returns their summaries in run
// order: nil for a run that did not finish. It is for callers that build
// their runs themselves, such as a search that picks its next points from the
// last ones. On cancellation it returns ctx's error.
func ExecuteRuns(ctx context.Context, runs []Run, opt Options) ([]*RunSummary, error) {
	if opt.OutDir != "" || opt.Plot != "" {
		return nil, errors.New("ExecuteRuns writes no files")
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	summaries, errs := pool(ctx, runs, Shard{}.Runs(len(runs)), min(workers, max(1, len(runs))), nil, newTracker(len(runs), opt.Progress))
	var failures []error
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			failures = append(failures, fmt.Errorf("%s: %w", runs[i].Label(), err))
		}
	}
	if len(failures) > 0 {
		return summaries, errors.Join(failures...)
	}
	return summaries, ctx.Err()
}

// pool runs the runs listed in todo on workers goroutines; a run's summary
// and error land at its index, so the order does not depend on the workers.
func pool(ctx context.Context, runs []Run, todo []int, workers int, out *outputs, tracker *tracker) ([]*RunSummary, []error) {
	summaries := make([]*RunSummary, len(runs))
	errs := make([]error, len(runs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				i := todo[k]
				summaries[i], errs[i] = safeExecute(ctx, runs[i], i, out, tracker.slot(k))
			}
		}()
	}
	for k := range todo {
		if ctx.Err() != nil {
			break
		}
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	return summaries, errs
}

// safeExecute is execute with a panic turned into an InternalError for
// that run: the other runs go on, and the batch reports the bug.
func safeExecute(ctx context.Context, run Run, i int, out *outputs, tr trackerSlot) (s *RunSummary, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, &InternalError{Value: r, Stack: debug.Stack()}
		}
	}()
	return execute(ctx, run, i, out, tr)
}

// execute runs one simulation in steps, so that it can be cancelled and its
// progress reported.
func execute(ctx context.Context, run Run, i int, out *outputs, tr trackerSlot) (*RunSummary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := run.Exp.Config(run.Algorithm)
	if err != nil {
		return nil, err
	}
	var series *seriesWriter
	var fig *figure
	if out != nil {
		if series, err = out.series(i, run); err != nil {
			return nil, err
		}
		cfg.OnSample = series.write
		if out.plot != "" {
			fig = newFigure(run.Exp.Name+": "+run.Label(), &cfg)
			cfg.OnSample = func(x *model.Sample) {
				series.write(x)
				fig.add(x)
			}
		}
	}
	start := time.Now()
	sim, err := model.New(cfg)
	if err != nil {
		return nil, err
	}
	step := stepFor(run.Exp, cfg.Duration)
	for !sim.Done() {
		if err := ctx.Err(); err != nil {
			series.discard()
			return nil, err
		}
		sim.Advance(sim.Now() + step)
		tr.update(float64(sim.Now()) / float64(cfg.Duration))
	}
	sum := &RunSummary{Summary: sim.Summary(), label: run.Label()}
	sum.WallSeconds = time.Since(start).Seconds()
	if len(run.Point) > 0 {
		sum.Point = map[string]string{}
		for _, a := range run.Point {
			sum.Point[a.Key] = a.Value
		}
	}
	if err := series.close(); err != nil {
		return nil, err
	}
	if out != nil {
		out.rows[i] = series.rows
	}
	if fig != nil {
		data, err := fig.render(out.plot)
		if err == nil {
			err = out.dir.WriteFile(plotName(i, run.Label(), out.plot), data)
		}
		if err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
	}
	tr.finish()
	return sum, nil
}

// stepFor is how far a run advances between checks for cancellation: at
// most a millisecond, a 200th of the run, and about a million events by
// Cost's estimate, so that Ctrl-C stops any run within a fraction of a second.
func stepFor(e *Experiment, d algos.Time) algos.Time {
	step := max(10*algos.Microsecond, min(algos.Millisecond, d/200))
	if ev := e.Cost().Events; ev > 0 {
		step = min(step, algos.Time(float64(d)*1e6/ev))
	}
	return max(step, algos.Picosecond)
}

// tracker adds up the progress of concurrent runs.
type tracker struct {
	mu       sync.Mutex
	fraction []float64
	done     int
	report   func(Progress)
	last     time.Time
}

func newTracker(n int, report func(Progress)) *tracker {
	return &tracker{fraction: make([]float64, n), report: report}
}

// trackerSlot is one run's place in a tracker.
type trackerSlot struct {
	t *tracker
	k int
}

func (t *tracker) slot(k int) trackerSlot { return trackerSlot{t, k} }

func (s trackerSlot) update(f float64) { s.t.update(s.k, f) }
func (s trackerSlot) finish()          { s.t.finish(s.k) }

func (t *tracker) update(i int, f float64) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction[i] = f
	if time.Since(t.last) > 100*time.Millisecond {
		t.send()
	}
}

func (t *tracker) finish(i int) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction[i] = 1
	t.done++
	t.send()
}

func (t *tracker) send() {
	t.last = time.Now()
	sum := 0.0
	for _, f := range t.fraction {
		sum += f
	}
	t.report(Progress{Done: t.done, Total: len(t.fraction), Fraction: sum / float64(len(t.fraction))})
}

// outputs writes a batch's files into a directory: the experiment first, the
// time series of each run into its own part file (in a temporary folder of
// this batch's) as it runs, and at the end timeseries.csv (the finished
// parts, in run order) and summary.json.
type outputs struct {
	dir     *outdir.Dir
	parts   string // the temporary folder of the parts
	exp     *Experiment
	hash    string // of experiment.toml
	shard   Shard
	labels  []string // of every run of the batch
	rows    []int    // time series rows written per run
	plot    string   // figure format, "" for none
	columns []string // sweep keys
	sources int      // the most sources of any run: the rate columns
	links   int      // the most links of any run: the queue columns
}

func newOutputs(dir *outdir.Dir, e *Experiment, runs []Run, plotFormat string, shard Shard) (*outputs, error) {
	var saved bytes.Buffer
	if err := e.Encode(&saved); err != nil {
		return nil, err
	}
	if err := dir.WriteFile("experiment.toml", saved.Bytes()); err != nil {
		return nil, err
	}
	if plotFormat != "" {
		if err := dir.MkdirAll("plots"); err != nil { // before the runs, not after
			return nil, err
		}
	}
	parts, err := dir.MkdirTemp("parts")
	if err != nil {
		return nil, err
	}
	o := &outputs{dir: dir, parts: parts, plot: plotFormat, exp: e, hash: ExperimentHash(saved.Bytes()),
		shard: shard, rows: make([]int, len(runs))}
	for _, a := range e.Sweep {
		o.columns = append(o.columns, a.Key)
	}
	for _, r := range runs {
		o.labels = append(o.labels, r.Label())
		o.sources = max(o.sources, r.Exp.Sources.Count)
		o.links = max(o.links, r.Exp.LinkCount())
	}
	return o, nil
}

func partName(i int) string { return fmt.Sprintf("%06d.csv", i) }

// cleanup closes the directory, which removes the parts. Execute finishes
// it first when the batch's outputs are written.
func (o *outputs) cleanup() {}
