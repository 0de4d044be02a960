package experiments

import (
	"os"
	"path/filepath"
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
	e := mustParse(t, "[sweep]\nalgorithms = [[\"qcn\"], [\"dcqcn\"]]\n")
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
		// The table's name again inside it: the key is sweep.sweep.seed.
		{"[sweep]\n\"sweep.seed\" = [1, 2]\n",
			"bad.toml:2: sweep.\"sweep.seed\": names the sweep table twice: inside [sweep], seed = [1, 2]; outside it or in --set, sweep.seed = [1, 2]"},
		{"[sweep]\nsweep.seed = [1, 2]\n",
			"bad.toml:2: sweep.sweep.seed: names the sweep table twice: inside [sweep], seed = [1, 2]; outside it or in --set, sweep.seed = [1, 2]"},
		{"[sweep]\n\n\"sweep.network.rtt\" = [\"100us\", \"300us\"]\n",
			"bad.toml:3: sweep.\"sweep.network.rtt\": names the sweep table twice: inside [sweep], network.rtt = [\"100us\", \"300us\"]; outside it or in --set, sweep.network.rtt = [\"100us\", \"300us\"]"},
		// The table's name alone, on the key's own line, not the table's.
		{"[sweep]\nsweep = [1, 2]\n",
			"bad.toml:2: sweep.sweep: names the sweep table twice, and no setting"},
		{"seed = 1\n[sweep.sweep]\n", "bad.toml:2: sweep.sweep: names the sweep table twice, and sweeps nothing"},
		{"[sweep.sweep]\nparams.qcn.gd = [0.1, 0.2]\n",
			"bad.toml:2: sweep.sweep.params.qcn.gd: names the sweep table twice: inside [sweep], params.qcn.gd = [0.1, 0.2]; outside it or in --set, sweep.params.qcn.gd = [0.1, 0.2]"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// The right spellings of a sweep key, in [sweep] and outside it, sweep.
func TestSweepKeySpellings(t *testing.T) {
	for _, text := range []string{
		"[sweep]\nseed = [1, 2]\n",
		"sweep.seed = [1, 2]\n",
		"[sweep]\n\"seed\" = [1, 2]\n",
		"[sweep]\nnetwork.rtt = [\"100us\", \"300us\"]\n",
		"[sweep]\n\"network.rtt\" = [\"100us\", \"300us\"]\n",
		"sweep.\"network.rtt\" = [\"100us\", \"300us\"]\n",
		"[sweep.network]\nrtt = [\"100us\", \"300us\"]\n",
	} {
		e, err := Parse("good.toml", []byte(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if len(e.Sweep) != 1 || len(e.Sweep[0].Values) != 2 {
			t.Errorf("%q: sweep %v, want one axis of two values", text, e.Sweep)
			continue
		}
		if _, err := e.Runs(); err != nil {
			t.Errorf("%q: runs: %v", text, err)
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

// An axis that takes one value twice, however written, and one key swept
// twice under two spellings, are errors naming the file, line, key and
// value: their runs would be one run counted twice (a seed as two seeds).
func TestASweepTakesEachValueOnce(t *testing.T) {
	for _, c := range []struct{ file, set, want string }{
		{"[sweep]\nseed = [1, 1, 1]\n", "", `dup.toml:2: sweep.seed: takes the value 1 twice`},
		{"[sweep]\n\"network.rtt\" = [\"100us\", \"0.1ms\"]\n", "", `dup.toml:2: sweep.network.rtt: takes the value "100us" twice ("100us" and "0.1ms")`},
		{"[sweep]\nnetwork.buffer = [\"150KB\", \"20KB\", \"150000B\"]\n", "", `dup.toml:2: sweep.network.buffer: takes the value "150KB" twice`},
		{"[sweep]\nparams.qcn.w = [2, 2.0]\n", "", `dup.toml:2: sweep.params.qcn.w: takes the value 2 twice (2 and 2.0)`},
		{"[sweep]\n\"network.rtt\" = [\"100us\"]\nnetwork.rtt = [\"200us\"]\n", "", `dup.toml:3: sweep.network.rtt: sweeps network.rtt a second time`},
		{"seed = 1\n", "sweep.seed=[1,1,1]", `--set: sweep.seed: takes the value 1 twice`},
		{"seed = 1\n", `sweep.network.rtt=["100us","100us"]`, `--set: sweep.network.rtt: takes the value "100us" twice`},
		{"seed = 1\n", `sweep={"network.rtt"=["1us"],network.rtt=["2us"]}`, `--set: sweep.network.rtt: sweeps network.rtt a second time`},
	} {
		e, err := decodeFile("dup.toml", []byte(c.file))
		if err == nil && c.set != "" {
			err = e.Set(c.set)
		}
		if err == nil {
			err = e.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %s: error %v, want %q", c.file, c.set, err, c.want)
		}
	}
	e, err := Parse("distinct.toml", []byte("[sweep]\nseed = [1, 2]\nnetwork.rtt = [\"100us\", \"0.2ms\"]\nparams.qcn.w = [2, 2.5]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if runs, _ := e.Runs(); len(runs) != 8 {
		t.Errorf("distinct values: %d runs, want 8", len(runs))
	}
}

// traffic.short_flow_sizes is text, but its values name sizes, workloads
// and files: one size in two units, one workload with a space, or one CDF
// file by two paths is one value taken twice. Distinct values still run.
func TestFlowSizesAxisValuesDiffer(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.cdf", "sub/a.cdf"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("1000 0\n5000 50\n20000 100\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "s.toml")
	sweepOf := func(values string) string {
		return "duration = \"5ms\"\n[traffic]\nshort_flow_rate = 1000.0\n[sweep]\n\"traffic.short_flow_sizes\" = " + values + "\n"
	}
	for _, c := range []struct{ values, want string }{
		{`["1.25MB", "1250KB"]`, `takes the value "1.25MB" twice ("1.25MB" and "1250KB")`},
		{`["a.cdf", "./a.cdf"]`, `takes the value "` + filepath.Join(dir, "a.cdf") + `" twice`},
		{`["sub/a.cdf", "../` + filepath.Base(dir) + `/sub//a.cdf"]`, `takes the value "` + filepath.Join(dir, "sub", "a.cdf") + `" twice`},
		{`["a.cdf", "` + filepath.Join(dir, "a.cdf") + `"]`, `takes the value "` + filepath.Join(dir, "a.cdf") + `" twice`},
		{`["websearch", "websearch "]`, `takes the value "websearch" twice ("websearch" and "websearch ")`},
	} {
		_, err := Parse(file, []byte(sweepOf(c.values)))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "must differ") {
			t.Errorf("%s: %v, want %q", c.values, err, c.want)
		}
	}
	e, err := Parse(file, []byte(sweepOf(`["websearch", "hadoop", "a.cdf", "sub/a.cdf", "1MB", "1MiB"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if runs, err := e.Runs(); err != nil || len(runs) != 6 {
		t.Errorf("six distinct values: %d runs (%v), want 6", len(runs), err)
	}
}
