package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"qcnlab/experiments/keys"
	"qcnlab/experiments/userfile"
)

// Inputs that would exhaust the machine are errors at load time, naming
// file, line and key, and refused before anything grows with them.
func TestBoundsRefuseAtLoad(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[network]\ncapacity = \"10000Tbps\"", `exp.toml:2: network.capacity: rate "10000Tbps" is above 1.6Tbps`},
		{"[network]\ncapacity = \"1e30Gbps\"", `exp.toml:2: network.capacity: rate "1e30Gbps" is above 1.6Tbps`},
		{"[sources]\nline_rate = \"100000Tbps\"", `exp.toml:2: sources.line_rate: rate "100000Tbps" is above`},
		{"[sources]\ninitial_rate = \"2Tbps\"", `exp.toml:2: sources.initial_rate: rate "2Tbps" is above`},
		{"[[sources.override]]\nids = [0]\nline_rate = \"2Tbps\"", `exp.toml:3: sources.override[0].line_rate: rate "2Tbps" is above`},
		{"[params.qcn]\nmin_rate = \"5Tbps\"", `exp.toml:2: params.qcn.min_rate: rate "5Tbps" is above`},
		{"[network]\nbuffer = \"5000GB\"", `exp.toml:2: network.buffer: size "5000GB" is above`},
		{"[sources]\ncount = 100000000", "exp.toml:2: sources.count: must be at most 65535"},
		{"[sources]\ncount = 1000000000", "exp.toml:2: sources.count: must be at most 65535"},
		{"[sources]\ncount = 9223372036854775807", "exp.toml:2: sources.count: must be at most 65535"},
		{"[network]\nrtt = \"1000s\"", "exp.toml:2: network.rtt: a run would need ~160GB of memory (the most is 4GB)"},
		{"duration = \"100000s\"\n[output]\nsample_interval = \"1s\"\nrate_window = \"1s\"", "exp.toml:1: duration: a run would need ~5e+11 events"},
		{"[params.dsm]\nm = 2000000000", "exp.toml:2: params.dsm.m: 2000000000 is above 1000000000"},
		{"duration = \"1.5ps\"", `exp.toml:1: duration: duration "1.5ps" is not a whole number of picoseconds`},
		{"seed = -1", "exp.toml:1: seed: -1 is out of range: a seed is a whole number from 0 to"},
		{"[network]\ncapacity = \"0.5bps\"", "exp.toml:2: network.capacity: must be at least 1bps"},
		{"[[sources.override]]\nids = [2]\nline_rate = \"0.1bps\"", "exp.toml:3: sources.override[0].line_rate: source 2: rates must be at least 1bps"},
		// Short flows that a network cannot drain all stay alive.
		{"duration = \"1s\"\n[traffic]\nshort_flow_rate = 1e9", "exp.toml:3: traffic.short_flow_rate: a run would need ~200GB of memory"},
		// Every phase boundary copies each link's queue histogram, a slot
		// per frame of buffer: 200 of 1 GB of 64 B frames is 50 GB.
		{"duration = \"10ms\"\n[network]\nbuffer = \"1GB\"\nframe_size = \"64B\"\n[output]\nphases = [" + phaseList(200, 10) + "]",
			"exp.toml:6: output.phases: a run would need ~51GB of memory"},
		{"duration = \"1s\"\n[output]\nphases = [" + phaseList(keys.MaxPhases+1, 10) + "]", "exp.toml:3: output.phases: 1001 boundaries; the most is 1000"},
		// Keys of the traffic generator get the same treatment.
		{"[traffic]\nshort_flow_rate = 1000.0\nshort_flow_sizes = \"/dev/zero\"", "/dev/zero: not a regular file"},
		// The key that drives the estimate, not the one whose term it is in.
		{"[network]\nbuffer = \"1000GB\"", "exp.toml:2: network.buffer: a run would need ~43GB of memory"},
		// The convergence model costs its periods, not frames: 3000 s at
		// 1.6 Tbps are 4e9 sampling periods.
		{"model = \"convergence\"\nduration = \"3000s\"\nalgorithms = [\"qcn\"]\n[network]\ncapacity = \"1.6Tbps\"\nframe_size = \"9000B\"\n[sources]\ncount = 2\n[output]\nsample_interval = \"1ms\"",
			"exp.toml:2: duration: a run would need ~3.2e+11 events"},
		{"[sources]\ncount = 60000\n[traffic]\nlong_flows = 1000", "exp.toml:4: traffic.long_flows: a run would need ~13GB of memory"},
		{"duration = \"100s\"\n[output]\nsample_interval = \"1ms\"\n[traffic]\nshort_flow_rate = 1e9", "exp.toml:5: traffic.short_flow_rate: a run would need ~4e+11 events"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v\nwant %q", c.text, err, c.want)
		}
	}
}

