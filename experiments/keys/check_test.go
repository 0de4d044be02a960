package keys

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/units"
)

// file is a File of a few values; the rest are a valid chain's.
type file map[string]any

func (f file) Value(path string) any {
	if v, ok := f[path]; ok {
		return v
	}
	return map[string]any{
		"name": "x", "duration": units.Duration(algos.Second), "model": "packet", "algorithms": []string{"qcn"}, "network.topology": "dumbbell",
		"network.capacity": units.Rate(10e9), "network.buffer": units.Bytes(150e3), "network.frame_size": units.Bytes(1500),
		"network.rtt": units.Duration(100 * algos.Microsecond), "sources.count": 2,
		"output.sample_interval": units.Duration(algos.Millisecond), "output.rate_window": units.Duration(algos.Millisecond),
		"output.fairness_threshold": 0.8,
	}[path]
}

func (f file) Resolved(path string) any {
	if path == "warmup" && f[path] == nil {
		return units.Duration(0)
	}
	if path == "network.links" && f[path] == nil {
		return 1
	}
	if path == "network.classes" && f[path] == nil {
		return 1
	}
	defaults := map[string]string{"network.pfc_accounting": "egress", "network.buffer_model": "per_port", "traffic.pattern": "permutation"}
	if d, ok := defaults[path]; ok && f[path] == nil {
		return d
	}
	return f.Value(path)
}

func (f file) Set(path string) bool { _, ok := f[path]; return ok }

func (f file) Overridden(string) bool { return false }

// Len counts the elements named in f: "flows[1].to" makes two.
func (f file) Len(path string) int {
	n := 0
	for k := range f {
		if rest, ok := strings.CutPrefix(k, path+"["); ok {
			var i int
			fmt.Sscanf(rest, "%d]", &i)
			n = max(n, i+1)
		}
	}
	return n
}

// Hosts and Ports are the file's "hosts" and "ports", 16 and 4 unless set.
func (f file) Hosts() int {
	if n, ok := f["hosts"].(int); ok {
		return n
	}
	return 16
}

func (f file) Ports() int {
	if n, ok := f["ports"].(int); ok {
		return n
	}
	return 4
}

// problems runs the registry's rules on a file of a topology.
func problems(topology string, f File) []string {
	var out []string
	Run(topology, f, func(key, format string, args ...any) { out = append(out, key+": "+fmt.Sprintf(format, args...)) })
	return out
}

// Each key's rule reports under the key, and only a value that breaks it
// (a zero duration breaks the warm-up's rule too, a most of short flows
// the stop's).
func TestRulesReportUnderTheirKey(t *testing.T) {
	if got := problems("dumbbell", file{}); len(got) > 0 {
		t.Fatalf("a valid file: %q", got)
	}
	for _, c := range []struct {
		key   string
		value any
		want  string
	}{
		{"name", "", "name: must not be empty"},
		{"name", "a/b", `name: "a/b" holds a path separator or ".."; the name makes file names`},
		{"description", "a\x1b[2J", "description: holds a control character other than a line break or a tab"},
		{"duration", units.Duration(0), "duration: must be a positive, finite duration"},
		{"warmup", units.Duration(2 * algos.Second), "warmup: must be shorter than the duration (1s)"},
		{"model", "x", `model: "x" is not available (available: ["packet" "fluid" "convergence"])`},
		{"network.capacity", units.Rate(0.5), "network.capacity: must be at least"},
		{"network.frame_size", units.Bytes(10), "network.frame_size: must be a whole number of bytes from 64B to 9216B"},
		{"network.buffer", units.Bytes(100), "network.buffer: must be a whole number of bytes holding at least one frame"},
		{"network.rtt", units.Duration(algos.Never), "network.rtt: must be finite"},
		{"algorithms", []string{}, "algorithms: name at least one algorithm"},
		{"algorithms", []string{"qcn", "qcn"}, `algorithms: "qcn" is listed twice`},
		{"sources.count", 0, "sources.count: must be at least 1"},
		{"sources.line_rate", units.Rate(0.5), "sources.line_rate: must be at least"},
		{"output.rate_window", units.Duration(1), "output.rate_window: must be at least the sample interval (1ms)"},
		{"output.fairness_threshold", 1.5, "output.fairness_threshold: must be in (0, 1]"},
		{"output.phases", []units.Duration{units.Duration(2 * algos.Second)}, "output.phases: boundary 2s is not inside the run (0, 1s)"},
		{"traffic.long_flows", 1001, "traffic.long_flows: must be from 0 to 1000"},
		{"traffic.short_flow_rate", -1.0, "traffic.short_flow_rate: must be from 0 to 1e9 flows per second"},
		{"traffic.stop", units.Duration(algos.Millisecond), "traffic.stop: stops the short flows' arrivals: give traffic.load or traffic.short_flow_rate"},
		{"traffic.max_flows", int64(0), "traffic.max_flows: must be from 1 to 1000000 flows"},
		{"network.clock_ppm", -1.0, "network.clock_ppm: must be within 0 and"},
		{"network.switch_jitter", units.Duration(-1), "network.switch_jitter: must be within 0 and"},
	} {
		got := problems("dumbbell", file{c.key: c.value})
		if !slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, c.want) }) {
			t.Errorf("%s = %v: %q, want %q", c.key, c.value, got, c.want)
		}
	}
}

