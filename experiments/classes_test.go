package experiments

import (
	"slices"
	"strings"
	"testing"

	"qcnlab/model"
)

// The class keys reach the model: the scheduler, its weights, and each
// flow's class from [[flows]], else [traffic], else 0.
func TestClassKeys(t *testing.T) {
	text := `algorithms = ["none"]
[network]
topology = "fat_tree"
classes = 3
scheduler = "dwrr"
strict_classes = 1
class_weights = [1, 3, 1]
dwrr_quantum = "3000B"
[traffic]
pattern = "permutation"
class = 2
[[flows]]
from = 1
to = 0
class = 1
[[flows]]
from = 2
to = 0
`
	e, err := Parse("exp.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.Config("none")
	if err != nil {
		t.Fatal(err)
	}
	k := cfg.Classes
	if k == nil || k.N != 3 || k.Strict != 1 || !slices.Equal(k.Weights, []int{1, 3, 1}) || k.Quantum != 3000 {
		t.Fatalf("classes %+v", k)
	}
	fl := cfg.Fabric.Flows
	n := len(fl)
	if fl[0].Class != 2 || fl[n-2].Class != 1 || fl[n-1].Class != 2 {
		t.Errorf("classes of the first pattern flow and the two explicit ones: %d, %d, %d; want 2, 1, 2", fl[0].Class, fl[n-2].Class, fl[n-1].Class)
	}
	e, err = Parse("exp.toml", []byte("[network]\nclasses = 2\n[traffic]\nclass = 1"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := e.Config(e.Algorithms[0]); err != nil || cfg.Classes.Strict != 2 || cfg.Sources[0].Class != 1 {
		t.Errorf("strict by default, and the sources' class: %+v, %+v (%v)", cfg.Classes, cfg.Sources[0], err)
	}
	e, err = Parse("exp.toml", []byte("[network]\ntopology = \"fat_tree\"\nclasses = 2\npfc = true\npfc_classes = [1]"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := e.Config(e.Algorithms[0]); err != nil || !cfg.PFC.Ingress || cfg.PFC.Lossless != 2 {
		t.Errorf("class 1 lossless: %+v (%v)", cfg.PFC, err)
	}
	for _, c := range []struct{ text, want string }{
		{"[network]\nclasses = 9", "exp.toml:2: network.classes: 9: from 1 to 8"},
		{"[network]\nclasses = 2\nscheduler = \"wfq\"", `exp.toml:3: network.scheduler: "wfq": must be "strict" or "dwrr"`},
		{"[network]\nscheduler = \"dwrr\"", "exp.toml:2: network.scheduler: applies with network.classes of 2 or more"},
		{"[network]\nclasses = 2\nclass_weights = [1]", "exp.toml:3: network.class_weights: 1 weights for 2 classes"},
		{"[network]\nclasses = 2\nstrict_classes = 1", "exp.toml:3: network.strict_classes: set network.scheduler = \"dwrr\""},
		{"[network]\nclasses = 2\n[traffic]\nclass = 2", "exp.toml:4: traffic.class: class 2 is not one of the 2 classes"},
		{"[network]\ntopology = \"fat_tree\"\n[[flows]]\nfrom = 1\nto = 0\nclass = 1", "exp.toml:6: flows[0].class: class 1 is not one of the 1 classes"},
		{"[network]\nclasses = 2\npfc = true", "network.pfc_accounting: PFC per class is decided per link into a switch"},
		{"[network]\ntopology = \"fat_tree\"\nclasses = 2\npfc = true\npfc_classes = [2]", "exp.toml:5: network.pfc_classes: class 2 is not one of the 2 classes"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// The buffer model's keys reach the model, with their defaults: a
// reserve of one frame, alpha 1, PFC's thresholds dynamic.
func TestBufferModelKeys(t *testing.T) {
	e, err := Parse("exp.toml", []byte("[network]\ntopology = \"fat_tree\"\nbuffer_model = \"shared\"\npfc = true"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.Config(e.Algorithms[0])
	if err != nil {
		t.Fatal(err)
	}
	if sh := cfg.Shared; sh == nil || sh.Switch != 0 || sh.Reserve != 1500 || sh.Alpha != 1 || !cfg.PFC.Dynamic || !cfg.PFC.Ingress {
		t.Errorf("shared %+v, PFC %+v", cfg.Shared, cfg.PFC)
	}
	e, err = Parse("exp.toml", []byte("[network]\nbuffer_model = \"shared\"\nswitch_buffer = \"1MB\"\nqueue_reserve = \"4KB\"\ndt_alpha = 0.5"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := e.Config(e.Algorithms[0]); err != nil || *cfg.Shared != (model.SharedBuffer{Switch: 1e6, Reserve: 4000, Alpha: 0.5}) {
		t.Errorf("shared %+v (%v)", cfg.Shared, err)
	}
	if e, _ := Parse("exp.toml", []byte("[network]\nbuffer = \"1MB\"")); e != nil {
		if cfg, _ := e.Config(e.Algorithms[0]); cfg.Shared != nil {
			t.Errorf("per_port by default, got %+v", cfg.Shared)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"[network]\nbuffer_model = \"pooled\"", `exp.toml:2: network.buffer_model: "pooled": must be "per_port" or "shared"`},
		{"[network]\nswitch_buffer = \"1MB\"", `exp.toml:2: network.switch_buffer: set network.buffer_model = "shared"`},
		{"[network]\nbuffer_model = \"shared\"\ndt_alpha = 0", "exp.toml:3: network.dt_alpha: must be in (0, 64]"},
		{"[network]\nbuffer_model = \"shared\"\nqueue_reserve = \"0.5B\"", "exp.toml:3: network.queue_reserve: must be a whole number of bytes"},
		{"[network]\nbuffer_model = \"shared\"\npfc = true", "network.pfc_accounting: a shared buffer's PFC is decided per link"},
		{"[network]\ntopology = \"fat_tree\"\nbuffer_model = \"shared\"\npfc = true\npfc_threshold = \"static\"", "exp.toml:5: network.pfc_threshold: a shared buffer's PFC thresholds follow its free space"},
		// Reserves that take a switch's whole buffer: the shared part would
		// be negative (it read "-179999100000 B" under network.pfc).
		{"[network]\nbuffer_model = \"shared\"\nqueue_reserve = \"1MB\"", "exp.toml:3: network.queue_reserve: switch 0's queues reserve 1000000 B of its 150000 B shared buffer"},
		{"[network]\ntopology = \"fat_tree\"\nbuffer_model = \"shared\"\nqueue_reserve = \"10GB\"", "exp.toml:4: network.queue_reserve: switch "},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// network.control_frames: DCQCN's and the ACK-clocked schemes' by default
// on an ECMP fabric, none on a chain, a sprayed fabric or with egress PFC;
// a list is checked.
func TestControlFramesKey(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"algorithms = [\"dcqcn\"]\n[network]\ntopology = \"fat_tree\"", true},
		{"algorithms = [\"dcqcn\"]\n[network]\ntopology = \"fat_tree\"\ncontrol_frames = []", false},
		{"algorithms = [\"dcqcn\"]\n[network]\ntopology = \"fat_tree\"\nrouting = \"spray\"", false},
		{"algorithms = [\"dcqcn\"]\n[network]\ntopology = \"fat_tree\"\npfc = true\npfc_accounting = \"egress\"", false},
		{"algorithms = [\"dcqcn\"]", false},
		{"algorithms = [\"qcn\"]\n[network]\ntopology = \"fat_tree\"", false},
		{"algorithms = [\"hpcc\"]\n[network]\ntopology = \"fat_tree\"", true},
		{"algorithms = [\"dctcp\"]\n[network]\ntopology = \"leaf_spine\"\nrouting = \"spray\"", false},
		{"algorithms = [\"dctcp\"]", false},
		{"algorithms = [\"qcn\"]\n[network]\ntopology = \"fat_tree\"\ncontrol_frames = [\"qcn\"]", true},
	} {
		e, err := Parse("exp.toml", []byte(c.text))
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		cfg, err := e.Config(e.Algorithms[0])
		if err != nil || cfg.ControlFrames != c.want {
			t.Errorf("%q: control frames %v (%v), want %v", c.text, cfg.ControlFrames, err, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"algorithms = [\"dcqcn\"]\n[network]\ncontrol_frames = [\"dcqcn\"]", "exp.toml:3: network.control_frames: a chain's reverse ports are not simulated"},
		{"algorithms = [\"dcqcn\"]\n[network]\ntopology = \"fat_tree\"\nrouting = \"spray\"\ncontrol_frames = [\"dcqcn\"]", "network.control_frames: control frames take the reverse"},
		{"algorithms = [\"dcqcn\"]\n[network]\ntopology = \"fat_tree\"\ncontrol_frames = [\"qcn\"]", `network.control_frames: "qcn" is not one of the experiment's algorithms`},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// RED per class reaches DCQCN's congestion points, not QCN's, and is
// checked against the scheme's ranges.
func TestClassREDKeys(t *testing.T) {
	e, err := Parse("exp.toml", []byte("algorithms = [\"dcqcn\", \"qcn\"]\n[network]\nclasses = 2\nclass_k_min = [\"5KB\", \"100KB\"]\nclass_k_max = [\"200KB\", \"400KB\"]\nclass_p_max = [0.01, 0.1]"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.Config("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.Classes.Params; len(p) != 2 || p[1]["k_min"] != 100e3 || p[1]["k_max"] != 400e3 || p[1]["p_max"] != 0.1 || p[0]["k_min"] != 5e3 {
		t.Errorf("dcqcn's classes' parameters %v", p)
	}
	if cfg, err := e.Config("qcn"); err != nil || cfg.Classes.Params != nil {
		t.Errorf("qcn's classes' parameters %v (%v)", cfg.Classes.Params, err)
	}
	for _, c := range []struct{ text, want string }{
		{"algorithms = [\"dcqcn\"]\n[network]\nclasses = 2\nclass_k_min = [\"5KB\"]", "exp.toml:4: network.class_k_min: 1 values for 2 classes"},
		{"algorithms = [\"dcqcn\"]\n[network]\nclasses = 2\nclass_k_min = [\"5KB\", \"900KB\"]\nclass_k_max = [\"200KB\", \"400KB\"]", "network.class_k_min: class 1 with dcqcn"},
		{"algorithms = [\"qcn\"]\n[network]\nclasses = 2\nclass_p_max = [0.1, 0.2]", "none of the algorithms marks by RED"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}
