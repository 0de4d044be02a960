package experiments

import (
	"qcnlab/experiments/builtin"
	"qcnlab/experiments/keys"
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
	if isFile(arg) {
		return Load(arg)
	}
	return Builtin(arg)
}

// openUnchecked is Open without Validate.
func openUnchecked(arg string) (*Experiment, error) {
	where := "builtin:" + arg
	var data []byte
	var err error
	if isFile(arg) {
		where = arg
		data, err = ReadFile(arg)
	} else {
		data, err = builtin.Source(arg)
	}
	if err != nil {
		return nil, err
	}
	return decodeFile(where, data)
}

func isFile(arg string) bool { return !builtin.Meant(arg) }

// OpenWith opens an experiment (a file or a built-in), applies the
// command-line overrides in order, fits the file's warm-up, phases and
// capacity changes to a duration they changed (FitDuration: Notes says
// what was adapted), and validates the result.
// The file is validated once, with the overrides applied, so that an
// override can mend what the file alone gets wrong.
func OpenWith(arg string, sets []string) (*Experiment, error) {
	e, err := openUnchecked(arg)
	if err != nil {
		return nil, err
	}
	old := e.Duration
	for _, s := range sets {
		if err := e.Set(s); err != nil {
			return nil, err
		}
	}
	e.Notes = append(builtin.Passed(arg), e.FitDuration(old)...) // a folder passed over, then what was fitted
	if err := e.Validate(); err != nil {
		return nil, err
	}
	e.Notes = append(e.Notes, keys.SetpointNotes(float64(e.Network.Buffer), e.BufferModel(), e.Algorithms, e.ParamValues)...)
	return e, nil
}
