package main

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/topology"
)

var updateREADME = flag.Bool("update", false, "rewrite the README's table of keys from the registry")

const keysOpen, keysClose = "<!-- keys: generated from experiments/keys; go test . -run READMEKeys -update rewrites it -->\n", "<!-- /keys -->\n"

// The README's table of keys is the registry's (experiments/keys), written
// by keys.WriteMarkdown.
func TestREADMEKeysAreTheRegistry(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(data), keysOpen)
	table, after, closed := strings.Cut(rest, keysClose)
	if !ok || !closed {
		t.Fatal("README.md has no table of keys between its markers")
	}
	var want strings.Builder
	keys.WriteMarkdown(&want, experiments.KeyDefaults())
	if table == want.String() {
		return
	}
	if *updateREADME {
		if err := os.WriteFile("README.md", []byte(before+keysOpen+want.String()+keysClose+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of keys differs from the registry (experiments/keys); go test . -run READMEKeys -update rewrites it")
}

// Every registered topology's own keys are in the registry, applying to it
// alone, and in the README's table; a star has its one.
func TestREADMEKeysHaveEveryTopologysKeys(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), keysOpen)
	table, _, _ := strings.Cut(rest, keysClose)
	_, row, _ := strings.Cut(table, "| `network.topology` | ")
	words, _, _ := strings.Cut(row, " |")
	for _, name := range topology.Names() {
		if !slices.Contains(strings.Split(words, `\|`), name) {
			t.Errorf("README.md: network.topology does not list %s", name)
		}
		for _, path := range topology.OwnKeys(name) {
			k, ok := keys.Lookup(path)
			if !ok || !slices.Equal(k.Topologies, []string{name}) {
				t.Errorf("%s: %s is not in the registry as its own key", name, path)
			}
			if !strings.Contains(table, "| `"+path+"` |") {
				t.Errorf("%s: %s has no row in README.md's table of keys", name, path)
			}
		}
	}
	if got := topology.OwnKeys("star"); !slices.Equal(got, []string{"network.hosts"}) {
		t.Errorf("star's own keys: %q", got)
	}
}
