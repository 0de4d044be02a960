package experiments

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/units"
)

// A number parameter so large that the scheme's products overflow (QCN's
// Q_EQ*(2W+1) with W = 1e308 is infinite, and its feedback scale 0: it
// never sends feedback) is refused with its range, in every scheme.
func TestANumberParameterCannotOverflowItsScheme(t *testing.T) {
	e, err := OpenWith("qcn-dumbbell", []string{"params.qcn.w=1e308"})
	if err == nil || !strings.Contains(err.Error(), "--set: params.qcn.w: 1e+308 is above 1e+15, the most a number parameter may be: it must be from 0 to 1e+15") {
		t.Errorf("W = 1e308: %v, %v", e, err)
	}
	checked := 0
	for _, name := range algos.Names() {
		sc, _ := algos.Lookup(name)
		for _, p := range sc.Params {
			if p.Kind != algos.Number || p.Max != 0 {
				continue
			}
			checked++
			if err := p.Validate(1e308); err == nil {
				t.Errorf("%s.%s takes 1e308", name, p.Key)
			}
			if err := p.Validate(algos.MaxNumber); err != nil {
				t.Errorf("%s.%s refuses %g: %v", name, p.Key, algos.MaxNumber, err)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d unbounded number parameters checked", checked)
	}
	// At the bound QCN's quantiser stays finite and non-zero.
	e, err = OpenWith("qcn-dumbbell", []string{"params.qcn.w=1e15", "network.buffer=1GB", "params.qcn.q_eq=1GB"})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.ParamValues("qcn")
	if scale := 64 / (v["q_eq"] * (2*v["w"] + 1)); scale == 0 || math.IsInf(scale, 0) {
		t.Errorf("feedback scale %g at the bound", scale)
	}
}

// A setpoint at or above the buffer is legitimate, but said: the queue
// never passes it, so the scheme may send no feedback.
func TestASetpointAboveTheBufferIsWarned(t *testing.T) {
	e, err := OpenWith("qcn-dumbbell", []string{"network.buffer=20KB"})
	if err != nil {
		t.Fatal(err)
	}
	want := "params.qcn.q_eq = 33KB is at or above network.buffer = 20KB"
	if len(e.Notes) != 1 || !strings.HasPrefix(e.Notes[0], want) {
		t.Errorf("notes %q, want one that starts %q", e.Notes, want)
	}
	e, err = OpenWith("dcqcn-vs-qcn", []string{"params.dcqcn.k_min=10MB", "params.dcqcn.k_max=20MB", "network.buffer=5MB"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(e.Notes, "\n"), "params.dcqcn.k_min = 10MB is at or above network.buffer = 5MB") {
		t.Errorf("DCQCN's K_min above the buffer: notes %q", e.Notes)
	}
	// A shared buffer lets one queue pass network.buffer: no warning.
	e, err = OpenWith("qcn-dumbbell", []string{"network.buffer_model=shared", "network.switch_buffer=1MB", "params.qcn.q_eq=200KB"})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Notes) != 0 {
		t.Errorf("a shared buffer: notes %q", e.Notes)
	}
	for _, name := range BuiltinNames() {
		e, err := OpenWith(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range e.Notes {
			t.Errorf("%s: %s", name, n)
		}
	}
}

// A shorter duration fits the short flows' stop, as it does the warm-up,
// and says so.
func TestAShorterDurationFitsTrafficStop(t *testing.T) {
	e, err := OpenWith("ack-clocked-fabric", []string{"duration=4ms"})
	if err != nil {
		t.Fatal(err)
	}
	if e.Traffic.Stop == nil || *e.Traffic.Stop != units.Duration(algos.Millisecond) {
		t.Errorf("traffic.stop %v, want 1ms (10ms of 40ms)", e.Traffic.Stop)
	}
	if want := "duration 4ms: the short flows' stop (traffic.stop) of 10ms is scaled to 1ms"; !strings.Contains(strings.Join(e.Notes, "\n"), want) {
		t.Errorf("notes %q, want %q", e.Notes, want)
	}
	// What --set says itself stands, and its error with it.
	if _, err := OpenWith("ack-clocked-fabric", []string{"duration=4ms", "traffic.stop=5ms"}); err == nil || !strings.Contains(err.Error(), "--set: traffic.stop: must be in (0, duration]") {
		t.Errorf("traffic.stop set beyond the run: %v", err)
	}
}

// A seed out of range says the same, in a file, in --set and in a sweep:
// what a seed may be.
func TestASeedOutOfRangeSaysOneThing(t *testing.T) {
	const want = "is out of range: a seed is a whole number from 0 to 9223372036854775807 (2^63-1)"
	for _, c := range []struct{ file, set, where string }{
		{"seed = 9223372036854775808\n", "", "s.toml:1: seed: 9223372036854775808 "},
		{"seed = -1\n", "", "s.toml:1: seed: -1 "},
		{"[sweep]\nseed = [1, 9223372036854775808]\n", "", "s.toml:2: sweep.seed: 9223372036854775808 "},
		{"[sweep]\nseed = [1, -4]\n", "", "s.toml:2 (sweep): seed: -4 "},
		{"seed = 1\n", "seed=9223372036854775808", "--set: seed: 9223372036854775808 "},
		{"seed = 1\n", "seed=-1", "--set: seed: -1 "},
		{"seed = 1\n", "sweep.seed=[9223372036854775808]", "--set: sweep.seed: 9223372036854775808 "},
	} {
		e, err := decodeFile("s.toml", []byte(c.file))
		if err == nil && c.set != "" {
			err = e.Set(c.set)
		}
		if err == nil {
			err = e.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.where+want) {
			t.Errorf("%q %s: error %v, want %q", c.file, c.set, err, c.where+want)
		}
	}
	e := Default()
	if err := e.Set("sources.count=99999999999999999999"); err == nil || !strings.Contains(err.Error(), "--set: sources.count: 99999999999999999999 is out of range: a whole number from") {
		t.Errorf("an integer beyond int64 in --set: %v", err)
	}
}

// A quoted dotted key outside [sweep] is one name with a dot in it: the
// message says to drop the quotes, not "did you mean" the same key.
func TestAQuotedDottedKeySaysToDropTheQuotes(t *testing.T) {
	_, err := Parse("q.toml", []byte("\"network.rtt\" = \"300us\"\n"))
	want := `q.toml:1: "network.rtt": unknown key: in quotes, "network.rtt" is one name with a dot in it, not a key of a table; write it without the quotes: network.rtt = ...`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// An error that a --set value causes in a key of the built-in file is
// reported against the user's key, and once.
func TestAnOverrideIsBlamedForWhatItBreaks(t *testing.T) {
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"duration=never"}, "--set: duration: must be a positive, finite duration"},
		{[]string{"duration=100000s"}, "--set: duration: 100000s gives more than 100 million samples at output.sample_interval = 10us"},
		{[]string{"duration=1ps"}, "--set: duration: must be longer than the warm-up (1ps)"},
		{[]string{"output.sample_interval=never"}, "--set: output.sample_interval: must be a positive, finite duration"},
		{[]string{"output.sample_interval=5ms"}, "--set: output.sample_interval: must be at most output.rate_window (1ms)"},
		// Both set: the file is not to blame, and the old rule stands.
		{[]string{"duration=100000s", "output.sample_interval=1ps"}, "--set: output.sample_interval: gives more than 100 million samples"},
		{[]string{"duration=20ms", "warmup=50ms"}, "--set: warmup: must be shorter than the duration (20ms)"},
		// A frame size out of bounds is its own error, not the buffer's.
		{[]string{"network.frame_size=200KB"}, "--set: network.frame_size: must be a whole number of bytes from 64B to 9216B"},
		{[]string{"network.buffer=1000B"}, "--set: network.buffer: must be a whole number of bytes holding at least one frame"},
	} {
		_, err := OpenWith("qcn-dumbbell", c.sets)
		if err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one, %q", c.sets, err, c.want)
		}
	}
	// A frame size that outgrows the file's buffer is the --set key's fault.
	file := filepath.Join(t.TempDir(), "f.toml")
	if err := os.WriteFile(file, []byte("duration = \"1ms\"\n[network]\nbuffer = \"8000B\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWith(file, []string{"network.frame_size=9000B"}); err == nil ||
		err.Error() != "--set: network.frame_size: must fit in the buffer (8KB)" {
		t.Errorf("a frame size over the file's buffer: %v", err)
	}
	// A key of the file not at fault stays blamed when the file alone is
	// wrong.
	_, err := Parse("f.toml", []byte("duration = \"100000s\"\n[output]\nsample_interval = \"10us\"\n"))
	if err == nil || !strings.Contains(err.Error(), "f.toml:3: output.sample_interval: gives more than 100 million samples") {
		t.Errorf("the file's own keys: %v", err)
	}
}