// The class keys are checked against a sound count of classes only.
func TestClassRules(t *testing.T) {
	for _, c := range []struct {
		f    file
		want string
	}{
		{file{"network.classes": 9, "network.scheduler": "x"}, "network.classes: 9: from 1 to 8"},
		{file{"network.classes": 1, "network.scheduler": "dwrr"}, "network.scheduler: applies with network.classes of 2 or more"},
		{file{"network.classes": 3, "network.scheduler": "dwrr", "network.class_weights": []int{1, 2}}, "network.class_weights: 2 weights for 3 classes"},
		{file{"network.classes": 3, "network.strict_classes": 1}, `network.strict_classes: set network.scheduler = "dwrr"`},
		{file{"network.classes": 2, "network.dwrr_quantum": units.Bytes(0)}, "network.dwrr_quantum: must be a whole number of bytes"},
		{file{"network.classes": 2, "traffic.class": 2}, "traffic.class: class 2 is not one of the 2 classes"},
		{file{"network.classes": 2, "model": "fluid"}, "network.classes: classes are the packet model's"},
	} {
		got := strings.Join(problems("dumbbell", c.f), "; ")
		if !strings.Contains(got, c.want) || (c.f["network.classes"] == 9 && strings.Contains(got, "scheduler")) {
			t.Errorf("%v: %q, want %q alone", c.f, got, c.want)
		}
	}
}

// A fabric's keys' rules.
func TestFabricRules(t *testing.T) {
	for _, c := range []struct {
		f    file
		want string
	}{
		{file{"network.routing": "x"}, `network.routing: "x" is not one of ["ecmp" "spray"]`},
		{file{"network.spray": "random"}, `network.spray: applies with network.routing = "spray"`},
		{file{"network.spray": "random", "network.routing": "spray"}, ""},
		{file{"traffic.pattern": "x"}, `traffic.pattern: "x" is not one of`},
		{file{"output.watch_flows": 0}, "output.watch_flows: 0: the time series follows at least 1 of the flows"},
	} {
		got := strings.Join(problems("leaf_spine", c.f), "; ")
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: %q, want %q", c.f, got, c.want)
		}
	}
}

// A key's rule runs where the key applies: a chain's sources are not a
// fabric's.
func TestRulesRunWhereTheKeyApplies(t *testing.T) {
	f := file{"sources.count": 0, "network.rtt": units.Duration(algos.Never)}
	if got := problems("fat_tree", f); len(got) > 0 {
		t.Errorf("a fabric: %q", got)
	}
	if got := problems("parking_lot", f); len(got) != 2 {
		t.Errorf("a chain: %q, want the count's and the rtt's", got)
	}
}
