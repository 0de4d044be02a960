package reproduce

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/stability"
	"qcnlab/model"
)

// run is a synthetic run summary: one algorithm at one RTT and seed with a
// queue of the given std, empty fraction and utilization.
func run(alg, rtt string, seed int, std, empty, util float64) batch.RunSummary {
	return batch.RunSummary{
		Summary: model.Summary{Algorithm: alg, SimSeconds: 1, Bottlenecks: []model.BottleneckSummary{{
			QEq: 24e3, QueueStd: std, QueueMean: 20e3, EmptyFraction: empty, Utilization: util}}},
		Point: map[string]string{"network.rtt": `"` + rtt + `"`, "seed": fmt.Sprint(seed)},
	}
}

func TestCombineAndGrade(t *testing.T) {
	for _, c := range []struct {
		vs   []string
		want string
	}{{[]string{Agrees, Agrees}, Agrees}, {[]string{Differs, Differs}, Differs}, {[]string{Agrees, Differs}, Partly},
		{[]string{Partly}, Partly}, {nil, Differs}} {
		var cs []CriterionResult
		for _, v := range c.vs {
			cs = append(cs, CriterionResult{Verdict: v})
		}
		if got := combine(cs); got != c.want {
			t.Errorf("combine(%v) = %s, want %s", c.vs, got, c.want)
		}
	}
	if grade(2, 2) != Agrees || grade(1, 2) != Partly || grade(0, 3) != Differs {
		t.Error("grade")
	}
}

// The boundary judge on a synthetic stability report: N-AIMD turns unstable
// at 140 us and AP-N-AIMD at 240 us under the std criterion; under the
// utilization criterion both stay stable, so only "AP-N-AIMD stable at
// 140 us" holds there.
func TestBoundaryJudgeOnASyntheticSearch(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	rep := &stability.Report{Key: "network.rtt", Unit: "s", Range: [2]float64{60e-6, 400e-6}, Runs: 10, Complete: true,
		Results: []stability.Boundary{
			{Algorithm: "n-aimd", Criterion: "std>0.2qeq", Boundary: f(140e-6), Bracket: [2]*float64{f(120e-6), f(140e-6)}},
			{Algorithm: "ap-n-aimd", Criterion: "std>0.2qeq", Boundary: f(240e-6), Bracket: [2]*float64{f(235e-6), f(240e-6)}},
			{Algorithm: "n-aimd", Criterion: "util<0.95"},
			{Algorithm: "ap-n-aimd", Criterion: "util<0.95", Note: "stable again at 300us"},
		}}
	judge := boundaryJudge(placed{"n-aimd", "", "140us"}, placed{"ap-n-aimd", "140us", "240us"})
	o := judge(rep)
	if len(o.Criteria) != 2 || o.Criteria[0].Verdict != Agrees || o.Criteria[1].Verdict != Partly || o.Verdict != Partly {
		t.Fatalf("%+v", o)
	}
	if m := o.Criteria[0].Measured; !strings.Contains(m, "n-aimd unstable from 140us (stable at 120us)") || !strings.Contains(m, "3 of 3") {
		t.Errorf("measured %q", m)
	}
	if m := o.Criteria[1].Measured; !strings.Contains(m, "stable over the whole range (to 400us)") || !strings.Contains(m, "1 of 3") {
		t.Errorf("measured %q", m)
	}
	if !strings.Contains(o.Notes, "stable again at 300us") {
		t.Errorf("notes %q", o.Notes)
	}
	// AP unstable already at 140 us breaks its "stable at 140 us".
	rep.Results[1].Boundary = f(140e-6)
	if c := judge(rep).Criteria[0]; c.Verdict != Partly {
		t.Errorf("AP unstable from 140 us: %s (%s)", c.Verdict, c.Measured)
	}
}

func TestStatesAtAndValues(t *testing.T) {
	rs := Runs{run("dsm", "100us", 1, 1e3, 0, 1), run("dsm", "500us", 1, 20e3, 0.3, 0.8),
		run("qcn", "100us", 1, 1e3, 0, 1), run("qcn", "500us", 1, 18e3, 0.05, 0.99)}
	if vs := rs.Values("network.rtt"); strings.Join(vs, ",") != "100us,500us" {
		t.Errorf("values %v", vs)
	}
	o := statesAt("network.rtt", 1000, []stateClaim{{"dsm", "100us", true}, {"dsm", "500us", true}, {"qcn", "500us", false}})(rs)
	for _, c := range o.Criteria {
		// DSM stable at 100 us holds under all four criteria, DSM at 500 us
		// under none, QCN unstable at 500 us under three of them.
		held := "2 of 3"
		if c.Name == "utilization < 0.95" {
			held = "1 of 3"
		}
		if want := Partly; c.Verdict != want || !strings.HasPrefix(c.Measured, held) {
			t.Errorf("%s: %s (%s), want %s", c.Name, c.Verdict, c.Measured, want)
		}
	}
}

