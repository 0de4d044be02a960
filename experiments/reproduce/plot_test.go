package reproduce

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/plots"
	"qcnlab/experiments/stability"
	"qcnlab/model"
)

// A claim's figure is in the run figures' style: its legend beside the
// data, never over it, and the swept key named on its axis.
func TestClaimFigureLegendOffTheData(t *testing.T) {
	var rs Runs
	for _, alg := range []string{"qcn", "dcqcn", "none"} {
		for k, rtt := range []string{`"100us"`, `"200us"`, `"400us"`} {
			rs = append(rs, ClaimRun{RunSummary: batch.RunSummary{Summary: model.Summary{Algorithm: alg,
				Bottlenecks: []model.BottleneckSummary{{Utilization: 0.5 + 0.1*float64(k)}}},
				Point: map[string]string{"network.rtt": rtt}}})
		}
	}
	sp := &SweepPlot{Key: "network.rtt", YLabel: "utilization (fraction)", Metric: Metric{Name: "utilization",
		Value: func(r *ClaimRun) (float64, bool) { return r.Bottlenecks[0].Utilization, true }}}
	fig, err := sp.figure("000-fig4: utilization", rs)
	if err != nil {
		t.Fatal(err)
	}
	pl := fig.Place()
	if len(pl.Legends) != 1 || len(pl.Data) != 1 {
		t.Fatalf("%d legends, %d panels", len(pl.Legends), len(pl.Data))
	}
	l, d := pl.Legends[0], pl.Data[0]
	if l.Min.X < d.Max.X && d.Min.X < l.Max.X && l.Min.Y < d.Max.Y && d.Min.Y < l.Max.Y {
		t.Errorf("legend %v covers the data %v", l, d)
	}
	if len(fig.Key)+len(fig.Legends[0]) != 3 || fig.Rows[0][0].X.Label.Text != "network.rtt (us)" {
		t.Errorf("legend %v, x label %q", fig.Legends[0], fig.Rows[0][0].X.Label.Text)
	}
	if _, err := sp.render("x", rs); err != nil {
		t.Error(err)
	}
}

// unitOf is the unit an axis label names in its last parentheses; "" for
// none.
func unitOf(label string) string {
	a, b := strings.LastIndex(label, "("), strings.LastIndex(label, ")")
	if a < 0 || b != len(label)-1 || b-a < 2 {
		return ""
	}
	return label[a+1 : b]
}

