// Package results writes what a batch produced: the summary for people
// (text) or programs (JSON), and into an output directory (--out)
// experiment.toml, each run's time series as it runs, then
// timeseries.csv.gz, results.csv, the figures of package plots and
// summary.json, last. Every file goes through package outdir, whole or not
// at all, and Files lists them all: their names are checked before the
// runs, and the earlier batch's files are removed before the first is
// written, so a directory never holds two batches' files. Execute runs a
// batch (package batch) with these writers; Finish is the one place a
// batch's outputs are finished, for a run and for a merge of shards.
package results

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/model"
)

// Options control a batch run.
type Options struct {
	Workers int    // runs at once; 0 means one per CPU
	OutDir  string // if set, write summary.json, results.csv, timeseries.csv.gz and experiment.toml here
	// Out, if set, is an output directory already open (a folder of a
	// larger output, such as reproduce's runs/); it overrides OutDir and
	// the caller finishes it.
	Out      *outdir.Dir
	Plot     string     // with OutDir: also a figure per run, and the sweep's, in plots/, in this format (plots.Formats)
	PlotSize plots.Size // of every figure; zero for each one's default
	Series   Series     // what timeseries.csv.gz holds
	// Part, if set, runs one part of the batch (a shard) and records
	// which it was beside the outputs; nil runs it all.
	Part Part
	// Abort, if set, stops the writing of the outputs. A batch cancelled
	// by its ctx still writes the runs that finished; a cancellation that
	// comes once they are being written (ctx's, if the batch ran to its
	// end, or Abort's: a second Ctrl-C) stops the writing.
	Abort    context.Context
	Progress func(batch.Progress)
}

// A Part is the share of a batch's runs that one process executes, such as
// a shard of a batch spread over machines (package shard).
type Part interface {
	// Runs lists the indices, in run order, of the part's runs among n.
	Runs(n int) ([]int, error)
	// Record writes, once the outputs are, what the part holds.
	Record(ctx context.Context, dir *outdir.Dir, w Written) error
	// Files lists the files Record writes (Files).
	Files() []string
}

// Written is what a batch wrote into its directory, for a Part's record.
type Written struct {
	Experiment string
	TOML       []byte       // experiment.toml, as written
	Series     Series       // what timeseries.csv.gz holds
	Total      int          // the runs of the whole batch
	Runs       []WrittenRun // the finished runs, in run order
}

// WrittenRun is one finished run: its index in the batch, its label, and
// its rows in timeseries.csv.gz.
type WrittenRun struct {
	Index int
	Label string
	Rows  int
	Flows *model.FlowHistograms // its flows' statistics as data; nil without flows of a given size
}

// Result is what a batch produced, summary.json: one summary per finished
// run, in run order whatever the number of workers.
type Result struct {
	Experiment string `json:"experiment"`
	// Complete says every run finished and the batch's files hold them
	// all: false for a batch stopped, a run failed, or an output that
	// could not be written (a full disk).
	Complete bool               `json:"complete"`
	Runs     []batch.RunSummary `json:"runs"`
	// FlowsPooled is each sweep point's flows, its seeds pooled; none
	// without flows of a given size. (A merge of shards pools them from the
	// histograms each shard records.)
	FlowsPooled []PooledFlows `json:"flows_pooled,omitempty"`
	// Incomplete lists the outputs that the directory lacks, or that lack
	// some of the finished runs (a full disk), so that a file cut short is
	// never taken for a whole one; none when every output holds every
	// finished run. summary.json is not on it: if it could not be
	// written, the error says so.
	Incomplete  []IncompleteOutput `json:"incomplete_outputs,omitempty"`
	stopped     bool               // cancelled, rather than incomplete for failed runs
	outputsLost bool               // runs that finished but lack some of their files
	runsLost    bool               // runs that did not finish
	exp         *experiments.Experiment
}

