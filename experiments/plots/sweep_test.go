package plots

import (
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
