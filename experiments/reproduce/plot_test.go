package reproduce

import (
	"testing"

	"qcnlab/experiments/batch"
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
	if len(fig.Key)+len(fig.Legends[0]) != 3 || fig.Rows[0][0].X.Label.Text != "network.rtt (swept values)" {
		t.Errorf("legend %v, x label %q", fig.Legends[0], fig.Rows[0][0].X.Label.Text)
	}
	if _, err := sp.render("x", rs); err != nil {
		t.Error(err)
	}
}
