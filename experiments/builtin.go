package experiments

import (
	"embed"
	"fmt"
	"os"
	"path"
	"strings"
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
		return nil, fmt.Errorf("no built-in experiment %q (built-in: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return data, nil
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
// command-line overrides in order, and validates the result.
func OpenWith(arg string, sets []string) (*Experiment, error) {
	e, err := Open(arg)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		if err := e.Set(s); err != nil {
			return nil, err
		}
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return e, nil
}