func TestTimeToFairnessRule(t *testing.T) {
	mk := func(th string, ttf *float64) batch.RunSummary {
		return batch.RunSummary{Summary: model.Summary{Algorithm: "qcn", SimSeconds: 20, TimeToFairness: ttf,
			Bottlenecks: []model.BottleneckSummary{{}}}, Point: map[string]string{"output.fairness_threshold": th}}
	}
	ten := 10.0
	zero := 0.0
	o := timeToFairnessIn("qcn", 5, 15, "")(Runs{mk("0.8", &ten), mk("0.9", nil), mk("0.7", &ten), mk("0.7", &zero)})
	if o.Verdict != Partly || o.Criteria[0].Verdict != Partly || o.Criteria[1].Verdict != Agrees || o.Criteria[2].Verdict != Differs {
		t.Errorf("%+v", o)
	}
	if !strings.Contains(o.Criteria[2].Measured, "20.0 s") {
		t.Errorf("a run never fair counts as its length: %q", o.Criteria[1].Measured)
	}
}

func TestSelect(t *testing.T) {
	all, err := Select(nil)
	if err != nil || len(all) == 0 {
		t.Fatal(err)
	}
	for i := 1; i < len(all); i++ {
		if natural(all[i-1].ID) >= natural(all[i].ID) {
			t.Errorf("%s before %s", all[i-1].ID, all[i].ID)
		}
	}
	if _, err := Select([]string{"000-fig7", "nope"}); err == nil || !strings.Contains(err.Error(), "unknown claim nope") {
		t.Errorf("error %v", err)
	}
	// Every claim's experiment plans, with and without --quick.
	for _, c := range all {
		for _, q := range []bool{false, true} {
			if _, err := plan(c, nil, Options{Quick: q}); err != nil {
				t.Errorf("%s (quick %v): %v", c.ID, q, err)
			}
			for i := range c.Corrections {
				if _, err := plan(c, &c.Corrections[i], Options{Quick: q}); err != nil {
					t.Errorf("%s %s: %v", c.ID, c.Corrections[i].Name, err)
				}
			}
		}
	}
}

// A correction that sets a parameter no scheme has yet is left out.
func TestCorrectionAvailable(t *testing.T) {
	if !(Correction{Requires: []string{"dsm.c", "ap-n-aimd.averaging_packets"}}).available() {
		t.Error("existing parameters")
	}
	for _, r := range []string{"dsm.no_such_gain", "no-such-scheme.c"} {
		if (Correction{Requires: []string{r}}).available() {
			t.Errorf("%s counted as available", r)
		}
	}
}

// Figure 10's rule on synthetic runs: both schemes oscillate more with
// heavier short flows; DSM is steadier than QCN on link 1 only.
func TestMixedFlowsRule(t *testing.T) {
	mk := func(alg, load string, std1, std2 float64) batch.RunSummary {
		return batch.RunSummary{Summary: model.Summary{Algorithm: alg, Bottlenecks: []model.BottleneckSummary{
			{QueueStd: std1, Utilization: 1}, {QueueStd: std2, Utilization: 1}}},
			Point: map[string]string{"traffic.short_flow_rate": load}}
	}
	rs := Runs{mk("dsm", "0.0", 1e3, 1e3), mk("dsm", "200.0", 2e3, 9e3), mk("qcn", "0.0", 2e3, 2e3), mk("qcn", "200.0", 3e3, 4e3)}
	o := mixedFlows("traffic.short_flow_rate", 2)(rs)
	if o.Criteria[0].Verdict != Agrees || o.Criteria[1].Verdict != Partly || o.Verdict != Partly {
		t.Errorf("%+v", o)
	}
	if !strings.Contains(o.Criteria[1].Measured, "200.0: std 9.0/4.0 KB") {
		t.Errorf("measured %q", o.Criteria[1].Measured)
	}
}

// The per-phase rules read the phase that starts where the built-in puts
// it, and a JSON field by its path.
func TestPhasesAndFields(t *testing.T) {
	s := model.Summary{Sources: []model.SourceSummary{{ID: 0}, {ID: 1, ThroughputBps: 4e9}},
		Phases: []model.PhaseSummary{{Start: 0, End: 0.1, Bottlenecks: []model.BottleneckSummary{{Utilization: 0.5}}},
			{Start: 0.1, End: 0.2, Bottlenecks: []model.BottleneckSummary{{Utilization: 0.9}}}}}
	if u := phaseMetric(0.1, util)(s); u != 0.9 {
		t.Errorf("phase at 0.1 s: %g", u)
	}
	if u := phaseMetric(0.3, util)(s); !math.IsNaN(u) {
		t.Errorf("no phase at 0.3 s: %g", u)
	}
	if x := summaryField(s, "sources", 1, "throughput_bps"); x != 4e9 {
		t.Errorf("field %g", x)
	}
	if x := summaryField(s, "sources", 1, "no_such_field"); !math.IsNaN(x) {
		t.Errorf("missing field %g", x)
	}
	o := judgeStatements("c", []statement{{"a", true, "1"}, {"b", false, "2"}})
	if o.Verdict != Partly || !strings.HasPrefix(o.Measured, "1 of 2 hold: a: yes (1); b: no (2)") {
		t.Errorf("%+v", o)
	}
}
