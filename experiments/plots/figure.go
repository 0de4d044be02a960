package plots

import (
	"image"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one of the batch's figures: a title over a grid of panels whose
// axes line up, with the legends outside every data area, as matplotlib's
// fig.legend or legend(bbox_to_anchor=(1.02, 1), loc="upper left") put
// them: a panel's legend to the right of its row, top-aligned with its
// axes, or one legend for the figure (Key) in an empty cell of the grid
// (a row of its own if there is none). A title that does not fit the width
// wraps, at spaces, instead of being cut.
type Figure struct {
	Title   string
	Rows    [][]*plot.Plot // the panels; a nil panel leaves its cell empty
	Legends []Legend       // per row, drawn right of its panels; empty for none
	Key     Legend         // the figure's legend; empty for none
	Size    Size
}

// Legend is the entries of a legend: a name and what its line looks like.
type Legend []Entry

// Entry is one line of a legend.
type Entry struct {
	Name   string
	Thumbs []plot.Thumbnailer
}

// Add appends an entry.
func (l *Legend) Add(name string, thumbs ...plot.Thumbnailer) {
	*l = append(*l, Entry{name, thumbs})
}

// legend is l as gonum draws it, in qcnlab's style; nil if l is empty.
func (l Legend) legend() *plot.Legend {
	if len(l) == 0 {
		return nil
	}
	g := newLegend()
	for _, e := range l {
		g.Add(e.Name, e.Thumbs...)
	}
	return g
}

// nullCanvas draws nothing: the layout is computed on it.
type nullCanvas struct{}

func (nullCanvas) SetLineWidth(vg.Length)                 {}
func (nullCanvas) SetLineDash([]vg.Length, vg.Length)     {}
func (nullCanvas) SetColor(color.Color)                   {}
func (nullCanvas) Rotate(float64)                         {}
func (nullCanvas) Translate(vg.Point)                     {}
func (nullCanvas) Scale(float64, float64)                 {}
func (nullCanvas) Push()                                  {}
func (nullCanvas) Pop()                                   {}
func (nullCanvas) Stroke(vg.Path)                         {}
func (nullCanvas) Fill(vg.Path)                           {}
func (nullCanvas) FillString(font.Face, vg.Point, string) {}
func (nullCanvas) DrawImage(vg.Rectangle, image.Image)    {}

// Spacing of the figure, in points.
var (
	margin     = vg.Points(6)  // around the figure
	gapX       = vg.Points(18) // between columns of panels
	gapY       = vg.Points(10) // between rows
	legendGap  = vg.Points(8)  // between a row's panels and its legend
	titleSpace = vg.Points(6)  // under the title
)

// layout is where a figure's parts go on its canvas.
type layout struct {
	title      []string       // the title's lines
	titleStyle text.Style     // its style
	titleTop   vg.Length      // the top of its first line
	panels     vg.Rectangle   // the panels' area (the grid, without the legend column)
	grid       [][]*plot.Plot // the panels, the Key's cell included (nil)
	keyCell    [2]int         // row and column of the Key's cell; -1 without a Key
	legendX    vg.Length      // the left of the legend column
}

// titleStyle is the figure title's text style.
func titleStyle() text.Style {
	p := plot.New()
	s := p.Title.TextStyle
	s.Font.Size = font.Length(titleSize)
	return s
}

// wrap breaks s into lines no wider than width in style sty, at spaces; a
// word wider than the width alone is broken where it must be.
func wrap(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if sty.Width(try) <= width {
			line = try
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = word
		for sty.Width(line) > width && len(line) > 1 {
			cut := len(line) - 1
			for cut > 1 && sty.Width(line[:cut]) > width {
				cut--
			}
			lines = append(lines, line[:cut])
			line = line[cut:]
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// legendSize is the extent of a legend.
func legendSize(l *plot.Legend) (w, h vg.Length) {
	if l == nil {
		return 0, 0
	}
	r := l.Rectangle(draw.Canvas{})
	return r.Size().X, r.Size().Y
}

// layout places the figure on a canvas of its size.
func (f *Figure) layout() layout {
	w, h := f.Size.W, f.Size.H
	lo := layout{titleStyle: titleStyle(), keyCell: [2]int{-1, -1}}
	top := h - margin
	lo.titleTop = top
	if f.Title != "" {
		lo.title = wrap(lo.titleStyle, f.Title, w-2*margin)
		top -= lo.titleStyle.Height(strings.Join(lo.title, "\n")) + titleSpace
	}
	legendW := vg.Length(0)
	for _, l := range f.Legends {
		lw, _ := legendSize(l.legend())
		legendW = max(legendW, lw)
	}
	right := w - margin
	if legendW > 0 {
		right -= legendW + legendGap
		lo.legendX = right + legendGap
	}
	lo.panels = vg.Rectangle{Min: vg.Point{X: margin, Y: margin}, Max: vg.Point{X: right, Y: top}}
	cols := 0
	for _, row := range f.Rows {
		cols = max(cols, len(row))
	}
	for _, row := range f.Rows {
		lo.grid = append(lo.grid, append(append([]*plot.Plot(nil), row...), make([]*plot.Plot, cols-len(row))...))
	}
	if len(f.Key) > 0 {
		for r := len(lo.grid) - 1; r >= 0 && lo.keyCell[0] < 0; r-- {
			for c := cols - 1; c >= 0; c-- {
				if lo.grid[r][c] == nil {
					lo.keyCell = [2]int{r, c}
				}
			}
		}
		if lo.keyCell[0] < 0 {
			lo.grid = append(lo.grid, make([]*plot.Plot, cols))
			lo.keyCell = [2]int{len(lo.grid) - 1, 0}
		}
	}
	return lo
}

// tiles are the grid's tiles in the panels' area.
func (lo *layout) tiles() draw.Tiles {
	return draw.Tiles{Rows: len(lo.grid), Cols: len(lo.grid[0]), PadX: gapX, PadY: gapY}
}

// cells are the panels' canvases, aligned (plot.Align), on c.
func (lo *layout) cells(c draw.Canvas) [][]draw.Canvas {
	return plot.Align(lo.grid, lo.tiles(), draw.Crop(c, lo.panels.Min.X, lo.panels.Max.X-c.Max.X, lo.panels.Min.Y, lo.panels.Max.Y-c.Max.Y))
}

// Placed is where a figure puts its parts, for tests of the layout: each
// panel's data area, each legend's rectangle, the title's lines.
type Placed struct {
	Title   []string
	Data    []vg.Rectangle // the panels' data areas, row by row
	Legends []vg.Rectangle // the rows' legends, then the Key
	Width   vg.Length
}

// Place is where the figure puts its parts: for tests of the layout of
// figures drawn elsewhere (the reproduction report's).
func (f *Figure) Place() Placed { return f.place() }

// place computes where everything goes, on a canvas of the figure's size
// that draws nothing.
func (f *Figure) place() Placed {
	lo := f.layout()
	c := draw.Canvas{Canvas: nullCanvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: f.Size.W, Y: f.Size.H}}}
	out := Placed{Title: lo.title, Width: f.Size.W}
	cells := lo.cells(c)
	for i, row := range lo.grid {
		for j, p := range row {
			if p != nil {
				out.Data = append(out.Data, p.DataCanvas(cells[i][j]).Rectangle)
			}
		}
	}
	for i, l := range f.Legends {
		if r, ok := lo.rowLegend(l.legend(), i, cells); ok {
			out.Legends = append(out.Legends, r)
		}
	}
	if len(f.Key) > 0 {
		for _, part := range lo.keyParts(f.Key, cells) {
			out.Legends = append(out.Legends, part.rect)
		}
	}
	return out
}

// rowLegend is where row i's legend goes: right of the row's panels, its
// top at their data areas' top.
func (lo *layout) rowLegend(l *plot.Legend, i int, cells [][]draw.Canvas) (vg.Rectangle, bool) {
	if l == nil || i >= len(lo.grid) {
		return vg.Rectangle{}, false
	}
	top := vg.Length(-1)
	for j, p := range lo.grid[i] {
		if p != nil {
			top = max(top, p.DataCanvas(cells[i][j]).Max.Y)
		}
	}
	if top < 0 {
		return vg.Rectangle{}, false
	}
	w, h := legendSize(l)
	return vg.Rectangle{Min: vg.Point{X: lo.legendX, Y: top - h}, Max: vg.Point{X: lo.legendX + w, Y: top}}, true
}

// keyPart is one column of the Key: its entries and rectangle.
type keyPart struct {
	legend *plot.Legend
	rect   vg.Rectangle
}

// keyParts splits the Key into as many columns as its cell needs, each at
// most the cell's height, placed from the cell's top left.
func (lo *layout) keyParts(key Legend, cells [][]draw.Canvas) []keyPart {
	cell := cells[lo.keyCell[0]][lo.keyCell[1]].Rectangle
	// An empty cell has no axes: start where a neighbour's data area
	// starts, so the Key lines up with the panels.
	left, top := cell.Min.X+vg.Points(12), cell.Max.Y
	for j, p := range lo.grid[lo.keyCell[0]] {
		if p != nil {
			top = p.DataCanvas(cells[lo.keyCell[0]][j]).Max.Y
			break
		}
	}
	room := top - cell.Min.Y
	per := len(key)
	if _, h := legendSize(key.legend()); h > room {
		entry := h / vg.Length(len(key))
		per = max(1, int(room/entry))
	}
	var parts []keyPart
	x := left
	for start := 0; start < len(key); start += per {
		l := key[start:min(start+per, len(key))].legend()
		w, h := legendSize(l)
		parts = append(parts, keyPart{l, vg.Rectangle{Min: vg.Point{X: x, Y: top - h}, Max: vg.Point{X: x + w, Y: top}}})
		x += w + legendGap
	}
	return parts
}

// Render draws the figure in format (one of Formats).
func (f *Figure) Render(format string) ([]byte, error) {
	cv := canvas(f.Size.W, f.Size.H, format)
	c := draw.New(cv)
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	lo := f.layout()
	if len(lo.title) > 0 {
		sty := lo.titleStyle
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: f.Size.W / 2, Y: lo.titleTop}, strings.Join(lo.title, "\n"))
	}
	cells := lo.cells(c)
	for i, row := range lo.grid {
		for j, p := range row {
			if p != nil {
				p.Draw(cells[i][j])
			}
		}
	}
	for i, l := range f.Legends {
		if r, ok := lo.rowLegend(l.legend(), i, cells); ok {
			l.legend().Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: r})
		}
	}
	if len(f.Key) > 0 {
		for _, part := range lo.keyParts(f.Key, cells) {
			part.legend.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: part.rect})
		}
	}
	return encode(cv)
}
