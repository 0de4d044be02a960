package experiments

import (
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments/sweep"
)

func TestSweepExpandsEveryCombination(t *testing.T) {
	e := mustParse(t, `
algorithms = ["qcn"]
[sweep]
network.rtt = ["100us", "300us", "500us"]
"sources.count" = [2, 5]
seed = [1, 2]
`)
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 12 {
		t.Fatalf("%d runs, want 3 x 2 x 2", len(runs))
	}
	first, last := runs[0], runs[11]
	if first.Label() != "qcn network.rtt=100us sources.count=2 seed=1" || last.Label() != "qcn network.rtt=500us sources.count=5 seed=2" {
		t.Errorf("labels %q, %q", first.Label(), last.Label())
	}
	cfg, _ := last.Exp.Config("qcn")
	if cfg.Seed != 2 || len(cfg.Sources) != 5 || cfg.Sources[0].ForwardDelay != 250*algos.Microsecond {
		t.Errorf("last point config: seed %d, %d sources, fwd %d", cfg.Seed, len(cfg.Sources), cfg.Sources[0].ForwardDelay)
	}
	// The base experiment is untouched.
	if c, _ := e.Config("qcn"); len(c.Sources) != 4 || c.Seed != 1 {
		t.Errorf("sweep changed the base experiment: %+v", c)
	}
	assertRoundTrip(t, e)
	back := roundTrip(t, e)
	if len(back.Sweep) != 3 || back.Sweep[0].Key != "network.rtt" || len(back.Sweep[0].Values) != 3 {
		t.Errorf("sweep after a save: %+v", back.Sweep)
	}
}

func TestSweepOverAlgorithms(t *testing.T) {
	e := mustParse(t, "[sweep]\nalgorithms = [[\"qcn\"], [\"qcn\"]]\n")
	runs, err := e.Runs()
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
}

func TestSweepErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[sweep]\nnetwork.rtt = \"100us\"\n", "sweep.network.rtt: a sweep key takes a non-empty array"},
		{"[sweep]\nnetwork.rttt = [\"100us\"]\n", "network.rttt: unknown key"},
		{"duration = \"10ms\"\n[sweep]\nwarmup = [\"1ms\", \"20ms\"]\n", "at sweep point warmup=\"20ms\""},
		{"[sweep]\n\nnetwork.capacity = [\"fast\"]\n", "bad.toml:3 (sweep): network.capacity"},
		// A quoted key with dots is found on its own line.
		{"[sweep]\n\n\"network.capacity\" = [\"fast\"]\n", "bad.toml:3 (sweep): network.capacity"},
		{"[sweep]\n\n\"network.rtt\" = []\n", "bad.toml:3: sweep.\"network.rtt\": a sweep key takes a non-empty array"},
		// Tables cannot be swept; a table inside a value is not a key of its own.
		{"[sweep]\n\"network.changes\" = [[{at = \"1ms\", capacity = \"1Gbps\"}]]\n",
			"bad.toml:2: sweep.\"network.changes\": a sweep takes values, not tables"},
		{"[sweep]\n\"sources.override\" = [[{ids = [0], rtt = \"1ms\"}], [{ids = [1], rtt = \"1ms\"}]]\n",
			"bad.toml:2: sweep.\"sources.override\": a sweep takes values, not tables"},
		{"[sweep]\nx = [{y = 1}]\n", "bad.toml:2: sweep.x: a sweep takes values, not tables"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

func roundTrip(t *testing.T, e *Experiment) *Experiment {
	t.Helper()
	var b strings.Builder
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	back, err := Parse("saved.toml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return back
}

// An axis params.NAME.KEY varies scheme NAME's runs only: the other schemes
// run once per combination of the other axes, without it in their label.
func TestSchemeAxisAppliesToItsSchemeOnly(t *testing.T) {
	e := mustParse(t, `
algorithms = ["n-aimd", "ap-n-aimd"]
[sweep]
"params.ap-n-aimd.sampling" = ["random", "regular"]
network.rtt = ["100us", "300us"]
seed = [1, 2]
`)
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, r := range runs {
		labels = append(labels, r.Label())
	}
	want := []string{
		"n-aimd network.rtt=100us seed=1",
		"ap-n-aimd params.ap-n-aimd.sampling=random network.rtt=100us seed=1",
		"n-aimd network.rtt=100us seed=2",
		"ap-n-aimd params.ap-n-aimd.sampling=random network.rtt=100us seed=2",
		"n-aimd network.rtt=300us seed=1",
		"ap-n-aimd params.ap-n-aimd.sampling=random network.rtt=300us seed=1",
		"n-aimd network.rtt=300us seed=2",
		"ap-n-aimd params.ap-n-aimd.sampling=random network.rtt=300us seed=2",
		"ap-n-aimd params.ap-n-aimd.sampling=regular network.rtt=100us seed=1",
		"ap-n-aimd params.ap-n-aimd.sampling=regular network.rtt=100us seed=2",
		"ap-n-aimd params.ap-n-aimd.sampling=regular network.rtt=300us seed=1",
		"ap-n-aimd params.ap-n-aimd.sampling=regular network.rtt=300us seed=2",
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("runs:\n%s\nwant:\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
	if n := sweep.Count(e.Sweep, e.Algorithms); n != float64(len(want)) {
		t.Errorf("runCount %g, want %d", n, len(want))
	}
	if n := len(e.PointsFor("n-aimd")); n != 4 {
		t.Errorf("n-aimd has %d points, want 4", n)
	}
	if n := len(e.PointsFor("ap-n-aimd")); n != 8 {
		t.Errorf("ap-n-aimd has %d points, want 8", n)
	}
	// The run's experiment is the point's, whatever the label leaves out.
	if r := runs[8]; r.Exp.Params["ap-n-aimd"]["sampling"] == runs[1].Exp.Params["ap-n-aimd"]["sampling"] {
		t.Errorf("the regular run has the random run's sampling")
	}
}

func TestShortKeys(t *testing.T) {
	e := mustParse(t, `
algorithms = ["qcn", "qcn-t"]
[sweep]
"params.qcn.w" = [2, 4]
"params.qcn-t.w" = [2, 4]
"params.qcn.q_eq" = ["20KB"]
network.rtt = ["100us"]
seed = [1]
`)
	for key, want := range map[string]string{"params.qcn.w": "qcn.w", "params.qcn-t.w": "qcn-t.w",
		"params.qcn.q_eq": "q_eq", "network.rtt": "rtt", "seed": "seed"} {
		if got := e.ShortKey(key); got != want {
			t.Errorf("ShortKey(%s) = %q, want %q", key, got, want)
		}
	}
	runs, _ := e.Runs()
	if got := e.ShortLabel(runs[0]); got != "qcn qcn.w=2 q_eq=20KB rtt=100us seed=1" {
		t.Errorf("short label %q", got)
	}
}
