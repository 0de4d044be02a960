package experiments

import (
	"fmt"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
)

// KeyKind finds the unit family of a numeric experiment key: a key of the
// registry (package keys) outside an array of tables, or a scheme parameter
// (params.NAME.KEY).
func KeyKind(key string) (algos.Kind, error) {
	parts := strings.Split(key, ".")
	if parts[0] == "params" {
		if len(parts) != 3 {
			return 0, fmt.Errorf("%s: a scheme parameter is params.NAME.KEY", key)
		}
		sc, err := algos.Lookup(parts[1])
		if err != nil {
			return 0, fmt.Errorf("%s: %w", key, err)
		}
		p, ok := sc.Param(parts[2])
		if !ok {
			return 0, fmt.Errorf("%s: %s has no parameter %q (it has %s)", key, parts[1], parts[2], strings.Join(sc.Keys(), ", "))
		}
		if p.Kind == algos.Switch || p.Kind == algos.Choice {
			return 0, fmt.Errorf("%s: not a numeric key (a %s)", key, p.Kind)
		}
		return p.Kind, nil
	}
	k, ok := keys.Lookup(key)
	if !ok || k.Path != key || keys.InRepeated(key) {
		return 0, fmt.Errorf("%s: unknown key", key)
	}
	kind, ok := k.Kind.Numeric()
	if !ok {
		return 0, fmt.Errorf("%s: not a numeric key", key)
	}
	return kind, nil
}

// KeyStep is the spacing of the values a whole-number key can hold, when
// only every step-th whole number is one (a fat-tree's k is even: k/2 pods
// of k/2 switches); 1 for every other key. A search or a grid along the
// key keeps to its multiples, so that it never asks for a value the file
// would refuse.
func KeyStep(key string) int { return keys.StepOf(key) }
