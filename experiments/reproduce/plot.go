package reproduce

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/plots"
	"qcnlab/units"
)

// SweepPlot draws a metric (mean over seeds, with the seeds' range as error
// bars) against a swept key: one line per algorithm and per value of the
// other swept keys.
type SweepPlot struct {
	Key    string
	Metric Metric
	YLabel string  // the metric and its unit: "queue std (KB)"
	Scale  float64 // multiplies the metric; 0 means 1
}

// keyUnits are the units of the swept keys that have none of their own
// (a number, a count): a size, a rate or a duration reads in the unit its
// largest value reads in.
var keyUnits = map[string]string{
	"params.qcn.gd":           "dimensionless", // the decrease gain: Fb times G_d is the cut's fraction
	"traffic.short_flow_rate": "flows/s",
}

// render draws the plot as PNG, in the run figures' style: the title
// over the panel, the legend right of the data, never over it.
func (sp *SweepPlot) render(title string, rs Runs) ([]byte, error) {
	fig, err := sp.figure(title, rs)
	if err != nil {
		return nil, err
	}
	return fig.Render("png")
}

// figure lays the plot out: one panel, its legend beside it.
func (sp *SweepPlot) figure(title string, rs Runs) (*plots.Figure, error) {
	scale := sp.Scale
	if scale == 0 {
		scale = 1
	}
	xs := rs.Values(sp.Key)
	xLabel, labels := sp.xAxis(xs)
	p := plots.NewPanel(xLabel, sp.YLabel)
	ticks := make([]plot.Tick, len(xs))
	for i := range xs {
		ticks[i] = plot.Tick{Value: float64(i), Label: labels[i]}
	}
	// Series: the algorithm and the other non-seed keys of the point.
	groups := map[string]Runs{}
	var names []string
	for _, r := range rs {
		var parts []string
		parts = append(parts, r.Algorithm)
		for k, v := range r.Point {
			if k != sp.Key && k != "seed" {
				parts = append(parts, k+"="+shorten(v))
			}
		}
		sort.Strings(parts[1:])
		name := strings.Join(parts, " ")
		if _, ok := groups[name]; !ok {
			names = append(names, name)
		}
		groups[name] = append(groups[name], r)
	}
	var key plots.Legend
	for k, name := range names {
		g := groups[name]
		var pts plotter.XYs
		var errs plotter.YErrors
		for i, x := range xs {
			at := g.Of("", sp.Key+"="+x)
			if len(at) == 0 {
				continue
			}
			m := at.Mean(sp.Metric) * scale
			if math.IsNaN(m) {
				continue
			}
			lo, hi := m, m
			for i := range at {
				if v, ok := sp.Metric.Value(&at[i]); ok {
					lo, hi = math.Min(lo, v*scale), math.Max(hi, v*scale)
				}
			}
			pts = append(pts, plotter.XY{X: float64(i), Y: m})
			errs = append(errs, struct{ Low, High float64 }{m - lo, hi - m})
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, points.Color = plotutil.Color(k), plotutil.Color(k)
		points.Shape = plotutil.Shape(k)
		p.Add(line, points)
		if bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs}); err == nil {
			bars.Color = plotutil.Color(k)
			p.Add(bars)
		}
		key.Add(name, line, points)
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.3, float64(len(xs))-0.7
	return &plots.Figure{Title: title, Rows: [][]*plot.Plot{{p}}, Legends: []plots.Legend{key},
		Size: plots.Size{W: 8 * vg.Inch, H: 5 * vg.Inch}}, nil
}

// xAxis is the label of the swept key's axis, with its unit, and the
// values as its ticks read them: a size, a rate or a duration in the unit
// its largest value reads in ("network.rtt (us)", "100"), any other key
// in the unit keyUnits gives it, its values as they are.
func (sp *SweepPlot) xAxis(values []string) (label string, ticks []string) {
	ticks = slices.Clone(values)
	kind, err := keys.NumericKind(sp.Key)
	if err == nil {
		if base, u, ok := inUnit(kind, values); ok {
			for i, x := range base {
				ticks[i] = strconv.FormatFloat(x/u.scale, 'g', 4, 64)
			}
			return fmt.Sprintf("%s (%s)", sp.Key, u.name), ticks
		}
	}
	if u, ok := keyUnits[sp.Key]; ok {
		return fmt.Sprintf("%s (%s)", sp.Key, u), ticks
	}
	return sp.Key, ticks
}

// axisUnit is the unit an axis reads in: its name and its size in the base
// unit (seconds, bytes, bits per second).
type axisUnit struct {
	name  string
	scale float64
}

// inUnit reads values of a size, a rate or a duration in base units and
// picks the unit the largest reads in, as the run figures do; ok is false
// for another kind, or a value that does not parse.
func inUnit(kind algos.Kind, values []string) (base []float64, u axisUnit, ok bool) {
	top := 0.0
	for _, v := range values {
		x, err := units.Parse(kind, strings.Trim(v, `"`))
		if err != nil {
			return nil, u, false
		}
		base = append(base, x)
		top = math.Max(top, math.Abs(x))
	}
	return base, unitFor(kind, top), kind == algos.Duration || kind == algos.Bytes || kind == algos.Rate
}

// unitFor is the unit an axis of a kind reaching top (base units) reads in:
// us, ms or s; B, KB, MB or GB (decimal, as the experiment files write
// sizes); bps to Gbps.
func unitFor(kind algos.Kind, top float64) axisUnit {
	var steps []axisUnit
	switch kind {
	case algos.Duration:
		steps = []axisUnit{{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}}
	case algos.Bytes:
		steps = []axisUnit{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	case algos.Rate:
		steps = []axisUnit{{"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}, {"bps", 1}}
	default:
		return axisUnit{"", 1}
	}
	for _, u := range steps {
		if top >= u.scale {
			return u
		}
	}
	return steps[len(steps)-1]
}

func shorten(v string) string {
	v = strings.Trim(v, `"`)
	if len(v) > 40 {
		return v[:37] + "..."
	}
	return v
}
