package results

import (
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/stats"
	"qcnlab/model"
)

// "(incomplete: the batch was stopped)" only when it was stopped.
func TestIncompleteSaysWhy(t *testing.T) {
	for _, c := range []struct {
		res  Result
		want string
	}{
		{Result{Complete: false, stopped: true}, "(incomplete: the batch was stopped)"},
		{Result{Complete: false}, "(incomplete: some runs failed, as reported on stderr)"},
		{Result{Complete: true}, ""},
	} {
		var b strings.Builder
		WriteText(&b, &c.res)
		if c.want == "" && strings.Contains(b.String(), "incomplete") || !strings.Contains(b.String(), c.want) {
			t.Errorf("%+v: %q", c.res, b.String())
		}
	}
}

// Beyond 32 sources the text summary summarises the throughputs.
func TestManySourcesSummarised(t *testing.T) {
	var r batch.RunSummary
	for i := range 65536 {
		r.Sources = append(r.Sources, model.SourceSummary{ID: i, ThroughputBps: float64(i)})
	}
	var b strings.Builder
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{r}})
	if b.Len() > 2000 || !strings.Contains(b.String(), "(65520 more)") || !strings.Contains(b.String(), "of the 65536 sources: min 0") {
		t.Errorf("%d bytes: %.500s", b.Len(), b.String())
	}
}

// Times read in the unit that reads: seconds from a second on.
func TestSecondsReadInTheirUnit(t *testing.T) {
	for x, want := range map[float64]string{4.9997: "5.00 s", 12.34: "12.3 s", 0.0123: "12.3 ms", 0.00105: "1.05 ms", 850e-6: "850 us", 1: "1.00 s"} {
		if got := seconds(x); got != want {
			t.Errorf("seconds(%g) = %q, want %q", x, got, want)
		}
	}
	if got := secondsCI(spreadOf([]float64{2, 4})); got != "3.00 s (2.00 to 4.00 s)" {
		t.Errorf("two seeds: %q", got)
	}
	if got := secondsCI(spreadOf([]float64{2.9, 3, 3.1, 3})); got != "3.00 s ± 0.13 s" {
		t.Errorf("four seeds: %q", got)
	}
}

// A flow's mean size reads in its unit, from one byte to gigabytes.
func TestFlowSizesReadInTheirUnit(t *testing.T) {
	for x, want := range map[float64]string{1: "1B", 640: "640B", 1500: "1.5KB", 1638274: "1.64MB", 2e9: "2GB", 0: "0B"} {
		if got := size(x); got != want {
			t.Errorf("size(%g) = %q, want %q", x, got, want)
		}
	}
}

func ptr(x float64) *float64 { return &x }

// A sweep over seeds: one block per point with means and intervals, the
// seeds that reached fairness counted; a run's phases are listed.
func TestTextSummaryOfASweep(t *testing.T) {
	e := mustParse(t, `
name = "s"
[output]
phases = ["50ms"]
[sweep]
network.rtt = ["100us", "300us"]
seed = [1, 2, 3]
`)
	runs, _ := e.Runs()
	res := &Result{Complete: true, exp: e}
	for i, r := range runs {
		s := batch.RunSummary{Run: i, Label: r.Label(), Point: map[string]string{}}
		for _, a := range r.Point {
			s.Point[a.Key] = a.Value
		}
		s.Algorithm, s.Seed, s.SimSeconds = r.Algorithm, r.Exp.Seed, 0.1
		s.Bottlenecks = []model.BottleneckSummary{{Name: "sw0", CapacityBps: 1e10, Utilization: 0.9 + 0.01*float64(i%3), QueueMean: 3e4}}
		s.JainFairness = ptr(1)
		if i%3 != 2 {
			s.TimeToFairness = ptr(4.99 + 0.01*float64(i%3))
		}
		phase := model.PhaseSummary{Start: 0, End: 0.05, Bottlenecks: s.Bottlenecks, JainFairness: ptr(0.5)}
		s.Phases = []model.PhaseSummary{phase, phase}
		res.Runs = append(res.Runs, s)
	}
	var b strings.Builder
	WriteText(&b, res)
	out := b.String()
	for _, want := range []string{
		"mean over the seeds; in parentheses, with 2 or 3 seeds, the least and the largest seed's value",
		"qcn rtt=100us  (3 seeds: 1 2 3; runs 0 1 2)",
		"qcn rtt=300us  (3 seeds: 1 2 3; runs 3 4 5)",
		"utilization 91.00% (90.00 to 92.00%)",
		"time to fairness  5.00 s (4.99 to 5.00 s) (2 of 3 seeds reached it)",
		"phase 0s-50ms",
		"Jain 0.500",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "seeds:"); n != 2 {
		t.Errorf("%d blocks, want one per point", n)
	}
	// One seed per point: a block per run, with its run number.
	res.Runs = res.Runs[:1]
	b.Reset()
	WriteText(&b, res)
	if out := b.String(); !strings.Contains(out, "qcn network.rtt=100us seed=1  (run 0, seed 1)") || !strings.Contains(out, "time to fairness  4.99 s") ||
		!strings.Contains(out, "phase 0s-50ms") {
		t.Errorf("per-run summary:\n%s", out)
	}
}

// A run of short flows only has no Jain index, yet delivered: no warning
// that nothing was; a run that delivered nothing is warned about.
func TestNoFalseNothingDeliveredWarning(t *testing.T) {
	short := batch.RunSummary{Label: "short"}
	short.Flows = &model.FlowSummary{Started: 10, Completed: 9}
	empty := batch.RunSummary{Label: "empty"}
	empty.Sources = []model.SourceSummary{{ID: 0}}
	w := Warnings(&Result{Runs: []batch.RunSummary{short, empty}})
	if len(w) != 1 || !strings.HasPrefix(w[0], "empty: nothing was delivered") {
		t.Errorf("warnings %q", w)
	}
	var b strings.Builder
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{short}})
	if strings.Contains(b.String(), "nothing delivered") || !strings.Contains(b.String(), "none (no greedy flows)") {
		t.Errorf("%s", b.String())
	}
}

// A size reads in a unit that fits it: no "2788187.0KB".
func TestSizesReadInAUnitThatFits(t *testing.T) {
	for bytes, want := range map[float64]string{0: "0.0KB", 1500: "1.5KB", 33e3: "33.0KB", 999.9e3: "999.9KB", 2.8e6: "2800.0KB",
		12.5e6: "12.5MB", 2788187e3: "2.79GB"} {
		if got := kb(bytes); got != want {
			t.Errorf("%g bytes: %s, want %s", bytes, got, want)
		}
	}
	if got := kbCI(spread{Sample: stats.Sample{N: 4, Mean: 2788187e3, CI95: 1.2e7}, lo: 2.7e9, hi: 2.8e9}); got != "2.79GB ± 0.01GB" {
		t.Errorf("a sample of GB: %s", got)
	}
}

// Seeds that simulated different lengths are not said to have simulated
// the first one's "each".
func TestSimulatedLengthOfSeeds(t *testing.T) {
	run := func(s float64) *batch.RunSummary { return &batch.RunSummary{Summary: model.Summary{SimSeconds: s}} }
	if got := simulated([]*batch.RunSummary{run(0.01), run(0.01)}); got != "10ms simulated each" {
		t.Errorf("equal lengths: %q", got)
	}
	if got := simulated([]*batch.RunSummary{run(0.01), run(0.0082), run(0.01)}); got != "8.20 ms to 10.0 ms simulated" {
		t.Errorf("different lengths: %q", got)
	}
}
