package stability

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
)

// naimd is seed 000 figure 7's scenario, N-AIMD alone, on a short run.
func naimd(t *testing.T, sets ...string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.OpenWith("ap-n-aimd-2-sources", append([]string{
		`algorithms=["n-aimd"]`, "duration=200ms", "warmup=20ms"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// N-AIMD's queue std crosses 20% of Q_eq between 140 and 190 us of RTT
// (seed 000: unstable from 140 us; the built-in measured 3.1 packets at
// 140 us and 4.3 at 190 us over 500 ms). On this short run the search
// must bracket a boundary there, within its resolution, and find the queue
// never empty and the link always busy.
func TestNAIMDQueueBoundaryAlongRTT(t *testing.T) {
	e := naimd(t)
	rep, err := Search(context.Background(), e, Options{Key: "network.rtt", Range: "60us:300us", Seeds: []uint64{1}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unit != "s" || rep.Range != [2]float64{60e-6, 300e-6} || rep.Resolution != 3.75e-6 || !rep.Complete || len(rep.Results) != 3 {
		t.Fatalf("report header %+v", rep)
	}
	std := rep.Find("n-aimd", "std>0.2qeq")
	if std == nil || std.Boundary == nil || std.Bracket[0] == nil {
		t.Fatalf("std: %+v", std)
	}
	if b := *std.Boundary; b < 120e-6 || b > 200e-6 || b-*std.Bracket[0] > rep.Resolution+1e-12 {
		t.Errorf("std boundary %g in [%g, %g]; want 120-200 us, bracket within %g", b, *std.Bracket[0], b, rep.Resolution)
	}
	if p := std.Points; p[0].Value != 60e-6 || p[0].Unstable || !p[len(p)-1].Unstable {
		t.Errorf("std points %+v: want stable at 60 us, unstable at 300 us", p)
	}
	for _, c := range []string{"empty>0.01", "util<0.95"} {
		if b := rep.Find("n-aimd", c); b == nil || b.Boundary != nil {
			t.Errorf("%s: %+v, want stable over the range", c, b)
		}
	}
}

// The same search gives the same report with one worker or several.
func TestSearchIsDeterministic(t *testing.T) {
	var outs []string
	for _, w := range []int{1, 3} {
		rep, err := Search(context.Background(), naimd(t, "duration=60ms"), Options{Key: "network.rtt", Range: "100us:250us",
			Seeds: []uint64{1, 2}, Grid: 4, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		WriteJSON(&b, rep)
		outs = append(outs, b.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("reports differ with the number of workers:\n%s\n%s", outs[0], outs[1])
	}
}

// Count keys and scheme parameters go through --set like any other key, so
// their bounds are the same.
func TestKeysAndErrors(t *testing.T) {
	e := naimd(t, "duration=20ms", "warmup=5ms")
	rep, err := Search(context.Background(), e, Options{Key: "sources.count", Range: "1:4", Grid: 2, Seeds: nil, Criteria: mustCriteria(t, "util<0.95")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unit != "count" || rep.Resolution != 1 || rep.Runs != 2*4 { // the two ends, the file's 4 seeds each: stable, nothing to bisect
		t.Errorf("count search: unit %q, resolution %g, %d runs", rep.Unit, rep.Resolution, rep.Runs)
	}
	if _, err := Search(context.Background(), e, Options{Key: "params.n-aimd.gi", Range: "0.1:2", Grid: 2}); err != nil {
		t.Errorf("a scheme parameter: %v", err)
	}
	for _, c := range []struct{ key, span, want string }{
		{"network.rtt", "60us", "not LO:HI"},
		{"network.rtt", "60us:60us", "empty"},
		{"network.rtt", "60:300us", "needs a unit"},
		{"network.buffer", "0B:150KB", "network.buffer"},
		{"params.n-aimd.sample_probability", "0.5:2", "params.n-aimd.sample_probability"},
		{"network.topology", "1:2", "not a numeric key"},
		{"sources.count", "1.5:4", "whole number"},
	} {
		_, err := Search(context.Background(), e, Options{Key: c.key, Range: c.span})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want an error containing %q", c.key, c.span, err, c.want)
		}
	}
	if !reflect.DeepEqual(rep.IgnoredSweep, []string{"params.ap-n-aimd.sampling", "params.ap-n-aimd.early_feedback", "network.rtt"}) ||
		rep.Seeds[0] != 1 || len(rep.Seeds) != 4 {
		t.Errorf("the file's sweep: ignored %q, seeds %v (want AP's readings and network.rtt ignored, the file's 4 seeds)", rep.IgnoredSweep, rep.Seeds)
	}
}

// Cancelled once its first runs are under way, a search stops and reports
// what it measured: nothing yet.
func TestCancelStopsTheSearch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := naimd(t, "duration=100s") // minutes of work if not stopped
	rep, err := Search(ctx, e, Options{Key: "network.rtt", Range: "60us:300us", Progress: func(batch.Progress) { cancel() }})
	if err != context.Canceled || rep == nil || rep.Complete {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	var text strings.Builder
	WriteText(&text, rep)
	if !strings.Contains(text.String(), "not measured") || !strings.Contains(text.String(), "incomplete") {
		t.Errorf("a search stopped before its first points:\n%s", text.String())
	}
}

func mustCriteria(t *testing.T, s string) []Criterion {
	c, err := ParseCriteria(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// --grid and --seeds multiply: a grid past the limits of one batch is
// refused before anything is planned or run.
func TestHugeGridRefused(t *testing.T) {
	e := naimd(t, "duration=20ms", "warmup=5ms")
	many := make([]uint64, 100000)
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Key: "network.rtt", Range: "100us:200us", Grid: 100_000_000}, "makes 400000000 runs; the most is 10000"},
		{Options{Key: "network.rtt", Range: "100us:200us", Seeds: many}, "makes 900000 runs"},
		// A billion seeds once took 11 GB to list before the check.
		{Options{Key: "network.rtt", Range: "100us:200us", SeedCount: new(1_000_000_000)}, "--seeds 1000000000: 1000000000 seeds at the coarse grid's 9 points make 9000000000 runs"},
		{Options{Key: "network.rtt", Range: "100us:200us", Grid: 2000, Seeds: []uint64{1}}, "events"},
	} {
		if c.opt.Grid == 2000 {
			e = naimd(t, "duration=100s")
		}
		_, err := Search(context.Background(), e, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("grid %d, %d seeds: %v, want %q", c.opt.Grid, len(c.opt.Seeds), err, c.want)
		}
	}
}

// Without --criteria each algorithm is judged by its scheme's criteria,
// DCQCN's against the marking band the run resolves, and a swept key the
// search does not vary is reported at the value it is held at, which
// --set may have changed.
func TestSchemeCriteriaAndHeldKeys(t *testing.T) {
	e, err := experiments.OpenWith("dcqcn-vs-qcn", []string{"sources.count=4", "duration=20ms", "warmup=10ms"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Search(context.Background(), e, Options{Key: "network.rtt", Range: "10us:20us", Grid: 2, Seeds: []uint64{1}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.Algorithm+" "+r.Criterion)
	}
	want := []string{"qcn std>0.2qeq", "qcn empty>0.01", "qcn util<0.95", "dcqcn p95>1kmax", "dcqcn empty>0.05", "dcqcn swing>1band"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("criteria %q, want %q", got, want)
	}
	if rep.HeldAt["sources.count"] != "4" || rep.HeldAt["network.capacity"] != `"10Gbps"` {
		t.Errorf("held at %v: want sources.count 4 (--set) and network.capacity 10Gbps (the file's)", rep.HeldAt)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "the search holds sources.count at 4") || strings.Contains(buf.String(), "file's value") {
		t.Errorf("the note on the held sweep:\n%s", buf.String())
	}
}

// A fat-tree's k takes even values only: a search along it judges even
// values only, on its grid and in its bisection, and a range with an odd
// end is refused as a range (the default grid asked for k = 5 and the
// search stopped there with nothing measured).
func TestVaryFatTreeKOverEvenValues(t *testing.T) {
	e, err := experiments.Parse("fabric.toml", []byte(`
name = "k"
duration = "1ms"
warmup = "200us"
algorithms = ["qcn"]
[network]
topology = "fat_tree"
k = 4
[traffic]
pattern = "permutation"
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, span := range []string{"4:8", "8:4"} {
		rep, err := Search(context.Background(), e, Options{Key: "network.k", Range: span, Seeds: []uint64{1}, Criteria: mustCriteria(t, "util<0.5")})
		if err != nil {
			t.Fatalf("%s: %v", span, err)
		}
		if !rep.Complete || rep.Resolution != 2 || len(rep.Results) != 1 || len(rep.Results[0].Points) != 3 {
			t.Fatalf("%s: complete %v, resolution %g, results %+v; want k = 4, 6 and 8 judged", span, rep.Complete, rep.Resolution, rep.Results)
		}
		for _, p := range rep.Results[0].Points {
			if int(p.Value)%2 != 0 {
				t.Errorf("%s: judged k = %g", span, p.Value)
			}
		}
	}
	for _, span := range []string{"3:8", "4:9"} {
		_, err := Search(context.Background(), e, Options{Key: "network.k", Range: span})
		if err == nil || !strings.Contains(err.Error(), "not a multiple of 2") {
			t.Errorf("%s: %v", span, err)
		}
	}
}

// Along a key with a step the grid and the bisection snap to its
// multiples: between 4 and 6 there is nothing left to judge.
func TestStepSnap(t *testing.T) {
	a := newAxis("network.k", algos.Count)
	for x, want := range map[float64]float64{4: 4, 4.9: 4, 5: 6, 5.5: 6, 7: 8, 39: 40} {
		if got := a.snap(x); got != want {
			t.Errorf("snap(%g) = %g, want %g", x, got, want)
		}
	}
	if a := newAxis("sources.count", algos.Count); a.snap(5) != 5 {
		t.Errorf("sources.count snaps 5 to %g", a.snap(5))
	}
}

// The experiment's name reaches the terminal escaped.
func TestReportEscapesTheName(t *testing.T) {
	var b bytes.Buffer
	WriteText(&b, &Report{Experiment: "x\x1b[2J", Key: "network.k", axis: newAxis("network.k", algos.Count)})
	if out := b.String(); strings.Contains(out, "\x1b") || !strings.HasPrefix(out, `x\x1b[2J: stability along network.k`) {
		t.Errorf("%q", out)
	}
}

// The baseline without congestion control has no set point: a search over
// a built-in that runs it beside a scheme (pfc-congestion-spreading: none
// and qcn) judges it by the link alone instead of stopping the whole
// search at its first point ("none has no queue target").
func TestBaselineWithoutSetPointIsJudged(t *testing.T) {
	e, err := experiments.OpenWith("pfc-congestion-spreading", []string{"duration=2ms", "warmup=500us"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Search(context.Background(), e, Options{Key: "network.rtt", Range: "10us:20us", Grid: 2, Seeds: []uint64{1}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete {
		t.Fatalf("search incomplete: %+v", rep.Results)
	}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.Algorithm+" "+r.Criterion)
	}
	want := []string{"none empty>0.01", "none util<0.95", "qcn std>0.2qeq", "qcn empty>0.01", "qcn util<0.95"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("criteria %q, want %q", got, want)
	}
}

// A search along a scheme's parameter that no algorithm of the experiment
// runs is refused: no run reads it, and the report said every algorithm
// "stable over the range" of a key it never varied.
func TestVaryParameterOfASchemeNotRun(t *testing.T) {
	e := naimd(t)
	_, err := Search(context.Background(), e, Options{Key: "params.qcn.q_eq", Range: "10KB:40KB", Grid: 2, Seeds: []uint64{1}})
	if err == nil || !strings.Contains(err.Error(), "params.qcn.q_eq") || !strings.Contains(err.Error(), "n-aimd") {
		t.Fatalf("%v, want a refusal naming the key and the algorithms run", err)
	}
}

// A criterion an algorithm cannot be judged by is refused before any run,
// as one that does not parse is: a threshold per marking band for QCN,
// which has a set point and no band, or per queue target for HPCC, which
// has neither. Measured, it stopped the search at its first step, an
// "incomplete" report of "not measured" that nobody had stopped.
func TestCriteriaAnAlgorithmCannotTakeAreRefusedBeforeAnyRun(t *testing.T) {
	for _, c := range []struct{ algs, criteria, want string }{
		{`["qcn"]`, "std>0.2kmax", "--criteria: std>0.2kmax: qcn has no marking band"},
		{`["qcn", "hpcc"]`, "util<0.95,std>0.2qeq", "--criteria: std>0.2qeq: hpcc has no queue target"},
		{`["dcqcn"]`, "swing>1band", ""},
	} {
		e, err := experiments.OpenWith("qcn-dumbbell", []string{"algorithms=" + c.algs, "duration=2ms"})
		if err != nil {
			t.Fatal(err)
		}
		ran := false
		rep, err := Search(context.Background(), e, Options{Key: "network.rtt", Range: "60us:300us", Grid: 2, Seeds: []uint64{1},
			Criteria: mustCriteria(t, c.criteria), Progress: func(batch.Progress) { ran = true }})
		if c.want == "" {
			if err != nil || !rep.Complete {
				t.Errorf("%s %s: %v", c.algs, c.criteria, err)
			}
			continue
		}
		if rep != nil || ran || err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %s: report %v, ran %v, error %v; want %q before any run", c.algs, c.criteria, rep != nil, ran, err, c.want)
		}
	}
}

// Without --criteria, schemes with no set point and no band are judged by
// the link, as the baseline is: the QCN family's std>0.2qeq would have
// stopped the search.
func TestSchemesWithoutATargetTakeTheLinkCriteria(t *testing.T) {
	for _, alg := range []string{"none", "timely", "hpcc", "swift"} {
		var names []string
		for _, c := range CriteriaFor(alg) {
			names = append(names, c.Name)
		}
		if got := strings.Join(names, ","); got != LinkCriteria {
			t.Errorf("%s: %s, want %s", alg, got, LinkCriteria)
		}
	}
}

// The README's --json shape names every key the report writes, and the
// report writes each of them whatever the search found: a script reads
// "ignored_sweep" and "note" without checking they are there.
func TestJSONKeysAreTheREADMEs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shape, ok := strings.Cut(string(readme), "  `--json`\n  `{")
	if !ok {
		t.Fatal("README: no --json shape of the stability report")
	}
	shape, _, _ = strings.Cut(shape, "}`")
	documented := regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(shape, -1)
	e, err := experiments.OpenWith("qcn-dumbbell", []string{"duration=2ms"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Search(context.Background(), e, Options{Key: "network.rtt", Range: "60us:100us", Grid: 2, Seeds: []uint64{1},
		Criteria: mustCriteria(t, "util<0.01")})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteJSON(&b, rep)
	written := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				written[k] = true
				if k != "held_at" { // its keys are the experiment's
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	var doc any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	walk(doc)
	for _, m := range documented {
		if !written[m[1]] {
			t.Errorf("the README documents %q; the report has none", m[1])
		}
		delete(written, m[1])
	}
	for k := range written {
		t.Errorf("the report writes %q, which the README's --json shape does not name", k)
	}
}
