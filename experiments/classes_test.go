package experiments

import (
	"slices"
	"strings"
	"testing"
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
	for _, c := range []struct{ text, want string }{
		{"[network]\nclasses = 9", "exp.toml:2: network.classes: 9: from 1 to 8"},
		{"[network]\nclasses = 2\nscheduler = \"wfq\"", `exp.toml:3: network.scheduler: "wfq": must be "strict" or "dwrr"`},
		{"[network]\nscheduler = \"dwrr\"", "exp.toml:2: network.scheduler: applies with network.classes of 2 or more"},
		{"[network]\nclasses = 2\nclass_weights = [1]", "exp.toml:3: network.class_weights: 1 weights for 2 classes"},
		{"[network]\nclasses = 2\nstrict_classes = 1", "exp.toml:3: network.strict_classes: set network.scheduler = \"dwrr\""},
		{"[network]\nclasses = 2\n[traffic]\nclass = 2", "exp.toml:4: traffic.class: class 2 is not one of the 2 classes"},
		{"[network]\ntopology = \"fat_tree\"\n[[flows]]\nfrom = 1\nto = 0\nclass = 1", "exp.toml:6: flows[0].class: class 1 is not one of the 1 classes"},
		{"[network]\nclasses = 2\npfc = true", "network.pfc: PFC pauses a port's single class"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}
