package plots

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/stats"
	"qcnlab/model"
)

// quantileValues lists a queue's quantiles in the order of
// model.QuantileLevels.
func quantileValues(q model.Quantiles) []float64 {
	return []float64{q.P1, q.P5, q.P10, q.P25, q.P50, q.P75, q.P90, q.P95, q.P99}
}

// cdfSize is a queue CDF's default size: matplotlib's 6.4 x 4.8 in.
var cdfSize = Size{W: 6.4 * vg.Inch, H: 4.8 * vg.Inch}

// errorXs are points with horizontal error bars that may be cut at 0.
type errorXs struct {
	plotter.XYs
	lo, hi []float64
}

func (p errorXs) XError(i int) (float64, float64) { return p.lo[i], p.hi[i] }

// cdfGroup is one figure of queue CDFs: a point of the sweep's axes other
// than the seed, and a line per algorithm and bottleneck.
type cdfGroup struct {
	point, title string
	values       []experiments.Assignment // the point's axes
	lines        []*cdfLine
	tagged       bool // its title's file name is another's too: add the title's hash
}

type cdfLine struct {
	name  string
	qs    [][]float64 // [seed run, or port of a tier][level]
	tier  bool        // a fabric's tier: qs are its ports' over the seeds
	seeds int
}

// add adds a run's ports: a chain's each on its line, a fabric's by tier
// (its ports are hundreds, and a position is a different port in
// different runs): the tier's line averages its ports' quantiles.
func (g *cdfGroup) add(r *batch.RunSummary) {
	fabric := len(r.Tiers) > 0
	counted := map[int]bool{}
	for j, b := range r.Bottlenecks {
		name := r.Algorithm
		switch {
		case fabric:
			name += " " + b.Tier
		case len(r.Bottlenecks) > 1:
			name += fmt.Sprintf(" sw%d", j)
		}
		k := slices.IndexFunc(g.lines, func(l *cdfLine) bool { return l.name == name })
		if k < 0 {
			g.lines = append(g.lines, &cdfLine{name: name, tier: fabric})
			k = len(g.lines) - 1
		}
		g.lines[k].qs = append(g.lines[k].qs, quantileValues(b.QueueQuantiles))
		if !counted[k] {
			counted[k] = true
			g.lines[k].seeds++
		}
	}
}

// fileName is the group's figure's file in an output directory.
func (g *cdfGroup) fileName(format string) string {
	if g.point == "" {
		return "plots/queue-cdf." + format
	}
	return "plots/" + taggedName("queue-cdf_", g.title, format, g.tagged)
}

// QueueCDFNames lists the files of the queue CDFs of a batch of e in an
// output directory: those WriteQueueCDFs may write.
func QueueCDFNames(e *experiments.Experiment, format string) []string {
	var names []string
	for _, g := range cdfGroups(e, nil) {
		names = append(names, g.fileName(format))
	}
	return names
}

// cdfGroups are the figures of the queue CDFs: a figure per point of the
// axes other than the seed, in sweep order; a run is drawn in every figure
// whose point it agrees with on the axes that apply to its algorithm
// (N-AIMD in each figure of an AP-N-AIMD parameter).
func cdfGroups(e *experiments.Experiment, runs []batch.RunSummary) []*cdfGroup {
	var groups []*cdfGroup
	byPoint := map[string]bool{}
	for _, p := range e.Points() {
		g := &cdfGroup{}
		var parts, short []string
		for _, a := range p {
			if a.Key != "seed" {
				v := strings.Trim(a.Value, `"`)
				parts = append(parts, a.Key+"="+v)
				short = append(short, e.ShortKey(a.Key)+"="+v)
				g.values = append(g.values, a)
			}
		}
		g.point, g.title = strings.Join(parts, " "), strings.Join(short, " ")
		if !byPoint[g.point] {
			byPoint[g.point] = true
			groups = append(groups, g)
		}
	}
	// Titles that safeName makes one ("a b" and "a_b") get their hashes,
	// so that no figure overwrites another: decided from the experiment's
	// points, the same in every shard and merge.
	names := map[string]int{}
	for _, g := range groups {
		names[fileName("", g.title, "")]++
	}
	for _, g := range groups {
		g.tagged = names[fileName("", g.title, "")] > 1
	}
	for i := range runs {
		r := &runs[i]
		for _, g := range groups {
			agrees := true
			for _, a := range g.values {
				if v, ok := r.Point[a.Key]; ok && v != a.Value {
					agrees = false
				}
			}
			if agrees {
				g.add(r)
			}
		}
	}
	return groups
}

