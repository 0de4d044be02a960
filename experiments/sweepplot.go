package experiments

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"qcnlab/algos"
	"qcnlab/experiments/units"
	"qcnlab/model"
)

// sweepMetrics are the panels of a sweep's figure: a summary metric per
// bottleneck or per run, scaled for reading.
var sweepMetrics = []struct {
	label string
	value func(r *RunSummary, j int) (float64, bool)
	perQ  bool // one line per bottleneck
}{
	{"utilization", func(r *RunSummary, j int) (float64, bool) { return r.Bottlenecks[j].Utilization, true }, true},
	{"queue mean (KB)", func(r *RunSummary, j int) (float64, bool) { return r.Bottlenecks[j].QueueMean / 1e3, true }, true},
	{"queue std (KB)", func(r *RunSummary, j int) (float64, bool) { return r.Bottlenecks[j].QueueStd / 1e3, true }, true},
	{"time queue empty (fraction)", func(r *RunSummary, j int) (float64, bool) { return r.Bottlenecks[j].EmptyFraction, true }, true},
	{"drops after warm-up", func(r *RunSummary, j int) (float64, bool) { return float64(r.Bottlenecks[j].Drops), true }, true},
	{"Jain fairness", func(r *RunSummary, _ int) (float64, bool) {
		if r.JainFairness == nil {
			return 0, false // nothing delivered
		}
		return *r.JainFairness, true
	}, false},
	{"time to fairness (s)", func(r *RunSummary, _ int) (float64, bool) {
		if r.TimeToFairness == nil {
			return 0, false
		}
		return *r.TimeToFairness, true
	}, false},
}

// sweepAxis is the swept key a sweep figure puts on its x axis: the first
// numeric one other than the seed, with a display unit.
type sweepAxis struct {
	key   string
	kind  algos.Kind
	scale float64 // base units per display unit
	unit  string
}

