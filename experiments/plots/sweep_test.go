package plots

import (
	"fmt"
	"math"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// The CDF is drawn through the quantiles' levels, in their order.
func TestQuantileValuesFollowTheLevels(t *testing.T) {
	q := model.Quantiles{P1: 1, P5: 5, P10: 10, P25: 25, P50: 50, P75: 75, P90: 90, P95: 95, P99: 99}
	v := quantileValues(q)
	if len(v) != len(model.QuantileLevels) {
		t.Fatalf("%d values for %d levels", len(v), len(model.QuantileLevels))
	}
	for i, level := range model.QuantileLevels {
		if math.Abs(v[i]-100*level) > 1e-9 {
			t.Errorf("value %d is %g, want the p%g quantile", i, v[i], 100*level)
		}
	}
}

func TestSweepAxisAndLines(t *testing.T) {
	e, err := experiments.Parse("test.toml", []byte(`
algorithms = ["qcn", "dsm"]
[sweep]
seed = [1, 2]
sources.count = [2, 4]
network.rtt = ["100us", "20ms"]
`))
	if err != nil {
		t.Fatal(err)
	}
	runs := []batch.RunSummary{{Summary: model.Summary{Algorithm: "dsm"},
		Point: map[string]string{"seed": "1", "sources.count": "4", "network.rtt": `"20ms"`}}}
	ax, ok := newSweepAxis(e, runs)
	if !ok || ax.key != "sources.count" || ax.unit.name != "" {
		t.Errorf("axis %+v: want sources.count, the first numeric non-seed key", ax)
	}
	if got := seriesKey(e, "sources.count", &runs[0]); got != "dsm rtt=20ms" {
		t.Errorf("line %q", got)
	}
}

// A line keeps its style in every panel: where QCN never became fair, the
// time-to-fairness panel draws DCQCN alone in DCQCN's colour, not in the
// first colour, which the legend gives QCN.
func TestSweepLinesKeepTheirStyle(t *testing.T) {
	e, err := experiments.Parse("test.toml", []byte(`
algorithms = ["qcn", "dcqcn"]
[sweep]
network.rtt = ["100us", "200us"]
`))
	if err != nil {
		t.Fatal(err)
	}
	ttf := 0.185
	var runs []batch.RunSummary
	for _, rtt := range []string{`"100us"`, `"200us"`} {
		for _, alg := range []string{"qcn", "dcqcn"} {
			r := batch.RunSummary{Summary: model.Summary{Algorithm: alg, Bottlenecks: []model.BottleneckSummary{{Name: "sw0", Utilization: 0.9}},
				JainFairness: ptr(0.99)}, Point: map[string]string{"network.rtt": rtt}}
			if alg == "dcqcn" {
				r.TimeToFairness = &ttf
			}
			runs = append(runs, r)
		}
	}
	fig, drawn, err := sweepFigureLines(e, runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := drawn[len(drawn)-1]
	if len(last) != 1 || last[0].name != "dcqcn" || last[0].k != 1 {
		t.Errorf("time to fairness panel: %+v, want dcqcn in style 1", last)
	}
	if len(fig.Key) != 2 || fig.Key[0].Name != "qcn" || fig.Key[1].Name != "dcqcn" {
		t.Errorf("key %v", fig.Key)
	}
}

// On a fabric a per-port panel draws one line per algorithm and tier, the
// mean over the tier's ports, not one per port position.
func TestFabricSweepDrawsTiers(t *testing.T) {
	e, err := experiments.Parse("test.toml", []byte(`
algorithms = ["qcn"]
[network]
topology = "fat_tree"
k = 4
[traffic]
pattern = "permutation"
[sweep]
network.buffer = ["100KB", "200KB"]
`))
	if err != nil {
		t.Fatal(err)
	}
	var runs []batch.RunSummary
	for _, buf := range []string{`"100KB"`, `"200KB"`} {
		r := batch.RunSummary{Summary: model.Summary{Algorithm: "qcn", Tiers: []model.TierSummary{{Tier: "edge up"}, {Tier: "core down"}}},
			Point: map[string]string{"network.buffer": buf}}
		for j := range 40 {
			tier := "edge up"
			if j%2 == 1 {
				tier = "core down"
			}
			r.Bottlenecks = append(r.Bottlenecks, model.BottleneckSummary{Name: fmt.Sprintf("p%d", j), Tier: tier, Utilization: float64(j%2) + 0.5})
		}
		runs = append(runs, r)
	}
	_, drawn, err := sweepFigureLines(e, runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := drawn[0]; len(got) != 2 || got[0].name != "qcn edge up" || got[1].name != "qcn core down" {
		t.Errorf("utilization panel lines %+v, want one per tier", got)
	}
}

func ptr(x float64) *float64 { return &x }

// A fabric's queue CDF has a line per algorithm and tier.
func TestFabricQueueCDFByTier(t *testing.T) {
	e, err := experiments.Parse("test.toml", []byte(`
algorithms = ["qcn"]
[network]
topology = "fat_tree"
k = 4
[traffic]
pattern = "permutation"
`))
	if err != nil {
		t.Fatal(err)
	}
	r := batch.RunSummary{Summary: model.Summary{Algorithm: "qcn", Tiers: []model.TierSummary{{Tier: "edge up"}, {Tier: "core down"}}}}
	for j := range 40 {
		r.Bottlenecks = append(r.Bottlenecks, model.BottleneckSummary{Name: fmt.Sprintf("p%d", j), Tier: []string{"edge up", "core down"}[j%2]})
	}
	g := cdfGroups(e, []batch.RunSummary{r})
	if len(g) != 1 || len(g[0].lines) != 2 || g[0].lines[0].name != "qcn edge up" || len(g[0].lines[0].qs) != 20 || g[0].lines[0].seeds != 1 {
		t.Fatalf("lines %+v", g[0].lines)
	}
	fig, err := cdfFigure(e, g[0], Options{})
	if err != nil || fig.Legends[0][0].Name != "qcn edge up (mean of 20 ports over 1 seeds)" {
		t.Errorf("legend %v, %v", fig.Legends, err)
	}
}

// A batch stopped before any run finished has no runs to draw: no figure
// builder may fail or panic on an empty list, whatever the experiment.
func TestFiguresOfNoRunsDrawNothing(t *testing.T) {
	for _, name := range experiments.BuiltinNames() {
		e, err := experiments.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, runs := range [][]batch.RunSummary{nil, {}} {
			fig, err := sweepFigure(e, runs, Options{Format: "svg"})
			if fig != nil || err != nil {
				t.Errorf("%s: sweep figure of no runs: %v, %v; want none", name, fig, err)
			}
			for _, g := range cdfGroups(e, runs) {
				if len(g.lines) != 0 {
					t.Errorf("%s: queue CDF %q has lines without runs", name, g.title)
				}
			}
		}
		if _, err := FCTFigure(name, nil, Options{Format: "svg"}); err == nil {
			t.Errorf("%s: an FCT figure of no lines drawn", name)
		}
	}
}
