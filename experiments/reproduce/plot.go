package reproduce

import (
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"qcnlab/experiments/plots"
)

// SweepPlot draws a metric (mean over seeds, with the seeds' range as error
// bars) against a swept key: one line per algorithm and per value of the
// other swept keys.
type SweepPlot struct {
	Key    string
	Metric Metric
	YLabel string
	Scale  float64 // multiplies the metric; 0 means 1
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
	p := plots.NewPanel(sp.Key+" (swept values)", sp.YLabel)
	xs := rs.Values(sp.Key)
	ticks := make([]plot.Tick, len(xs))
	for i, v := range xs {
		ticks[i] = plot.Tick{Value: float64(i), Label: v}
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

func shorten(v string) string {
	v = strings.Trim(v, `"`)
	if len(v) > 40 {
		return v[:37] + "..."
	}
	return v
}

// png draws a plot as an 8 by 5 inch PNG, through the one renderer of
// qcnlab's figures.
func png(p *plot.Plot) ([]byte, error) {
	return plots.Render([][]*plot.Plot{{p}}, 8*vg.Inch, 5*vg.Inch, draw.Tiles{Rows: 1, Cols: 1}, "png")
}
