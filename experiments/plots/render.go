package plots

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Formats are the figure formats --plot accepts: PNG (at DPI), SVG and PDF
// (fonts embedded, as journals ask).
var Formats = []string{"png", "svg", "pdf"}

// DPI is the resolution of PNG figures: 150, between matplotlib's screen
// default (100) and print (300), so that a 6.4 in figure is 960 pixels.
const DPI = 150

// Options say how a batch draws its figures: a format (one of Formats, ""
// for none) and a size for every figure (zero: each figure's default).
type Options struct {
	Format string
	Size   Size
}

// Size is a figure's width and height.
type Size struct{ W, H vg.Length }

// The sizes --plot-size accepts: large enough for the axes, labels and
// legends to fit, small enough to stay a figure.
const (
	minSide = 2 * vg.Inch
	maxSide = 40 * vg.Inch
)

// ParseSize reads --plot-size: WIDTHxHEIGHT, each a number with a unit in,
// cm, mm or pt, or a plain number of inches as matplotlib's figsize:
// "6.4inx4.8in", "16cmx10cm", "6x4".
func ParseSize(s string) (Size, error) {
	bad := func(why string) (Size, error) {
		return Size{}, fmt.Errorf("--plot-size: %q %s (for example 6.4inx4.8in, 16cmx10cm or 6x4, in inches)", s, why)
	}
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return bad("is not WIDTHxHEIGHT")
	}
	var side [2]vg.Length
	for i, part := range []string{w, h} {
		part = strings.TrimSpace(part)
		unit := vg.Inch
		for _, u := range []struct {
			suffix string
			length vg.Length
		}{{"in", vg.Inch}, {"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"pt", vg.Points(1)}} {
			if rest, ok := strings.CutSuffix(part, u.suffix); ok {
				part, unit = strings.TrimSpace(rest), u.length
				break
			}
		}
		x, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return bad("has a side that is not a number with a unit in, cm, mm or pt")
		}
		side[i] = vg.Length(x) * unit
		if !(side[i] >= minSide && side[i] <= maxSide) {
			return bad(fmt.Sprintf("has a side of %.3g in: each side is %g to %g in", float64(side[i]/vg.Inch), float64(minSide/vg.Inch), float64(maxSide/vg.Inch)))
		}
	}
	return Size{W: side[0], H: side[1]}, nil
}

// Check reports whether o's format is one qcnlab draws.
func (o Options) Check() error {
	if o.Format != "" && !slices.Contains(Formats, o.Format) {
		return fmt.Errorf("--plot: %q is not one of %s", o.Format, strings.Join(Formats, ", "))
	}
	return nil
}

// size is o's size, or def where o sets none.
func (o Options) size(def Size) Size {
	if o.Size.W > 0 && o.Size.H > 0 {
		return o.Size
	}
	return def
}

// canvas is a w x h canvas that encodes in format.
func canvas(w, h vg.Length, format string) vg.CanvasWriterTo {
	switch format {
	case "svg":
		return vgsvg.New(w, h)
	case "pdf":
		return vgpdf.New(w, h) // fonts embedded
	}
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))}
}

func encode(c vg.CanvasWriterTo) ([]byte, error) {
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Render draws plots laid out as tiles, aligned, on a w x h figure encoded
// in format (one of Formats); a nil plot leaves its tile empty. It is the
// plain renderer of figures without legends outside their axes (the
// reproduction report's); Figure draws the batch's.
func Render(grid [][]*plot.Plot, w, h vg.Length, tiles draw.Tiles, format string) ([]byte, error) {
	c := canvas(w, h, format)
	cells := plot.Align(grid, tiles, draw.New(c))
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(cells[i][j])
			}
		}
	}
	return encode(c)
}
