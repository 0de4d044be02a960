package plots

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
)

// quantileValues lists a queue's quantiles in the order of
// model.QuantileLevels.
func quantileValues(q model.Quantiles) []float64 {
	return []float64{q.P1, q.P5, q.P10, q.P25, q.P50, q.P75, q.P90, q.P95, q.P99}
}

// errorXs are points with symmetric horizontal error bars.
type errorXs struct {
	plotter.XYs
	err []float64
}

func (p errorXs) XError(i int) (float64, float64) { return p.err[i], p.err[i] }

// WriteQueueCDFs draws the distribution of the queue after warm-up, as seed
// 004's figure 8(a) does, from each run's time-weighted quantiles
// (queue_quantiles_bytes): a figure per point of the sweep (the seeds
// apart), one line per algorithm and bottleneck through P(queue <= x) at
// the quantiles' levels. Over several seeds each quantile is the mean of
// the seeds' (the curves are averaged along x), with a bar of one standard
// deviation.
func WriteQueueCDFs(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, runs []batch.RunSummary, format string) error {
	type line struct {
		name string
		qs   [][]float64 // [seed run][level]
	}
	type group struct {
		point, title string
		lines        []*line
	}
	addRun := func(g *group, r *batch.RunSummary) {
		for j, b := range r.Bottlenecks {
			name := r.Algorithm
			if len(r.Bottlenecks) > 1 {
				name += fmt.Sprintf(" sw%d", j)
			}
			k := slices.IndexFunc(g.lines, func(l *line) bool { return l.name == name })
			if k < 0 {
				g.lines = append(g.lines, &line{name: name})
				k = len(g.lines) - 1
			}
			g.lines[k].qs = append(g.lines[k].qs, quantileValues(b.QueueQuantiles))
		}
	}
	// A figure per point of the axes other than the seed; a run is drawn
	// in every figure whose point it agrees with on the axes that apply to
	// its algorithm (N-AIMD in each figure of an AP-N-AIMD parameter).
	var groups []*group
	type axisValue struct{ key, value string }
	var members [][]axisValue
	byPoint := map[string]*group{}
	for _, p := range e.Points() {
		var parts, short []string
		var values []axisValue
		for _, a := range p {
			if a.Key != "seed" {
				v := strings.Trim(a.Value, `"`)
				parts = append(parts, a.Key+"="+v)
				short = append(short, e.ShortKey(a.Key)+"="+v)
				values = append(values, axisValue{a.Key, a.Value})
			}
		}
		point := strings.Join(parts, " ")
		if byPoint[point] == nil {
			byPoint[point] = &group{point: point, title: strings.Join(short, " ")}
			groups = append(groups, byPoint[point])
			members = append(members, values)
		}
	}
	for i := range runs {
		r := &runs[i]
		for gi, g := range groups {
			agrees := true
			for _, av := range members[gi] {
				if v, ok := r.Point[av.key]; ok && v != av.value {
					agrees = false
				}
			}
			if agrees {
				addRun(g, r)
			}
		}
	}
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(g.lines) == 0 {
			continue // no run of this point finished
		}
		p := plot.New()
		p.Title.Text = strings.TrimSpace(e.Name + ": queue CDF after warm-up " + g.title)
		p.X.Label.Text = "queue (KB)"
		p.Y.Label.Text = "P(queue <= x)"
		p.Y.Min, p.Y.Max = 0, 1
		for k, l := range g.lines {
			var pts errorXs
			for i, level := range model.QuantileLevels {
				var xs []float64
				for _, q := range l.qs {
					xs = append(xs, q[i]/1e3)
				}
				mean, std := meanStd(xs)
				pts.XYs = append(pts.XYs, plotter.XY{X: mean, Y: level})
				pts.err = append(pts.err, std)
			}
			ln, points, err := plotter.NewLinePoints(pts.XYs)
			if err != nil {
				return err
			}
			ln.Color, ln.Dashes = plotutil.Color(k), plotutil.Dashes(k)
			points.Color, points.Shape = plotutil.Color(k), plotutil.Shape(k)
			p.Add(ln, points)
			if len(l.qs) > 1 {
				bars, err := plotter.NewXErrorBars(pts)
				if err != nil {
					return err
				}
				bars.Color = plotutil.Color(k)
				p.Add(bars)
			}
			p.Legend.Add(fmt.Sprintf("%s (%d seeds)", l.name, len(l.qs)), ln, points)
		}
		p.Legend.Top, p.Legend.Left = false, false
		data, err := renderTiles([]*plot.Plot{p}, 1, format)
		if err != nil {
			return err
		}
		name := "queue-cdf"
		if g.point != "" {
			name += "_" + safeName(g.point)
		}
		if err := dir.WriteFile("plots/"+name+"."+format, data); err != nil {
			return err
		}
	}
	return nil
}
