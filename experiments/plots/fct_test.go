package plots

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"qcnlab/algos"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

func fctLine(name string, scale float64) FCTLine {
	f := &model.FlowSummary{}
	for i, hi := range []float64{100e3, 1e6, 0} {
		b := model.FlowSizeBucket{MinBytes: []float64{0, 100e3, 1e6}[i], MaxBytes: hi, Started: 10, Completed: 10,
			SlowdownP50: scale * float64(i+1), SlowdownP95: 3 * scale * float64(i+1), SlowdownP99: 5 * scale * float64(i+1)}
		if i == 2 && name == "qcn" {
			b.Completed = 0 // none completed: no point
		}
		f.BySize = append(f.BySize, b)
	}
	return FCTLine{Name: name, Seeds: 2, Flows: f}
}

// The FCT figure: three panels (median, 95th, 99th percentile) of the
// slowdown on a log axis from 1, the size buckets on x labelled by their
// bounds, one line per scheme in one legend off the data.
func TestFCTFigureLayout(t *testing.T) {
	fig, err := FCTFigure("fct: slowdown by flow size", []FCTLine{fctLine("dcqcn", 1.5), fctLine("qcn", 4)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Rows) != 1 || len(fig.Rows[0]) != 3 {
		t.Fatalf("%d rows", len(fig.Rows))
	}
	for k, p := range fig.Rows[0] {
		if _, ok := p.Y.Scale.(plot.LogScale); !ok || p.Y.Min != 1 || p.Y.Max != 100 {
			t.Errorf("panel %d: y %g..%g, want log 1..100 (the 99th percentile reaches 60)", k, p.Y.Min, p.Y.Max)
		}
		var labels []string
		for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, ", "); got != "100KB, 1MB, >1MB" {
			t.Errorf("panel %d: x ticks %q", k, got)
		}
	}
	if fig.Rows[0][0].Y.Label.Text != "p50 slowdown" || fig.Rows[0][2].Y.Label.Text != "p99 slowdown" {
		t.Error("labels")
	}
	if len(fig.Key) != 2 || fig.Key[0].Name != "dcqcn (2 seeds pooled)" {
		t.Errorf("key %v", fig.Key)
	}
	checkPlaced(t, fig, 1)
	for _, format := range []string{"png", "svg"} {
		data, err := fig.Render(format)
		if err != nil || len(data) < 1000 {
			t.Errorf("%s: %d bytes, %v", format, len(data), err)
		}
	}
	if _, err := FCTFigure("x", nil, Options{}); err == nil {
		t.Error("an empty figure drawn")
	}
}

// A run of flows of a given size only has no rate panel; ports of one
// capacity share one legend entry.
func TestRunFigureWithoutGreedyFlows(t *testing.T) {
	e := mustParse(t, `
duration = "5ms"
warmup = "0s"
[network]
topology = "fat_tree"
k = 4
[traffic]
pattern = "none"
load = 0.3
`)
	cfg, err := e.Config("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	f := NewRunFigure("fct", &cfg)
	for k := range 100 {
		f.Add(&model.Sample{Time: cfg.Duration * algos.Time(k+1) / 100, Queues: []int{1500, 3000, 0},
			Capacity: []float64{10e9, 10e9, 10e9}, Ports: []string{"a", "b", "c"}})
	}
	fig, err := f.figure(&batch.RunSummary{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Rows) != 1 || fig.Rows[0][0].X.Label.Text != "time (ms)" {
		t.Errorf("%d rows, x label %q: want the queue panel alone, with the time axis", len(fig.Rows), fig.Rows[0][0].X.Label.Text)
	}
	// With a source, one capacity entry for the three ports.
	f = NewRunFigure("fct", &cfg)
	for k := range 100 {
		f.Add(&model.Sample{Time: cfg.Duration * algos.Time(k+1) / 100, Queues: []int{1500, 3000, 0},
			Capacity: []float64{10e9, 10e9, 10e9}, Ports: []string{"a", "b", "c"}, Rates: []float64{10e9}, Delivered: []float64{9.5e9}})
	}
	r, err := f.build(&batch.RunSummary{})
	if err != nil {
		t.Fatal(err)
	}
	var capacity []string
	for _, e := range r.rateKey {
		if strings.HasPrefix(e.Name, "capacity") {
			capacity = append(capacity, e.Name)
		}
	}
	if len(capacity) != 1 || capacity[0] != "capacity 10Gbps" || r.rates.Y.Label.Text != "delivered (Gbps)" {
		t.Errorf("capacity entries %q, rate axis %q", capacity, r.rates.Y.Label.Text)
	}
}

// With PFC, the run figure has a third panel: each tier's share of the
// time paused, on 0..1, its time axis labelled.
func TestRunFigurePFCPanel(t *testing.T) {
	e := mustParse(t, `
duration = "5ms"
[network]
topology = "fat_tree"
k = 4
pfc = true
[traffic]
pattern = "permutation"
`)
	cfg, err := e.Config("qcn")
	if err != nil {
		t.Fatal(err)
	}
	f := NewRunFigure("pfc", &cfg)
	for k := range 100 {
		f.Add(&model.Sample{Time: cfg.Duration * algos.Time(k+1) / 100, Queues: []int{1500}, Capacity: []float64{10e9},
			Ports: []string{"a"}, Rates: []float64{1e9}, Delivered: []float64{1e9},
			TierNames: []string{"edge up", "core down"}, TierHeld: []float64{0.5, float64(k) / 100}, Held: []float64{1}})
	}
	fig, err := f.figure(&batch.RunSummary{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Rows) != 3 || fig.Rows[2][0].Y.Label.Text != "paused (share)" || fig.Rows[2][0].X.Label.Text != "time (ms)" ||
		fig.Rows[1][0].X.Label.Text != "" || len(fig.Legends[2]) != 2 || fig.Legends[2][1].Name != "core down" {
		t.Errorf("%d rows; PFC panel %q/%q, legend %v", len(fig.Rows), fig.Rows[len(fig.Rows)-1][0].Y.Label.Text,
			fig.Rows[len(fig.Rows)-1][0].X.Label.Text, fig.Legends)
	}
	checkPlaced(t, fig, 3)
}

// The pinned sources are always drawn; the room left goes to the slowest,
// the fastest and ranks between of the rest.
func TestPickPinned(t *testing.T) {
	var xs []float64
	for i := range 16 {
		xs = append(xs, float64(100-i)) // the later, the slower
	}
	ids, agg := PickPinned(xs, 4)
	if !agg || len(ids) != MaxSourceLines || ids[0] != 0 || ids[3] != 3 || !slices.Contains(ids, 4) || !slices.Contains(ids, 15) {
		t.Errorf("picked %v (mean %v): want 0-3, then the fastest (4) and the slowest (15) of the rest", ids, agg)
	}
	if ids, agg := PickPinned(xs[:6], 4); agg || len(ids) != 6 {
		t.Errorf("all 6 fit: %v %v", ids, agg)
	}
	if ids, _ := PickPinned(xs, 0); !slices.Equal(ids, func() []int { i, _ := PickSources(xs); return i }()) {
		t.Errorf("none pinned: %v", ids)
	}
}
