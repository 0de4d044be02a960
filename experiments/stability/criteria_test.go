package stability

import (
	"math"
	"strings"
	"testing"

	"qcnlab/experiments/keys"
	"qcnlab/model"
)

func TestParseCriteria(t *testing.T) {
	got, err := ParseCriteria(" std > 0.2qeq, empty>0.01,util<0.95 ,max>100KB,jain<0.9")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "std>0.2qeq,empty>0.01,util<0.95,max>100KB,jain<0.9" {
		t.Errorf("names %q", names)
	}
	if c := got[3]; c.Threshold != 100e3 || c.PerQEq || !c.Above {
		t.Errorf("max>100KB read as %+v", c)
	}
	for _, bad := range []string{"", "std>0.2", "std=0.2qeq", "wobble>1", "util<0.95qeq", "util<abc", "std>0.2qeq,std>0.2qeq", "empty>1KB"} {
		if _, err := ParseCriteria(bad); err == nil || !strings.HasPrefix(err.Error(), "--criteria") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

// The worst bottleneck decides, in the criterion's direction, after the
// division by its own target.
func TestMeasureTakesTheWorstBottleneck(t *testing.T) {
	s := &model.Summary{Algorithm: "qcn", JainFairness: ptr(0.8), Bottlenecks: []model.BottleneckSummary{
		{QueueStd: 3e3, QEq: 10e3, Utilization: 0.99},
		{QueueStd: 4e3, QEq: 40e3, Utilization: 0.90},
	}}
	crit, _ := ParseCriteria("std>0.2qeq,util<0.95,jain<0.9,std>3.5KB")
	want := []float64{0.3, 0.90, 0.8, 4e3}
	for i, c := range crit {
		v, err := c.Measure(s)
		if err != nil || v != want[i] {
			t.Errorf("%s: %g, %v; want %g", c.Name, v, err, want[i])
		}
	}
	if !crit[0].Unstable(0.3) || crit[0].Unstable(0.2) || !crit[1].Unstable(0.9) || crit[1].Unstable(0.95) {
		t.Error("thresholds are strict: above for >, below for <")
	}
	s.Bottlenecks[0].QEq = 0
	if _, err := crit[0].Measure(s); err == nil || !strings.Contains(err.Error(), "no queue target") {
		t.Errorf("no target: %v", err)
	}
}

// On a fabric only the watched ports count: a host's link with nothing to
// receive idles by design and would make every point unstable.
func TestMeasureOnAFabricTakesTheWatchedPorts(t *testing.T) {
	s := &model.Summary{Algorithm: "qcn", Bottlenecks: []model.BottleneckSummary{
		{Name: "edge0.0->h0", QueueStd: 3e3, QEq: 10e3, Utilization: 0.99},
		{Name: "edge0.0->h1", QueueStd: 0, QEq: 10e3, Utilization: 0.01},
	}, Watched: &model.Watched{Ports: []string{"edge0.0->h0"}}}
	crit, _ := ParseCriteria("util<0.95")
	if v, err := crit[0].Measure(s); err != nil || v != 0.99 {
		t.Errorf("utilization %g, %v: want the watched port's 0.99", v, err)
	}
	s.Watched = nil
	if v, _ := crit[0].Measure(s); v != 0.01 {
		t.Errorf("on a chain every port counts: %g", v)
	}
}

func TestKeyKinds(t *testing.T) {
	for key, want := range map[string]string{
		"network.rtt": "duration", "network.capacity": "rate", "network.buffer": "bytes", "sources.count": "count",
		"network.links": "count", "sources.line_rate": "rate", "output.fairness_threshold": "number",
		"params.dsm.q0": "bytes", "params.n-aimd.gi": "number", "duration": "duration",
		"network.hop_delay": "duration", "network.k": "count", "network.uplink_capacity": "rate",
	} {
		k, err := keys.NumericKind(key)
		if err != nil || k.String() != want {
			t.Errorf("%s: %v, %v; want %s", key, k, err, want)
		}
	}
	for _, bad := range []string{"network.topology", "network.rtt.x", "network", "nope", "params.qcn", "params.qcn.nope", "params.nope.x", "algorithms", "params.n-aimd.sampling"} {
		if _, err := keys.NumericKind(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// Band thresholds divide the queue metric by the scheme's marking band:
// p95 against K_max, swing (p95 - p5) against K_max - K_min.
func TestBandCriteria(t *testing.T) {
	crit, err := ParseCriteria(BandCriteria + ",p5<0.5kmin")
	if err != nil {
		t.Fatal(err)
	}
	if crit[0].Per != "kmax" || crit[2].Per != "band" || crit[3].Per != "kmin" || crit[0].PerQEq {
		t.Fatalf("parsed %+v", crit)
	}
	s := &model.Summary{Algorithm: "dcqcn", Bottlenecks: []model.BottleneckSummary{
		{QEq: 102.5e3, EmptyFraction: 0.09, QueueQuantiles: model.Quantiles{P5: 2e3, P95: 220e3}},
	}}
	band := Band{5e3, 200e3}
	want := []float64{1.1, 0.09, 218e3 / 195e3, 0.4}
	for i, c := range crit {
		v, err := c.MeasureIn(s, band)
		if err != nil || math.Abs(v-want[i]) > 1e-12 {
			t.Errorf("%s: %g, %v; want %g", c.Name, v, err, want[i])
		}
	}
	if _, err := crit[0].Measure(s); err == nil || !strings.Contains(err.Error(), "no marking band") {
		t.Errorf("a band threshold without a band: %v", err)
	}
	for _, bad := range []string{"p95>1", "util<1kmax", "p95>1kmeh"} {
		if _, err := ParseCriteria(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// Each scheme gets its own criteria: DCQCN's band, the QCN family's set
// point.
func TestCriteriaFor(t *testing.T) {
	names := func(cs []Criterion) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names(CriteriaFor("dcqcn")); got != BandCriteria {
		t.Errorf("dcqcn: %s", got)
	}
	for _, alg := range []string{"qcn", "ecm", "dsm", "n-aimd"} {
		if got := names(CriteriaFor(alg)); got != DefaultCriteria {
			t.Errorf("%s: %s", alg, got)
		}
	}
}
