package tui

import (
	"math"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/NimbleMarkets/ntcharts/sparkline"
	"github.com/charmbracelet/lipgloss"
)

// plot is a line chart over simulated time: x from 0 to xMax seconds (the
// experiment's duration, so a run fills the chart from left to right), y from
// 0 to yMax. ntcharts' linechart draws the axes and labels; each series is a
// braille line, and marks are horizontal reference lines (a queue target).
type plot struct {
	w, h   int
	xMax   float64 // seconds
	yMax   float64
	xLabel func(float64) string
	yLabel func(float64) string
	marks  []mark
	series []series
}

type mark struct {
	y     float64
	style lipgloss.Style
}

type series struct {
	xs, ys []float64
	style  lipgloss.Style
}

// render draws the plot; it returns exactly h lines of w cells.
func (p plot) render() string {
	if p.w < 8 || p.h < 3 {
		return blank(p.w, p.h)
	}
	xMax, yMax := p.xMax, p.yMax
	if !(xMax > 0) {
		xMax = 1
	}
	if !(yMax > 0) {
		yMax = 1
	}
	lc := linechart.New(p.w, p.h, 0, xMax, 0, yMax,
		linechart.WithXYSteps(1, 1),
		linechart.WithStyles(axisStyle, labelStyle, lipgloss.NewStyle()),
		linechart.WithXLabelFormatter(tickLabels(xMax, 12, p.xLabel, false)),
		linechart.WithYLabelFormatter(tickLabels(yMax, 3, p.yLabel, true)))
	lc.DrawXYAxisAndLabel()
	gw, gh := lc.GraphWidth(), lc.GraphHeight()
	if gw < 2 || gh < 1 {
		return lc.View()
	}
	left := lc.Origin().X + 1
	for _, mk := range p.marks {
		if mk.y <= 0 || mk.y > yMax {
			continue
		}
		// The row whose braille dots hold y, drawn as a dotted rule.
		row := int(math.Round((1 - mk.y/yMax) * float64(gh*4-1)))
		for x := 0; x < gw; x++ {
			lc.Canvas.SetCell(canvas.Point{X: left + x, Y: row / 4}, canvas.NewCellWithStyle('┈', mk.style))
		}
	}
	for _, s := range p.series {
		grid := graph.NewBrailleGrid(gw, gh, 0, xMax, 0, yMax)
		var prev canvas.Point
		for i := range s.xs {
			pt := grid.GridPoint(canvas.Float64Point{X: s.xs[i], Y: min(max(s.ys[i], 0), yMax)})
			if i == 0 {
				grid.Set(pt)
			} else {
				for _, q := range graph.GetLinePoints(prev, pt) {
					grid.Set(q)
				}
			}
			prev = pt
		}
		graph.DrawBraillePatterns(&lc.Canvas, canvas.Point{X: left, Y: 0}, grid.BraillePatterns(), s.style)
	}
	return lc.View()
}

// tickLabels returns a label formatter for linechart that names only round
// values (1, 2 or 5 times a power of ten), at least minGap cells apart, and
// the axis maximum too if top is set. linechart calls it for every column
// (or row) i with the value v there, and skips empty labels.
func tickLabels(maxV float64, minGap int, format func(float64) string, top bool) linechart.LabelFormatter {
	return func(i int, v float64) string {
		if i == 0 {
			return format(0)
		}
		step := v / float64(i) // the value of one cell
		if top && math.Abs(v-maxV) < step/2 {
			return format(maxV)
		}
		tick := niceStep(step * float64(minGap))
		// The tick whose nearest cell is i, if there is one.
		k, found := math.Round(v/tick), false
		for _, c := range []float64{k - 1, k, k + 1} {
			if c > 0 && int(math.Floor(c*tick/step+0.5)) == i {
				k, found = c, true
				break
			}
		}
		if !found {
			return ""
		}
		if top && maxV-k*tick < step*float64(minGap)*0.7 {
			return "" // too close to the maximum's label
		}
		return format(k * tick)
	}
}

// niceStep is the smallest 1, 2 or 5 times a power of ten at least x.
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// spark draws the last w values as a one-line sparkline scaled to maxV.
func spark(w int, values []float64, maxV float64, style lipgloss.Style) string {
	if w < 1 {
		return ""
	}
	sl := sparkline.New(w, 1, sparkline.WithMaxValue(max(maxV, 1e-12)), sparkline.WithNoAutoMaxValue(), sparkline.WithStyle(style))
	if len(values) > w {
		values = values[len(values)-w:]
	}
	for _, v := range values {
		sl.Push(min(v, maxV))
	}
	sl.Draw()
	return sl.View()
}

// blank is a w x h block of spaces.
func blank(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	line := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}
