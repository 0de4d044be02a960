package keys

import (
	"fmt"
	"strings"

	"qcnlab/algos"
)

// NumericKind finds the unit family of a numeric experiment key: a key of the
// registry (package keys) outside an array of tables, or a scheme parameter
// (params.NAME.KEY).
func NumericKind(key string) (algos.Kind, error) {
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
	k, ok := Lookup(key)
	if !ok || k.Path != key || InRepeated(key) {
		return 0, fmt.Errorf("%s: unknown key", key)
	}
	kind, ok := k.Kind.Numeric()
	if !ok {
		return 0, fmt.Errorf("%s: not a numeric key", key)
	}
	return kind, nil
}
