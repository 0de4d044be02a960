package results

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/model"
)

// outputs writes a batch's files into a directory: the experiment first, the
// time series of each run into its own part file (in a temporary folder of
// this batch's) as it runs, and at the end timeseries.csv.gz (the finished
// parts, in run order), then what Finish writes. It is the batch's Sink.
type outputs struct {
	dir   *outdir.Dir
	parts string // the temporary folder of the parts; "" without a time series
	// flowParts is the temporary folder of the runs' flow records.
	flowParts string
	exp       *experiments.Experiment
	toml      []byte        // experiment.toml
	labels    []string      // of every run of the batch
	rows      []int         // time series rows written per run
	figures   []error       // per run, its figure's error: the run's data is kept
	plot      plots.Options // figures; Format "" for none
	series    Series
	every     algos.Time // series.Every
	sources   int        // the most sources of any run: the rate columns
	links     int        // the most links of any run: the queue columns
}

func newOutputs(dir *outdir.Dir, e *experiments.Experiment, runs []experiments.Run, todo []int, plot plots.Options, series Series, part Part) (*outputs, error) {
	var saved bytes.Buffer
	if err := e.Encode(&saved); err != nil {
		return nil, err
	}
	// Every name the batch writes, before the runs, not after them.
	if err := dir.CheckNames(files(e, runs, todo, plot, series, part)...); err != nil {
		return nil, err
	}
	if plot.Format != "" {
		if err := dir.MkdirAll("plots"); err != nil {
			return nil, err
		}
	}
	// The earlier batch's files go before this one's first lands.
	if err := dir.Begin(); err != nil {
		return nil, err
	}
	if err := dir.WriteFile("experiment.toml", saved.Bytes()); err != nil {
		return nil, err
	}
	o := &outputs{dir: dir, plot: plot, series: series, every: series.Every, exp: e, toml: saved.Bytes(), rows: make([]int, len(runs)), figures: make([]error, len(runs))}
	if !series.None {
		var err error
		if o.parts, err = dir.MkdirTemp("parts"); err != nil {
			return nil, err
		}
	}
	var err error
	if o.flowParts, err = dir.MkdirTemp("flows"); err != nil {
		return nil, err
	}
	for _, r := range runs {
		o.labels = append(o.labels, r.Label())
		queues, rates := r.Exp.SeriesShape()
		o.sources, o.links = max(o.sources, rates), max(o.links, queues)
	}
	return o, nil
}

// finish writes timeseries.csv from the finished runs' parts, in run order,
// then what Finish writes, then the part's record. It stops when ctx is
// cancelled, its temporary files removed.
func (o *outputs) finish(ctx context.Context, res *Result, summaries []*batch.RunSummary, part Part) error {
	if !o.series.None {
		tmp, err := o.dir.CreateTemp(".", SeriesFile)
		if err != nil {
			return err
		}
		if err := o.joinParts(ctx, tmp, summaries); err != nil {
			o.dir.Discard(tmp)
			return err
		}
		if err := o.dir.Commit(tmp, SeriesFile); err != nil {
			return err
		}
	}
	if hasFlows(summaries) {
		if err := o.joinFlows(ctx, summaries); err != nil {
			return err
		}
	}
	figures := slices.DeleteFunc(slices.Clone(o.figures), func(err error) bool { return err == nil })
	if err := Finish(ctx, o.dir, o.exp, res, o.plot); IsFigureError(err) {
		figures = append(figures, err.(*FigureError).Err)
	} else if err != nil {
		return err
	}
	if part != nil {
		w := Written{Experiment: o.exp.Name, TOML: o.toml, Total: len(summaries), Series: o.series}
		for i, s := range summaries {
			if s != nil {
				w.Runs = append(w.Runs, WrittenRun{Index: i, Label: o.labels[i], Rows: o.rows[i], Flows: s.Flows.Histograms()})
			}
		}
		if err := part.Record(ctx, o.dir, w); err != nil {
			return err
		}
	}
	return figureError(figures)
}

// recorder records one run for the outputs: its time series into its part
// file, and with plots its figure.
type recorder struct {
	o      *outputs
	i      int
	run    experiments.Run
	series *seriesWriter
	flows  *flowWriter // nil unless the run has flows of a given size
	fig    *plots.RunFigure
}

// Start begins run i's part file, and its figure if the batch draws them.
func (o *outputs) Start(i int, run experiments.Run, cfg *model.Config) (batch.Recorder, error) {
	r := &recorder{o: o, i: i, run: run}
	if !o.series.None {
		var err error
		if r.series, err = o.newSeries(i, run); err != nil {
			return nil, err
		}
	}
	if cfg.HasSizedFlows() {
		var err error
		if r.flows, err = o.newFlows(i, run); err != nil {
			return nil, err
		}
	}
	if o.plot.Format != "" {
		r.fig = plots.NewRunFigure(run.Exp.Name+": "+run.Exp.ShortLabel(run), cfg)
	}
	return r, nil
}

func (r *recorder) Sample(x *model.Sample) {
	if r.series != nil {
		r.series.write(x)
	}
	if r.fig != nil {
		r.fig.Add(x)
	}
}

// Flow writes a flow's record into the run's part.
func (r *recorder) Flow(x *model.FlowRecord) {
	if r.flows != nil {
		r.flows.write(x)
	}
}

// Finish closes the run's parts and draws its figure. A figure that fails
// fails the batch at its end, not the run: its data is kept.
func (r *recorder) Finish(s *batch.RunSummary) error {
	if r.flows != nil {
		if err := r.flows.close(); err != nil {
			return err
		}
	}
	if r.series != nil {
		if err := r.series.close(); err != nil {
			return err
		}
		r.o.rows[r.i] = r.series.rows
	}
	if r.fig != nil {
		data, err := r.fig.Render(s, r.o.plot)
		if err == nil {
			err = r.o.dir.WriteFile(plots.RunFigureName(r.i, len(r.o.labels), r.o.exp.ShortLabel(r.run), r.o.plot.Format), data)
		}
		if err != nil {
			r.o.figures[r.i] = fmt.Errorf("plot of run %d: %w", r.i, err)
		}
	}
	return nil
}

func (r *recorder) Discard() {
	if r.flows != nil {
		r.flows.discard()
	}
	if r.series != nil {
		r.series.discard()
	}
}
