package plots

import (
	"fmt"
	"math"
	"path"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
)

// The layout decisions are tested on the figures' objects, not on images:
// where the legends go, the axes' ranges and units, the title's lines.

func mustParse(t *testing.T, text string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Parse("test.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// runFigure feeds a run figure n sources at rate bits/s, on a link of
// capacity, for duration.
func runFigure(t *testing.T, title string, n int, rate float64, duration string) (*RunFigure, *batch.RunSummary) {
	t.Helper()
	e := mustParse(t, fmt.Sprintf("duration = %q\n[sources]\ncount = %d\n", duration, n))
	cfg, err := e.Config("qcn")
	if err != nil {
		t.Fatal(err)
	}
	f := NewRunFigure(title, &cfg)
	s := &batch.RunSummary{}
	for i := range n {
		s.Sources = append(s.Sources, model.SourceSummary{ID: i, ThroughputBps: rate * (1 + 0.01*float64(i))})
	}
	for k := range 500 {
		x := &model.Sample{Time: cfg.Duration * algos.Time(k+1) / 500, Queues: []int{30000 + 1500*(k%7)}, Capacity: []float64{cfg.Capacity}}
		for i := range n {
			x.Rates = append(x.Rates, rate*(1+0.01*float64(i)))
		}
		f.Add(x)
	}
	return f, s
}

func intersects(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// checkPlaced checks that no legend covers a data area and everything lies
// on the figure.
func checkPlaced(t *testing.T, fig *Figure, legends int) Placed {
	t.Helper()
	pl := fig.place()
	if len(pl.Legends) < legends {
		t.Fatalf("%d legends placed, want %d", len(pl.Legends), legends)
	}
	for _, l := range pl.Legends {
		for _, d := range pl.Data {
			if intersects(l, d) {
				t.Errorf("legend %v covers the data area %v", l, d)
			}
		}
		if l.Min.X < 0 || l.Max.X > fig.Size.W || l.Min.Y < 0 || l.Max.Y > fig.Size.H {
			t.Errorf("legend %v off the %v x %v figure", l, fig.Size.W, fig.Size.H)
		}
	}
	return pl
}

// 20 sources at 500 Mbps on a 10 Gbps link: the rate axis rises from 0 to
// just above the highest rate drawn (not to the capacity), in Mbps, with
// enough ticks; the legend names the 8 sources PickSources chooses and the
// mean; the legends lie right of the data.
func TestRunFigureLayout(t *testing.T) {
	f, s := runFigure(t, "qcn-dumbbell: qcn rtt=240us seed=3", 20, 500e6, "100ms")
	r, err := f.build(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.rates.Y.Min != 0 || r.rates.Y.Max < 600 || r.rates.Y.Max > 700 || r.rates.Y.Label.Text != "rate (Mbps)" {
		t.Errorf("rate axis %g..%g %q, want 0 to just above the 595 Mbps drawn", r.rates.Y.Min, r.rates.Y.Max, r.rates.Y.Label.Text)
	}
	if n := labelled(r.rates.Y); n < 5 {
		t.Errorf("%d labelled ticks on the rate axis", n)
	}
	ids, agg := PickSources(throughputsOf(s))
	if !agg || len(ids) != MaxSourceLines || ids[0] != 0 || ids[len(ids)-1] != 19 {
		t.Errorf("picked %v (mean %v): want the slowest, the fastest and ranks between", ids, agg)
	}
	var names []string
	for _, e := range r.rateKey {
		names = append(names, e.Name)
	}
	want := []string{}
	for _, id := range ids {
		want = append(want, fmt.Sprintf("source %d", id))
	}
	want = append(want, "mean of 20", "fair share 500Mbps")
	if strings.Join(names, ", ") != strings.Join(want, ", ") {
		t.Errorf("rate legend %q, want %q (the capacity, 10 Gbps, is above the axis)", names, want)
	}
	if r.queue.X.Max != 100 || r.rates.X.Label.Text != "time (ms)" {
		t.Errorf("time axis to %g, %q", r.queue.X.Max, r.rates.X.Label.Text)
	}
	fig, _ := f.figure(s, Options{})
	checkPlaced(t, fig, 2)
}

func throughputsOf(s *batch.RunSummary) []float64 {
	var xs []float64
	for _, src := range s.Sources {
		xs = append(xs, src.ThroughputBps)
	}
	return xs
}

func labelled(ax plot.Axis) int {
	n := 0
	for _, tk := range ax.Tick.Marker.Ticks(ax.Min, ax.Max) {
		if !tk.IsMinor() {
			n++
		}
	}
	return n
}

// Time axes read in the unit that reads: 20 s, not 20000 ms.
func TestTimeAxisUnit(t *testing.T) {
	for _, c := range []struct {
		duration, label string
		end             float64
	}{{"20s", "time (s)", 20}, {"500us", "time (us)", 500}, {"1s", "time (s)", 1}, {"999ms", "time (ms)", 999}} {
		f, s := runFigure(t, "x", 2, 5e9, c.duration)
		r, err := f.build(s)
		if err != nil {
			t.Fatal(err)
		}
		if r.rates.X.Label.Text != c.label || math.Abs(r.rates.X.Max-c.end) > 1e-9 {
			t.Errorf("%s: %q to %g", c.duration, r.rates.X.Label.Text, r.rates.X.Max)
		}
	}
}

// A title wider than the figure wraps: every word stays, every line fits.
func TestTitleWraps(t *testing.T) {
	title := "ap-n-aimd-2-sources: ap-n-aimd sampling=regular early_feedback=apply rtt=240us seed=3"
	f, s := runFigure(t, title, 2, 5e9, "10ms")
	fig, _ := f.figure(s, Options{Size: Size{W: 3.5 * vg.Inch, H: 3 * vg.Inch}})
	pl := checkPlaced(t, fig, 2)
	if len(pl.Title) < 2 {
		t.Fatalf("title on %d lines: %q", len(pl.Title), pl.Title)
	}
	if got := strings.Join(pl.Title, " "); got != title {
		t.Errorf("wrapped title %q lost words of %q", got, title)
	}
	sty := titleStyle()
	for _, l := range pl.Title {
		if w := sty.Width(l); w > fig.Size.W-2*margin {
			t.Errorf("title line %q is %v wide on a %v figure", l, w, fig.Size.W)
		}
	}
	// A word wider than the figure is cut where it must be, not lost.
	long := strings.Repeat("x", 200)
	lines := wrap(sty, long, vg.Inch)
	if strings.Join(lines, "") != long || len(lines) < 2 {
		t.Errorf("a long word wrapped into %d lines", len(lines))
	}
}

func sweepRuns(t *testing.T, e *experiments.Experiment, metric func(r experiments.Run, i int) model.Summary) []batch.RunSummary {
	t.Helper()
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var out []batch.RunSummary
	for i, r := range runs {
		s := batch.RunSummary{Run: i, Summary: metric(r, i), Point: map[string]string{}}
		for _, a := range r.Point {
			s.Point[a.Key] = a.Value
		}
		s.Algorithm, s.Seed = r.Algorithm, r.Exp.Seed
		out = append(out, s)
	}
	return out
}

// The sweep's x axis is numeric, spaced by value; time to fairness never
// goes below 0 however wide its interval; the legend has a cell of its own;
// a scheme's parameter axis is not in another scheme's legend entry.
func TestSweepFigureLayout(t *testing.T) {
	e := mustParse(t, `
algorithms = ["n-aimd", "ap-n-aimd"]
[sweep]
"params.ap-n-aimd.early_feedback" = ["drop", "apply"]
network.rtt = ["100us", "200us", "1ms"]
seed = [1, 2, 3]
`)
	runs := sweepRuns(t, e, func(r experiments.Run, i int) model.Summary {
		ttf := []float64{0.001, 0.000001, 0.004}[i%3] // a wide interval around a small mean
		j := 1.0
		return model.Summary{Algorithm: r.Algorithm, TimeToFairness: &ttf, JainFairness: &j,
			Bottlenecks: []model.BottleneckSummary{{Utilization: 1, QueueMean: 3e4}}}
	})
	fig, err := sweepFigure(e, runs, Options{})
	if err != nil || fig == nil {
		t.Fatal(err)
	}
	pl := checkPlaced(t, fig, 1)
	if len(pl.Data) != len(sweepPanels) {
		t.Errorf("%d panels", len(pl.Data))
	}
	var names []string
	for _, e := range fig.Key {
		names = append(names, e.Name)
	}
	if want := "n-aimd, ap-n-aimd early_feedback=drop, ap-n-aimd early_feedback=apply"; strings.Join(names, ", ") != want {
		t.Errorf("legend %q, want %q", names, want)
	}
	for _, row := range fig.Rows {
		for _, p := range row {
			if p.X.Label.Text != "rtt (ms)" || p.X.Min > 0.1 || p.X.Max < 1 || p.X.Max > 1.1 {
				t.Errorf("x axis %q %g..%g, want rtt in ms over 0.1..1", p.X.Label.Text, p.X.Min, p.X.Max)
			}
			if p.Y.Min < 0 {
				t.Errorf("%s: axis from %g, below 0", p.Y.Label.Text, p.Y.Min)
			}
		}
	}
	if !strings.Contains(fig.Title, "mean over 3 seeds, bars 95% confidence interval") {
		t.Errorf("title %q", fig.Title)
	}
	// The points sit at their values: 0.1, 0.2 and 1 ms.
	ttf := fig.Rows[3][0]
	if ttf.Y.Label.Text != "time to fairness (ms)" {
		t.Errorf("panel %q", ttf.Y.Label.Text)
	}
}

// The Key goes into the empty cell of a grid, or a row of its own.
func TestKeyCell(t *testing.T) {
	var key Legend
	key.Add("a")
	odd := &Figure{Rows: [][]*plot.Plot{{NewPanel("x", "y"), NewPanel("x", "y")}, {NewPanel("x", "y")}}, Key: key, Size: runSize}
	if lo := odd.layout(); lo.keyCell != [2]int{1, 1} || len(lo.grid) != 2 {
		t.Errorf("key at %v of %d rows, want the empty cell of row 1", lo.keyCell, len(lo.grid))
	}
	even := &Figure{Rows: [][]*plot.Plot{{NewPanel("x", "y"), NewPanel("x", "y")}}, Key: key, Size: runSize}
	if lo := even.layout(); lo.keyCell != [2]int{1, 0} || len(lo.grid) != 2 {
		t.Errorf("key at %v of %d rows, want a row of its own", lo.keyCell, len(lo.grid))
	}
	for _, f := range []*Figure{odd, even} {
		f.Rows[0][0].Add(mustLine(t))
		checkPlaced(t, f, 1)
	}
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0, 6, 6, "0 1 2 3 4 5 6"},
		{0, 150, 6, "0 25 50 75 100 125 150"},
		{0, 1, 6, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{0.1, 1, 8, "0.2 0.4 0.6 0.8 1.0"},
		{0, 625, 7, "0 100 200 300 400 500 600"},
		{0.995, 1.0005, 6, "0.995 0.996 0.997 0.998 0.999 1.000"},
	} {
		var labels []string
		for _, tk := range (ticker{n: c.n}).Ticks(c.lo, c.hi) {
			if !tk.IsMinor() {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("ticks of %g..%g: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	for top, want := range map[float64]float64{5.3: 6, 150: 150, 512: 600, 0.63: 0.7, 625: 700} {
		if got := niceCeil(top, 7); math.Abs(got-want) > 1e-9 {
			t.Errorf("niceCeil(%g) = %g, want %g", top, got, want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]Size{
		"6.4inx4.8in":   {6.4 * vg.Inch, 4.8 * vg.Inch},
		"16cmx10cm":     {16 * vg.Centimeter, 10 * vg.Centimeter},
		"6x4":           {6 * vg.Inch, 4 * vg.Inch},
		"432ptx288pt":   {6 * vg.Inch, 4 * vg.Inch},
		"180mm x 120mm": {180 * vg.Millimeter, 120 * vg.Millimeter},
	} {
		got, err := ParseSize(in)
		if err != nil || math.Abs(float64(got.W-want.W)) > 1e-9 || math.Abs(float64(got.H-want.H)) > 1e-9 {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"6", "6in", "axb", "1x1", "100x4", "6kmx4km", "-6x4"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}

// Every format renders, at the size asked for.
func TestFormats(t *testing.T) {
	f, s := runFigure(t, "x", 3, 3e9, "10ms")
	for _, format := range Formats {
		data, err := f.Render(s, Options{Format: format, Size: Size{W: 6 * vg.Inch, H: 4 * vg.Inch}})
		if err != nil {
			t.Fatal(err)
		}
		magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"}[format]
		if !strings.HasPrefix(string(data), magic) {
			t.Errorf("%s: starts %q", format, data[:min(8, len(data))])
		}
		if format == "pdf" && !strings.Contains(string(data), "/MediaBox [0 0 432.00 288.00]") {
			t.Errorf("pdf: no 6 x 4 in MediaBox")
		}
	}
}

func TestRunFigureName(t *testing.T) {
	if got := RunFigureName(7, 100, "qcn rtt=300us seed=2", "pdf"); got != "plots/run007_qcn_rtt=300us_seed=2.pdf" {
		t.Errorf("%s", got)
	}
	if got := RunFigureName(7, 10000, "qcn", "png"); got != "plots/run0007_qcn.png" {
		t.Errorf("%s", got)
	}
}

// A figure's name fits a file name however long its label: a label cut
// short ends in a hash of the whole, so that two labels that differ only
// beyond the cut keep distinct names, the same at every call.
func TestLongLabelsFitAFileName(t *testing.T) {
	long := strings.Repeat("a", 300)
	names := map[string]bool{}
	for _, label := range []string{long + " b", long + " c", "qcn " + strings.Repeat("k_min=5KB ", 30)} {
		for _, format := range Formats {
			name := RunFigureName(3, 14, label, format)
			base := path.Base(name)
			if len(base) > outdir.MaxName || !strings.HasPrefix(name, "plots/run003_") || !strings.HasSuffix(name, "."+format) {
				t.Errorf("%q: %d bytes, want at most %d", name, len(base), outdir.MaxName)
			}
			if again := RunFigureName(3, 14, label, format); again != name {
				t.Errorf("%q then %q: not stable", name, again)
			}
			if names[name] {
				t.Errorf("%q: two labels share it", name)
			}
			names[name] = true
			if !outdir.OutputName(name, false) {
				t.Errorf("%q is not an output name", name)
			}
		}
	}
	e, err := experiments.Parse("test.toml", []byte("[sweep]\nname = [\""+long+"1\", \""+long+"2\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cdfs := QueueCDFNames(e, "svg")
	if len(cdfs) != 2 || cdfs[0] == cdfs[1] || len(path.Base(cdfs[0])) > outdir.MaxName {
		t.Errorf("queue CDF names %q: want two distinct names of at most %d bytes", cdfs, outdir.MaxName)
	}
}

func mustLine(t *testing.T) plot.Plotter {
	t.Helper()
	l, err := plotterLine([][2]float64{{0, 0}, {1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func plotterLine(pts [][2]float64) (plot.Plotter, error) {
	xys := make(plotter.XYs, len(pts))
	for i, p := range pts {
		xys[i] = plotter.XY{X: p[0], Y: p[1]}
	}
	return plotter.NewLine(xys)
}

// Titles that differ only where safeName writes '_' name distinct queue
// CDF files, one of them overwrote the other; other names are unchanged.
func TestQueueCDFNamesNeverCollide(t *testing.T) {
	e, err := experiments.Parse("test.toml", []byte("[sweep]\nname = [\"a b\", \"a_b\", \"c\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cdfs := QueueCDFNames(e, "png")
	if len(cdfs) != 3 || cdfs[0] == cdfs[1] {
		t.Fatalf("queue CDF names %q: want three distinct names", cdfs)
	}
	if cdfs[2] != "plots/queue-cdf_name=c.png" {
		t.Errorf("%q: a title no other shares keeps its plain name", cdfs[2])
	}
	for _, name := range cdfs {
		if !outdir.OutputName(name, false) {
			t.Errorf("%q is not an output name", name)
		}
	}
}
