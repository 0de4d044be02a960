package reproduce

import (
	"math"
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/stability"
	"qcnlab/model"
)

// The boundary judge: the paper's value ± its tolerance, both sides; a
// criterion that sees no instability anywhere counts for nothing; a value
// the paper calls stable must lie before the boundary.
func TestBoundaryStatements(t *testing.T) {
	rep := &stability.Report{Key: "network.rtt", Unit: "s", Range: [2]float64{60e-6, 400e-6}, Runs: 10, Seeds: []uint64{1, 2}, Complete: true}
	crits, _ := stability.ParseCriteria("std>0.2qeq,util<0.95")
	set := func(n, ap *float64) {
		rep.Results = []stability.Boundary{boundaryIn(rep, "n-aimd", crits[0], n), boundaryIn(rep, "ap-n-aimd", crits[0], ap),
			boundaryIn(rep, "n-aimd", crits[1], nil), boundaryIn(rep, "ap-n-aimd", crits[1], nil)}
	}
	set(us(140), us(240))
	cs := judgeBoundaries(rep, fig7Bounds...)
	o := Outcome{Criteria: cs}.finish()
	if o.Criteria[0].Verdict != Agrees || o.Criteria[1].Verdict != NotJudged || o.Verdict != Agrees {
		t.Fatalf("%s: %s", o.Verdict, o.Measured())
	}
	if s := o.Criteria[1].Statements[0]; s.Holds != nil || !strings.Contains(s.Note, "no boundary in range") {
		t.Errorf("a blind criterion: %+v", s)
	}
	// The old one-sided rule let an AP that fails at 150 us "hold"; the
	// two-sided one does not.
	set(us(140), us(150))
	if o := (Outcome{Criteria: judgeBoundaries(rep, fig7Bounds...)}).finish(); o.Criteria[0].Verdict != Partly ||
		!strings.Contains(o.Criteria[0].Measured, "not: ap-n-aimd: loses its stability at 240 us") {
		t.Errorf("AP at 150 us: %s", o.Criteria[0].Measured)
	}
	// So is an N-AIMD that holds out too long.
	set(us(200), us(240))
	if o := (Outcome{Criteria: judgeBoundaries(rep, fig7Bounds...)}).finish(); o.Criteria[0].Verdict != Partly {
		t.Errorf("N-AIMD at 200 us: %s", o.Criteria[0].Measured)
	}
	// A boundary past the range's end is "none in range"; past a value the
	// paper calls stable, that holds; against a value inside the range it
	// does not.
	set(us(140), nil)
	s := judgeBoundaries(rep, fig7Bounds...)[0].Statements
	if !s[1].holds() || s[2].holds() || s[2].Measured != "none in range" {
		t.Errorf("AP stable to 400 us: %+v", s)
	}
}

// A threshold 5% off that moves the boundary across the tolerance makes
// the statement fragile.
func TestBoundaryThresholdFragility(t *testing.T) {
	rep := &stability.Report{Key: "network.rtt", Unit: "s", Range: [2]float64{60e-6, 400e-6}, Complete: true}
	crits, _ := stability.ParseCriteria("std>0.2qeq")
	b := boundaryIn(rep, "n-aimd", crits[0], us(140))
	// At 140 us the metric is just above the threshold, at 180 us well.
	b.Points = []stability.Point{{Value: 130e-6, Metric: 0.1}, {Value: 140e-6, Metric: 0.205, Unstable: true}, {Value: 180e-6, Metric: 0.5, Unstable: true}}
	rep.Results = []stability.Boundary{b}
	s := judgeBoundaries(rep, fig7Bounds[0])[0].Statements[0]
	if !s.holds() || !strings.Contains(s.Fragile, "threshold times 1.05 the boundary is 180 us") {
		t.Errorf("%+v", s)
	}
}

