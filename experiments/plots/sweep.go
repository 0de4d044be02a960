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
	"gonum.org/v1/plot/vg"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/stats"
	"qcnlab/units"
)

// sweepPanels are the panels of a sweep's figure: the metrics the registry
// draws (metrics.Drawn), per bottleneck or per run, in its display unit. A
// run without a value (no fairness when nothing was delivered, fairness
// never reached) is left out of its point's mean. Every one of them is at
// least 0, and so is its axis.
var sweepPanels = panelsOf(metrics.Drawn())

type panel struct {
	metric *metrics.Metric
	label  string
	unit   func(top float64) unit // nil: a plain number
	most   float64                // the largest value the metric takes, which its bars stop at; 0 for none
}

// panelsOf is a panel for each metric, in the display unit of its unit.
func panelsOf(ms []*metrics.Metric) []panel {
	var out []panel
	for _, m := range ms {
		p := panel{metric: m, label: m.Figure, most: m.Most}
		switch m.Unit {
		case "bytes":
			p.unit = bytesUnit
		case "seconds":
			p.unit = timeUnit
		}
		out = append(out, p)
	}
	return out
}

// sweepSize is the sweep figure's default size: two columns of panels,
// 2.3 in a row.
func sweepSize(rows int) Size { return Size{W: 7 * vg.Inch, H: vg.Length(rows) * 2.3 * vg.Inch} }

// sweepAxis is the swept key a sweep figure puts on its x axis: the first
// numeric one other than the seed, spaced by value, in the unit its largest
// value reads in.
type sweepAxis struct {
	key   string
	short string
	kind  algos.Kind
	unit  unit
}

