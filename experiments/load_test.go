package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/units"
)

func TestDefaultBuiltin(t *testing.T) {
	e, err := Builtin(DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.Config("qcn")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Sources) != 4 || cfg.Capacity != 10e9 || cfg.Buffer != 150e3 || cfg.FrameBytes != 1500 ||
		cfg.Duration != 100*algos.Millisecond || cfg.Warmup != 20*algos.Millisecond || cfg.Params["q_eq"] != 33e3 {
		t.Errorf("default experiment resolved to %+v", cfg)
	}
	for i, s := range cfg.Sources {
		if s.LineRate != 10e9 || s.InitialRate != 10e9 || s.ForwardDelay != 50*algos.Microsecond ||
			s.BackwardDelay != 50*algos.Microsecond || s.Start != 0 || s.Stop != algos.Never {
			t.Errorf("source %d: %+v", i, s)
		}
	}
}

func TestEveryBuiltinLoadsAndRoundTrips(t *testing.T) {
	for _, name := range BuiltinNames() {
		e, err := Builtin(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		assertRoundTrip(t, e)
	}
}

// assertRoundTrip saves e, loads it back, and checks every run (each
// algorithm at each sweep point) gets the same simulation configuration.
func assertRoundTrip(t *testing.T, e *Experiment) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "saved.toml")
	if err := e.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("%s: saved file does not load: %v\n%s", e.Name, err, data)
	}
	if back.Name != e.Name || back.Description != e.Description || !reflect.DeepEqual(back.Algorithms, e.Algorithms) {
		t.Errorf("%s: header changed to %q %v", e.Name, back.Name, back.Algorithms)
	}
	want, err1 := e.Runs()
	got, err2 := back.Runs()
	if err1 != nil || err2 != nil || len(want) != len(got) {
		t.Fatalf("%s: %d runs before, %d after (%v, %v)", e.Name, len(want), len(got), err1, err2)
	}
	for i := range want {
		a, err1 := want[i].Exp.Config(want[i].Algorithm)
		b, err2 := got[i].Exp.Config(got[i].Algorithm)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s/%s: %v %v", e.Name, want[i].Label(), err1, err2)
		}
		a.Scheme, b.Scheme = nil, nil
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s/%s: saved and loaded configs differ:\n%+v\n%+v", e.Name, want[i].Label(), a, b)
		}
	}
}

