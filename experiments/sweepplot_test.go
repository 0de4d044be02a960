package experiments

import (
	"math"
	"testing"

	"qcnlab/algos"
	"qcnlab/model"
)

// The CDF steps at each occupied bin: P(queue <= x) from the samples
// after warm-up only.
func TestQueueCDF(t *testing.T) {
	cfg := &model.Config{Buffer: 512 * 100, Warmup: algos.Millisecond, Links: make([]model.LinkConfig, 1)}
	h := newQueueHist(cfg) // bins of 100 bytes
	for i, q := range []int{0, 0, 250, 250, 250, 999} {
		h.add(&model.Sample{Time: algos.Millisecond + algos.Time(i), Queues: []int{q}})
	}
	h.add(&model.Sample{Time: algos.Microsecond, Queues: []int{50000}}) // in the warm-up
	got := h.cdf(h.counts[0])
	want := []struct{ x, p float64 }{{0, 2. / 6}, {0.2, 2. / 6}, {0.2, 5. / 6}, {0.9, 5. / 6}, {0.9, 1}}
	if len(got) != len(want) {
		t.Fatalf("cdf %v", got)
	}
	for i, w := range want {
		if math.Abs(got[i].X-w.x) > 1e-12 || math.Abs(got[i].Y-w.p) > 1e-12 {
			t.Errorf("point %d: (%g KB, %g), want (%g, %g)", i, got[i].X, got[i].Y, w.x, w.p)
		}
	}
}

func TestSweepAxisAndLines(t *testing.T) {
	e := mustParse(t, `
algorithms = ["qcn", "dsm"]
[sweep]
seed = [1, 2]
sources.count = [2, 4]
network.rtt = ["100us", "20ms"]
`)
	res := &Result{Runs: []RunSummary{{Summary: model.Summary{Algorithm: "dsm"},
		Point: map[string]string{"seed": "1", "sources.count": "4", "network.rtt": `"20ms"`}}}}
	ax, ok := newSweepAxis(e, res)
	if !ok || ax.key != "sources.count" || ax.unit != "" {
		t.Errorf("axis %+v: want sources.count, the first numeric non-seed key", ax)
	}
	if got := seriesKey(e, "sources.count", &res.Runs[0]); got != "dsm network.rtt=20ms" {
		t.Errorf("line %q", got)
	}
	if m, s := meanStd([]float64{1, 3}); m != 2 || s != 1 {
		t.Errorf("mean %g std %g", m, s)
	}
}
