package experiments

import (
	"embed"
	"fmt"
	"os"
	"path"
	"strings"

	"qcnlab/experiments/tomltext"
)

//go:embed builtin/*.toml
var builtinFS embed.FS

// DefaultName is the built-in experiment qcnlab runs when given none.
const DefaultName = "qcn-dumbbell"

// BuiltinNames lists the built-in experiments.
func BuiltinNames() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	return names
}

// BuiltinSource returns the TOML text of a built-in experiment.
func BuiltinSource(name string) ([]byte, error) {
	data, err := builtinFS.ReadFile(path.Join("builtin", name+".toml"))
	if err != nil {
		if near := nearestBuiltin(name); near != "" {
			return nil, fmt.Errorf("no built-in experiment %q: did you mean %q? (built-in: %s)", name, near, strings.Join(BuiltinNames(), ", "))
		}
		return nil, fmt.Errorf("no built-in experiment %q (built-in: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return data, nil
}

// nearestBuiltin is the built-in experiment a mistyped name most likely
// means: within three edits (a letter missing, doubled or swapped), or
// the one name it is a part of; "" if none.
func nearestBuiltin(name string) string {
	best, bestD := "", 4
	var containing []string
	for _, known := range BuiltinNames() {
		if d := tomltext.EditDistance(name, known); d < bestD {
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

// Builtin loads a built-in experiment.
func Builtin(name string) (*Experiment, error) {
	data, err := BuiltinSource(name)
	if err != nil {
		return nil, err
	}
	return Parse("builtin:"+name, data)
}

// Open loads an experiment file, or a built-in experiment by name when arg
// is not a file.
func Open(arg string) (*Experiment, error) {
	if _, err := os.Stat(arg); err == nil || strings.HasSuffix(arg, ".toml") || strings.ContainsRune(arg, os.PathSeparator) {
		return Load(arg)
	}
	return Builtin(arg)
}

// OpenWith opens an experiment (a file or a built-in), applies the
// command-line overrides in order, fits the file's warm-up, phases and
// capacity changes to a duration they changed (FitDuration: Notes says
// what was adapted), and validates the result.
func OpenWith(arg string, sets []string) (*Experiment, error) {
	e, err := Open(arg)
	if err != nil {
		return nil, err
	}
	old := e.Duration
	for _, s := range sets {
		if err := e.Set(s); err != nil {
			return nil, err
		}
	}
	e.Notes = e.FitDuration(old)
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return e, nil
}
