package model_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
)

var update = flag.Bool("update", false, "rewrite the built-in goldens in testdata/builtins from this engine")

// regressionSpan is the most simulated time a built-in runs in the guard:
// a longer one is shrunk to it, every time in it (warm-up, phases, capacity
// changes, sources' starts and stops) scaled alike, so that each still
// happens.
const regressionSpan = 100 * algos.Millisecond

// goldenRun is one run of a built-in as the goldens record it: its summary
// without the wall time, and a hash of every sample of its time series.
type goldenRun struct {
	Label   string          `json:"label"`
	Summary json.RawMessage `json:"summary"`
	Samples int             `json:"samples"`
	Hash    string          `json:"samples_sha256"`
}

// TestBuiltinsMatchGoldens guards the engine's numbers: every built-in
// experiment, at the first, middle and last point of its sweep, every algorithm,
// shortened, must give the summaries and time series the goldens hold, bit
// for bit. go test ./model -run Builtins -update rewrites them; a commit
// that does must say which bug the difference fixes.
func TestBuiltinsMatchGoldens(t *testing.T) {
	for _, name := range experiments.BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, err := experiments.Builtin(name)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, name, runExperiment(t, e))
		})
	}
}

// compareGolden compares runs with testdata/builtins/name.json, or writes
// it with -update.
func compareGolden(t *testing.T, name string, got []goldenRun) {
	path := filepath.Join("testdata", "builtins", name+".json")
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./model -run Builtins -update writes it)", err)
	}
	if bytes.Equal(data, want) {
		return
	}
	var wantRuns []goldenRun
	if err := json.Unmarshal(want, &wantRuns); err != nil {
		t.Fatal(err)
	}
	if len(wantRuns) != len(got) {
		t.Fatalf("%d runs, the golden has %d", len(got), len(wantRuns))
	}
	for i, g := range got {
		w := wantRuns[i]
		if g.Label != w.Label || !jsonEqual(g.Summary, w.Summary) {
			t.Errorf("run %s: summary differs\n got: %s\nwant: %s", g.Label, g.Summary, w.Summary)
		}
		if g.Samples != w.Samples || g.Hash != w.Hash {
			t.Errorf("run %s: time series differs: %d samples %s, want %d %s", g.Label, g.Samples, g.Hash, w.Samples, w.Hash)
		}
	}
}

// variants are built-ins with settings that combine what no built-in
// combines (PFC with short flows, with capacity changes, with drawn
// feedback latencies), guarded the same way.
var variants = map[string][]string{
	"pfc-short-flows": {"pfc-congestion-spreading", "traffic.long_flows=2", "traffic.short_flow_rate=3000.0",
		`traffic.short_flow_sizes="websearch"`},
	"pfc-latency": {"pfc-congestion-spreading", `network.feedback_latency="uniform(1us, 30us)"`,
		`sources.forward_delay="uniform(10us, 60us)"`},
	"pfc-capacity-drop":  {"qcn-capacity-drop", "network.pfc=true", `network.buffer="2MB"`, `algorithms=["none", "qcn"]`},
	"short-flows-only":   {"qcn-dumbbell", "traffic.long_flows=0", "traffic.short_flow_rate=20000.0", `traffic.short_flow_sizes="20KB"`},
	"parking-lot-flows":  {"ecm-parking-lot", "traffic.long_flows=3", "traffic.short_flow_rate=500.0", `traffic.short_flow_sizes="hadoop"`},
	"parking-lot-change": {"dsm-qcn-parking-lot", `network.feedback_latency="uniform(0us, 100us)"`, "output.phases=[\"1s\", \"2s\", \"3s\"]"},
	// The transport under the rate-based schemes and the ACK-clocked ones
	// on a chain, and on a fabric with its ACKs out of band.
	"dumbbell-go-back-n": {"qcn-dumbbell", `algorithms=["qcn", "dcqcn", "dctcp", "hpcc", "swift", "timely"]`,
		`transport.recovery="go_back_n"`},
	"dumbbell-selective":   {"family-dumbbell", `transport.recovery="selective"`},
	"leaf-spine-selective": {"qcn-incast-leaf-spine", `transport.recovery="selective"`, "network.control_frames=[]"},
	// Links of delays drawn per link: sprayed frames cross the propagation
	// of their own paths (the engine's propagation lanes), which their
	// feedback, CNPs and ACKs close the loop over.
	"fat-tree-uneven-delays": {"ecmp-collisions-fat-tree", `network.hop_delay="uniform(1us, 4us)"`,
		`algorithms=["qcn", "dcqcn", "dctcp"]`, `sweep.network.routing=["spray"]`, "sweep.network.k=[4]"},
	// The same links with two classes, ingress PFC, capacity changes and
	// the ACK transports: records move between class rings (startNext,
	// demote) and must take their propagation along (model/proplane.go).
	"fat-tree-uneven-classes-pfc": {"testdata/uneven-classes-pfc.toml"},
}

