package experiments

import (
	"maps"
	"slices"

	"qcnlab/experiments/keys"
)

// scopeErrors reports every key set (in a file, by --set or by a sweep)
// that the experiment's topology does not read (the registry's
// Topologies), once per key or table that does not apply, at the first
// place a key in it was set: a key set where it does not apply would be
// silently ignored.
func (e *Experiment) scopeErrors(bad func(key, format string, args ...any)) {
	keys.OutOfScope(e.Network.Topology, slices.Sorted(maps.Keys(e.origin)), bad)
}
