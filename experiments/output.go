package experiments

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"qcnlab/algos"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
	"qcnlab/units"
)

// seriesWriter writes one run's time series as CSV rows into its part file.
// Its methods do nothing on a nil writer, the case without an output dir.
type seriesWriter struct {
	f       io.WriteCloser
	w       *bufio.Writer
	prefix  []byte // the run's identifying columns, with a trailing comma
	buf     []byte
	rows    int
	sources int
	links   int
	err     error
}

func (o *outputs) series(i int, run Run) (*seriesWriter, error) {
	f, err := o.dir.CreateIn(o.parts, partName(i))
	if err != nil {
		return nil, err
	}
	return &seriesWriter{f: f, w: bufio.NewWriterSize(f, 1<<16), prefix: SeriesPrefix(o.columns, run), sources: o.sources, links: o.links}, nil
}

// SeriesPrefix is the start of each of a run's rows in timeseries.csv: its
// algorithm and its values of the swept keys columns, and a comma.
func SeriesPrefix(columns []string, run Run) []byte {
	cells := []string{run.Algorithm}
	for _, key := range columns {
		for _, a := range run.Point {
			if a.Key == key {
				cells = append(cells, strings.Trim(a.Value, `"`))
			}
		}
	}
	return csvRow(cells, true)
}

// csvRow formats cells as one CSV line, or as a prefix ending in a comma.
func csvRow(cells []string, prefix bool) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(cells)
	w.Flush()
	line := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if prefix {
		return append(line, ',')
	}
	return append(line, '\n')
}

func (s *seriesWriter) write(x *model.Sample) {
	buf := append(s.buf[:0], s.prefix...)
	buf = strconv.AppendFloat(buf, x.Time.Seconds(), 'g', -1, 64)
	for j := 0; j < s.links; j++ {
		buf = append(buf, ',')
		if j < len(x.Queues) {
			buf = strconv.AppendInt(buf, int64(x.Queues[j]), 10)
		}
	}
	for i := 0; i < s.sources; i++ {
		buf = append(buf, ',')
		if i < len(x.Rates) {
			buf = strconv.AppendFloat(buf, x.Rates[i], 'g', -1, 64)
		}
	}
	for j := 0; j < s.links; j++ {
		buf = append(buf, ',')
		if j < len(x.Capacity) {
			buf = strconv.AppendFloat(buf, x.Capacity[j], 'g', -1, 64)
		}
	}
	buf = append(buf, '\n')
	s.rows++
	if _, err := s.w.Write(buf); err != nil && s.err == nil {
		s.err = err
	}
	s.buf = buf
}

func (s *seriesWriter) close() error {
	if s == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if s.err != nil {
		return s.err
	}
	return err
}

// discard drops a run's rows: its part stays in the temporary folder, which
// goes with the directory's Close.
func (s *seriesWriter) discard() {
	if s != nil {
		s.f.Close()
	}
}

// finish writes timeseries.csv from the finished runs' parts, in run order,
// and summary.json, each through a temporary file and a rename.
// It stops when ctx is cancelled, its temporary files removed.
func (o *outputs) finish(ctx context.Context, res *Result, summaries []*RunSummary) error {
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
	if err := WriteSummaryFile(ctx, o.dir, res); err != nil {
		return err
	}
	if err := WriteResultsFile(ctx, o.dir, o.exp, res); err != nil {
		return err
	}
	if o.plot != "" {
		if err := WriteSweepPlot(ctx, o.dir, o.exp, res, o.plot); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		if err := WriteQueueCDFs(ctx, o.dir, o.exp, res, o.plot); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
	}
	if o.shard.sharded() {
		return o.writeManifest(summaries)
	}
	return nil
}