func TestVariantsMatchGoldens(t *testing.T) {
	for name, v := range variants {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, err := experiments.OpenWith(v[0], v[1:])
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, "variant-"+name, runExperiment(t, e))
		})
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// runExperiment runs the first, the middle and the last point of an
// experiment's sweep.
// fabricSpan is what a fabric built-in is shortened to: its frames cross
// several ports each, and the k = 8 fat-tree has 640 of them.
const fabricSpan = 10 * algos.Millisecond

func runExperiment(t *testing.T, e *experiments.Experiment) []goldenRun {
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	per := len(e.Algorithms)
	points := len(runs) / per
	var picked []experiments.Run
	last := -1
	for _, p := range []int{0, points / 2, points - 1} {
		if p != last {
			picked = append(picked, runs[p*per:(p+1)*per]...)
			last = p
		}
	}
	var out []goldenRun
	for _, run := range picked {
		cfg := regressionConfig(t, run)
		h := sha256.New()
		n := 0
		var buf []byte
		cfg.OnSample = func(x *model.Sample) {
			n++
			buf = model.SampleBytes(buf[:0], x, x.Rates, x.CurrentRates, x.Capacity)
			h.Write(buf)
		}
		sim, err := model.New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", run.Label(), err)
		}
		sim.Advance(cfg.Duration)
		sum := sim.Summary()
		js, err := json.Marshal(sum)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, goldenRun{Label: run.Label(), Summary: js, Samples: n, Hash: hex.EncodeToString(h.Sum(nil))})
	}
	return out
}

// shorten scales a run longer than span down to span: its duration and
// every time within it, so that warm-up, phases, capacity changes and the
// sources' starts and stops all still happen, in the same order.
func shorten(cfg *model.Config, span algos.Time) {
	if cfg.Duration <= span {
		return
	}
	f := float64(span) / float64(cfg.Duration)
	scale := func(t algos.Time) algos.Time {
		if t == algos.Never {
			return t
		}
		return algos.Time(math.Round(float64(t) * f))
	}
	cfg.Duration = span
	cfg.Warmup = scale(cfg.Warmup)
	for k := range cfg.Phases {
		cfg.Phases[k] = scale(cfg.Phases[k])
	}
	for k := range cfg.Changes {
		cfg.Changes[k].At = scale(cfg.Changes[k].At)
	}
	for i := range cfg.Sources {
		cfg.Sources[i].Start = scale(cfg.Sources[i].Start)
		cfg.Sources[i].Stop = scale(cfg.Sources[i].Stop)
	}
}

// regressionConfig is run's configuration cut to the regression's span
// (fabricSpan on a fabric).
func regressionConfig(t *testing.T, run experiments.Run) model.Config {
	t.Helper()
	cfg, err := run.Exp.Config(run.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	span := regressionSpan
	if run.Exp.IsFabric() {
		span = fabricSpan
	}
	shorten(&cfg, span)
	return cfg
}