// cdfFigure is one group's figure.
func cdfFigure(e *experiments.Experiment, g *cdfGroup, opt Options) (*Figure, error) {
	top := 0.0
	for _, l := range g.lines {
		for _, q := range l.qs {
			top = max(top, q[len(q)-1])
		}
	}
	bu := bytesUnit(top)
	p := NewPanel(fmt.Sprintf("queue (%s)", bu.name), "P(queue <= x)")
	p.Y.Min, p.Y.Max = 0, 1
	var key Legend
	for k, l := range g.lines {
		var pts errorXs
		for i, level := range model.QuantileLevels {
			var xs []float64
			for _, q := range l.qs {
				xs = append(xs, q[i]/bu.scale)
			}
			s := stats.Of(xs)
			pts.XYs = append(pts.XYs, plotter.XY{X: s.Mean, Y: level})
			pts.lo = append(pts.lo, min(s.CI95, s.Mean))
			pts.hi = append(pts.hi, s.CI95)
		}
		ln, points, err := plotter.NewLinePoints(pts.XYs)
		if err != nil {
			return nil, err
		}
		ln.Color, ln.Dashes = colour(k), dashes(k)
		points.Color, points.Shape = colour(k), plotutil.Shape(k)
		p.Add(ln, points)
		if len(l.qs) > 1 {
			bars, err := plotter.NewXErrorBars(pts)
			if err != nil {
				return nil, err
			}
			bars.Color = colour(k)
			p.Add(bars)
		}
		name := fmt.Sprintf("%s (%d seeds)", l.name, l.seeds)
		if l.tier {
			name = fmt.Sprintf("%s (mean of %d ports over %d seeds)", l.name, len(l.qs), l.seeds)
		}
		key.Add(name, ln, points)
	}
	p.X.Min = 0
	title := e.Name + ": queue CDF after warm-up"
	if g.title != "" {
		title += ", " + g.title
	}
	if slices.ContainsFunc(g.lines, func(l *cdfLine) bool { return len(l.qs) > 1 }) {
		title += "; mean over the seeds, bars 95% confidence interval"
	}
	return &Figure{Title: title, Rows: [][]*plot.Plot{{p}}, Legends: []Legend{key}, Size: opt.size(cdfSize)}, nil
}

// WriteQueueCDFs draws the distribution of the queue after warm-up, as seed
// 004's figure 8(a) does, from each run's time-weighted quantiles
// (queue_quantiles_bytes): a figure per point of the sweep (the seeds
// apart), one line per algorithm and bottleneck through P(queue <= x) at
// the quantiles' levels. Over several seeds each quantile is the mean of
// the seeds' (the curves are averaged along x), with a bar of its 95%
// confidence interval.
func WriteQueueCDFs(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, runs []batch.RunSummary, opt Options) error {
	for _, g := range cdfGroups(e, runs) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(g.lines) == 0 {
			continue // no run of this point finished
		}
		fig, err := cdfFigure(e, g, opt)
		if err != nil {
			return err
		}
		data, err := fig.Render(opt.Format)
		if err != nil {
			return err
		}
		if err := dir.WriteFile(g.fileName(opt.Format), data); err != nil {
			return err
		}
	}
	return nil
}
