package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/keys"
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
	toml      []byte            // experiment.toml
	runs      []experiments.Run // every run of the batch
	labels    []string          // of every run of the batch
	rows      []int             // time series rows written per run
	figures   []error           // per run, its figure's error: the run's data is kept
	plot      plots.Options     // figures; Format "" for none
	series    Series
	every     algos.Time // series.Every
	sources   int        // the most sources of any run: the rate columns
	links     int        // the most links of any run: the queue columns
	// kept says, per run, that its parts (time series, flows) are whole:
	// only those are joined.
	kept []bool
	// bare says, per run, that it started after a write found the
	// directory full or gone (lost), and so ran without its files: only
	// its summary is kept.
	bare    []bool
	mu      sync.Mutex
	lost    error // the first such write's error; nil while files can be written
	lostRun int   // the run whose write it was
	// pending is the joined files (time series, then flows) not yet
	// committed: they give way to the runs' numbers if those do not fit
	// (giveWay), and are committed just before summary.json (commit).
	pending []pendingFile
	yielded []error // what giveWay and commit lost, for the batch's error
}

// pendingFile is a joined file of the batch, written whole but not yet
// committed.
type pendingFile struct {
	tmp  *outdir.Temp
	name string
	runs []int // the finished runs of its kind: all it lacks if it is not written
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
	o := &outputs{dir: dir, runs: runs, plot: plot, series: series, every: series.Every, exp: e, toml: saved.Bytes(), rows: make([]int, len(runs)), figures: make([]error, len(runs)),
		kept: make([]bool, len(runs)), bare: make([]bool, len(runs))}
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
// cancelled, its temporary files removed. A file that cannot be written
// stops nothing else: the runs' numbers still go to results.csv and
// summary.json if they can, and the error names each file that failed.
func (o *outputs) finish(ctx context.Context, res *Result, summaries []*batch.RunSummary, part Part) error {
	var failed []error
	if !o.series.None {
		if err := o.writeSeries(ctx, res, summaries); err != nil {
			if ctx.Err() != nil {
				return err
			}
			failed = append(failed, err)
		}
	}
	if hasFlows(summaries) {
		if err := o.joinFlows(ctx, res, summaries); err != nil {
			if ctx.Err() != nil {
				return err
			}
			o.markLost(-1, err)
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		// summary.json says the directory lacks some of the batch.
		res.Complete, res.outputsLost = false, true
	}
	if o.plot.Format != "" {
		var lack []int
		for i, s := range summaries {
			// A run without its parts has no figure either (recorder.Finish).
			if s != nil && (!o.kept[i] || o.figures[i] != nil) {
				lack = append(lack, i)
			}
		}
		if len(lack) > 0 {
			// One entry for them all: a batch of 1,000 runs had 1,000.
			res.lacking(RunFigures(o.plot.Format), false, lack)
		}
	}
	figures := slices.DeleteFunc(slices.Clone(o.figures), func(err error) bool { return err == nil })
	plot := o.plot
	if o.isLost() && plot.Format != "" {
		figures = append(figures, skipSweepFigures(o.dir, o.exp, res, plot.Format))
		plot.Format = ""
	}
	err := finish(ctx, o.dir, o.exp, res, plot, &room{free: func(why error, need func() (int64, error)) bool { return o.giveWay(res, why, need) }, keep: func() bool { return o.commit(res) }})
	if ctx.Err() == nil {
		o.commit(res) // any Finish did not reach (summary.json failed to encode)
	} // else they go with the directory's temporaries
	if len(o.yielded) > 0 {
		failed = append(failed, o.yielded...)
		res.Complete, res.outputsLost = false, true
	}
	if IsFigureError(err) {
		figures = append(figures, err.(*FigureError).Err)
	} else if err != nil {
		if ctx.Err() != nil {
			return err
		}
		failed = append(failed, err)
		res.outputsLost = true
		o.markLost(-1, err) // so that the error says where the numbers are
	}
	for i, err := range figures {
		figures[i] = withoutTemp(err)
	}
	for i, err := range failed {
		failed[i] = withoutTemp(err)
	}
	if part != nil && res.outputsLost {
		// A part whose runs lack their files is not one to merge.
		record := "the part's record"
		if names := part.Files(); len(names) > 0 {
			record = o.dir.Join(names[0])
		}
		failed = append(failed, fmt.Errorf("%s: not written, as this part's outputs are not whole: run it again", record))
	} else if part != nil {
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
	if len(failed) > 0 {
		return errors.Join(append(failed, errors.Join(figures...))...)
	}
	return figureError(figures)
}

// writeSeries writes timeseries.csv.gz, to be committed just before
// summary.json (o.pending), then empties the parts, joined or lost with it,
// to leave their room to results.csv and summary.json, which hold the runs'
// numbers: a joined file takes no more room than its parts held, and one
// that fails takes none. A file that would hold the header alone while
// runs finished (every part lost) is not written: it would read as runs of
// no rows. res names it, or the runs it lacks.
func (o *outputs) writeSeries(ctx context.Context, res *Result, summaries []*batch.RunSummary) error {
	joined, lacks := o.whole(summaries, func(*batch.RunSummary) bool { return true })
	if joined == 0 && len(lacks) > 0 {
		res.lacking(SeriesFile, false, lacks)
		return nil
	}
	tmp, err := o.dir.CreateTemp(".", SeriesFile)
	if err == nil {
		if err = o.joinParts(ctx, tmp, summaries); err != nil {
			o.dir.Discard(tmp)
			if ctx.Err() == nil {
				err = o.fileError(SeriesFile, err)
			}
		} else {
			o.pending = append(o.pending, pendingFile{tmp, SeriesFile, o.runsOf(summaries, func(*batch.RunSummary) bool { return true })})
		}
	}
	switch {
	case err == nil && len(lacks) > 0:
		res.lacking(SeriesFile, true, lacks)
	case err != nil && ctx.Err() == nil:
		res.lacking(SeriesFile, false, nil)
	}
	if err != nil && ctx.Err() == nil {
		o.markLost(-1, err)
	}
	o.emptyParts(o.parts, partName, summaries, func(*batch.RunSummary) bool { return true })
	return err
}

// giveWay discards the first joined files not yet committed, if why says
// the disk is full and that frees room enough for a file of the runs'
// numbers that did not fit (need says its size): those come first. It
// reports whether it discarded any. Joined files whose room would not make
// that file fit are kept: discarded, they would be lost for nothing. Nor
// do they give way if the free space cannot be read, or if the disk says
// it has room enough already (a quota, not the disk, is full).
func (o *outputs) giveWay(res *Result, why error, need func() (int64, error)) bool {
	if len(o.pending) == 0 || !roomless(why) {
		return false
	}
	free, block, err := freeSpace(o.dir.Path())
	if err != nil {
		return false
	}
	size, err := need()
	if err != nil {
		return false
	}
	if size = onDisk(size, block); free >= size {
		return false
	}
	n := 0 // the files to discard
	for room := free; room < size; n++ {
		if n == len(o.pending) {
			return false
		}
		info, err := o.pending[n].tmp.Stat()
		if err != nil {
			return false
		}
		room += info.Size()
	}
	for _, p := range o.pending[:n] {
		o.dir.Discard(p.tmp)
		res.notLacking(p.name)
		res.lacking(p.name, false, p.runs)
		o.yielded = append(o.yielded, fmt.Errorf("%s: not written, to leave its room to the runs' numbers", o.dir.Join(p.name)))
	}
	o.pending = o.pending[n:]
	o.markLost(-1, why)
	return true
}

// commit commits the joined files not yet committed, and reports whether
// one failed: then res says it is not written.
func (o *outputs) commit(res *Result) (failed bool) {
	for _, p := range o.pending {
		if err := o.dir.Commit(p.tmp, p.name); err != nil {
			res.notLacking(p.name)
			res.lacking(p.name, false, p.runs)
			o.markLost(-1, err)
			o.yielded = append(o.yielded, err)
			failed = true
		}
	}
	o.pending = nil
	return failed
}

// roomless reports whether err says that the disk is full or the quota
// used up: what another file's room may cure.
func roomless(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// emptyParts truncates the whole parts in folder of the finished runs that
// has says have data for its file, once that file is joined or lost: kept
// until the batch's end, they held the room that results.csv and
// summary.json, written after them, may need. The folder goes when the
// directory is closed.
func (o *outputs) emptyParts(folder string, name func(int) string, summaries []*batch.RunSummary, has func(*batch.RunSummary) bool) {
	for i, s := range summaries {
		if s == nil || !has(s) || !o.kept[i] {
			continue
		}
		if f, err := o.dir.CreateIn(folder, name(i)); err == nil { // truncated
			f.Close()
		}
	}
}

// whole counts the finished runs of a file (those that has says have data
// for it) whose parts are whole, and lists those whose parts are not.
func (o *outputs) whole(summaries []*batch.RunSummary, has func(*batch.RunSummary) bool) (joined int, lacks []int) {
	for i, s := range summaries {
		switch {
		case s == nil || !has(s):
		case o.kept[i]:
			joined++
		default:
			lacks = append(lacks, i)
		}
	}
	return joined, lacks
}

// runsOf lists the finished runs that has says have data for a file.
func (o *outputs) runsOf(summaries []*batch.RunSummary, has func(*batch.RunSummary) bool) []int {
	var runs []int
	for i, s := range summaries {
		if s != nil && has(s) {
			runs = append(runs, i)
		}
	}
	return runs
}

// cannotKeep reports whether err says that the directory takes no more
// files: it is full (ENOSPC, EDQUOT), read-only, or gone.
func cannotKeep(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS) ||
		errors.Is(err, fs.ErrNotExist)
}

// markLost records err, a failed write of run i (-1: of the batch's
// files), if it says that the directory takes no more files: from then on
// the runs start without their files (Start), their summaries only kept.
func (o *outputs) markLost(i int, err error) {
	if !cannotKeep(err) {
		return
	}
	o.mu.Lock()
	if o.lost == nil {
		o.lost, o.lostRun = err, i
	}
	o.mu.Unlock()
}

func (o *outputs) isLost() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lost != nil
}

// fileError names name, an output of the batch, as the file that failed,
// not the temporary or part file the error came from.
func (o *outputs) fileError(name string, err error) error {
	return fmt.Errorf("%s: %w", o.dir.Join(name), pathless(err))
}

// pathless is err without the path it names, if any.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// withoutTemp is err without the name of the temporary file it came from,
// which its message names beside the output's: "DIR/summary.json: write
// DIR/.summary.json.RANDOM.tmp: no space left on device" says
// "DIR/summary.json: no space left on device". It is still err for
// errors.Is and errors.As.
func withoutTemp(err error) error {
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	base := filepath.Base(pe.Path)
	if !strings.HasPrefix(base, ".") || !strings.HasSuffix(base, ".tmp") {
		return err
	}
	if err.Error() == pe.Error() {
		// The temporary alone ("write DIR/.results.csv.RANDOM.tmp: ..."):
		// named by its output, or the message would name no file.
		output := strings.TrimSuffix(base[1:], ".tmp")
		if i := strings.LastIndexByte(output, '.'); i > 0 {
			output = output[:i]
		}
		return &renamed{msg: filepath.Join(filepath.Dir(pe.Path), output) + ": " + pe.Err.Error(), err: err}
	}
	return &renamed{msg: strings.Replace(err.Error(), pe.Error(), pe.Err.Error(), 1), err: err}
}

// renamed is an error with a message of its own.
type renamed struct {
	msg string
	err error
}

func (r *renamed) Error() string { return r.msg }
func (r *renamed) Unwrap() error { return r.err }

// partError names a run's share of name, the output its part was for.
func (o *outputs) partError(name string, err error) error {
	return fmt.Errorf("its rows of %w", o.fileError(name, err))
}

// lostError says what a batch that found its directory full or gone kept
// and what it did not; nil if it did not.
func (o *outputs) lostError(summaries []*batch.RunSummary) error {
	o.mu.Lock()
	lost, at := o.lost, o.lostRun
	o.mu.Unlock()
	if lost == nil {
		return nil
	}
	var bare []int
	finished := 0
	for i, s := range summaries {
		if s != nil {
			finished++
			if o.bare[i] {
				bare = append(bare, i)
			}
		}
	}
	why, gone := cause(lost), o.gone()
	if gone {
		why = errors.New("the directory is gone")
	}
	var msg string
	switch {
	case at >= 0:
		msg = fmt.Sprintf("%s: %v, found writing run %d's files; ", o.dir.Path(), why, at)
	case gone:
		msg = fmt.Sprintf("%s: %v; ", o.dir.Path(), why)
	default:
		// A file of the batch's own, whose error, just before, names it
		// and says why: said again here, it named the directory twice
		// ("DIR: DIR/timeseries.csv.gz: ...").
	}
	if len(bare) > 0 {
		msg += fmt.Sprintf("so the %s that started after it ran without theirs (time series, flows, figures); ", runCount(bare))
	}
	var files []string
	for _, name := range []string{"summary.json", "results.csv"} {
		if o.written(name) {
			files = append(files, name)
		}
	}
	kept := "in " + strings.Join(files, ", ") + " and the printed summary"
	switch {
	case len(files) == 0:
		kept = "only in the printed summary (summary.json could not be written)"
	case files[0] != "summary.json":
		kept += " (summary.json could not be written)"
	}
	switch {
	case finished == 0 && msg == "":
		return nil // no numbers to keep, and the file's error says the rest
	case finished == 0:
		return fmt.Errorf("%sno run finished", msg)
	case finished == 1:
		return fmt.Errorf("%sthe numbers of the one finished run are %s", msg, kept)
	}
	return fmt.Errorf("%sthe numbers of the %d finished runs are %s", msg, finished, kept)
}

// cause is what err says went wrong, without the path it names, if any:
// "no space left on device".
func cause(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return pathless(err)
}

// gone reports whether the directory was removed.
func (o *outputs) gone() bool {
	_, err := os.Stat(o.dir.Path())
	return err != nil
}

// written reports whether this batch wrote the file name (Begin removed
// an earlier batch's).
func (o *outputs) written(name string) bool {
	f, err := o.dir.Open(name)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// incompleteError names the outputs that the directory lacks, or that lack
// some of the finished runs (res.Incomplete), and summary.json if it could
// not be written; nil if there are none, or if the directory is gone.
func (o *outputs) incompleteError(res *Result) error {
	if o.gone() {
		return nil
	}
	var items, sweep []string
	for _, f := range res.Incomplete {
		switch {
		case strings.HasPrefix(f.File, "plots/run"):
			items = append(items, "the figures of "+runCount(f.Lacks))
		case strings.HasPrefix(f.File, "plots/"):
			sweep = append(sweep, f.File) // named together, after the rest
		case f.Written:
			items = append(items, fmt.Sprintf("the rows of %s in %s", runCount(f.Lacks), f.File))
		default:
			items = append(items, f.File)
		}
	}
	if len(sweep) > 0 {
		items = append(items, sweepCount(sweep))
	}
	if !o.written("summary.json") {
		items = append(items, "summary.json")
	}
	if len(items) == 0 {
		return nil
	}
	return fmt.Errorf("%s lacks: %s", o.dir.Path(), strings.Join(items, "; "))
}

// runCount names runs by their indices: "run 4", "3 runs (4 to 6)",
// "3 runs (4, 7, 9)".
func runCount(runs []int) string {
	n := len(runs)
	switch {
	case n == 1:
		return fmt.Sprintf("run %d", runs[0])
	case runs[n-1]-runs[0] == n-1:
		return fmt.Sprintf("%d runs (%d to %d)", n, runs[0], runs[n-1])
	case n <= 5:
		return fmt.Sprintf("%d runs (%s)", n, strings.Trim(fmt.Sprint(runs), "[]"))
	}
	return fmt.Sprintf("%d runs (%d, %d, ..., %d)", n, runs[0], runs[1], runs[n-1])
}

// sweepCount names the sweep's figures: "the sweep's figure plots/sweep.svg",
// "the 20 sweep figures (plots/sweep.svg, plots/queue-cdf_rtt=1us.svg,
// ..., plots/fct.svg)".
func sweepCount(names []string) string {
	switch n := len(names); {
	case n == 1:
		return "the sweep's figure " + names[0]
	case n <= 3:
		return "the sweep's figures " + strings.Join(names, ", ")
	default:
		return fmt.Sprintf("the %d sweep figures (%s, %s, ..., %s)", n, names[0], names[1], names[n-1])
	}
}

// skipSweepFigures names the sweep's figures in res as not drawn, and says
// why: the numbers first, what room is left goes to summary.json.
func skipSweepFigures(dir *outdir.Dir, e *experiments.Experiment, res *Result, format string) error {
	for _, name := range sweepFigures(e, res, format) {
		res.lacking(name, false, nil)
	}
	return fmt.Errorf("%s: the sweep's figures are not drawn, to leave what room there is to the numbers", dir.Join("plots"))
}

// RunFigures names the runs' figures in summary.json's incomplete_outputs:
// one entry, "plots/run*.svg", lists the runs whose figure is missing.
func RunFigures(format string) string { return "plots/run*." + format }

// sweepFigures lists the figures Finish draws of res in format from the
// runs' summaries: the sweep's (if a numeric key other than the seed is
// swept, as plots.WriteSweep), the queue CDFs and, with flows of a given
// size, the FCT figure.
func sweepFigures(e *experiments.Experiment, res *Result, format string) []string {
	if len(res.Runs) == 0 {
		return nil
	}
	var names []string
	for _, a := range e.Sweep {
		if _, err := keys.NumericKind(a.Key); a.Key == "seed" || err != nil {
			continue
		}
		if slices.ContainsFunc(res.Runs, func(r batch.RunSummary) bool { _, ok := r.Point[a.Key]; return ok }) {
			names = append(names, "plots/sweep."+format)
		}
		break
	}
	names = append(names, plots.QueueCDFNames(e, format)...)
	if len(res.FlowsPooled) > 0 {
		names = append(names, plots.FCTFigureName(format))
	}
	return names
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
// Once the directory is found full or gone, a run starts without them: it
// still runs, and its summary is kept.
func (o *outputs) Start(i int, run experiments.Run, cfg *model.Config) (batch.Recorder, error) {
	r := &recorder{o: o, i: i, run: run}
	if o.isLost() {
		o.bare[i] = true
		return bareRecorder{}, nil
	}
	if !o.series.None {
		var err error
		if r.series, err = o.newSeries(i, run); err != nil {
			o.markLost(i, err)
			return nil, o.partError(SeriesFile, err)
		}
	}
	if cfg.HasSizedFlows() {
		var err error
		if r.flows, err = o.newFlows(i, run); err != nil {
			r.Discard()
			o.markLost(i, err)
			return nil, o.partError(FlowsFile, err)
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

// Finish closes the run's parts and draws its figure. A part that cannot
// be written fails the run (its summary is kept) and is emptied, to leave
// room for the others. A figure that fails fails the batch at its end, not
// the run: its data is kept.
func (r *recorder) Finish(s *batch.RunSummary) error {
	var failed []error
	if r.flows != nil {
		if err := r.flows.close(); err != nil {
			r.o.markLost(r.i, err)
			failed = append(failed, r.o.partError(FlowsFile, err))
		}
	}
	if r.series != nil {
		if err := r.series.close(); err != nil {
			r.o.markLost(r.i, err)
			failed = append(failed, r.o.partError(SeriesFile, err))
		}
		r.o.rows[r.i] = r.series.rows
	}
	if len(failed) > 0 {
		r.Discard()
		return errors.Join(failed...)
	}
	r.o.kept[r.i] = true
	if r.fig != nil {
		data, err := r.fig.Render(s, r.o.plot)
		if err == nil {
			err = r.o.dir.WriteFile(plots.RunFigureName(r.i, len(r.o.labels), r.o.exp.ShortLabel(r.run), r.o.plot.Format), data)
			r.o.markLost(r.i, err)
		}
		if err != nil {
			r.o.figures[r.i] = fmt.Errorf("plot of run %d: %w", r.i, err)
		}
	}
	return nil
}

// bareRecorder records nothing: the run's summary is all that is kept.
type bareRecorder struct{}

func (bareRecorder) Sample(*model.Sample)           {}
func (bareRecorder) Finish(*batch.RunSummary) error { return nil }
func (bareRecorder) Discard()                       {}

func (r *recorder) Discard() {
	if r.flows != nil {
		r.flows.discard()
	}
	if r.series != nil {
		r.series.discard()
	}
}