// A topology's own key whose default follows a swept key is not pinned to
// the base point's value by saving: a leaf-spine's uplinks follow the
// swept network.capacity after a round trip as before it.
func TestSavedSweepKeepsDerivedTopologyKeys(t *testing.T) {
	e, err := Parse("ls.toml", []byte("duration = \"5ms\"\n[network]\ntopology = \"leaf_spine\"\n[sweep]\n\"network.capacity\" = [\"10Gbps\", \"40Gbps\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "uplink_capacity") {
		t.Errorf("saved with the base point's uplink_capacity:\n%s", b.String())
	}
	assertRoundTrip(t, e)
}

func TestSavedFileIsComplete(t *testing.T) {
	e, _ := Builtin(DefaultName)
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	defaults := KeyDefaults()
	for _, k := range keys.All {
		key := k.Path
		if _, has := defaults[key]; !has || !k.AppliesTo(e.Network.Topology) {
			continue // no value to write
		}
		short := key[strings.LastIndex(key, ".")+1:]
		if !strings.Contains(text, "\n"+short+" = ") {
			t.Errorf("saved file lacks %s", key)
		}
	}
	sc, _ := algos.Lookup("qcn")
	for _, k := range sc.Keys() {
		if !strings.Contains(text, "\n"+k+" = ") {
			t.Errorf("saved file lacks params.qcn.%s", k)
		}
	}
}

func TestRoundTripWithOverridesAndParams(t *testing.T) {
	e := mustParse(t, `
name = "custom"
description = "with \"quotes\" and a\nnewline"
seed = 42
duration = "30ms"
algorithms = ["qcn"]
[network]
capacity = "1Gbps"
buffer = "512KB"
rtt = "300us"
[sources]
count = 3
[[sources.override]]
ids = [1, 2]
initial_rate = "100Mbps"
rtt = "500us"
[[sources.override]]
ids = [2]
start = "5ms"
stop = "20ms"
[params.qcn]
q_eq = "64KB"
timer_period = "15ms"
literal_activation = true
`)
	cfg, _ := e.Config("qcn")
	s := cfg.Sources
	if s[0].InitialRate != 1e9 || s[1].InitialRate != 100e6 || s[1].ForwardDelay != 250*algos.Microsecond ||
		s[0].ForwardDelay != 150*algos.Microsecond || s[2].Start != 5*algos.Millisecond || s[2].Stop != 20*algos.Millisecond {
		t.Errorf("sources %+v", s)
	}
	if cfg.Params["r_ai"] != 0.5e6 || cfg.Params["timer_period"] != 0.015 || cfg.Params["literal_activation"] != 1 {
		t.Errorf("params %v", cfg.Params)
	}
	assertRoundTrip(t, e)
}

func mustParse(t testing.TB, text string) *Experiment {
	t.Helper()
	e, err := Parse("test.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestErrorsNameFileLineAndKey feeds broken files and checks the message
// says where and what.
func TestErrorsNameFileLineAndKey(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // substrings of the error
	}{
		{"unknown key", "seed = 1\n[network]\ncapacty = \"10Gbps\"\n",
			[]string{"bad.toml:3: network.capacty: unknown key", `did you mean "network.capacity"`}},
		{"wrong type", "seed = 1\nduration = \"10ms\"\n[sources]\ncount = \"four\"\n",
			[]string{"bad.toml:4", "sources.count", `a whole number, not the text "four"`}},
		{"array given a string", "algorithms = \"qcn\"\n",
			[]string{"bad.toml:1: algorithms: an array, not the text \"qcn\""}},
		{"array of tables given a table", "[network]\ntopology = \"custom\"\n[network.link]\na = \"h0\"\nb = \"s0\"\n",
			[]string{"bad.toml:3: network.link: an array, not a table"}},
		{"table given a number", "output = 1\n",
			[]string{"bad.toml:1: output: a table, not 1"}},
		{"array of tables given numbers", "[network]\ntopology = \"custom\"\nlink = [1]\n",
			[]string{"bad.toml:3: network.link: an array of tables, not 1"}},
		{"whole number given a float", "seed = 1.0\n",
			[]string{"bad.toml:1: seed: a whole number, not 1.0"}},
		{"missing unit", "[network]\nrtt = 100\n",
			[]string{"bad.toml:2", "network.rtt", "needs a unit"}},
		{"bad unit", "[network]\n\ncapacity = \"10 furlongs\"\n",
			[]string{"bad.toml:3", "network.capacity", "not a rate"}},
		{"negative rate", "[sources]\ninitial_rate = \"-1Gbps\"\n",
			[]string{"bad.toml:2", "sources.initial_rate", "must not be negative"}},
		{"warmup too long", "duration = \"10ms\"\n\nwarmup = \"10ms\"\n",
			[]string{"bad.toml:3: warmup: must be shorter than the duration"}},
		{"zero sources", "[sources]\ncount = 0\n",
			[]string{"bad.toml:2: sources.count: must be at least 1"}},
		{"unknown algorithm", "algorithms = [\"qcn\", \"tcp\"]\n",
			[]string{"bad.toml:1: algorithms:", `unknown algorithm "tcp"`}},
		{"unknown param", "[params.qcn]\nq_eq = \"1KB\"\nqeq = \"2KB\"\n",
			[]string{"bad.toml:3: params.qcn.qeq:", `qcn has no parameter "qeq"`}},
		{"param out of range", "[params.qcn]\n\ngd = 2.0\n",
			[]string{"bad.toml:3: params.qcn.gd: 2 is above the maximum 1"}},
		{"param bad unit", "[params.qcn]\nq_eq = \"lots\"\n",
			[]string{"bad.toml:2", "params.qcn.q_eq", "not a size"}},
		{"unknown scheme params", "[params.tcp]\nx = 1\n",
			[]string{"bad.toml:1: params.tcp:", "unknown algorithm"}},
		{"override id", "[sources]\ncount = 2\n[[sources.override]]\nids = [0]\n[[sources.override]]\nids = [5]\n",
			[]string{"bad.toml:6: sources.override[1].ids: source 5 does not exist"}},
		{"initial above line", "[sources]\nline_rate = \"1Gbps\"\ninitial_rate = \"2Gbps\"\n",
			[]string{"bad.toml:3: sources.initial_rate:", "above the line rate"}},
		{"syntax", "seed = \n",
			[]string{"bad.toml:1"}},
		{"frame size", "[network]\nframe_size = \"10B\"\n",
			[]string{"bad.toml:2: network.frame_size: must be a whole number of bytes from 64B"}},
		{"model", "model = \"quantum\"\n",
			[]string{"bad.toml:1: model:", `"quantum" is not available (available: ["packet" "fluid" "convergence"])`}},
		{"convergence scheme", "model = \"convergence\"\nalgorithms = [\"qcn\", \"dsm\"]\n[sources]\ncount = 2\n",
			[]string{"bad.toml:1: model:", "covers", "not dsm"}},
		{"convergence sources", "model = \"convergence\"\n[sources]\ncount = 3\n",
			[]string{"bad.toml:1: model:", "for 2 sources, not 3"}},
		{"convergence parking lot", "model = \"convergence\"\n[network]\ntopology = \"parking_lot\"\n[sources]\ncount = 2\n",
			[]string{"bad.toml:1: model:", "one bottleneck"}},
		{"convergence source stops", "model = \"convergence\"\nalgorithms = [\"qcn\"]\n[sources]\ncount = 2\n[[sources.override]]\nids = [1]\nstop = \"1ms\"\n",
			[]string{"bad.toml:1: model:", "sending throughout"}},
		{"convergence source starts", "model = \"convergence\"\nalgorithms = [\"qcn\"]\n[sources]\ncount = 2\nstart = \"1s\"\n",
			[]string{"bad.toml:1: model:", "sending throughout"}},
		{"convergence traffic", "model = \"convergence\"\nalgorithms = [\"qcn\"]\n[sources]\ncount = 2\n[traffic]\nshort_flow_rate = 100\n",
			[]string{"bad.toml:1: model:", "one greedy flow per source"}},
		{"convergence pfc", "model = \"convergence\"\nalgorithms = [\"qcn\"]\n[network]\npfc = true\nbuffer = \"1MB\"\n[sources]\ncount = 2\n",
			[]string{"bad.toml:1: model:", "no PFC"}},
		{"ecm thresholds out of order", "algorithms = [\"ecm\"]\n[network]\nbuffer = \"40KB\"\n[params.ecm]\nq_mc = \"30KB\"\nq_sc = \"28KB\"\n",
			[]string{"bad.toml:5: params.ecm.q_mc: Qmc = 30000 B is not below Qsc = 28000 B"}},
		{"ecm Qsc at the buffer", "algorithms = [\"ecm\"]\n[network]\nbuffer = \"40KB\"\n[params.ecm]\nq_sc = \"39KB\"\n",
			[]string{"bad.toml:5: params.ecm.q_sc:", "not below the fullest queue"}},
		{"ecm defaults in a one-frame buffer", "algorithms = [\"ecm\"]\n[network]\nbuffer = \"1500B\"\n",
			[]string{"bad.toml:3: params.ecm.q_sc: the default for this network: 0 is below"}},
		{"ecm switch", "algorithms = [\"ecm\"]\n[params.ecm]\nqsat_by_qdelta = 2\n",
			[]string{"bad.toml:3", "params.ecm.qsat_by_qdelta"}},
		{"threshold", "[output]\nfairness_threshold = 1.5\n",
			[]string{"bad.toml:2: output.fairness_threshold: must be in (0, 1]"}},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.name, err, w)
			}
		}
	}
}

