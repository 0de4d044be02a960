package plots

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/outdir"
	"qcnlab/units"
)

// sweepPanels are the panels of a sweep's figure: a summary metric per
// bottleneck or per run, divided by scale for reading. A run without a
// value (no fairness when nothing was delivered, fairness never reached)
// is left out of its point's mean.
var sweepPanels = []struct {
	metric *metrics.Metric
	label  string
	scale  float64
}{
	{metrics.Utilization, "utilization", 1},
	{metrics.QueueMean, "queue mean (KB)", 1e3},
	{metrics.QueueStd, "queue std (KB)", 1e3},
	{metrics.EmptyFraction, "time queue empty (fraction)", 1},
	{metrics.Drops, "drops after warm-up", 1},
	{metrics.JainFairness, "Jain fairness", 1},
	{metrics.TimeToFairness, "time to fairness (s)", 1},
}

// sweepAxis is the swept key a sweep figure puts on its x axis: the first
// numeric one other than the seed, with a display unit.
type sweepAxis struct {
	key   string
	kind  algos.Kind
	scale float64 // base units per display unit
	unit  string
}

func newSweepAxis(e *experiments.Experiment, runs []batch.RunSummary) (sweepAxis, bool) {
	for _, a := range e.Sweep {
		kind, err := experiments.KeyKind(a.Key)
		if a.Key == "seed" || err != nil {
			continue
		}
		ax := sweepAxis{key: a.Key, kind: kind, scale: 1}
		top := 0.0
		for i := range runs {
			top = max(top, ax.base(runs[i].Point[a.Key]))
		}
		switch kind {
		case algos.Duration:
			ax.scale, ax.unit = 1e-6, "us"
			if top >= 10e-3 {
				ax.scale, ax.unit = 1e-3, "ms"
			}
		case algos.Bytes:
			ax.scale, ax.unit = 1e3, "KB"
		case algos.Rate:
			ax.scale, ax.unit = 1e9, "Gbps"
		}
		return ax, true
	}
	return sweepAxis{}, false
}

func (ax sweepAxis) base(text string) float64 {
	x, err := units.Parse(ax.kind, strings.Trim(text, `"`))
	if err != nil {
		return math.NaN()
	}
	return x
}

func (ax sweepAxis) label() string {
	if ax.unit == "" {
		return ax.key
	}
	return fmt.Sprintf("%s (%s)", ax.key, ax.unit)
}

// seriesKey names a line of a sweep figure: the algorithm and the values of
// the swept keys other than the x axis and the seed.
func seriesKey(e *experiments.Experiment, x string, r *batch.RunSummary) string {
	parts := []string{r.Algorithm}
	for _, a := range e.Sweep {
		if v, ok := r.Point[a.Key]; ok && a.Key != x && a.Key != "seed" {
			parts = append(parts, e.ShortKey(a.Key)+"="+strings.Trim(v, `"`))
		}
	}
	return strings.Join(parts, " ")
}

// errorPoints are means with symmetric error bars.
type errorPoints struct {
	plotter.XYs
	err []float64
}

func (p errorPoints) YError(i int) (float64, float64) { return p.err[i], p.err[i] }

// WriteSweep draws DIR/plots/sweep.FORMAT from a batch's runs: each summary
// metric against the first numeric swept key, one line per algorithm (and
// per value of the other swept keys, and per bottleneck), the mean over the
// seeds with error bars of one standard deviation. It draws nothing for a
// batch without such a key.
func WriteSweep(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, runs []batch.RunSummary, format string) error {
	ax, ok := newSweepAxis(e, runs)
	if !ok {
		return nil
	}
	links := 0
	for _, r := range runs {
		links = max(links, len(r.Bottlenecks))
	}
	var panels []*plot.Plot
	for m, panel := range sweepPanels {
		perQ := panel.metric.Scope == metrics.Bottleneck // one line per bottleneck
		p := plot.New()
		p.Y.Label.Text = panel.label
		p.X.Label.Text = ax.label()
		// line name -> x -> values over the seeds; names in first-seen order.
		var names []string
		values := map[string]map[float64][]float64{}
		for i := range runs {
			r := &runs[i]
			x := ax.base(r.Point[ax.key]) / ax.scale
			for j := range max(1, len(r.Bottlenecks)) {
				if !perQ && j > 0 {
					continue
				}
				v, ok := panel.metric.Value(&r.Summary, j)
				if !ok {
					continue
				}
				v /= panel.scale
				name := seriesKey(e, ax.key, r)
				if perQ && links > 1 {
					name += fmt.Sprintf(" sw%d", j)
				}
				if values[name] == nil {
					values[name] = map[float64][]float64{}
					names = append(names, name)
				}
				values[name][x] = append(values[name][x], v)
			}
		}
		for k, name := range names {
			var pts errorPoints
			for _, x := range slices.Sorted(maps.Keys(values[name])) {
				mean, std := meanStd(values[name][x])
				pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: mean})
				pts.err = append(pts.err, std)
			}
			line, points, err := plotter.NewLinePoints(pts.XYs)
			if err != nil {
				return err
			}
			line.Color, points.Color, points.Shape = plotutil.Color(k), plotutil.Color(k), plotutil.Shape(k)
			bars, err := plotter.NewYErrorBars(pts)
			if err != nil {
				return err
			}
			bars.Color = plotutil.Color(k)
			p.Add(line, points, bars)
			if m == 0 {
				p.Legend.Add(name, line, points)
			}
		}
		p.Legend.Top, p.Legend.Left = false, true
		panels = append(panels, p)
	}
	panels[0].Title.Text = fmt.Sprintf("%s: mean over seeds, bars 1 std", e.Name)
	data, err := renderTiles(panels, 2, format)
	if err != nil {
		return err
	}
	return dir.WriteFile("plots/sweep."+format, data)
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}
