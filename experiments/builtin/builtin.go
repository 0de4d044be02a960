// Package builtin is qcnlab's library of experiments: the files beside
// this one, embedded in the binary, found by name.
package builtin

import (
	"embed"
	"fmt"
	"strings"

	"qcnlab/experiments/tomltext"
)

//go:embed *.toml
var files embed.FS

// Default is the built-in experiment qcnlab runs when given none.
const Default = "qcn-dumbbell"

// Names lists the built-in experiments.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	return names
}

// Source returns the TOML text of a built-in experiment.
func Source(name string) ([]byte, error) {
	data, err := files.ReadFile(name + ".toml")
	if err != nil {
		if near := nearest(name); near != "" {
			return nil, fmt.Errorf("no built-in experiment %q: did you mean %q? (built-in: %s)", name, near, strings.Join(Names(), ", "))
		}
		return nil, fmt.Errorf("no built-in experiment %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	return data, nil
}

// nearest is the built-in experiment a mistyped name most likely
// means: within three edits (a letter missing, doubled or swapped), or
// the one name it is a part of; "" if none.
func nearest(name string) string {
	best, bestD := "", 4
	var containing []string
	for _, known := range Names() {
		if d, ok := tomltext.Near(name, known, bestD); ok {
			best, bestD = known, d
		}
		if len(name) >= 3 && strings.Contains(known, name) {
			containing = append(containing, known)
		}
	}
	if best == "" && len(containing) == 1 {
		best = containing[0]
	}
	return best
}