// Every claim figure drawn against a swept key names the unit of both
// axes, the key's from its values as the report's runs read them.
func TestEveryClaimSweepFigureHasUnits(t *testing.T) {
	n := 0
	for _, c := range Claims() {
		sp := c.Plot
		if sp == nil {
			continue
		}
		n++
		tk, err := plan(c.parts()[0], nil, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		var values []string
		for _, a := range tk.exp.Sweep {
			if a.Key == sp.Key {
				values = a.Values
			}
		}
		if len(values) == 0 {
			t.Errorf("%s: the figure's key %s is not swept", c.ID, sp.Key)
			continue
		}
		label, ticks := sp.xAxis(values)
		if unitOf(label) == "" || unitOf(sp.YLabel) == "" {
			t.Errorf("%s: axes %q and %q, not both with a unit", c.ID, label, sp.YLabel)
		}
		for _, tick := range ticks {
			if _, err := strconv.ParseFloat(tick, 64); err != nil {
				t.Errorf("%s: tick %q is not a number in the axis' unit (%q)", c.ID, tick, label)
			}
		}
	}
	if n == 0 {
		t.Fatal("no claim figure")
	}
}

// A swept size, rate or duration reads in the unit its largest value
// reads in; another key in the unit its plot names.
func TestSweptAxisUnits(t *testing.T) {
	for _, tc := range []struct {
		sp     SweepPlot
		values []string
		label  string
		ticks  []string
	}{
		{SweepPlot{Key: "network.rtt"}, []string{`"100us"`, `"1ms"`, `"500us"`}, "network.rtt (ms)", []string{"0.1", "1", "0.5"}},
		{SweepPlot{Key: "network.rtt"}, []string{"20us", "80us"}, "network.rtt (us)", []string{"20", "80"}},
		{SweepPlot{Key: "network.capacity"}, []string{"1Gbps", "100Gbps"}, "network.capacity (Gbps)", []string{"1", "100"}},
		{SweepPlot{Key: "network.buffer"}, []string{"20KB", "60KB"}, "network.buffer (KB)", []string{"20", "60"}},
		{SweepPlot{Key: "traffic.short_flow_rate"}, []string{"0", "200"}, "traffic.short_flow_rate (flows/s)", []string{"0", "200"}},
	} {
		label, ticks := tc.sp.xAxis(tc.values)
		if label != tc.label || !slices.Equal(ticks, tc.ticks) {
			t.Errorf("%s %v: %q %q, want %q %q", tc.sp.Key, tc.values, label, ticks, tc.label, tc.ticks)
		}
	}
}

// checkLayout checks a claim figure in the run figures' style: one panel
// with a unit on each axis, and one legend of the given entries, right of
// the data and clear of it.
func checkLayout(t *testing.T, name string, fig *plots.Figure, entries int) {
	t.Helper()
	p := fig.Rows[0][0]
	if unitOf(p.X.Label.Text) == "" || unitOf(p.Y.Label.Text) == "" {
		t.Errorf("%s: axes %q and %q, not both with a unit", name, p.X.Label.Text, p.Y.Label.Text)
	}
	if sz := p.Legend.Rectangle(draw.Canvas{}).Size(); sz.X > 0 || sz.Y > 0 {
		t.Errorf("%s: the panel's own legend (%v) is drawn over the data", name, sz)
	}
	pl := fig.Place()
	if len(pl.Legends) != 1 || len(pl.Data) != 1 || len(fig.Legends[0]) != entries {
		t.Fatalf("%s: %d legends, %d panels, legend %d entries (want %d)", name, len(pl.Legends), len(pl.Data), len(fig.Legends[0]), entries)
	}
	l, d := pl.Legends[0], pl.Data[0]
	if l.Min.X < d.Max.X && d.Min.X < l.Max.X && l.Min.Y < d.Max.Y && d.Min.Y < l.Max.Y || l.Min.X < d.Max.X {
		t.Errorf("%s: legend %v not right of the data %v", name, l, d)
	}
}

// A stability search's figure names its key's and its metric's units and
// keeps its legend (algorithms, threshold, the paper's boundaries) beside
// the data.
func TestSearchFigureLayout(t *testing.T) {
	for _, tc := range []struct {
		crit, unit    string
		rng           [2]float64
		metric        float64
		xLabel, yUnit string
	}{
		{"std>0.2qeq", "s", [2]float64{20e-6, 500e-6}, 0.3, "network.rtt (us)", "multiple of Q_EQ"},
		{"std>4.5KB", "s", [2]float64{1e-3, 5e-3}, 6000, "network.rtt (ms)", "KB"},
		{"empty>0.01", "bits/s", [2]float64{1e9, 40e9}, 0.02, "network.rtt (Gbps)", "fraction"},
		{"util<0.95", "count", [2]float64{2, 20}, 0.9, "network.rtt (count)", "fraction"},
	} {
		r := &stability.Report{Key: "network.rtt", Unit: tc.unit, Range: tc.rng}
		for _, alg := range []string{"n-aimd", "ap-n-aimd"} {
			r.Results = append(r.Results, stability.Boundary{Algorithm: alg, Criterion: tc.crit, Points: []stability.Point{
				{Value: tc.rng[0], Metric: tc.metric / 2}, {Value: tc.rng[1], Metric: tc.metric}}})
		}
		fig, err := searchFigure("000-fig7", r, []mark{{label: "paper: n-aimd 140 us", at: tc.rng[1] / 2}})
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, tc.crit, fig, 4)
		p := fig.Rows[0][0]
		if p.X.Label.Text != tc.xLabel || unitOf(p.Y.Label.Text) != tc.yUnit {
			t.Errorf("%s: axes %q, %q", tc.crit, p.X.Label.Text, p.Y.Label.Text)
		}
		if _, err := renderSearch("x", r, nil); err != nil {
			t.Error(err)
		}
	}
}