// joinParts writes timeseries.csv's header and the finished runs' parts.
func (o *outputs) joinParts(ctx context.Context, w io.Writer, summaries []*RunSummary) error {
	header := append([]string{"algorithm"}, o.columns...)
	header = append(header, "time_s")
	for j := 0; j < o.links; j++ {
		header = append(header, fmt.Sprintf("queue_sw%d_bytes", j))
	}
	for i := 0; i < o.sources; i++ {
		header = append(header, fmt.Sprintf("rate_%d_bps", i))
	}
	for j := 0; j < o.links; j++ {
		header = append(header, fmt.Sprintf("capacity_sw%d_bps", j))
	}
	if _, err := w.Write(csvRow(header, false)); err != nil {
		return err
	}
	for i, s := range summaries {
		if s == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		part, err := o.dir.Open(o.parts + "/" + partName(i))
		if err != nil {
			return err
		}
		_, err = io.Copy(w, ctxReader{ctx, part})
		part.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteSummaryFile writes a batch's summary.json into dir.
// Encoding a summary of many sources and phases takes seconds; if ctx is
// cancelled meanwhile it returns at once and writes nothing.
func WriteSummaryFile(ctx context.Context, dir *outdir.Dir, res *Result) error {
	type encoded struct {
		data []byte
		err  error
	}
	done := make(chan encoded, 1)
	go func() {
		data, err := json.MarshalIndent(res, "", "  ")
		done <- encoded{data, err}
	}()
	var data []byte
	select {
	case e := <-done:
		if e.err != nil {
			return e.err
		}
		data = e.data
	case <-ctx.Done():
		return ctx.Err()
	}
	return dir.WriteFile("summary.json", append(data, '\n'))
}

// WriteJSON writes the result as JSON.
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// WriteText writes a summary for people: one block per run.
func WriteText(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, r := range res.Runs {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		label := r.label
		if label == "" {
			label = r.Algorithm
		}
		fmt.Fprintf(tw, "%s  (seed %d)\t%s simulated in %.3f s wall, %d frames, %.1f M frames/s\n", label, r.Seed,
			units.FormatDuration(algos.Seconds(r.SimSeconds)), r.WallSeconds, r.Frames, float64(r.Frames)/max(r.WallSeconds, 1e-9)/1e6)
		for _, b := range r.Bottlenecks {
			fmt.Fprintf(tw, "  %s %s\tutilization %.2f%%, drops %d, empty %.1f%% of the time\n", b.Name, units.FormatRate(b.CapacityBps),
				100*b.Utilization, b.Drops, 100*b.EmptyFraction)
			fmt.Fprintf(tw, "  queue\tmean %s, std %s, min %s, max %s (target %s)\n", kb(b.QueueMean), kb(b.QueueStd),
				kb(b.QueueMin), kb(b.QueueMax), kb(b.QEq))
			if b.PauseFrames > 0 || b.HeldFraction > 0 {
				fmt.Fprintf(tw, "  PFC\t%d pause frames, pausing its feeders %.1f%% of the time, paused %.1f%%\n",
					b.PauseFrames, 100*b.PausedFraction, 100*b.HeldFraction)
			}
		}
		jain := "none (nothing delivered)"
		if r.JainFairness != nil {
			jain = fmt.Sprintf("%.3f", *r.JainFairness)
		}
		fmt.Fprintf(tw, "  throughput\t%s Gbps; Jain fairness %s\n", throughputs(r.Sources), jain)
		var paused []string
		for _, s := range r.Sources {
			if s.PausedFraction > 0 {
				paused = append(paused, fmt.Sprintf("%d: %.1f%%", s.ID, 100*s.PausedFraction))
			}
		}
		if len(paused) > maxListed {
			paused = append(paused[:maxListed], fmt.Sprintf("and %d more", len(paused)-maxListed))
		}
		if len(paused) > 0 {
			fmt.Fprintf(tw, "  sources paused\t%s of the time\n", strings.Join(paused, ", "))
		}
		ttf := "not reached"
		if r.JainFairness == nil {
			ttf = "none (nothing delivered)"
		} else if r.TimeToFairness != nil {
			ttf = fmt.Sprintf("%.2f ms", *r.TimeToFairness*1e3)
		}
		fmt.Fprintf(tw, "  time to fairness\t%s\n", ttf)
		if f := r.Flows; f != nil {
			fmt.Fprintf(tw, "  short flows\t%d started, %d completed, %d lost, mean size %s\n", f.Started, f.Completed, f.Lost, kb(f.SizeMean))
			fmt.Fprintf(tw, "  FCT\tmean %.3g ms, p50 %.3g ms, p99 %.3g ms; slowdown mean %.3g, p99 %.3g\n",
				1e3*f.FCTMean, 1e3*f.FCTP50, 1e3*f.FCTP99, f.SlowdownMean, f.SlowdownP99)
		}
	}
	switch {
	case res.Complete:
	case res.stopped:
		fmt.Fprintln(tw, "\n(incomplete: the batch was stopped)")
	default:
		fmt.Fprintln(tw, "\n(incomplete: some runs failed, as reported on stderr)")
	}
	return tw.Flush()
}

// maxListed is the most sources whose throughputs the text summary lists
// one by one; beyond it, the first and last few and the spread.
const maxListed = 32

// throughputs lists the sources' throughputs in Gbps.
func throughputs(sources []model.SourceSummary) string {
	gbps := func(ss []model.SourceSummary) string {
		var parts []string
		for _, s := range ss {
			parts = append(parts, fmt.Sprintf("%.3g", s.ThroughputBps/1e9))
		}
		return strings.Join(parts, " ")
	}
	if len(sources) <= maxListed {
		return gbps(sources)
	}
	xs := make([]float64, len(sources))
	for i, s := range sources {
		xs[i] = s.ThroughputBps / 1e9
	}
	slices.Sort(xs)
	return fmt.Sprintf("%s ... (%d more) ... %s; of the %d sources: min %.3g, median %.3g, max %.3g",
		gbps(sources[:8]), len(sources)-16, gbps(sources[len(sources)-8:]), len(sources), xs[0], xs[len(xs)/2], xs[len(xs)-1])
}

// Warnings are what a reader of the result should know about the numbers:
// a run with nothing delivered has no fairness to measure.
func Warnings(res *Result) []string {
	var out []string
	for _, r := range res.Runs {
		if r.JainFairness == nil {
			label := r.label
			if label == "" {
				label = r.Algorithm
			}
			out = append(out, fmt.Sprintf("%s: nothing was delivered in [warmup, duration]: jain_fairness and time_to_fairness_seconds are null "+
				"(a loop delay or start time beyond the run?)", label))
		}
	}
	return out
}

func kb(bytes float64) string { return fmt.Sprintf("%.1fKB", bytes/1e3) }

// ctxReader is a reader that stops when its context is cancelled: a copy of
// gigabytes of time series stops within a buffer.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
