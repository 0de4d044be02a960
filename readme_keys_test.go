package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/keys"
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
