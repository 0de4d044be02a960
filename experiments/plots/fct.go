package plots

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"qcnlab/experiments/outdir"
	"qcnlab/model"
)

// FCTLine is one line of the FCT figure: a scheme, at one point of the
// sweep, and its flows by size, its seeds pooled.
type FCTLine struct {
	Name  string // "dcqcn", or "dcqcn load=0.5" in a sweep of other keys
	Seeds int
	Flows *model.FlowSummary
}

// fctSize is the FCT figure's default size: three panels side by side.
var fctSize = Size{W: 10 * vg.Inch, H: 4 * vg.Inch}

// fctQuantiles are the figure's panels: the slowdown's median, 95th and
// 99th percentiles by size, as the HPCC paper's figure 11 draws them.
var fctQuantiles = []struct {
	name  string
	value func(b *model.FlowSizeBucket) float64
}{
	{"p50", func(b *model.FlowSizeBucket) float64 { return b.SlowdownP50 }},
	{"p95", func(b *model.FlowSizeBucket) float64 { return b.SlowdownP95 }},
	{"p99", func(b *model.FlowSizeBucket) float64 { return b.SlowdownP99 }},
}

// FCTFigure draws the slowdown against flow size, a panel per percentile
// and a line per scheme: the x axis is the size buckets in order, each
// labelled by its upper bound (the HPCC paper's percentiles of size are
// buckets of output.fct_buckets = ["10%", ...]), the y axis the slowdown on
// a log scale from 1 (slowdown is FCT over the flow's ideal FCT). A bucket where no flow completed has no point.
func FCTFigure(title string, lines []FCTLine, opt Options) (*Figure, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("no flows to draw")
	}
	buckets := lines[0].Flows.BySize
	var ticks []plot.Tick
	for i, b := range buckets {
		label := ">" + SizeLabel(b.MinBytes)
		if b.MaxBytes > 0 {
			label = SizeLabel(b.MaxBytes)
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	top := 1.0
	for _, l := range lines {
		for _, b := range l.Flows.BySize {
			top = max(top, b.SlowdownP99)
		}
	}
	var row []*plot.Plot
	var key Legend
	for k, q := range fctQuantiles {
		p := NewPanel("flow size (bucket's upper bound)", q.name+" slowdown")
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = -0.5, float64(len(buckets))-0.5
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = 1, math.Pow(10, math.Ceil(math.Log10(top*1.05)+1e-9))
		if p.Y.Max <= 1 {
			p.Y.Max = 10
		}
		for i, l := range lines {
			var xys plotter.XYs
			for j := range l.Flows.BySize {
				b := &l.Flows.BySize[j]
				if b.Completed == 0 || j >= len(buckets) {
					continue
				}
				xys = append(xys, plotter.XY{X: float64(j), Y: max(1, q.value(b))})
			}
			if len(xys) == 0 {
				continue
			}
			ln, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			ln.Color, ln.Dashes = colour(i), dashes(i)
			pts.Color, pts.Shape = colour(i), plotutil.Shape(i)
			p.Add(ln, pts)
			if k == 0 {
				name := l.Name
				if l.Seeds > 1 {
					name += fmt.Sprintf(" (%d seeds pooled)", l.Seeds)
				}
				key.Add(name, ln, pts)
			}
		}
		row = append(row, p)
	}
	return &Figure{Title: title, Rows: [][]*plot.Plot{row}, Key: key, Size: opt.size(fctSize)}, nil
}

// SizeLabel is a size in 3 significant digits and its unit: 73KB, 1MB,
// 2.5MB.
func SizeLabel(b float64) string {
	u := bytesUnit(b)
	return strconv.FormatFloat(b/u.scale, 'g', 3, 64) + u.name
}

// FCTFigureName is the FCT figure's file in an output directory.
func FCTFigureName(format string) string { return "plots/fct." + format }

// WriteFCT draws the FCT figure of a batch into plots/.
func WriteFCT(ctx context.Context, dir *outdir.Dir, title string, lines []FCTLine, opt Options) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fig, err := FCTFigure(title, lines, opt)
	if err != nil {
		return err
	}
	data, err := fig.Render(opt.Format)
	if err != nil {
		return err
	}
	return dir.WriteFile(FCTFigureName(opt.Format), data)
}
