package metrics

import (
	"encoding/json"
	"strings"
	"testing"

	"qcnlab/model"
)

func ptr(x float64) *float64 { return &x }

func pcount(n int64) *int64 { return &n }

// Every metric is named as summary.json names it, in its scope's object,
// reads the value written there, and is missing exactly where it is null.
func TestNamesAndValuesAreSummaryJSONs(t *testing.T) {
	s := model.Summary{SimSeconds: 1, Events: 3, Frames: 4,
		Bottlenecks: []model.BottleneckSummary{{CapacityBps: 5, Utilization: 0.5, QueueMean: 6, QueueStd: 7, QueueMin: 8, QueueMax: 9,
			QEq: 10, EmptyFraction: 0.1, Drops: 11, DroppedBytes: 12, DropsTotal: 13, FeedbackFrames: 14, PauseFrames: 15,
			PausedFraction: 0.2, HeldFraction: 0.3, MarkedFrames: 21}},
		Sources: []model.SourceSummary{{ThroughputBps: 16, FinalRateBps: 17, DeliveredBytes: 18, FeedbackFrames: 19,
			LoopDelayMin: ptr(20), PausedFraction: 0.4, From: "h0", To: "h1", PathCount: 2, CNPs: 22,
			ACKs: pcount(34), NACKs: pcount(35), RetransmittedBytes: pcount(36), Timeouts: pcount(37)}},
		JainFairness: ptr(0.9),
		Flows: &model.FlowSummary{Started: 23, Completed: 22, Lost: 1, FCTMean: 24, FCTP50: 25, FCTP95: 26, FCTP99: 27,
			SlowdownMean: 28, SlowdownP50: 29, SlowdownP95: 30, SlowdownP99: 31,
			IncastFlows: 32, IncastCompleted: new(int), IncastCompletion: ptr(33)},
		Phases: []model.PhaseSummary{{Start: 34, End: 35}},
		Tiers: []model.TierSummary{{Tier: "edge up", Ports: 36, UtilizationMean: 0.5, UtilizationMax: 0.6, Drops: 37, MarkedFrames: 38,
			PauseFrames: 39, HeldFractionMean: 0.7, HeldFractionMax: 0.8}},
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Run         map[string]any
		Bottlenecks []map[string]any `json:"bottlenecks"`
		Sources     []map[string]any `json:"sources"`
		Tiers       []map[string]any `json:"tiers"`
		Phases      []map[string]any `json:"phases"`
	}
	json.Unmarshal(data, &doc)
	json.Unmarshal(data, &doc.Run)
	// The flows' numbers are the run's, flows_NAME for summary.json's
	// flows.NAME (results.csv flattens them so).
	for name, v := range doc.Run["flows"].(map[string]any) {
		if name != "by_size" { // by bucket: fct.csv, and results.csv's flows_by_size* columns
			doc.Run["flows_"+name] = v
		}
	}
	seen := map[[2]string]bool{}
	for _, m := range All {
		if m.Scope == Class {
			continue // over bottlenecks.classes: TestClassMetricsAreOverThePortsClasses
		}
		obj := map[Scope]map[string]any{Run: doc.Run, Bottleneck: doc.Bottlenecks[0], Source: doc.Sources[0], Tier: doc.Tiers[0], Phase: doc.Phases[0]}[m.Scope]
		written, ok := obj[m.Name]
		if !ok {
			t.Errorf("%s %s: not in summary.json", m.Scope, m.Name)
			continue
		}
		v, has := m.Value(&s, 0)
		switch {
		case written == nil && has:
			t.Errorf("%s: %g, but null in summary.json", m.Name, v)
		case written != nil && (!has || written.(float64) != v):
			t.Errorf("%s: %g (%v), summary.json %v", m.Name, v, has, written)
		case written == nil && m.Missing == "":
			t.Errorf("%s: null in summary.json, and no rule for a missing value", m.Name)
		}
		if k := [2]string{m.Scope.String(), m.Name}; seen[k] {
			t.Errorf("%s %s registered twice", m.Scope, m.Name)
		} else {
			seen[k] = true
		}
		if got, err := Lookup(m.Scope, m.Name); got != m || err != nil {
			t.Errorf("Lookup(%s, %s): %v, %v", m.Scope, m.Name, got, err)
		}
	}
	// And every number of a run, bottleneck or source is registered (the
	// run's identity aside): a new field of the summary needs its entry.
	for scope, obj := range map[Scope]map[string]any{Run: doc.Run, Bottleneck: doc.Bottlenecks[0], Source: doc.Sources[0], Tier: doc.Tiers[0], Phase: doc.Phases[0]} {
		for name, v := range obj {
			if scope == Phase && (name == "bottlenecks" || name == "sources" || name == "tiers" || name == "jain_fairness") {
				continue // the run's metrics read them through InPhase
			}
			switch v.(type) {
			case float64, nil:
				if _, err := Lookup(scope, name); err != nil && name != "seed" && name != "id" {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
	if _, ok := Drops.Value(&s, 1); ok {
		t.Error("a second bottleneck the run does not have has a value")
	}
	if QueueStd.Column(1) != "sw1_queue_std_bytes" || Throughput.Column(0) != "src0_throughput_bps" || JainFairness.Column(3) != "jain_fairness" ||
		TierDrops.Column(2) != "tiers2_drops" || PhaseEnd.Column(1) != "phase1_end_seconds" {
		t.Error("results.csv's column names")
	}
}

// A sweep's figure draws the metrics the registry marks, in its order.
func TestDrawnIsTheSweepFiguresPanels(t *testing.T) {
	var got []string
	for _, m := range Drawn() {
		got = append(got, m.Figure)
	}
	want := []string{"utilization", "queue mean", "queue std", "time queue empty (fraction)", "drops after warm-up", "Jain fairness", "time to fairness"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("panels %q, want %q", got, want)
	}
	if EmptyFraction.Most != 1 || JainFairness.Most != 1 || Utilization.Most != 0 {
		t.Error("the bars of a fraction stop at 1")
	}
}

// A traffic class's metrics are its numbers over the ports' classes:
// sums of its drops and marks, the largest of its queues and
// throughputs; none on ports of one class.
func TestClassMetricsAreOverThePortsClasses(t *testing.T) {
	s := model.Summary{Bottlenecks: []model.BottleneckSummary{
		{Classes: []model.ClassSummary{{Class: 0, ThroughputBps: 4e9, QueueMax: 10e3, Drops: 3, DroppedBytes: 4500, MarkedFrames: 7},
			{Class: 1, ThroughputBps: 6e9, QueueMax: 90e3, Drops: 1, DroppedBytes: 1500}}},
		{Classes: []model.ClassSummary{{Class: 0, ThroughputBps: 9e9, QueueMax: 5e3, Drops: 2, DroppedBytes: 3000, MarkedFrames: 1},
			{Class: 1, ThroughputBps: 1e9, QueueMax: 1e3}}},
		{}, // a port that carried no class's frames lists none
	}}
	for _, c := range []struct {
		m     *Metric
		class int
		want  string
	}{
		{ClassThroughputMax, 0, "9e+09"}, {ClassThroughputMax, 1, "6e+09"},
		{ClassQueueMax, 0, "10000"}, {ClassQueueMax, 1, "90000"},
		{ClassDrops, 0, "5"}, {ClassDrops, 1, "1"},
		{ClassDroppedBytes, 0, "7500"}, {ClassMarkedFrames, 0, "8"}, {ClassMarkedFrames, 1, "0"},
	} {
		if got := c.m.Cell(&s, c.class); got != c.want {
			t.Errorf("class %d %s: %q, want %q", c.class, c.m.Name, got, c.want)
		}
	}
	if ClassDrops.Count(&s) != 2 || ClassDrops.Column(1) != "class1_drops" {
		t.Errorf("%d classes, column %s", ClassDrops.Count(&s), ClassDrops.Column(1))
	}
	s.Bottlenecks = []model.BottleneckSummary{{Drops: 4}}
	if n := ClassDrops.Count(&s); n != 0 {
		t.Errorf("ports of one class: %d classes' columns", n)
	}
}
