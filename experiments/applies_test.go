package experiments

import (
	"strings"
	"testing"

	"qcnlab/experiments/keys"
)

// A key the topology does not read is an error naming where it was set
// and the key, not silently ignored: on a dumbbell a fabric's flows,
// pattern, k and routing; on a fabric the chains' sources, by file or
// --set; a topology changed under a file's fabric keys.
func TestKeysThatDoNotApply(t *testing.T) {
	// A key of every fabric names them all, as registered.
	quoted := make([]string, len(keys.Fabrics()))
	for i, f := range keys.Fabrics() {
		quoted[i] = `"` + f + `"`
	}
	n := len(quoted)
	fabrics := strings.Join(quoted[:n-1], ", ") + " or " + quoted[n-1]
	for _, c := range []struct {
		text string
		sets []string
		want string
	}{
		{"[[flows]]\nfrom = 0\nto = 1", nil, `exp.toml:1: flows: applies to topology = FABRICS, not "dumbbell"`},
		{"[sources]\ncount = 2\n[traffic]\npattern = \"incast\"", nil, `exp.toml:4: traffic.pattern: applies to topology = FABRICS, not "dumbbell"`},
		{"[network]\nk = 4", nil, `exp.toml:2: network.k: applies to topology = "fat_tree", not "dumbbell"`},
		{"[network]\nrouting = \"spray\"", nil, `exp.toml:2: network.routing: applies to topology = FABRICS, not "dumbbell"`},
		{"[network]\ntopology = \"parking_lot\"\nleaves = 2", nil, `exp.toml:3: network.leaves: applies to topology = "leaf_spine", not "parking_lot"`},
		{"[output]\nwatch_ports = 2", nil, `exp.toml:2: output.watch_ports: applies to topology = FABRICS, not "dumbbell"`},
		{"[network]\ntopology = \"fat_tree\"", []string{"sources.line_rate=1Gbps"}, "--set: sources.line_rate: a fat_tree fabric has no sources"},
		{"[network]\ntopology = \"leaf_spine\"\n[[sources.override]]\nids = [0]\nline_rate = \"1Gbps\"", nil,
			"exp.toml:3: sources.override: a leaf_spine fabric has no sources"},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\nrouting = \"spray\"", []string{"network.topology=dumbbell"},
			`exp.toml:3: network.k: applies to topology = "fat_tree", not "dumbbell"`},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\nrouting = \"spray\"", []string{"network.topology=dumbbell"},
			`exp.toml:4: network.routing: applies to topology = FABRICS, not "dumbbell"`},
	} {
		c.want = strings.Replace(c.want, "FABRICS", fabrics, 1)
		e, err := Parse("exp.toml", []byte(c.text))
		if err == nil && len(c.sets) > 0 {
			for _, s := range c.sets {
				if err = e.Set(s); err != nil {
					break
				}
			}
			if err == nil {
				err = e.Validate()
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: got %v\nwant %q", c.text, c.sets, err, c.want)
		}
	}
	// A built-in fat-tree turned into a dumbbell names the built-in's keys.
	e, err := Builtin("ecmp-collisions-fat-tree")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Set("network.topology=dumbbell"); err != nil {
		t.Fatal(err)
	}
	err = e.Validate()
	if err == nil || !strings.Contains(err.Error(), "traffic.pattern: applies to topology") {
		t.Errorf("a fat-tree built-in run as a dumbbell: got %v", err)
	}
}

// Every built-in sets only keys its topology reads.
func TestBuiltinsSetOnlyKeysThatApply(t *testing.T) {
	for _, name := range BuiltinNames() {
		if _, err := Builtin(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
