// Package plots draws qcnlab's figures: a run's queue and rates, a sweep's
// metrics against its swept key, the queue's distribution, and the
// reproduction report's figures, each through one renderer (Render) as PNG
// or SVG.
package plots

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"qcnlab/algos"
	"qcnlab/model"
)

// Formats are the figure formats --plot accepts.
var Formats = []string{"png", "svg"}

const (
	plotBins    = 1000 // time bins per figure: memory does not grow with the run
	plotSources = 8    // sources drawn one by one; more are summed up as their mean
)

// RunFigure collects one run's time series into fixed time bins: the
// queue's minimum and maximum in each bin (so oscillations keep their
// envelope) and each source's mean rate. Its memory does not grow with the
// run.
type RunFigure struct {
	title    string
	width    algos.Time // of a bin
	target   float64    // the scheme's queue target, bytes
	buffer   float64
	qmin     [][]float64 // [link][bin]
	qmax     [][]float64
	rates    [][]float64 // [bin][source] sums
	capacity [][]float64 // [link][bin] sums of the capacity in force
	counts   []int
	nsources int
	ports    []string // the queues' port names, from the samples
}

// NewRunFigure starts the figure of a run of cfg.
func NewRunFigure(title string, cfg *model.Config) *RunFigure {
	f := &RunFigure{
		title:  title,
		width:  max(1, cfg.Duration/plotBins),
		target: cfg.Scheme.QueueTarget(cfg.Params),
		buffer: float64(cfg.Buffer),
		counts: make([]int, plotBins+1),
	}
	return f
}

// shape sizes the figure to the samples: every port and source of a
// chain, the watched ones of a fabric.
func (f *RunFigure) shape(x *model.Sample) {
	f.nsources = len(x.Rates)
	f.rates = make([][]float64, plotBins+1)
	for i := range f.rates {
		f.rates[i] = make([]float64, f.nsources)
	}
	for range max(1, len(x.Queues)) {
		f.qmin = append(f.qmin, make([]float64, plotBins+1))
		f.qmax = append(f.qmax, make([]float64, plotBins+1))
		f.capacity = append(f.capacity, make([]float64, plotBins+1))
	}
	f.ports = slices.Clone(x.Ports)
}

// Add takes one sample of the run.
func (f *RunFigure) Add(x *model.Sample) {
	if f.rates == nil {
		f.shape(x)
	}
	b := min(int(x.Time/f.width), plotBins)
	for j, q := range x.Queues {
		if f.counts[b] == 0 || float64(q) < f.qmin[j][b] {
			f.qmin[j][b] = float64(q)
		}
		if f.counts[b] == 0 || float64(q) > f.qmax[j][b] {
			f.qmax[j][b] = float64(q)
		}
	}
	for i, r := range x.Rates {
		f.rates[b][i] += r
	}
	for j, c := range x.Capacity {
		if j < len(f.capacity) {
			f.capacity[j][b] += c
		}
	}
	f.counts[b]++
}

// Render draws the queue above the rates, sharing the time axis, and
// encodes the figure in format ("png" or "svg").
func (f *RunFigure) Render(format string) ([]byte, error) {
	queue := plot.New()
	queue.Title.Text = f.title
	queue.Y.Label.Text = "queue (KB)"
	var queues []any
	for j := range f.qmin {
		var envelope plotter.XYs
		for b, n := range f.counts {
			if n == 0 {
				continue
			}
			t := (algos.Time(b) * f.width).Seconds() * 1e3
			envelope = append(envelope, plotter.XY{X: t, Y: f.qmin[j][b] / 1e3}, plotter.XY{X: t, Y: f.qmax[j][b] / 1e3})
		}
		name := "queue"
		if len(f.qmin) > 1 && j < len(f.ports) {
			name = "queue " + f.ports[j]
		} else if len(f.qmin) > 1 {
			name = fmt.Sprintf("queue sw%d", j)
		}
		queues = append(queues, name, envelope)
	}
	if err := plotutil.AddLines(queue, queues...); err != nil {
		return nil, err
	}
	end := f.width.Seconds() * 1e3 * plotBins
	for _, h := range []struct {
		name  string
		value float64
		color color.Color
	}{{"target", f.target, color.RGBA{R: 200, A: 255}}, {"buffer", f.buffer, color.Gray{Y: 120}}} {
		if h.value <= 0 {
			continue
		}
		line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: h.value / 1e3}, {X: end, Y: h.value / 1e3}})
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes = h.color, []vg.Length{vg.Points(4), vg.Points(3)}
		queue.Add(line)
		queue.Legend.Add(h.name, line)
	}
	queue.Legend.Top = true

	rates := plot.New()
	rates.X.Label.Text = "time (ms)"
	rates.Y.Label.Text = "rate (Gbps)"
	var lines []any
	shown := min(f.nsources, plotSources)
	for i := 0; i < shown; i++ {
		lines = append(lines, fmt.Sprintf("source %d", i), f.rateLine(func(r []float64) float64 { return r[i] }))
	}
	if f.nsources > shown {
		lines = append(lines, "mean of all", f.rateLine(func(r []float64) float64 {
			s := 0.0
			for _, x := range r {
				s += x
			}
			return s / float64(len(r))
		}))
	}
	if err := plotutil.AddLines(rates, lines...); err != nil {
		return nil, err
	}
	// The capacity in force, which [[network.changes]] may vary.
	for j, c := range f.capacity {
		line, err := plotter.NewLine(f.binLine(func(b int) float64 { return c[b] }))
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes = color.Gray{Y: 80}, []vg.Length{vg.Points(2), vg.Points(2)}
		rates.Add(line)
		name := "capacity"
		if len(f.capacity) > 1 {
			name = fmt.Sprintf("capacity sw%d", j)
		}
		rates.Legend.Add(name, line)
	}
	rates.Legend.Top = true
	queue.X.Min, queue.X.Max, rates.X.Min, rates.X.Max = 0, end, 0, end

	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadY: vg.Points(8)}
	return Render([][]*plot.Plot{{queue}, {rates}}, 8*vg.Inch, 6*vg.Inch, tiles, format)
}

// rateLine is one series of the rate panel, in Gbps per bin.
func (f *RunFigure) rateLine(pick func([]float64) float64) plotter.XYs {
	return f.binLine(func(b int) float64 { return pick(f.rates[b]) })
}

// binLine is the mean per bin of a series summed per bin, in Gbps.
func (f *RunFigure) binLine(sum func(bin int) float64) plotter.XYs {
	var xys plotter.XYs
	for b, n := range f.counts {
		if n == 0 {
			continue
		}
		t := (algos.Time(b)*f.width + f.width/2).Seconds() * 1e3
		xys = append(xys, plotter.XY{X: t, Y: sum(b) / float64(n) / 1e9})
	}
	return xys
}

// RunFigureName is the file of the figure of run i (from 0) in an output
// directory: its number and label, safe as a file name.
func RunFigureName(i int, label, format string) string {
	return fmt.Sprintf("plots/%03d-%s.%s", i+1, safeName(label), format)
}

// safeName keeps letters, digits, '-', '.' and '=' and turns the rest into '_'.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=':
			return r
		}
		return '_'
	}, s)
}