// statesAt judges points with the stability criteria, as the search does:
// the metric averaged over the seeds against the threshold.
func TestStatesAt(t *testing.T) {
	mk := func(alg, rtt string, seed uint64, std, empty, util float64) ClaimRun {
		return ClaimRun{RunSummary: batch.RunSummary{Summary: model.Summary{Algorithm: alg, Seed: seed, SimSeconds: 1,
			Bottlenecks: []model.BottleneckSummary{{QEq: 24e3, QueueStd: std, QueueMean: 20e3, EmptyFraction: empty, Utilization: util}}},
			Point: map[string]string{"network.rtt": `"` + rtt + `"`}}}
	}
	ev := &Evidence{Runs: Runs{mk("dsm", "100us", 1, 1e3, 0, 1), mk("dsm", "500us", 1, 20e3, 0.3, 0.8),
		mk("qcn", "100us", 1, 1e3, 0, 1), mk("qcn", "500us", 1, 18e3, 0.05, 0.99)}}
	o := statesAt("network.rtt", 1000, []stateClaim{{"dsm", "100us", true}, {"dsm", "500us", true}, {"qcn", "500us", false}})(ev).finish()
	for _, c := range o.Criteria {
		// DSM stable at 100 us holds under all four criteria, DSM at 500 us
		// under none, QCN unstable at 500 us under three of them.
		want := "2 of 3"
		if c.Name == "util<0.95" {
			want = "1 of 3"
		}
		if c.Verdict != Partly || !strings.HasPrefix(c.Measured, want) {
			t.Errorf("%s: %s (%s), want %s", c.Name, c.Verdict, c.Measured, want)
		}
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
	for _, id := range []string{"000-fig8-margin", "000-theorem1", "002-fig6-model", "003-association", "004-conclusion"} {
		if _, err := Select([]string{id}); err != nil {
			t.Errorf("the issue's claim %s: %v", id, err)
		}
	}
	// Every part of every claim plans, with and without --quick.
	for _, c := range all {
		for _, q := range []bool{false, true} {
			for _, p := range c.parts() {
				if _, err := plan(p, nil, Options{Quick: q}); err != nil {
					t.Errorf("%s %q (quick %v): %v", c.ID, p.Name, q, err)
				}
				for i := range c.Corrections {
					if _, err := plan(p, &c.Corrections[i], Options{Quick: q}); err != nil {
						t.Errorf("%s %s: %v", c.ID, c.Corrections[i].Name, err)
					}
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

// The per-phase metrics read the phase that starts where the built-in puts
// it, through the registry.
func TestPhases(t *testing.T) {
	s := model.Summary{Sources: []model.SourceSummary{{ID: 0}, {ID: 1, ThroughputBps: 4e9}},
		Phases: []model.PhaseSummary{{Start: 0, End: 0.1, Bottlenecks: []model.BottleneckSummary{{Utilization: 0.5}}},
			{Start: 0.1, End: 0.2, Bottlenecks: []model.BottleneckSummary{{Utilization: 0.9}}}}}
	r := &ClaimRun{RunSummary: batch.RunSummary{Summary: s}}
	if u, ok := inPhase(0.1, metrics.Utilization, 0).Value(r); !ok || u != 0.9 {
		t.Errorf("phase at 0.1 s: %g", u)
	}
	if u, ok := inPhase(0.3, metrics.Utilization, 0).Value(r); ok {
		t.Errorf("no phase at 0.3 s: %g", u)
	}
	if x, ok := reg(metrics.Throughput, 1).Value(r); !ok || x != 4e9 {
		t.Errorf("throughput %g", x)
	}
	if _, ok := timeToFair.Value(r); ok {
		t.Error("a run with no time to fairness has one")
	}
	if m := (Runs{*r}).Mean(timeToFair); !math.IsNaN(m) {
		t.Errorf("mean of none %g", m)
	}
}

// A claim the full report finds to differ from its paper, or to agree only
// partly, says why where the project knows, and the report's notes give it
// (or say that it is not known) whenever the verdict is not agrees.
func TestDifferingClaimsSayWhy(t *testing.T) {
	for _, c := range Claims() {
		switch c.Found {
		case Agrees, NotJudged:
		case Differs, Partly:
			if strings.TrimSpace(c.Why) == "" {
				t.Errorf("%s: the full report finds it %s and it does not say why", c.ID, c.Found)
			}
		default:
			t.Errorf("%s: no verdict recorded (Found %q)", c.ID, c.Found)
		}
	}
	c := Claim{ID: "x", Why: "the paper's eq. 9 resets TR"}
	for _, tc := range []struct {
		c              Claim
		verdict, notes string
		want           string
	}{
		{c, Differs, "the search ran 4 runs", "Why it differs: the paper's eq. 9 resets TR. The search ran 4 runs"},
		{c, Partly, "", "Why it differs: the paper's eq. 9 resets TR."},
		{Claim{ID: "y"}, Differs, "n", "Why it differs: not known. N"},
		{c, Agrees, "n", "n"},
		{c, NotJudged, "", ""},
	} {
		if got := claimNotes(tc.c, tc.verdict, tc.notes); got != tc.want {
			t.Errorf("%s %s: notes %q, want %q", tc.c.ID, tc.verdict, got, tc.want)
		}
	}
}