func newSweepAxis(e *experiments.Experiment, runs []batch.RunSummary) (sweepAxis, bool) {
	for _, a := range e.Sweep {
		kind, err := keys.NumericKind(a.Key)
		if a.Key == "seed" || err != nil {
			continue
		}
		ax := sweepAxis{key: a.Key, short: e.ShortKey(a.Key), kind: kind, unit: unit{"", 1}}
		top, found := 0.0, false
		for i := range runs {
			if v, ok := runs[i].Point[a.Key]; ok {
				top, found = max(top, ax.base(v)), true
			}
		}
		if !found {
			// No finished run at any of its values (a batch stopped
			// before its first run ended): nothing to draw.
			return sweepAxis{}, false
		}
		switch kind {
		case algos.Duration:
			ax.unit = timeUnit(top)
		case algos.Bytes:
			ax.unit = bytesUnit(top)
		case algos.Rate:
			ax.unit = rateUnit(top)
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
	if ax.unit.name == "" {
		return ax.short
	}
	return fmt.Sprintf("%s (%s)", ax.short, ax.unit.name)
}

// seriesKey names a line of a sweep figure: the algorithm and the values of
// the swept keys other than the x axis and the seed that apply to it.
func seriesKey(e *experiments.Experiment, x string, r *batch.RunSummary) string {
	parts := []string{r.Algorithm}
	for _, a := range e.Sweep {
		if v, ok := r.Point[a.Key]; ok && a.Key != x && a.Key != "seed" {
			parts = append(parts, e.ShortKey(a.Key)+"="+strings.Trim(v, `"`))
		}
	}
	return strings.Join(parts, " ")
}

// errorPoints are means with error bars that may be cut at 0 below.
type errorPoints struct {
	plotter.XYs
	lo, hi []float64
}

func (p errorPoints) YError(i int) (float64, float64) { return p.lo[i], p.hi[i] }

// sweepFigure builds the sweep's figure; nil for a batch without a numeric
// swept key.
func sweepFigure(e *experiments.Experiment, runs []batch.RunSummary, opt Options) (*Figure, error) {
	fig, _, err := sweepFigureLines(e, runs, opt)
	return fig, err
}

// drawnLine is a line of a sweep panel: its name and its style's index.
type drawnLine struct {
	name string
	k    int
}

// tierValues are a per-port metric of a fabric's run summed up by tier:
// the mean over the tier's ports that carried traffic, in the order of the
// run's tiers. A fabric's ports differ from run to run (and are hundreds):
// a line per port position would mix ports.
func tierValues(m *metrics.Metric, r *batch.RunSummary) (tiers []string, values []float64) {
	sums, counts := map[string]float64{}, map[string]int{}
	for j, b := range r.Bottlenecks {
		if y, ok := m.Value(&r.Summary, j); ok {
			sums[b.Tier] += y
			counts[b.Tier]++
		}
	}
	for _, t := range r.Tiers {
		if counts[t.Tier] > 0 {
			tiers = append(tiers, t.Tier)
			values = append(values, sums[t.Tier]/float64(counts[t.Tier]))
		}
	}
	return tiers, values
}

// sweepFigureLines is sweepFigure and the lines of each panel. A line's
// style (colour, dashes, marker) follows its name, the same in every panel
// and in the legend, which lists every line of every panel: a panel
// where some line has no value (a scheme that never became fair) draws
// the others in their own colours, not in the missing one's.
func sweepFigureLines(e *experiments.Experiment, runs []batch.RunSummary, opt Options) (*Figure, [][]drawnLine, error) {
	ax, ok := newSweepAxis(e, runs)
	if !ok {
		return nil, nil, nil
	}
	links := 0
	for _, r := range runs {
		links = max(links, len(r.Bottlenecks))
	}
	// Every panel spans the swept values, with matplotlib's 5% margins.
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for i := range runs {
		if v, ok := runs[i].Point[ax.key]; ok {
			x := ax.base(v) / ax.unit.scale
			xlo, xhi = min(xlo, x), max(xhi, x)
		}
	}
	margin := 0.05 * (xhi - xlo)
	if margin == 0 {
		margin = 0.05 * math.Max(math.Abs(xlo), 1)
	}
	var panels []*plot.Plot
	var key Legend
	// The runs at each line's point: the seeds the means are over.
	seeds := map[string]int{}
	for i := range runs {
		r := &runs[i]
		if v, ok := r.Point[ax.key]; ok {
			seeds[seriesKey(e, ax.key, r)+"\x00"+v]++
		}
	}
	styles := map[string]int{} // line name -> style index, in first-seen order
	var drawn [][]drawnLine
	for _, panel := range sweepPanels {
		perQ := panel.metric.Scope == metrics.Bottleneck // one line per bottleneck
		// line name -> x -> values over the seeds; names in first-seen order.
		var names []string
		values := map[string]map[float64][]float64{}
		top := 0.0
		for i := range runs {
			r := &runs[i]
			v, ok := r.Point[ax.key]
			if !ok {
				continue
			}
			x := ax.base(v) / ax.unit.scale
			add := func(name string, y float64) {
				if values[name] == nil {
					values[name] = map[float64][]float64{}
					names = append(names, name)
				}
				values[name][x] = append(values[name][x], y)
				top = max(top, y)
			}
			if perQ && len(r.Tiers) > 0 { // a fabric: one line per tier
				tiers, ys := tierValues(panel.metric, r)
				for t, tier := range tiers {
					add(seriesKey(e, ax.key, r)+" "+tier, ys[t])
				}
				continue
			}
			for j := range max(1, len(r.Bottlenecks)) {
				if !perQ && j > 0 {
					continue
				}
				y, ok := panel.metric.Value(&r.Summary, j)
				if !ok {
					continue
				}
				name := seriesKey(e, ax.key, r)
				if perQ && links > 1 {
					name += fmt.Sprintf(" sw%d", j)
				}
				add(name, y)
			}
		}
		u := unit{"", 1}
		label := panel.label
		if panel.unit != nil {
			u = panel.unit(top)
			label = fmt.Sprintf("%s (%s)", panel.label, u.name)
		}
		p := NewPanel(ax.label(), label)
		var lines []drawnLine
		for _, name := range names {
			k, seen := styles[name]
			if !seen {
				k = len(styles)
				styles[name] = k
			}
			lines = append(lines, drawnLine{name, k})
			var pts errorPoints
			for _, x := range slices.Sorted(maps.Keys(values[name])) {
				s := stats.Of(values[name][x])
				mean, ci := s.Mean/u.scale, s.CI95/u.scale
				up := ci
				if panel.most > 0 {
					up = max(0, min(ci, panel.most/u.scale-mean))
				}
				pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: mean})
				pts.lo = append(pts.lo, min(ci, mean)) // nothing below 0
				pts.hi = append(pts.hi, up)
			}
			line, points, err := plotter.NewLinePoints(pts.XYs)
			if err != nil {
				return nil, nil, err
			}
			line.Color, line.Dashes = colour(k), dashes(k)
			points.Color, points.Shape = colour(k), plotutil.Shape(k)
			p.Add(line, points)
			if slices.ContainsFunc(pts.hi, func(x float64) bool { return x > 0 }) {
				bars, err := plotter.NewYErrorBars(pts)
				if err != nil {
					return nil, nil, err
				}
				bars.Color = colour(k)
				p.Add(bars)
			}
			if !seen {
				key.Add(name, line, points)
			}
		}
		drawn = append(drawn, lines)
		p.X.Min, p.X.Max = xlo-margin, xhi+margin
		p.Y.Min = max(p.Y.Min, 0)
		if len(names) == 0 || p.Y.Max <= p.Y.Min { // nothing, or one value: a range above it
			p.Y.Min, p.Y.Max = 0, max(1, 2*p.Y.Max)
		}
		panels = append(panels, p)
	}
	var rows [][]*plot.Plot
	for k := 0; k < len(panels); k += 2 {
		rows = append(rows, panels[k:min(k+2, len(panels))])
	}
	n := slices.Sorted(maps.Values(seeds))
	n = slices.Compact(n)
	seedText := fmt.Sprintf("%d seeds", n[len(n)-1])
	if len(n) > 1 {
		seedText = fmt.Sprintf("%d to %d seeds", n[0], n[len(n)-1])
	}
	title := fmt.Sprintf("%s: mean over %s, bars 95%% confidence interval", e.Name, seedText)
	if n[len(n)-1] < 2 {
		title = e.Name + ": one seed per point"
	}
	cells := len(rows)
	if len(rows[len(rows)-1]) == 2 {
		cells++ // the legend takes a row of its own
	}
	return &Figure{Title: title, Rows: rows, Key: key, Size: opt.size(sweepSize(cells))}, drawn, nil
}

// WriteSweep draws DIR/plots/sweep.FORMAT from a batch's runs: each summary
// metric against the first numeric swept key (spaced by value), one line
// per algorithm (and per value of the other swept keys that apply to it,
// and per bottleneck), the mean over the seeds with bars of its 95%
// confidence interval, and one legend for the figure in a cell of its own.
// It draws nothing for a batch without such a key.
func WriteSweep(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, runs []batch.RunSummary, opt Options) error {
	fig, err := sweepFigure(e, runs, opt)
	if err != nil || fig == nil {
		return err
	}
	data, err := fig.Render(opt.Format)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return dir.WriteFile("plots/sweep."+opt.Format, data)
}
