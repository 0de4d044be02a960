package reproduce

import (
	"encoding/csv"
	"fmt"
	"io"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/results"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"qcnlab/experiments/plots"
)

// overlayPoints caps the points drawn per line.
const overlayPoints = 2000

// renderOverlay draws, from a series task's timeseries.csv.gz, every source's
// rate for each value of key (the model: packet against convergence), for
// the first seed and the first value of every other swept key: the paper's
// "experimental rate variations and the model results" in one figure.
func renderOverlay(title string, dir *outdir.Dir, key string) ([]byte, error) {
	fig, err := overlayFigure(title, dir, key)
	if err != nil {
		return nil, err
	}
	return fig.Render("png")
}

// overlayFigure lays the overlay out in the run figures' style: one panel,
// its legend beside it, never over the curves.
func overlayFigure(title string, dir *outdir.Dir, key string) (*plots.Figure, error) {
	path := dir.Join(results.SeriesFile)
	f, err := results.OpenSeries(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := func(name string) int { return slices.Index(header, name) }
	kc, tc, ac, rc := col(key), col("time_s"), col("algorithm"), col("run")
	if kc < 0 || tc < 0 || ac < 0 {
		return nil, fmt.Errorf("%s: no %s, algorithm or time_s column", path, key)
	}
	var rates []int
	for i, h := range header {
		if strings.HasPrefix(h, "rate_") {
			rates = append(rates, i)
		}
	}
	// The first value of every column before time_s but key, the run and
	// the algorithm picks the rows: one run per value of key.
	first := map[int]string{}
	lines := map[string][]plotter.XYs{}
	var order []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		skip := false
		for c := 0; c < tc; c++ {
			if c == kc || c == ac || c == rc {
				continue
			}
			if v, ok := first[c]; !ok {
				first[c] = rec[c]
			} else if v != rec[c] {
				skip = true
			}
		}
		if skip {
			continue
		}
		name := rec[ac] + " " + key + "=" + rec[kc]
		if _, ok := lines[name]; !ok {
			order = append(order, name)
			lines[name] = make([]plotter.XYs, len(rates))
		}
		t, _ := strconv.ParseFloat(rec[tc], 64)
		for i, c := range rates {
			if y, err := strconv.ParseFloat(rec[c], 64); err == nil {
				lines[name][i] = append(lines[name][i], plotter.XY{X: t, Y: y / 1e6})
			}
		}
	}
	p := plots.NewPanel("time (s)", "rate (Mbps)")
	var legend plots.Legend
	k := 0
	for _, name := range order {
		for i, pts := range lines[name] {
			line, err := plotter.NewLine(thin(pts))
			if err != nil {
				return nil, err
			}
			line.Color = plotutil.Color(k)
			line.Dashes = plotutil.Dashes(k)
			p.Add(line)
			legend.Add(fmt.Sprintf("%s, source %d", name, i), line)
			k++
		}
	}
	return &plots.Figure{Title: title, Rows: [][]*plot.Plot{{p}}, Legends: []plots.Legend{legend},
		Size: plots.Size{W: 8 * vg.Inch, H: 5 * vg.Inch}}, nil
}

// thin keeps at most overlayPoints evenly spaced points.
func thin(pts plotter.XYs) plotter.XYs {
	if len(pts) <= overlayPoints {
		return pts
	}
	step := (len(pts) + overlayPoints - 1) / overlayPoints
	var out plotter.XYs
	for i := 0; i < len(pts); i += step {
		out = append(out, pts[i])
	}
	return out
}
