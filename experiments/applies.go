package experiments

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"qcnlab/experiments/keys"
)

// elementIndex is the index of an element of an array of tables in a key:
// "flows[2].to" is key "flows.to" of element 2.
var elementIndex = regexp.MustCompile(`\[\d+\]`)

// scopeErrors reports every key set (in a file, by --set or by a sweep)
// that the experiment's topology does not read (the registry's
// Topologies), once per key or table that does not apply, at the first
// place a key in it was set: a key set where it does not apply would be
// silently ignored.
func (e *Experiment) scopeErrors(bad func(key, format string, args ...any)) {
	topology := e.Network.Topology
	if !keys.IsTopology(topology) {
		return // reported as such
	}
	set := slices.Sorted(maps.Keys(e.origin))
	plain := make([]string, len(set)) // once, not once per scoped key: a file may set 100,000 keys
	for i, key := range set {
		plain[i] = elementIndex.ReplaceAllString(key, "")
	}
	for _, s := range keys.Scoped() {
		if s.AppliesTo(topology) {
			continue
		}
		for i, key := range set {
			if plain[i] != s.Path && !strings.HasPrefix(plain[i], s.Path+".") {
				continue
			}
			bad(key, "%s", s.Elsewhere(topology))
			break
		}
	}
}
