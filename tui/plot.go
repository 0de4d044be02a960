package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
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
	margin int // y labels are padded to this width, so stacked plots line up
	marks  []mark
	series []series
}

// mark is a horizontal reference line (a queue target, a capacity). With
// steps it steps over time: y until the first step's time, and so on.
type mark struct {
	y     float64
	steps []step
	style lipgloss.Style
	glyph rune // the rule's character, so marks differ without colour
}

// step is a change of a mark's level at time t (seconds).
type step struct{ t, y float64 }

// series is one line; its glyph marks it every few columns and at its end,
// so lines that differ by colour on screen differ in a plain-text capture.
type series struct {
	xs, ys []float64
	style  lipgloss.Style
	glyph  rune
}

// glyphs mark the plotted sources (and bottlenecks), in order; the mean of
// all sources has its own.
var (
	glyphs    = []rune("●▲■◆○△□◇")
	meanGlyph = '×'
)

func glyphOf(i int) rune { return glyphs[i%len(glyphs)] }

// glyphSpacing is the least distance in columns between two marks of one
// series (more with many series); the series' marks are staggered so they
// do not fall on each other.
const glyphSpacing = 16

// labelWidth is the width of the widest y label the plot draws, computed as
// linechart lays out its axis.
func (p plot) labelWidth() int {
	yMax := p.yMax
	if !(yMax > 0) {
		yMax = 1
	}
	gh := p.h - 2
	if gh < 1 {
		return 0
	}
	f := tickLabels(yMax, 3, p.yLabel, true)
	n := 0
	for i := 0; i <= gh; i++ {
		n = max(n, len(f(i, yMax/float64(gh)*float64(i))))
	}
	return n
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
	yFormat := tickLabels(yMax, 3, p.yLabel, true)
	lc := linechart.New(p.w, p.h, 0, xMax, 0, yMax,
		linechart.WithXYSteps(1, 1),
		linechart.WithStyles(axisStyle, labelStyle, lipgloss.NewStyle()),
		linechart.WithXLabelFormatter(tickLabels(xMax, 12, p.xLabel, false)),
		linechart.WithYLabelFormatter(func(i int, v float64) string {
			return fmt.Sprintf("%*s", p.margin, yFormat(i, v))
		}))
	lc.DrawXYAxisAndLabel()
	gw, gh := lc.GraphWidth(), lc.GraphHeight()
	if gw < 2 || gh < 1 {
		return lc.View()
	}
	left := lc.Origin().X + 1
	p.labelEnd(&lc.Canvas, left, lc.Origin().Y+1, gw, xMax)
	// The row (of cells) whose braille dots hold y.
	row := func(y float64) int { return int(math.Round((1-y/yMax)*float64(gh*4-1))) / 4 }
	// The column of time x.
	col := func(x float64) int { return min(gw-1, int(x/xMax*float64(gw))) }
	for _, mk := range p.marks {
		for x := 0; x < gw; x++ {
			y := mk.at(xMax * (float64(x) + 0.5) / float64(gw))
			if y <= 0 || y > yMax {
				continue
			}
			lc.Canvas.SetCell(canvas.Point{X: left + x, Y: row(y)}, canvas.NewCellWithStyle(mk.glyph, mk.style))
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
	// Glyphs last, so no line covers them: every few columns,
	// staggered by series, and at each line's end.
	for k, s := range p.series {
		if s.glyph == 0 || len(s.xs) == 0 {
			continue
		}
		spacing := max(glyphSpacing, 3*len(p.series))
		offset := spacing/4 + k*spacing/len(p.series)
		last := col(s.xs[len(s.xs)-1])
		at := func(i int) {
			y := min(max(s.ys[i], 0), yMax)
			lc.Canvas.SetCell(canvas.Point{X: left + col(s.xs[i]), Y: row(y)}, canvas.NewCellWithStyle(s.glyph, s.style))
		}
		next := offset
		for i, x := range s.xs {
			if c := col(x); c >= next && c < last-spacing/2 {
				at(i)
				next = c - c%spacing + spacing + offset
			}
		}
		at(len(s.xs) - 1)
	}
	return lc.View()
}

// at is the mark's level at time x.
func (mk mark) at(x float64) float64 {
	y := mk.y
	for _, s := range mk.steps {
		if s.t > x {
			break
		}
		y = s.y
	}
	return y
}

// labelEnd writes the x axis' end value at the right end of the label row,
// clearing a tick label it would touch.
func (p plot) labelEnd(c *canvas.Model, left, y, gw int, xMax float64) {
	s := p.xLabel(xMax)
	from := left + gw - len(s)
	if from <= left+1 {
		return
	}
	// Clear the label that reaches into [from-1, end): walk back to its start.
	x := from - 1
	for x >= left && c.Cell(canvas.Point{X: x, Y: y}).Rune != runes.Null && c.Cell(canvas.Point{X: x, Y: y}).Rune != ' ' {
		x--
	}
	if x < from-1 {
		for i := x + 1; i < from; i++ {
			c.SetCell(canvas.Point{X: i, Y: y}, canvas.NewCell(runes.Null))
		}
	}
	// And a label under the end value itself.
	for i := from; i < left+gw; i++ {
		c.SetCell(canvas.Point{X: i, Y: y}, canvas.NewCell(runes.Null))
	}
	c.SetStringWithStyle(canvas.Point{X: from, Y: y}, s, labelStyle)
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

// niceCeil is the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a
// power of ten that is at least x: an axis top that is easy to read.
func niceCeil(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
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