func TestAllProblemsReportedAtOnce(t *testing.T) {
	_, err := Parse("bad.toml", []byte("[sources]\ncount = 0\n[output]\nfairness_threshold = 0.0\n"))
	if err == nil || !strings.Contains(err.Error(), "sources.count") || !strings.Contains(err.Error(), "fairness_threshold") {
		t.Errorf("error %v should name both problems", err)
	}
}

func TestSet(t *testing.T) {
	e, _ := Builtin(DefaultName)
	for _, s := range []string{
		"network.rtt=300us",           // bare string
		`network.capacity = "40Gbps"`, // quoted
		`algorithms=["qcn"]`,          // array
		"sources.count=7",             // integer
		"params.qcn.q_eq=50KB",        // a parameter
		"params.qcn.literal_activation=true",
		"output.fairness_threshold=0.8",
	} {
		if err := e.Set(s); err != nil {
			t.Fatalf("Set(%q): %v", s, err)
		}
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg, _ := e.Config("qcn")
	if cfg.Sources[0].ForwardDelay != 150*algos.Microsecond || cfg.Capacity != 40e9 || len(cfg.Sources) != 7 ||
		cfg.Params["q_eq"] != 50e3 || cfg.Params["literal_activation"] != 1 || cfg.FairnessThreshold != 0.8 {
		t.Errorf("after sets: %+v", cfg)
	}
	// The sources' line rate follows the capacity: it was never set.
	if cfg.Sources[0].LineRate != 40e9 {
		t.Errorf("line rate %g did not follow the capacity", cfg.Sources[0].LineRate)
	}
	for _, bad := range []string{"network.rttt=1us", "nonsense", "sources.count=many", "params.qcn.nope=1", "network.rtt=-5us"} {
		err := e.Set(bad)
		if err == nil || !strings.HasPrefix(err.Error(), "--set") {
			t.Errorf("Set(%q) = %v, want an error naming --set", bad, err)
		}
	}
	// A value that passes the set but breaks the experiment is caught by Validate.
	e.Set("warmup=1s")
	if err := e.Validate(); err == nil || !strings.Contains(err.Error(), "--set: warmup") {
		t.Errorf("Validate after a bad --set: %v", err)
	}
}

// One mistake draws one error: a duration of 0 is not also the warmup's
// fault, and a stop before the start of every source is one error naming
// them all.
func TestOneMistakeOneError(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"duration=0", "--set: duration: must be a positive, finite duration"},
		{"sources.stop=0", "--set: sources.stop: sources 0-3: stop 0s is not after start 0s"},
	} {
		e, _ := Builtin(DefaultName)
		if err := e.Set(c.set); err != nil {
			t.Fatal(err)
		}
		err := e.Validate()
		if err == nil || err.Error() != c.want {
			t.Errorf("--set %s: %v, want exactly %q", c.set, err, c.want)
		}
	}
}