// An IncompleteOutput is an output of a batch that its directory lacks,
// or that lacks some of the finished runs.
type IncompleteOutput struct {
	// File is its path in the directory; the runs' figures are one
	// entry, "plots/run*.svg" (RunFigures), whose Lacks is the runs
	// without theirs.
	File    string `json:"file"`
	Written bool   `json:"written"` // false: the directory lacks it
	// Lacks is the finished runs (their run numbers) whose data it does
	// not hold: every one of them if it is not written.
	Lacks []int `json:"lacks_runs"`
}

// lacking records that file, written or not, lacks the finished runs
// runs (nil: all of them).
func (r *Result) lacking(file string, written bool, runs []int) {
	if runs == nil {
		runs = r.finished()
	}
	r.Incomplete = append(r.Incomplete, IncompleteOutput{File: file, Written: written, Lacks: runs})
	r.Complete = false
}

// notLacking takes file off the outputs that lack runs.
func (r *Result) notLacking(file string) {
	r.Incomplete = slices.DeleteFunc(r.Incomplete, func(f IncompleteOutput) bool { return f.File == file })
}

// finished lists the run numbers of the finished runs.
func (r *Result) finished() []int {
	runs := make([]int, 0, len(r.Runs))
	for _, s := range r.Runs {
		runs = append(runs, s.Run)
	}
	return runs
}

// Stopped reports whether the batch was cancelled (Ctrl-C) before its
// runs all finished.
func (r *Result) Stopped() bool { return r.stopped }

// NewResult is an empty, complete result of experiment e; the runs'
// statistics pooled over seeds group them by e's sweep.
func NewResult(e *experiments.Experiment) *Result {
	return &Result{Experiment: e.Name, Complete: true, Runs: []batch.RunSummary{}, exp: e}
}

