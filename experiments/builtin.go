package experiments

import (
	"os"
	"strings"

	"qcnlab/experiments/builtin"
)

// DefaultName is the built-in experiment qcnlab runs when given none.
const DefaultName = builtin.Default

// BuiltinNames lists the built-in experiments.
func BuiltinNames() []string { return builtin.Names() }

// Builtin loads a built-in experiment.
func Builtin(name string) (*Experiment, error) {
	data, err := builtin.Source(name)
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
