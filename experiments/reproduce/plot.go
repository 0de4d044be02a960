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

// render draws the plot as PNG.
func (sp *SweepPlot) render(title string, rs Runs) ([]byte, error) {
	scale := sp.Scale
	if scale == 0 {
		scale = 1
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = sp.Key
	p.Y.Label.Text = sp.YLabel
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
	var lines []any
	for _, name := range names {
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
		lines = append(lines, name, pts)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err == nil {
			p.Add(bars)
		}
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.3, float64(len(xs))-0.7
	p.Legend.Top = true
	return png(p)
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
