package plots

import (
	"bytes"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Render draws plots laid out as tiles, aligned, on a w x h figure encoded
// in format ("png" or "svg"); a nil plot leaves its tile empty. Every figure
// qcnlab draws goes through it.
func Render(grid [][]*plot.Plot, w, h vg.Length, tiles draw.Tiles, format string) ([]byte, error) {
	var canvas vg.CanvasWriterTo
	switch format {
	case "svg":
		canvas = vgsvg.New(w, h)
	default:
		canvas = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	}
	cells := plot.Align(grid, tiles, draw.New(canvas))
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(cells[i][j])
			}
		}
	}
	var b bytes.Buffer
	if _, err := canvas.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// renderTiles lays plots out in a grid of cols columns and encodes it.
func renderTiles(panels []*plot.Plot, cols int, format string) ([]byte, error) {
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(panels) {
				grid[i][j] = panels[k]
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6),
		PadRight: vg.Points(10), PadX: vg.Points(16), PadY: vg.Points(12)}
	return Render(grid, vg.Length(cols)*5*vg.Inch, vg.Length(rows)*3*vg.Inch, tiles, format)
}