func TestOpen(t *testing.T) {
	if _, err := Open(DefaultName); err != nil {
		t.Error(err)
	}
	if _, err := Open("no-such-experiment"); err == nil || !strings.Contains(err.Error(), DefaultName) {
		t.Errorf("unknown builtin: %v (should list the built-ins)", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.toml")); err == nil {
		t.Error("missing file accepted")
	}
}

func TestSaveReplacesWholeFileOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "exp.toml")
	if err := os.WriteFile(path, []byte("old contents that are longer than nothing\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	e, _ := Builtin(DefaultName)
	if err := e.Save(path); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the replaced file's 0640", info.Mode().Perm())
	}
	if _, err := Load(path); err != nil {
		t.Fatal(err)
	}
	// An experiment that cannot be encoded leaves the file as it was.
	before, _ := os.ReadFile(path)
	broken := e.Clone()
	broken.Algorithms = []string{"no-such-scheme"}
	if err := broken.Save(path); err == nil {
		t.Fatal("saving an unknown algorithm succeeded")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed save changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// TestChoiceParams: a choice parameter is a word in the file, from a
// --set and in a sweep; a wrong word is an error naming file, line and key;
// saving writes the word and loading it back gives the same runs.
func TestChoiceParams(t *testing.T) {
	e := mustParse(t, `
algorithms = ["n-aimd", "ap-n-aimd"]
duration = "10ms"
[params.ap-n-aimd]
sampling = "regular"
sample_jitter = 0.2
early_feedback = "apply"
[sweep]
"params.n-aimd.sampling" = ["random", "regular"]
`)
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, r := range runs {
		if r.Algorithm == "n-aimd" {
			cfg, err := r.Exp.Config("n-aimd")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, cfg.Params["sampling"])
		}
	}
	if !reflect.DeepEqual(got, []float64{algos.SampleRandom, algos.SampleRegular}) {
		t.Errorf("n-aimd sampling over the sweep %v, want random then regular", got)
	}
	cfg, _ := e.Config("ap-n-aimd")
	if cfg.Params["sampling"] != algos.SampleRegular || cfg.Params["early_feedback"] != algos.EarlyFeedbackApply || cfg.Params["sample_jitter"] != 0.2 {
		t.Errorf("ap-n-aimd params %v", cfg.Params)
	}
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil || !strings.Contains(b.String(), `early_feedback = "apply"`) {
		t.Errorf("saved file lacks the word (%v):\n%s", err, b.String())
	}
	assertRoundTrip(t, e)
	if err := e.Set("params.n-aimd.sampling=regular"); err != nil {
		t.Errorf("--set a bare word: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{"[params.ap-n-aimd]\n\nearly_feedback = \"later\"\n", `bad.toml:3: params.ap-n-aimd.early_feedback: "later" is not one of "drop", "apply"`},
		{"[params.n-aimd]\nsampling = 1\n", "bad.toml:2"},
		{"[params.n-aimd]\nsample_jitter = 2.0\n", "bad.toml:2: params.n-aimd.sample_jitter: 2 is above the maximum 1"},
		// An array of inline tables is not a sweep axis of its own keys.
		{"[sweep]\nparams = [{n-aimd = {sampling = \"regular\"}}]\n", "bad.toml:2"},
	} {
		if _, err := Parse("bad.toml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	if err := e.Set("params.n-aimd.sampling=sometimes"); err == nil || !strings.Contains(err.Error(), "--set: params.n-aimd.sampling") {
		t.Errorf("--set a wrong word: %v", err)
	}
}

// A command-line override can mend what the file alone gets wrong: the
// file is validated once, with the overrides applied; what stays wrong
// is still blamed on the file's line.
func TestOverridesMendTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.toml")
	if err := os.WriteFile(path, []byte("duration = \"20ms\"\nwarmup = \"30ms\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := OpenWith(path, []string{"duration=50ms", "warmup=10ms"})
	if err != nil {
		t.Fatalf("mended by --set: %v", err)
	}
	if e.Duration != units.Duration(50*algos.Millisecond) || e.Warmup == nil || *e.Warmup != units.Duration(10*algos.Millisecond) {
		t.Errorf("duration %v, warmup %v", e.Duration, e.Warmup)
	}
	_, err = OpenWith(path, []string{"seed=2"})
	if err == nil || !strings.Contains(err.Error(), "w.toml:2: warmup: must be shorter than the duration") {
		t.Errorf("not mended: %v", err)
	}
}

// The sparse inputs that made the agenda's calendar rewind at every idle
// gap (testdata/rewind, issue 28; measured under cachegrind against the
// tree) stay loadable as the schema grows.
func TestRewindInputsLoad(t *testing.T) {
	files, err := filepath.Glob("testdata/rewind/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata/rewind: %v files, %v", len(files), err)
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Error(err)
		}
	}
}