// Execute runs every run of the experiment (or of opt.Part). If ctx is
// cancelled it stops the runs in progress and still returns, and writes,
// the runs that finished, with Complete false and ctx's error. A run whose
// files cannot be written still returns its summary, and has it written
// in results.csv and summary.json if they can be; once a write finds the
// directory full or gone, the later runs run without their files (time
// series, flows, figures): their summaries are what can be kept, and a
// batch that stopped there would lose the same, and its runs' numbers too.
func Execute(ctx context.Context, e *experiments.Experiment, opt Options) (*Result, error) {
	runs, err := e.Runs()
	if err != nil {
		return nil, err
	}
	var todo []int // nil: all of them
	if opt.Part != nil {
		if todo, err = opt.Part.Runs(len(runs)); err != nil {
			return nil, err
		}
	}
	plot := plots.Options{Format: opt.Plot, Size: opt.PlotSize}
	if err := plot.Check(); err != nil {
		return nil, err
	}
	if plot.Format != "" && opt.OutDir == "" && opt.Out == nil {
		return nil, errors.New("plots need an output directory")
	}
	var out *outputs
	if dir := opt.Out; dir != nil || opt.OutDir != "" {
		// Each run's series was bounded at load; together they may not be.
		if !opt.Series.None && opt.Series.Every == 0 {
			if err := experiments.SeriesError(selected(runs, todo)); err != nil {
				return nil, err
			}
		}
		if dir == nil {
			if dir, err = outdir.Open(opt.OutDir); err != nil {
				return nil, err
			}
			defer dir.Close() // after Finish, nothing
		}
		if out, err = newOutputs(dir, e, runs, todo, plot, opt.Series, opt.Part); err != nil {
			if opt.Out == nil {
				dir.Abandon()
			}
			return nil, err
		}
	}
	bopt := batch.Options{Workers: opt.Workers, Progress: opt.Progress}
	if out != nil {
		bopt.Sink = out
	}
	summaries, errs := batch.Execute(ctx, runs, todo, bopt)

	res := NewResult(e)
	res.stopped = ctx.Err() != nil
	if todo == nil {
		todo = make([]int, len(runs))
		for i := range todo {
			todo[i] = i
		}
	}
	for _, i := range todo {
		s := summaries[i]
		if s != nil {
			res.Runs = append(res.Runs, *s)
		}
		if s == nil || errs[i] != nil || out != nil && out.bare[i] {
			res.Complete = false
			res.outputsLost = res.outputsLost || s != nil
			res.runsLost = res.runsLost || s == nil
		}
	}
	res.FlowsPooled = PoolFlows(res)
	failures := []error{batch.Failures(runs, errs)}
	if out != nil {
		wctx, cancel := writeContext(ctx, opt.Abort)
		err := out.finish(wctx, res, summaries, opt.Part)
		aborted := wctx.Err() != nil
		cancel()
		if err != nil {
			failures = append(failures, err)
		}
		failures = append(failures, out.lostError(summaries))
		if !aborted { // what it lacks is known only of outputs written to their end
			failures = append(failures, out.incompleteError(res))
		}
		if (err == nil || IsFigureError(err)) && opt.Out == nil {
			// The batch's outputs are all written (but figures that
			// failed): what an earlier batch wrote and this one did not
			// goes.
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

// Files lists the files a batch of e writes into its directory with opt
// (paths in it, or patterns of path.Match): the one list of a batch's
// outputs. The batch checks every name on it before its runs
// (outdir.CheckNames), and a test checks that a batch writes nothing else:
// a writer of a new output adds its file here.
func Files(e *experiments.Experiment, opt Options) ([]string, error) {
	runs, err := e.Runs()
	if err != nil {
		return nil, err
	}
	var todo []int
	if opt.Part != nil {
		if todo, err = opt.Part.Runs(len(runs)); err != nil {
			return nil, err
		}
	}
	return files(e, runs, todo, plots.Options{Format: opt.Plot}, opt.Series, opt.Part), nil
}

// files is Files for the runs todo (nil: all) of runs.
func files(e *experiments.Experiment, runs []experiments.Run, todo []int, plot plots.Options, series Series, part Part) []string {
	names := []string{"experiment.toml"}
	if !series.None {
		names = append(names, SeriesFile)
	}
	names = append(names, FlowsFile) // with flows of a given size
	names = append(names, FinishFiles(plot)...)
	if plot.Format != "" {
		names = append(names, plots.QueueCDFNames(e, plot.Format)...)
		add := func(i int) {
			names = append(names, plots.RunFigureName(i, len(runs), e.ShortLabel(runs[i]), plot.Format))
		}
		if todo == nil {
			for i := range runs {
				add(i)
			}
		}
		for _, i := range todo {
			add(i)
		}
	}
	if part != nil {
		names = append(names, part.Files()...)
	}
	return names
}

// FinishFiles lists what Finish writes.
func FinishFiles(plot plots.Options) []string {
	names := []string{"results.csv", PortsFile, FCTFile, "summary.json"}
	if plot.Format != "" {
		names = append(names, "plots/sweep."+plot.Format, "plots/queue-cdf*."+plot.Format, plots.FCTFigureName(plot.Format))
	}
	return names
}

// A FigureError is figures that could not be drawn or written, when every
// other output was: no run's data is lost to a figure.
type FigureError struct{ Err error }

func (f *FigureError) Error() string { return f.Err.Error() }
func (f *FigureError) Unwrap() error { return f.Err }

// IsFigureError reports whether err is only figures that failed.
func IsFigureError(err error) bool {
	var f *FigureError
	return errors.As(err, &f) && f == err
}

// figureError is errs, the figures' errors, as a FigureError; nil if none.
func figureError(errs []error) error {
	if err := errors.Join(errs...); err != nil {
		return &FigureError{Err: err}
	}
	return nil
}

// Finish writes the outputs of a batch that come from its summaries, each
// through a temporary file and a rename: results.csv, with a plot format
// the sweep's figure and the queue CDFs (plots/), then summary.json, last:
// the directory of a batch stopped while it wrote its outputs has no
// summary.json. A figure that fails stops nothing: the others and
// summary.json are written, and Finish returns a FigureError. Nor does any
// other file that cannot be written (a full disk): the runs' numbers may
// still fit in the next, and summary.json, if it can be written, says
// complete false; Finish returns their errors. A batch run and a merge of
// shards both end with it. It stops when ctx is cancelled, with ctx's
// error.
func Finish(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, res *Result, plot plots.Options) error {
	return finish(ctx, dir, e, res, plot, nil)
}

// room is what a batch's end can still do for the files of its runs'
// numbers, written last: free the room of a joined file (the time series,
// the flows) that is not yet committed, or of a run's figure, and commit
// the joined files left.
type room struct {
	// free discards the next joined files not committed, then runs'
	// figures, if why says the disk is full and their room lets a file of
	// need bytes fit, and reports whether it did: then the write may try
	// again.
	free func(why error, need func() (int64, error)) bool
	// keep commits the joined files left, and reports whether one failed
	// (what summary.json is to say of it changed).
	keep func() bool
}

func (r *room) yield(why error, need func() (int64, error)) bool {
	return r != nil && r.free(why, need)
}

func (r *room) commit() bool { return r != nil && r.keep() }

// finish is Finish, the joined files of room (nil: none) giving way to the
// runs' numbers if the disk is full, and committed just before summary.json.
func finish(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, res *Result, plot plots.Options, room *room) error {
	// A file of the runs' numbers that fails is named in summary.json; one
	// that does not fit has the joined files give way to it first.
	// short says that a joined file gave way, or a file of the numbers
	// failed: the sweep's figures are then not drawn, their room left to
	// the numbers still to write.
	short := false
	data := func(file string, render func(io.Writer) error) func() error {
		return func() error {
			write := func() error { return writeThrough(ctx, dir, file, render) }
			err := write()
			for err != nil && ctx.Err() == nil && room.yield(err, func() (int64, error) { return renderedSize(render) }) {
				short = true
				err = write()
			}
			if err != nil && ctx.Err() == nil {
				short = true
				res.lacking(file, false, nil)
			}
			return err
		}
	}
	steps := []func() error{
		data("results.csv", func(w io.Writer) error { return renderResults(ctx, w, e, res) }),
		data(PortsFile, func(w io.Writer) error { return renderPorts(ctx, w, e, res) }),
	}
	if len(res.FlowsPooled) > 0 {
		steps = append(steps, data(FCTFile, func(w io.Writer) error { return writeFCTRows(w, e, res.FlowsPooled) }))
	}
	var figures []error
	// figure runs a figure's writer: its failure is kept for the end, and
	// those of its figures (names) that are not there go in summary.json;
	// but a cancellation stops Finish.
	skipped := false
	figure := func(names []string, write func() error) func() error {
		return func() error {
			if short {
				if !skipped {
					skipped = true
					figures = append(figures, skipSweepFigures(dir, e, res, plot.Format))
				}
				return nil
			}
			if err := write(); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				figures = append(figures, plotError(err))
				for _, name := range names {
					if f, err := dir.Open(name); err == nil {
						f.Close()
					} else {
						res.lacking(name, false, nil)
					}
				}
			}
			return nil
		}
	}
	if plot.Format != "" {
		steps = append(steps,
			figure([]string{"plots/sweep." + plot.Format}, func() error { return plots.WriteSweep(ctx, dir, e, res.Runs, plot) }),
			figure(plots.QueueCDFNames(e, plot.Format), func() error { return plots.WriteQueueCDFs(ctx, dir, e, res.Runs, plot) }))
		if len(res.FlowsPooled) > 0 {
			steps = append(steps, figure([]string{plots.FCTFigureName(plot.Format)}, func() error {
				return plots.WriteFCT(ctx, dir, e.Name+": slowdown by flow size", fctLines(e, res.FlowsPooled), plot)
			}))
		}
	}
	var failed []error
	steps = append(steps, func() error {
		if len(failed) > 0 {
			res.Complete = false // the directory lacks some of the batch
		}
		return writeSummary(ctx, dir, res, room)
	})
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed = append(failed, withoutTemp(err)) // one by one: withoutTemp of their join named no file
		}
	}
	if len(failed) > 0 {
		return errors.Join(append(failed, figures...)...)
	}
	return figureError(figures)
}

func plotError(err error) error {
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// selected is the runs a batch (or its shard) executes: todo, or all of them.
func selected(runs []experiments.Run, todo []int) []experiments.Run {
	if todo == nil {
		return runs
	}
	out := make([]experiments.Run, 0, len(todo))
	for _, i := range todo {
		out = append(out, runs[i])
	}
	return out
}
