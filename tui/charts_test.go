package tui

import (
	"slices"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments/plots"
	"qcnlab/model"
)

// The workbench picks the sources a run's figure draws: by throughput
// after warm-up, the slowest, the fastest and ranks between.
func TestPickSources(t *testing.T) {
	// 20 sources whose throughput is 10 x their id, except source 7, the fastest.
	s := &snapshot{queues: 1}
	for id := range 20 {
		s.summary.Sources = append(s.summary.Sources, model.SourceSummary{ID: id, ThroughputBps: float64(10 * id)})
	}
	s.summary.Sources[7].ThroughputBps = 1000
	ids, agg := pickSources(s, 20)
	if !agg || len(ids) != maxLines {
		t.Fatalf("ids %v agg %v, want %d and the mean", ids, agg, maxLines)
	}
	if !slices.Contains(ids, 0) || !slices.Contains(ids, 7) {
		t.Errorf("ids %v lack the slowest (0) or the fastest (7)", ids)
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids %v not in order", ids)
	}
	throughputs := make([]float64, 20)
	for i, src := range s.summary.Sources {
		throughputs[i] = src.ThroughputBps
	}
	if figure, _ := plots.PickSources(throughputs); !slices.Equal(figure, ids) {
		t.Errorf("the workbench draws %v, a run's figure %v", ids, figure)
	}
	if ids, agg := pickSources(s, 8); agg || !slices.Equal(ids, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("8 sources: %v %v, want all of them", ids, agg)
	}
}

// Many sources: 8 lines and the mean, the legend fitting the width.
func TestManySourcesLegend(t *testing.T) {
	h := newHarness(t, testExperiment(t, "sources.count=20"), 80, 24)
	h.advance(tick250)
	v := h.view()
	checkSize(t, v, 80, 24)
	var legend string
	for _, l := range strings.Split(v, "\n") {
		if strings.HasPrefix(l, "rates") {
			legend = l
		}
	}
	if !strings.Contains(legend, "rates (8 of 20") || !strings.Contains(legend, "mean") {
		t.Errorf("legend:\n%s", v)
	}
	for _, g := range glyphs {
		if !strings.Contains(legend, string(g)+"s") && !strings.Contains(legend, string(g)+"━ s") {
			t.Errorf("legend has no source marked %c: %q", g, legend)
		}
	}
}

func TestTickLabels(t *testing.T) {
	for _, c := range []struct {
		max  float64
		cols int
		want string
	}{
		{0.02, 64, "0s 5ms 10ms 15ms"},
		{0.02, 66, "0s 5ms 10ms 15ms"},       // 5 ms falls between two columns
		{0.1, 113, "0s 20ms 40ms 60ms 80ms"}, // 10 ms would be under 12 columns apart
		{0.1, 130, "0s 10ms 20ms 30ms 40ms 50ms 60ms 70ms 80ms 90ms"},
		{1, 40, "0s 500ms"},
	} {
		f := tickLabels(c.max, 12, axisTime, false)
		var got []string
		for i := range c.cols {
			if s := f(i, c.max/float64(c.cols)*float64(i)); s != "" {
				got = append(got, s)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%v over %d columns: %q, want %q", c.max, c.cols, got, c.want)
		}
	}
	// The y axis names its maximum (the buffer) on the top row.
	f := tickLabels(150e3, 3, axisBytes, true)
	var got []string
	for i := 0; i <= 12; i++ {
		if s := f(i, 150e3/12*float64(i)); s != "" {
			got = append(got, s)
		}
	}
	if strings.Join(got, " ") != "0B 50KB 100KB 150KB" {
		t.Errorf("queue axis %q", got)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fmtSpeed(0.01), "0.01x"}, {fmtSpeed(0.0001), "0.0001x"}, {fmtSpeed(1), "1x"},
		{fmtSpeed(7.4119), "7.4x"}, {fmtSpeed(15.2), "15x"}, {fmtSpeed(7.2e-6), "7e-06x"},
		{fmtSpeed(0.2281), "0.23x"}, {fmtSpeed(0.0005), "0.0005x"},
		{fmtTime(12500*algos.Microsecond, 20*algos.Millisecond), "12.50ms"},
		{fmtTime(1500*algos.Millisecond, 20*algos.Second), "1.500s"}, {fmtTime(5*algos.Second, 5*algos.Second), "5.000s"},
		{fmtTime(5*algos.Microsecond, 500*algos.Microsecond), "5.0us"},
		{fmtBytes(33e3), "33.0KB"}, {fmtRate(2.43e9), "2.43Gbps"}, {fmtCount(25.1e3), "25.1k"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// Every form of a compare cell's summary names its numbers: the shorter
// forms once dropped "util" and "J" ("74.8% q 47±62KB").
func TestSummaryFormsKeepTheirLabels(t *testing.T) {
	sum := model.Summary{Bottlenecks: []model.BottleneckSummary{{Name: "sw0", Utilization: 0.748, QueueMean: 47e3, QueueStd: 62e3, Drops: 3}}}
	for _, f := range summaryForms(sum, 0) {
		if !strings.HasPrefix(f, "util ") {
			t.Errorf("%q: no util label", f)
		}
		if strings.Contains(f, "±") && !strings.Contains(f, "q ") {
			t.Errorf("%q: no queue label", f)
		}
		if strings.Contains(f, "0.") && !strings.Contains(f, "J ") {
			t.Errorf("%q: no fairness label", f)
		}
	}
}

// A run that delivered nothing (Swift's target under a long RTT) has no
// fairness index: every form says none, never NaN.
func TestNothingDeliveredHasNoFairnessNumber(t *testing.T) {
	sum := model.Summary{Bottlenecks: []model.BottleneckSummary{{Name: "sw0"}}}
	forms := append(summaryForms(sum, 0), summaryText(sum, true, 0))
	for _, f := range forms {
		if strings.Contains(f, "NaN") {
			t.Errorf("%q: NaN shown", f)
		}
	}
	if !strings.Contains(forms[0], "J none") {
		t.Errorf("%q: want J none", forms[0])
	}
}