func newSweepAxis(e *Experiment, res *Result) (sweepAxis, bool) {
	for _, a := range e.Sweep {
		kind, err := KeyKind(a.Key)
		if a.Key == "seed" || err != nil {
			continue
		}
		ax := sweepAxis{key: a.Key, kind: kind, scale: 1}
		top := 0.0
		for i := range res.Runs {
			top = max(top, ax.base(res.Runs[i].Point[a.Key]))
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
func seriesKey(e *Experiment, x string, r *RunSummary) string {
	parts := []string{r.Algorithm}
	for _, a := range e.Sweep {
		if a.Key != x && a.Key != "seed" {
			parts = append(parts, a.Key+"="+strings.Trim(r.Point[a.Key], `"`))
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

// WriteSweepPlot draws DIR/plots/sweep.FORMAT: each summary metric against
// the first numeric swept key, one line per algorithm (and per value of the
// other swept keys, and per bottleneck), the mean over the seeds with
// error bars of one standard deviation. It draws nothing for a batch
// without such a key.
func WriteSweepPlot(dir string, e *Experiment, res *Result, format string) error {
	ax, ok := newSweepAxis(e, res)
	if !ok {
		return nil
	}
	links := 0
	for _, r := range res.Runs {
		links = max(links, len(r.Bottlenecks))
	}
	var panels []*plot.Plot
	for m, metric := range sweepMetrics {
		p := plot.New()
		p.Y.Label.Text = metric.label
		p.X.Label.Text = ax.label()
		// line name -> x -> values over the seeds; names in first-seen order.
		var names []string
		values := map[string]map[float64][]float64{}
		for i := range res.Runs {
			r := &res.Runs[i]
			x := ax.base(r.Point[ax.key]) / ax.scale
			for j := range max(1, len(r.Bottlenecks)) {
				if metric.perQ && j >= len(r.Bottlenecks) || !metric.perQ && j > 0 {
					continue
				}
				v, ok := metric.value(r, j)
				if !ok {
					continue
				}
				name := seriesKey(e, ax.key, r)
				if metric.perQ && links > 1 {
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
	return WriteFileAtomic(filepath.Join(dir, "plots", "sweep."+format), data)
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

// renderTiles lays plots out in a grid of cols columns and encodes it.
func renderTiles(panels []*plot.Plot, cols int, format string) ([]byte, error) {
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(panels) {
				grid[i][j] = panels[k]
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6),
		PadRight: vg.Points(10), PadX: vg.Points(16), PadY: vg.Points(12)}
	return renderGrid(grid, vg.Length(cols)*5*vg.Inch, vg.Length(rows)*3*vg.Inch, tiles, format)
}

// queueHist is the distribution of each bottleneck's queue over a run's
// samples after warm-up, in bins of a fixed width: memory does not grow
// with the run.
type queueHist struct {
	width  float64
	counts [][]float64 // [link][bin]
	warmup algos.Time
}

const queueHistBins = 512

func newQueueHist(cfg *model.Config) *queueHist {
	h := &queueHist{width: max(1, float64(cfg.Buffer)/queueHistBins), warmup: cfg.Warmup}
	for range max(1, len(cfg.Links)) {
		h.counts = append(h.counts, make([]float64, queueHistBins+1))
	}
	return h
}

func (h *queueHist) add(x *model.Sample) {
	if x.Time < h.warmup {
		return
	}
	for j, q := range x.Queues {
		if j < len(h.counts) {
			h.counts[j][min(queueHistBins, int(float64(q)/h.width))]++
		}
	}
}

// cdf is P(queue <= x) at each bin's upper edge, x in KB.
func (h *queueHist) cdf(counts []float64) plotter.XYs {
	total := 0.0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return nil
	}
	xys := plotter.XYs{{X: 0, Y: counts[0] / total}}
	acc := counts[0]
	for b := 1; b < len(counts); b++ {
		if counts[b] == 0 {
			continue
		}
		xys = append(xys, plotter.XY{X: float64(b) * h.width / 1e3, Y: acc / total})
		acc += counts[b]
		xys = append(xys, plotter.XY{X: float64(b) * h.width / 1e3, Y: acc / total})
	}
	return xys
}

// writeQueueCDFs draws, for each point of the sweep (the seeds pooled),
// the distribution of the queue as seed 004's figure 8(a) does: one line
// per algorithm and bottleneck, from the runs' samples after warm-up.
func (o *outputs) writeQueueCDFs(res *Result, summaries []*RunSummary) error {
	type group struct {
		point string
		algs  []string
		hists map[string][][]float64 // algorithm -> [link][bin], summed over seeds
	}
	var groups []*group
	byPoint := map[string]*group{}
	width := 0.0
	for i, s := range summaries {
		h := o.hists[i]
		if s == nil || h == nil {
			continue
		}
		width = h.width
		var parts []string
		for _, a := range o.exp.Sweep {
			if a.Key != "seed" {
				parts = append(parts, a.Key+"="+strings.Trim(s.Point[a.Key], `"`))
			}
		}
		point := strings.Join(parts, " ")
		g := byPoint[point]
		if g == nil {
			g = &group{point: point, hists: map[string][][]float64{}}
			byPoint[point] = g
			groups = append(groups, g)
		}
		sum := g.hists[s.Algorithm]
		if sum == nil {
			g.algs = append(g.algs, s.Algorithm)
			for _, c := range h.counts {
				sum = append(sum, make([]float64, len(c)))
			}
			g.hists[s.Algorithm] = sum
		}
		for j, c := range h.counts {
			for b, n := range c {
				sum[j][b] += n
			}
		}
	}
	for _, g := range groups {
		p := plot.New()
		p.Title.Text = strings.TrimSpace(o.exp.Name + ": queue CDF after warm-up " + g.point)
		p.X.Label.Text = "queue (KB)"
		p.Y.Label.Text = "P(queue <= x)"
		p.Y.Min, p.Y.Max = 0, 1
		k := 0
		for _, alg := range g.algs {
			for j, counts := range g.hists[alg] {
				xys := (&queueHist{width: width}).cdf(counts)
				if xys == nil {
					continue
				}
				name := alg
				if len(g.hists[alg]) > 1 {
					name += fmt.Sprintf(" sw%d", j)
				}
				line, err := plotter.NewLine(xys)
				if err != nil {
					return err
				}
				line.Color, line.Dashes = plotutil.Color(k), plotutil.Dashes(k)
				p.Add(line)
				p.Legend.Add(name, line)
				k++
			}
		}
		p.Legend.Top, p.Legend.Left = false, false
		data, err := renderTiles([]*plot.Plot{p}, 1, o.plot)
		if err != nil {
			return err
		}
		name := "queue-cdf"
		if g.point != "" {
			name += "_" + safeName(g.point)
		}
		if err := WriteFileAtomic(filepath.Join(o.dir, "plots", name+"."+o.plot), data); err != nil {
			return err
		}
	}
	return nil
}
