package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The look of qcnlab's figures follows matplotlib's defaults, which most
// readers of a networking paper have seen: the tab10 colours, 10 pt text and
// a 12 pt title, about five to eight labelled ticks with minor ticks
// between, and legends outside the data.

// palette is matplotlib's tab10, in its order.
var palette = []color.Color{
	rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728), rgb(0x9467bd),
	rgb(0x8c564b), rgb(0xe377c2), rgb(0x7f7f7f), rgb(0xbcbd22), rgb(0x17becf),
}

func rgb(x uint32) color.Color {
	return color.RGBA{R: uint8(x >> 16), G: uint8(x >> 8), B: uint8(x), A: 255}
}

// colour is the k-th line's colour.
func colour(k int) color.Color { return palette[k%len(palette)] }

// dashes tell lines apart in black and white: solid for the first ten, then
// dashed patterns.
func dashes(k int) []vg.Length {
	switch (k / len(palette)) % 3 {
	case 1:
		return []vg.Length{vg.Points(5), vg.Points(2)}
	case 2:
		return []vg.Length{vg.Points(1), vg.Points(2)}
	}
	return nil
}

// Text sizes.
const (
	titleSize = 12
	textSize  = 10
)

var (
	grey      = color.Gray{Y: 110}
	lightGrey = color.Gray{Y: 160}
)

// NewPanel is a panel in qcnlab's style: 10 pt labels and ticks, the nice
// ticker on both axes, no title (the Figure has one) and no legend (the
// Figure draws legends outside the axes). Any figure of qcnlab's can be
// drawn with it and Figure.
func NewPanel(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font.Size = font.Length(textSize)
		ax.Tick.Label.Font.Size = font.Length(textSize)
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.X.Tick.Marker, p.Y.Tick.Marker = ticker{n: 8}, ticker{n: 7}
	return p
}

// newLegend is a legend in qcnlab's style, drawn by Figure outside the axes.
func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = font.Length(textSize)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(18)
	l.Padding = vg.Points(1)
	return &l
}

// niceStep is the step between about n ticks over span: 1, 2, 2.5 or 5
// times a power of ten, the steps of matplotlib's MaxNLocator.
func niceStep(span float64, n int) float64 {
	if !(span > 0) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(max(n, 1))
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// niceCeil rounds x up to a multiple of the step of about n ticks from 0:
// the top of an axis that starts at 0 and ends on a labelled tick.
func niceCeil(x float64, n int) float64 {
	if !(x > 0) {
		return 1
	}
	step := niceStep(x, n)
	return math.Ceil(x/step*(1-1e-12)) * step
}

// ticker marks at most about n+1 labelled ticks at a nice step and minor ticks
// between them: five per step of 1 or 5, four per step of 2 or 2.5, as
// matplotlib's AutoMinorLocator. Labels have the decimals the step needs.
type ticker struct{ n int }

func (t ticker) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: formatTick(lo, 1)}}
	}
	step := niceStep(hi-lo, t.n)
	mantissa := step / math.Pow(10, math.Floor(math.Log10(step)))
	minor := 4
	if math.Abs(mantissa-1) < 1e-9 || math.Abs(mantissa-5) < 1e-9 {
		minor = 5
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/step-1e-9) * step
	for k := 0; ; k++ {
		v := first + float64(k)*step
		if v > hi+step*1e-9 {
			break
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v, step)})
	}
	sub := step / float64(minor)
	for v := math.Ceil(lo/sub-1e-9) * sub; v <= hi+sub*1e-9; v += sub {
		if r := math.Abs(v/step - math.Round(v/step)); r > 1e-6 {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// formatTick writes a tick value with as many decimals as its step needs.
func formatTick(v, step float64) string {
	if math.Abs(v) < step*1e-9 {
		v = 0
	}
	decimals := 0
	for s := step; decimals < 9 && math.Abs(s-math.Round(s)) > 1e-9*math.Max(1, math.Abs(s)); s *= 10 {
		decimals++
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// unit is a display unit: a value in base units divided by scale reads in
// it.
type unit struct {
	name  string
	scale float64
}

// timeUnit is the unit a time axis reaching top seconds reads in: us below
// a millisecond, ms below a second, s from a second on (20 s, not
// 20000 ms).
func timeUnit(top float64) unit {
	switch {
	case top < 1e-3:
		return unit{"us", 1e-6}
	case top < 1:
		return unit{"ms", 1e-3}
	}
	return unit{"s", 1}
}

// rateUnit is the unit of a rate axis reaching top bits per second.
func rateUnit(top float64) unit {
	switch {
	case top >= 1e9:
		return unit{"Gbps", 1e9}
	case top >= 1e6:
		return unit{"Mbps", 1e6}
	case top >= 1e3:
		return unit{"kbps", 1e3}
	}
	return unit{"bps", 1}
}

// bytesUnit is the unit of a size axis reaching top bytes (decimal, as the
// experiment files write sizes).
func bytesUnit(top float64) unit {
	switch {
	case top >= 1e9:
		return unit{"GB", 1e9}
	case top >= 1e6:
		return unit{"MB", 1e6}
	case top >= 1e3:
		return unit{"KB", 1e3}
	}
	return unit{"B", 1}
}

// fitFromZero sets an axis to start at 0 and end on the labelled tick at or
// above top (a value in the axis' unit).
func fitFromZero(ax *plot.Axis, top float64) {
	t, _ := ax.Tick.Marker.(ticker)
	ax.Min, ax.Max = 0, niceCeil(top, max(t.n, 1))
}

// dashed is a reference line's style: a target, a buffer, a capacity.
func dashed(c color.Color, on, off float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(on), vg.Points(off)}}
}
