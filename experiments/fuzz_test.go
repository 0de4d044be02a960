package experiments

import (
	"bytes"
	"reflect"
	"testing"

	"qcnlab/experiments/builtin"
	"qcnlab/experiments/sweep"
)

// checkSaveLoad saves an accepted experiment, loads it back and checks the
// round trip is exact: the same file when saved again, and the same
// simulation for every run. Every experiment qcnlab accepts must pass.
func checkSaveLoad(t *testing.T, e *Experiment) {
	t.Helper()
	var first bytes.Buffer
	if err := e.Encode(&first); err != nil {
		t.Fatalf("accepted experiment does not save: %v", err)
	}
	back, err := Parse("saved.toml", first.Bytes())
	if err != nil {
		t.Fatalf("saved file does not load: %v\n%s", err, first.String())
	}
	var second bytes.Buffer
	if err := back.Encode(&second); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("saved again, the file changed:\n%s\n---\n%s", first.String(), second.String())
	}
	want, err1 := e.Runs()
	got, err2 := back.Runs()
	if err1 != nil || err2 != nil || len(want) != len(got) {
		t.Fatalf("%d runs before, %d after (%v, %v)", len(want), len(got), err1, err2)
	}
	for i := range min(len(want), 8) {
		a, err1 := want[i].Exp.Config(want[i].Algorithm)
		b, err2 := got[i].Exp.Config(got[i].Algorithm)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", want[i].Label(), err1, err2)
		}
		a.Scheme, b.Scheme = nil, nil
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: saved and loaded configs differ:\n%+v\n%+v", want[i].Label(), a, b)
		}
	}
}

// tooBigToFuzz skips experiments whose round trip takes long (many runs or
// sources) and goes through the same code as a small one: a fuzzer that
// spends seconds on one input finds little.
func tooBigToFuzz(e *Experiment) bool {
	return sweep.Count(e.Sweep, e.Algorithms) > 64 || e.Sources.Count > 64
}

// FuzzFileSaveLoad: any file that loads saves and loads back exactly.
func FuzzFileSaveLoad(f *testing.F) {
	for _, name := range BuiltinNames() {
		data, _ := builtin.Source(name)
		f.Add(string(data))
	}
	for _, s := range []string{
		"seed = 0\n", "seed = 9223372036854775807\n", "duration = \"1ms\"\nwarmup = \"0s\"\n",
		"[network]\nrtt = \"10s\"\n[params.dsm]\n", "algorithms = [\"dsm\"]\n[network]\nrtt = \"10s\"\n",
		"[sources]\ncount = 3\n[[sources.override]]\nids = [1]\nline_rate = \"1Gbps\"\n",
		"[sweep]\nseed = [1, 2]\n\"network.rtt\" = [\"100us\", \"1ms\"]\n",
		"[params.qcn]\nq_eq = \"40KB\"\nfast_recovery_th = 7\n",
		"[network]\ncapacity = \"10bps\"\n", // derived steps below 1 bps must save and load
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e, err := Parse("fuzz.toml", []byte(text))
		if err != nil || tooBigToFuzz(e) {
			return
		}
		checkSaveLoad(t, e)
	})
}

// FuzzSetSaveLoad: any --set that a built-in accepts saves and loads back
// exactly.
func FuzzSetSaveLoad(f *testing.F) {
	for i, s := range []string{
		"seed=-1", "seed=18446744073709551615", "network.rtt=1000s", "network.rtt=10s", `algorithms=["dsm"]`,
		"sweep.seed=[1]", "sweep.seed=[]", "params.qcn=5", "params=5", "sweep=5", "params.dsm.m=1e3",
		"params.qcn.q_eq=40KB", "duration=1.5ps", "sources.count=1000", "network.capacity=1e30Gbps",
		"network.topology=parking_lot", "network.capacity=1bps", "sources.forward_delay=uniform(10us, 20us)", "output.fairness_threshold=0.5",
	} {
		f.Add(uint8(i), s)
	}
	names := BuiltinNames()
	f.Fuzz(func(t *testing.T, which uint8, set string) {
		e, err := Builtin(names[int(which)%len(names)])
		if err != nil {
			t.Fatal(err)
		}
		if e.Set(set) != nil || tooBigToFuzz(e) || e.Validate() != nil {
			return
		}
		checkSaveLoad(t, e)
	})
}