// A sweep's product is bounded before it is expanded: three axes of 1,000
// values must not allocate a billion points.
func TestHugeSweepRefusedBeforeExpansion(t *testing.T) {
	var b strings.Builder
	b.WriteString("[sweep]\n")
	for _, key := range []string{"seed", "sources.count", "network.frame_size"} {
		fmt.Fprintf(&b, "%q = [", key)
		for i := range 1000 {
			if key == "network.frame_size" {
				fmt.Fprintf(&b, "\"%dB\", ", 64+i)
			} else {
				fmt.Fprintf(&b, "%d, ", i+1)
			}
		}
		b.WriteString("]\n")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("exp.toml", []byte(b.String()))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "exp.toml:2: sweep.seed: the sweep makes 1000000000 runs") {
		t.Fatalf("got %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 50e6 {
		t.Errorf("refusing the sweep allocated %d bytes", grew)
	}
}

// Files: a size cap, devices read up to it, directories and empty files
// named as such; a repeated mistake is listed once, and at most maxErrors
// problems.
func TestFileLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := write("big.toml", "# "+strings.Repeat("x", MaxFileBytes)+"\n")
	many := write("many.toml",
		func() string {
			var b strings.Builder
			for i := range 5000 {
				fmt.Fprintf(&b, "k%d = 1\n", i)
			}
			return b.String()
		}())
	for _, c := range []struct{ path, want string }{
		{big, "is larger than 4MB"},
		{"/dev/zero", "/dev/zero: is larger than 4MB"},
		{"/dev/null", "/dev/null: is empty"},
		{write("blank.toml", " \n\t\n"), "blank.toml: is empty"},
		{write("comments.toml", "# nothing\n\n  # else\n"), "comments.toml: is empty"},
		{dir, "is a directory"},
		{many, "... and 4980 more"},
	} {
		_, err := Load(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.path, err, c.want)
		}
		if err != nil && strings.Count(err.Error(), "\n") > maxErrors {
			t.Errorf("%s: %d lines of errors", c.path, strings.Count(err.Error(), "\n")+1)
		}
	}
}

// Wrong-typed tables are errors, not silently ignored.
func TestWrongTypedTables(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"params.qcn=5", "--set: params.qcn: must be a table of qcn's parameters"},
		{`params.qcn="x"`, "--set: params.qcn: must be a table of qcn's parameters: [params.qcn], not a string"},
		{"params=5", "--set: params: must be a table of tables"},
		{"sweep=5", "--set: sweep: must be a table of arrays"},
		{"sweep.seed=5", "--set: sweep.seed: a sweep key takes a non-empty array"},
		{"network=5", "--set: network:"},
	} {
		e := Default()
		if err := e.Set(c.set); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: got %v, want %q", c.set, err, c.want)
		}
	}
	_, err := Parse("exp.toml", []byte("[params]\nqcn = 5\n"))
	if err == nil || !strings.Contains(err.Error(), "exp.toml:2: params.qcn: must be a table") {
		t.Errorf("[params] qcn = 5: got %v", err)
	}
}

// --set sweep.KEY sets that axis alone; --set sweep={...} the whole table.
func TestSetOneSweepAxis(t *testing.T) {
	e, err := Builtin("ap-n-aimd-2-sources")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Set("sweep.seed=[1]"); err != nil {
		t.Fatal(err)
	}
	// The file sweeps AP's two readings, the RTT and the seed.
	if len(e.Sweep) != 4 || e.Sweep[2].Key != "network.rtt" || len(e.Sweep[2].Values) != 5 ||
		e.Sweep[3].Key != "seed" || len(e.Sweep[3].Values) != 1 {
		t.Errorf("after --set sweep.seed=[1]: %v", e.Sweep)
	}
	if err := e.Set(`sweep.sources.count=[2, 3]`); err != nil {
		t.Fatal(err)
	}
	if len(e.Sweep) != 5 || e.Sweep[4].Key != "sources.count" {
		t.Errorf("after --set sweep.sources.count=[2, 3]: %v", e.Sweep)
	}
	if err := e.Set(`sweep={"network.rtt"=["100us"]}`); err != nil {
		t.Fatal(err)
	}
	if len(e.Sweep) != 1 || e.Sweep[0].Key != "network.rtt" {
		t.Errorf("--set sweep={...} left %v", e.Sweep)
	}
}

// A count parameter is saved as a TOML integer, so that it loads back
// (DSM's m with a long loop delay was written as 8.333334e+06).
func TestCountParamSavedAsInteger(t *testing.T) {
	e := Default()
	for _, s := range []string{"network.rtt=10s", `algorithms=["dsm"]`} {
		if err := e.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nm = 83334  #") {
		t.Errorf("m not saved as an integer:\n%s", b.String())
	}
	assertRoundTrip(t, e)
}

// phaseList is n phase boundaries, every step microseconds.
func phaseList(n, step int) string {
	var b []string
	for i := 1; i <= n; i++ {
		b = append(b, fmt.Sprintf("%q", fmt.Sprintf("%dus", i*step)))
	}
	return strings.Join(b, ", ")
}

// A failed save names its target, never the temporary file; a directory
// is refused before anything is written.
func TestSaveErrorsNameTheTarget(t *testing.T) {
	err := userfile.WriteAtomic("/proc/qcnlab-test.toml", []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "/proc/qcnlab-test.toml") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("got %v", err)
	}
	dir := t.TempDir()
	err = userfile.WriteAtomic(dir, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "save "+dir+": is a directory") {
		t.Errorf("got %v", err)
	}
	// A FIFO or a device is never replaced by a file.
	fifo := filepath.Join(dir, "pipe.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{fifo, "/dev/null"} {
		err = userfile.WriteAtomic(target, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: got %v", target, err)
		}
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	if info, err := os.Lstat("/dev/null"); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null was replaced")
	}
	// A symbolic link to a file is written where it points; the link stays.
	real := filepath.Join(dir, "real.toml")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.toml")
	os.Symlink("real.toml", link)
	if err := userfile.WriteAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(real); string(data) != "new" {
		t.Errorf("the link's target holds %q", data)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if names, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".*.tmp")); len(names) > 0 {
		t.Errorf("left %v", names)
	}
}
