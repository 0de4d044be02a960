package results

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// fabricSeed is a fabric run of one seed whose ports, named and in the
// order given, have the utilizations given.
func fabricSeed(run int, seed uint64, ports map[string]float64, order ...string) batch.RunSummary {
	r := batch.RunSummary{Run: run, Label: "dcqcn", Point: map[string]string{"seed": ""}}
	r.Algorithm, r.Seed, r.SimSeconds = "dcqcn", seed, 0.02
	r.Tiers = []model.TierSummary{{Tier: "core down", Ports: len(order), UtilizationMean: 0.1}}
	for _, name := range order {
		r.Bottlenecks = append(r.Bottlenecks, model.BottleneckSummary{Name: name, Tier: "core down", CapacityBps: 1e10,
			Utilization: ports[name], QueueMean: 1e3, QEq: 25.6e3})
	}
	return r
}

// On a fabric the seeds list different ports in different orders: a port's
// numbers over the seeds are that port's in each, never those of whatever
// port sits at its position in another seed, and a port some seeds lack
// says over how many it is.
func TestSeedsGroupPortsByName(t *testing.T) {
	s1 := fabricSeed(0, 1, map[string]float64{"agg3.0->core1": 0.2716, "edge0.0->h0": 0.5}, "edge0.0->h0", "agg3.0->core1")
	s2 := fabricSeed(1, 2, map[string]float64{"agg3.0->core1": 0.1224, "agg3.1->core3": 0.9, "edge0.0->h0": 0.3},
		"agg3.1->core3", "edge0.0->h0", "agg3.0->core1")
	var b strings.Builder
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{s1, s2}})
	out := b.String()
	for _, want := range []string{
		"agg3.0->core1 10Gbps  utilization 19.70% (12.24 to 27.16%),",
		"edge0.0->h0 10Gbps    utilization 40.00% (30.00 to 50.00%),",
		"agg3.1->core3 10Gbps  utilization 90.00%, drops 0, empty 0.0% of the time (carried traffic in 1 of 2 seeds; over those)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// A spread over few seeds is their range, with its unit; from four seeds
// the interval's half-width carries the unit too, and an interval past
// what the metric can take is clipped.
func TestSpreadOverSeedsReads(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{pct(spreadOf([]float64{0.04, 0.55}), 2), "29.50% (4.00 to 55.00%)"},
		{kbCI(spreadOf([]float64{3.6e3, 105e3})), "54.3KB (3.6 to 105.0KB)"},
		{pct(spreadOf([]float64{0.90, 0.91, 0.92, 0.91}), 1), "91.0% ± 1.3%"},
		{pct(spreadOf([]float64{0.99, 1, 1, 0.9}), 1), "97.2% (95% CI 89.5 to 100.0%)"},
		{kbCI(spreadOf([]float64{0, 0, 0, 8e3})), "2.0KB (95% CI 0.0 to 8.4KB)"},
		{count(spreadOf([]float64{0, 0})), "0"},
		{count(spreadOf([]float64{0, 97})), "48.5 (0 to 97)"},
		{count(spreadOf(nil)), "none"},
		{num(spreadOf([]float64{0.5, 0.5}), "%.3f", fraction), "0.500"},
		{secondsCI(spreadOf([]float64{1e-3, 1e-3})), "1.00 ms"},
		// Seeds that differ below the figures written read as one value.
		{pct(spreadOf([]float64{1, 0.999999, 1, 1}), 2), "100.00%"},
		{num(spreadOf([]float64{1, 0.99999, 1, 1}), "%.3f", fraction), "1.000"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// A scheme without a queue target shows none, a run without greedy flows
// no empty list of throughputs, and the fluid and convergence models,
// which send no frames, no frame counts.
func TestRunTextSaysOnlyWhatIsThere(t *testing.T) {
	r := batch.RunSummary{Label: "hpcc"}
	r.Model = "packet"
	r.Bottlenecks = []model.BottleneckSummary{{Name: "sw0", CapacityBps: 1e10}}
	r.Flows = &model.FlowSummary{Started: 1, Completed: 1}
	var b strings.Builder
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{r}})
	if out := b.String(); strings.Contains(out, "target") || !regexp.MustCompile(`throughput +no greedy flows; Jain fairness none`).MatchString(out) {
		t.Errorf("%s", out)
	}
	r.Bottlenecks[0].QEq = 33e3
	r.Model, r.Events, r.Frames = "fluid", 1000, 5
	b.Reset()
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{r}})
	if out := b.String(); !strings.Contains(out, "(target 33.0KB)") || strings.Contains(out, "frames") || !strings.Contains(out, "fluid model, 1000 integration steps") {
		t.Errorf("%s", out)
	}
}

// A chain whose drop-tail queue delivers one source while all four reach
// it at line rate is fair by the rates judged (those reaching the
// bottleneck) and plainly unfair by what was delivered: the summary says
// both, and summary.json flags it.
func TestTimeToFairnessOfAnUnfairDelivery(t *testing.T) {
	e, err := experiments.OpenWith("qcn-dumbbell", []string{"network.buffer=20KB", "duration=20ms"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(context.Background(), e, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if r.TimeToFairness == nil || r.JainFairness == nil || *r.JainFairness > 0.5 || !r.DeliveredUnfair {
		t.Fatalf("the scenario no longer shows it: jain %v, time to fairness %v, delivered_unfair %v", r.JainFairness, r.TimeToFairness, r.DeliveredUnfair)
	}
	var b strings.Builder
	WriteText(&b, res)
	if !regexp.MustCompile(`time to fairness +[0-9.]+ ms \(of the rates reaching the bottleneck; delivered Jain 0\.250\)`).MatchString(b.String()) {
		t.Errorf("%s", b.String())
	}
	var j strings.Builder
	WriteJSON(&j, res)
	var doc struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(j.String()), &doc); err != nil || doc.Runs[0]["delivered_unfair"] != true {
		t.Errorf("summary.json: delivered_unfair %v (%v)", doc.Runs[0]["delivered_unfair"], err)
	}
	// A fair run (one source) is not flagged, and the key is there all the same.
	e, _ = experiments.OpenWith("qcn-dumbbell", []string{"duration=20ms", "sources.count=1"})
	res, _ = Execute(context.Background(), e, Options{Workers: 1})
	j.Reset()
	WriteJSON(&j, res)
	if err := json.Unmarshal([]byte(j.String()), &doc); err != nil || doc.Runs[0]["delivered_unfair"] != false {
		t.Errorf("a fair run: delivered_unfair %v (%v)", doc.Runs[0]["delivered_unfair"], err)
	}
}
