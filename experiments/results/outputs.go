package results

import (
	"bytes"
	"context"
	"fmt"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/model"
)

// outputs writes a batch's files into a directory: the experiment first, the
// time series of each run into its own part file (in a temporary folder of
// this batch's) as it runs, and at the end timeseries.csv (the finished
// parts, in run order), then what Finish writes. It is the batch's Sink.
type outputs struct {
	dir     *outdir.Dir
	parts   string // the temporary folder of the parts
	exp     *experiments.Experiment
	toml    []byte   // experiment.toml
	labels  []string // of every run of the batch
	rows    []int    // time series rows written per run
	plot    string   // figure format, "" for none
	columns []string // sweep keys
	sources int      // the most sources of any run: the rate columns
	links   int      // the most links of any run: the queue columns
	fabric  bool     // a run is on a fabric: its columns are its watched ports and flows
}

func newOutputs(dir *outdir.Dir, e *experiments.Experiment, runs []experiments.Run, plotFormat string) (*outputs, error) {
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
	o := &outputs{dir: dir, parts: parts, plot: plotFormat, exp: e, toml: saved.Bytes(), rows: make([]int, len(runs))}
	for _, a := range e.Sweep {
		o.columns = append(o.columns, a.Key)
	}
	for _, r := range runs {
		o.labels = append(o.labels, r.Label())
		queues, rates := r.Exp.SeriesShape()
		o.sources, o.links = max(o.sources, rates), max(o.links, queues)
		o.fabric = o.fabric || r.Exp.IsFabric()
	}
	return o, nil
}

// finish writes timeseries.csv from the finished runs' parts, in run order,
// then what Finish writes, then the part's record. It stops when ctx is
// cancelled, its temporary files removed.
func (o *outputs) finish(ctx context.Context, res *Result, summaries []*batch.RunSummary, part Part) error {
	tmp, err := o.dir.CreateTemp(".", "timeseries.csv")
	if err != nil {
		return err
	}
	if err := o.joinParts(ctx, tmp, summaries); err != nil {
		o.dir.Discard(tmp)
		return err
	}
	if err := o.dir.Commit(tmp, "timeseries.csv"); err != nil {
		return err
	}
	if err := Finish(ctx, o.dir, o.exp, res, o.plot); err != nil {
		return err
	}
	if part == nil {
		return nil
	}
	w := Written{Experiment: o.exp.Name, TOML: o.toml, Total: len(summaries)}
	for i, s := range summaries {
		if s != nil {
			w.Runs = append(w.Runs, WrittenRun{Index: i, Label: o.labels[i], Rows: o.rows[i]})
		}
	}
	return part.Record(ctx, o.dir, w)
}

// recorder records one run for the outputs: its time series into its part
// file, and with plots its figure.
type recorder struct {
	o      *outputs
	i      int
	series *seriesWriter
	fig    *plots.RunFigure
}

// Start begins run i's part file, and its figure if the batch draws them.
func (o *outputs) Start(i int, run experiments.Run, cfg *model.Config) (batch.Recorder, error) {
	series, err := o.series(i, run)
	if err != nil {
		return nil, err
	}
	r := &recorder{o: o, i: i, series: series}
	if o.plot != "" {
		r.fig = plots.NewRunFigure(run.Exp.Name+": "+run.Label(), cfg)
	}
	return r, nil
}

func (r *recorder) Sample(x *model.Sample) {
	r.series.write(x)
	if r.fig != nil {
		r.fig.Add(x)
	}
}

// Finish closes the run's part and draws its figure.
func (r *recorder) Finish(s *batch.RunSummary) error {
	if err := r.series.close(); err != nil {
		return err
	}
	r.o.rows[r.i] = r.series.rows
	if r.fig != nil {
		data, err := r.fig.Render(r.o.plot)
		if err == nil {
			err = r.o.dir.WriteFile(plots.RunFigureName(r.i, s.Label, r.o.plot), data)
		}
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
	}
	return nil
}

func (r *recorder) Discard() { r.series.discard() }
