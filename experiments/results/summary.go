package results

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"qcnlab/algos"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
	"qcnlab/units"
)

// WriteJSON writes the result as JSON, port names as they read
// ("leaf0->spine1", not "leaf0-\u003espine1").
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}

// WriteText writes a summary for people: one block per run.
func WriteText(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, r := range res.Runs {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		label := r.Label
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
			label := r.Label
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

// writeSummary writes a batch's summary.json into dir.
// Encoding a summary of many sources and phases takes seconds; if ctx is
// cancelled meanwhile it returns at once and writes nothing.
func writeSummary(ctx context.Context, dir *outdir.Dir, res *Result) error {
	type encoded struct {
		data []byte
		err  error
	}
	done := make(chan encoded, 1)
	go func() {
		var b bytes.Buffer
		err := WriteJSON(&b, res)
		done <- encoded{b.Bytes(), err}
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
	return dir.WriteFile("summary.json", data) // WriteJSON ends it with a newline
}
